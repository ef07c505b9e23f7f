// SPDX-License-Identifier: Apache-2.0
// pcsc-lite 1.9 public API (Debian libpcsclite-dev), imported by NFCReaderPCSC only.
//
// No pkg-config: pcsc-lite's headers live in /usr/include/PCSC and include each other by bare
// name (`#include <pcsclite.h>`), so the forwarding headers in this folder (`pcsclite.h`,
// `wintypes.h`) resolve those names; the package links libpcsclite. The package thus asks
// pkg-config nothing, and builds that do not use PC/SC say nothing about it.
#ifndef TAPWIRE_CPCSCLITE_H
#define TAPWIRE_CPCSCLITE_H
#if !__has_include(<PCSC/winscard.h>)
#error "pcsc-lite headers not found: apt-get install libpcsclite-dev"
#endif
#include <PCSC/winscard.h>
#include <PCSC/reader.h>
#endif
