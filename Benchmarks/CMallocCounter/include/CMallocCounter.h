// SPDX-License-Identifier: Apache-2.0
#ifndef TAPWIRE_MALLOC_COUNTER_H
#define TAPWIRE_MALLOC_COUNTER_H
#include <stdint.h>

/// Heap allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign)
/// made by the calling thread since it started. Counted by the interposed allocator functions
/// in MallocCounter.c, which forward to glibc's own.
uint64_t tapwire_allocation_count(void);

#endif
