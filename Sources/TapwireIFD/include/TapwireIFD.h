// SPDX-License-Identifier: Apache-2.0
// Tapwire's virtual reader driver for pcscd (a pcsc-lite IFD handler, ifdhandler.h API 3.0).
// pcscd loads libTapwireIFD.so through a reader.conf; nothing in Swift calls it. The values
// below are the ones its IFDHControl answers, shared with the tests.
#ifndef TAPWIRE_IFD_H
#define TAPWIRE_IFD_H

/* SCARD_CTL_CODE(3400), CM_IOCTL_GET_FEATURE_REQUEST (PC/SC Part 10, pcsc-lite reader.h). */
#define TAPWIRE_IFD_GET_FEATURE_REQUEST 0x42000D48u
/* The codes the driver lists for its features (pcsc-lite SCARD_CTL_CODE(0x330000 + tag),
   the CCID driver's scheme; the escape code is SCARD_CTL_CODE(1)). */
#define TAPWIRE_IFD_GET_TLV_PROPERTIES 0x42330012u
#define TAPWIRE_IFD_PIN_PROPERTIES 0x4233000Au
#define TAPWIRE_IFD_ESCAPE 0x42000001u
/* Reader-driven NFC session codes (Tapwire's defaults, SCARD_CTL_CODE(3600)...(3604)). */
#define TAPWIRE_IFD_START_NFC 0x42000E10u
#define TAPWIRE_IFD_STOP_NFC 0x42000E11u
#define TAPWIRE_IFD_STOP_NFC_WITH_ERROR 0x42000E12u
#define TAPWIRE_IFD_LAST_NFC_STOP_REASON 0x42000E13u
#define TAPWIRE_IFD_NFC_COOLDOWN 0x42000E14u

#endif
