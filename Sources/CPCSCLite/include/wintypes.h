// SPDX-License-Identifier: Apache-2.0
// Forwards the bare name pcsclite.h uses to pcsc-lite's header (see shim.h).
#include <PCSC/wintypes.h>
