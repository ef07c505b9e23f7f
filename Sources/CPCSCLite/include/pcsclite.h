// SPDX-License-Identifier: Apache-2.0
// Forwards the bare name winscard.h uses to pcsc-lite's header (see shim.h).
#include <PCSC/pcsclite.h>
