// SPDX-License-Identifier: Apache-2.0
// CPCSCLite is a C target only so that its include/ folder, with the forwarding headers
// pcsc-lite's own headers need, is on the include path of its users (see CPCSCLite.h).
#include "CPCSCLite.h"
