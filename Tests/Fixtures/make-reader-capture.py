#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes reader-capture.btsnoop: three readers advertising, for `tapwire discover
--btsnoop reader-capture.btsnoop --profile reader-profiles.json` (see Documentation/cli.md)."""
import struct

BASE = 0x00E2E7D7274DC000  # btsnoop µs (since year 0) of 2023-11-14 22:13:20 UTC


def ad(t, data):
    return bytes([len(data) + 1, t]) + data


def report(event_type, address, data, rssi):
    addr = bytes.fromhex(address.replace(":", ""))[::-1]
    body = bytes([0x02, 1, event_type, 1]) + addr + bytes([len(data)]) + data + struct.pack("b", rssi)
    return bytes([0x04, 0x3E, len(body)]) + body


def nordic_uart():
    return bytes.fromhex("6e400001b5a3f393e0a9e50e24dcca9e")[::-1]


packets = [
    # Acme: serial = 6 octets after the 0x02 layout octet, in hex; battery in FFF0 data octet 1.
    report(0x00, "C0:AA:00:00:00:01",
           ad(0x01, b"\x06") + ad(0xFF, bytes.fromhex("ffff02a1b2c3d4e5f6"))
           + ad(0x09, b"ACME-7") + ad(0x16, bytes.fromhex("f0ff004b")), -55),
    # Bolt: 128-bit service UUID; the serial is in the name after "BOLT-" (scan response).
    report(0x00, "C0:BB:00:00:00:02", ad(0x01, b"\x06") + ad(0x07, nordic_uart()), -70),
    report(0x04, "C0:BB:00:00:00:02", ad(0x09, b"BOLT-X1234") + ad(0x16, bytes.fromhex("0f1828")), -71),
    # The built-in example profile's reader: not one of the file's profiles.
    report(0x00, "C0:CC:00:00:00:03",
           ad(0x01, b"\x06") + ad(0xFF, bytes.fromhex("ffff01" + b"00012345".hex() + "5a"))
           + ad(0x09, b"TW-A"), -60),
]

out = b"btsnoop\x00" + struct.pack(">II", 1, 1002)
for i, p in enumerate(packets):
    out += struct.pack(">IIIIQ", len(p), len(p), 3, 0, BASE + 100000 * (i + 1)) + p
open("reader-capture.btsnoop", "wb").write(out)
