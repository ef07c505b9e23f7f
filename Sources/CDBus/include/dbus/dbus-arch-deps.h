// SPDX-License-Identifier: Apache-2.0
// Forwards dbus-arch-deps.h to the multiarch folder Debian installs it in (see tapwire-cdbus.h).
#ifndef DBUS_INSIDE_DBUS_H
#include <dbus/dbus.h>
#elif __has_include("/usr/lib/x86_64-linux-gnu/dbus-1.0/include/dbus/dbus-arch-deps.h")
#include "/usr/lib/x86_64-linux-gnu/dbus-1.0/include/dbus/dbus-arch-deps.h"
#elif __has_include("/usr/lib/aarch64-linux-gnu/dbus-1.0/include/dbus/dbus-arch-deps.h")
#include "/usr/lib/aarch64-linux-gnu/dbus-1.0/include/dbus/dbus-arch-deps.h"
#elif __has_include("/usr/lib/arm-linux-gnueabihf/dbus-1.0/include/dbus/dbus-arch-deps.h")
#include "/usr/lib/arm-linux-gnueabihf/dbus-1.0/include/dbus/dbus-arch-deps.h"
#elif __has_include("/usr/lib/riscv64-linux-gnu/dbus-1.0/include/dbus/dbus-arch-deps.h")
#include "/usr/lib/riscv64-linux-gnu/dbus-1.0/include/dbus/dbus-arch-deps.h"
#else
#error "dbus-arch-deps.h not found: apt-get install libdbus-1-dev"
#endif
