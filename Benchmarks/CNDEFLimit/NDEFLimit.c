// SPDX-License-Identifier: Apache-2.0
#include "CNDEFLimit.h"

size_t tapwire_ndef_header_walk(const uint8_t *bytes, size_t count) {
  size_t index = 0, records = 0;
  while (index < count) {
    uint8_t header = bytes[index];
    size_t need = 2 + ((header & 0x10) ? 1 : 4) + ((header & 0x08) ? 1 : 0);
    if (count - index < need) return SIZE_MAX;
    size_t type = bytes[index + 1];
    size_t at = index + 2, payload;
    if (header & 0x10) {
      payload = bytes[at];
      at += 1;
    } else {
      payload = (size_t)bytes[at] << 24 | (size_t)bytes[at + 1] << 16 | (size_t)bytes[at + 2] << 8 | bytes[at + 3];
      at += 4;
    }
    size_t id = (header & 0x08) ? bytes[at++] : 0;
    size_t body = type + id + payload;
    if (count - at < body) return SIZE_MAX;
    index = at + body;
    records++;
  }
  return records;
}

size_t tapwire_ad_walk(const uint8_t *bytes, size_t count) {
  size_t index = 0, structures = 0;
  while (index < count) {
    size_t length = bytes[index];
    if (length == 0) {
      index += 1;
      continue;
    }
    if (length >= count - index) return SIZE_MAX;
    index += 1 + length;
    structures++;
  }
  return structures;
}
