// SPDX-License-Identifier: Apache-2.0
#ifndef TAPWIRE_NDEF_LIMIT_H
#define TAPWIRE_NDEF_LIMIT_H
#include <stddef.h>
#include <stdint.h>

/// The limit reference: walks NDEF record headers with the simplest bounds-checked loop
/// (lengths only, no rule checked) and returns the number of records, or SIZE_MAX when a
/// length runs past the end.
size_t tapwire_ndef_header_walk(const uint8_t *bytes, size_t count);

/// The limit reference for advertising data (Core Specification Supplement Part A §1, Core
/// Vol 3 Part C §11): walks the AD structures' Length octets with the simplest bounds-checked
/// loop (a zero Length is padding and skipped, as Tapwire does; no type or value checked) and
/// returns the number of structures, or SIZE_MAX when a Length runs past the end.
size_t tapwire_ad_walk(const uint8_t *bytes, size_t count);

#endif
