#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# An independent PC/SC client (pyscard, Debian python3-pyscard) reading a storage card's raw
# memory with its own PC/SC Part 3 pseudo-APDUs, for the tests to compare with Tapwire's:
#
#   pyscard-storage.py READER t2t PAGES      READ BINARY FF B0 00 page 10, 4 pages a time
#   pyscard-storage.py READER mfc SECTORS    per sector: LOAD KEYS FF 82 00 00 06 key (volatile
#                                            slot 00), GENERAL AUTHENTICATE FF 86 00 00 05 01
#                                            00 block 60 00 with the public keys A in turn
#                                            (re-activating the card after a refusal), then
#                                            READ BINARY FF B0 00 block 10 of every block
#
# Prints one JSON object: {"image": hex}.
import json
import sys

from smartcard import scard

reader, kind, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
assert hresult == scard.SCARD_S_SUCCESS, scard.SCardGetErrorMessage(hresult)
hresult, card, protocol = scard.SCardConnect(
    context, reader, scard.SCARD_SHARE_SHARED, scard.SCARD_PROTOCOL_T0 | scard.SCARD_PROTOCOL_T1)
assert hresult == scard.SCARD_S_SUCCESS, scard.SCardGetErrorMessage(hresult)


def transmit(apdu):
    hresult, response = scard.SCardTransmit(card, protocol, apdu)
    assert hresult == scard.SCARD_S_SUCCESS, scard.SCardGetErrorMessage(hresult)
    return response[:-2], (response[-2] << 8) | response[-1]


image = []
if kind == "t2t":
    page = 0
    while page < count:
        data, sw = transmit([0xFF, 0xB0, 0x00, page, 0x10])
        assert sw == 0x9000, "READ BINARY page %d: %04X" % (page, sw)
        image += data
        page += len(data) // 4
    image = image[:count * 4]
else:
    keys = [[0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5], [0xD3, 0xF7] * 3, [0xFF] * 6]
    for sector in range(count):
        first = sector * 4 if sector < 32 else 128 + (sector - 32) * 16
        blocks = 4 if sector < 32 else 16
        for key in keys:
            _, sw = transmit([0xFF, 0x82, 0x00, 0x00, 0x06] + key)
            assert sw == 0x9000, "LOAD KEYS: %04X" % sw
            _, sw = transmit([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, first, 0x60, 0x00])
            if sw == 0x9000:
                break
            hresult, protocol = scard.SCardReconnect(
                card, scard.SCARD_SHARE_SHARED, scard.SCARD_PROTOCOL_T0 | scard.SCARD_PROTOCOL_T1,
                scard.SCARD_RESET_CARD)
            assert hresult == scard.SCARD_S_SUCCESS, scard.SCardGetErrorMessage(hresult)
        else:
            raise SystemExit("no public key A opens sector %d" % sector)
        for block in range(first, first + blocks):
            data, sw = transmit([0xFF, 0xB0, 0x00, block, 0x10])
            assert sw == 0x9000, "READ BINARY block %d: %04X" % (block, sw)
            image += data
print(json.dumps({"image": bytes(image).hex()}))
