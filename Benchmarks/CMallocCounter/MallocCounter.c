// SPDX-License-Identifier: Apache-2.0
// Interposes the C allocator to count heap allocations: defining these symbols in the
// executable makes every caller (the Swift runtime included) use them. Each forwards to
// glibc's internal entry point and bumps a counter of the calling thread. The counter is
// thread-local, not atomic: a locked increment on every allocation would slow the timed
// loops of allocating workloads; the harness runs and reads it on one thread.
#include "CMallocCounter.h"
#include <errno.h>
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static _Thread_local uint64_t allocations;

static inline void count(void) { allocations += 1; }

uint64_t tapwire_allocation_count(void) { return allocations; }

void *malloc(size_t size) {
  count();
  return __libc_malloc(size);
}

void *calloc(size_t n, size_t size) {
  count();
  return __libc_calloc(n, size);
}

void *realloc(void *pointer, size_t size) {
  count();
  return __libc_realloc(pointer, size);
}

void free(void *pointer) { __libc_free(pointer); }

void *memalign(size_t alignment, size_t size) {
  count();
  return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
  count();
  return __libc_memalign(alignment, size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
  if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) return EINVAL;
  count();
  void *pointer = __libc_memalign(alignment, size);
  if (pointer == NULL && size != 0) return ENOMEM;
  *result = pointer;
  return 0;
}
