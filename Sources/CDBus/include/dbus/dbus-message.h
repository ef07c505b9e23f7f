// SPDX-License-Identifier: Apache-2.0
// Forwards the name libdbus's headers include to Debian's copy (see tapwire-cdbus.h). Included on
// its own (the module's umbrella folder), it brings in dbus.h, the only header libdbus allows.
#ifdef DBUS_INSIDE_DBUS_H
#include "/usr/include/dbus-1.0/dbus/dbus-message.h"
#else
#include <dbus/dbus.h>
#endif
