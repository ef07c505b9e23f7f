#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
# An independent PC/SC client (pyscard, Debian python3-pyscard or PyPI) on the same pcscd:
# prints one JSON object with the reader's Part 10 feature list, the answers to the given
# control codes and the card's UID (PC/SC Part 3 GET DATA), for the tests to compare with
# `tapwire pcsc features|control|uid --json`.
#
#   pyscard-crosscheck.py READER [CODE:HEX ...]     (CODE a complete control code in hex)
import json
import sys

from smartcard import scard

reader = sys.argv[1]
hresult, context = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
assert hresult == scard.SCARD_S_SUCCESS, scard.SCardGetErrorMessage(hresult)
result = {"reader": reader}

hresult, card, _ = scard.SCardConnect(context, reader, scard.SCARD_SHARE_DIRECT, 0)
assert hresult == scard.SCARD_S_SUCCESS, scard.SCardGetErrorMessage(hresult)
# CM_IOCTL_GET_FEATURE_REQUEST: pyscard's own SCARD_CTL_CODE (0x42000000 + 3400 on pcsc-lite).
hresult, answer = scard.SCardControl(card, scard.SCARD_CTL_CODE(3400), [])
features = []
if hresult == scard.SCARD_S_SUCCESS:
    for i in range(0, len(answer), 6):
        tag, length = answer[i], answer[i + 1]
        assert length == 4
        features.append({"tag": tag, "controlCode": "%08x" % int.from_bytes(bytes(answer[i + 2:i + 6]), "big")})
result["features"] = features
controls = []
for argument in sys.argv[2:]:
    code, _, data = argument.partition(":")
    hresult, answer = scard.SCardControl(card, int(code, 16), list(bytes.fromhex(data)))
    controls.append({"controlCode": code.lower(), "input": data.lower(), "ok": hresult == scard.SCARD_S_SUCCESS,
                     "output": bytes(answer).hex() if hresult == scard.SCARD_S_SUCCESS else None,
                     "error": None if hresult == scard.SCARD_S_SUCCESS else "%08x" % (hresult & 0xFFFFFFFF)})
result["controls"] = controls
scard.SCardDisconnect(card, scard.SCARD_LEAVE_CARD)

hresult, card, protocol = scard.SCardConnect(context, reader, scard.SCARD_SHARE_SHARED,
                                             scard.SCARD_PROTOCOL_T0 | scard.SCARD_PROTOCOL_T1)
if hresult == scard.SCARD_S_SUCCESS:
    hresult, response = scard.SCardTransmit(card, protocol, [0xFF, 0xCA, 0x00, 0x00, 0x00])
    if hresult == scard.SCARD_S_SUCCESS and response[-2:] == [0x90, 0x00]:
        result["uid"] = bytes(response[:-2]).hex()
    hresult, response = scard.SCardTransmit(card, protocol, [0xFF, 0xCA, 0x01, 0x00, 0x00])
    if hresult == scard.SCARD_S_SUCCESS and response[-2:] == [0x90, 0x00]:
        result["historicalBytes"] = bytes(response[:-2]).hex()
    scard.SCardDisconnect(card, scard.SCARD_LEAVE_CARD)
scard.SCardReleaseContext(context)
print(json.dumps(result))
