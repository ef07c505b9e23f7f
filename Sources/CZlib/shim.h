// SPDX-License-Identifier: Apache-2.0
// zlib 1.2 public API (Debian zlib1g-dev), imported by ZlibInflate only.
//
// No pkg-config: the header is on the default include path and the module map links
// libz, so builds that do not read CAP files never look for it.
#if !__has_include(<zlib.h>)
#error "zlib headers not found: apt-get install zlib1g-dev"
#endif
#include <zlib.h>
