// SPDX-License-Identifier: Apache-2.0
// libdbus 1.14 public API (Debian libdbus-1-dev), imported by the BlueZ module only.
//
// No pkg-config: Debian puts dbus.h under /usr/include/dbus-1.0 and dbus-arch-deps.h under
// /usr/lib/<multiarch>/dbus-1.0/include, neither on the default search path, and the headers
// include each other as <dbus/NAME.h>. The forwarding headers in include/dbus/ resolve those
// names to Debian's copies; the package links libdbus-1. So builds that do not use BlueZ ask
// pkg-config nothing and print nothing about D-Bus.
#ifndef TAPWIRE_CDBUS_H
#define TAPWIRE_CDBUS_H
#if !__has_include("/usr/include/dbus-1.0/dbus/dbus.h")
#error "libdbus headers not found: apt-get install libdbus-1-dev"
#endif
#include <dbus/dbus.h>
#endif
