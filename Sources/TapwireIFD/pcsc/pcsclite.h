// SPDX-License-Identifier: Apache-2.0
// Forwards the bare name ifdhandler.h uses to pcsc-lite's header (see tapwire_ifd.c).
#include <PCSC/pcsclite.h>
