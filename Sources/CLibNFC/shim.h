// SPDX-License-Identifier: Apache-2.0
// libnfc 1.8 public API (Debian libnfc-dev), imported by NFCReaderLibNFC only.
//
// No pkg-config: the header is on the default include path and the module map links
// libnfc, so builds that do not use libnfc never look for it.
#if !__has_include(<nfc/nfc.h>)
#error "libnfc headers not found: apt-get install libnfc-dev"
#endif
#include <nfc/nfc.h>
