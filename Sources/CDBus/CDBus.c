// SPDX-License-Identifier: Apache-2.0
// The C target needs one source file; the API is libdbus's own (tapwire-cdbus.h).
#include "tapwire-cdbus.h"
