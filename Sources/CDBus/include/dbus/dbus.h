// SPDX-License-Identifier: Apache-2.0
// Forwards the name libdbus's headers include to Debian's copy (see tapwire-cdbus.h).
#include "/usr/include/dbus-1.0/dbus/dbus.h"
