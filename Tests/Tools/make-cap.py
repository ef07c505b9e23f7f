#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes a Java Card CAP file (a ZIP) for the CAP reader's tests, with Python's zipfile as the
independent ZIP writer, and prints what a reader must find in it as JSON.

    make-cap.py OUT [--method stored|deflated|mixed] [--descriptors] [--seed N] [--format 2.1|2.2]
                    [--no-applet] [--package-path com/example/hello]

The components are synthetic but framed as JCVM 3.0.5 chapter 6 says (tag u1, size u2, info):
Header (DECAFFED, versions, package AID, and from format 2.2 the package name), Applet (two
applets), Import (java.lang), the others random bytes. Entries are written in a shuffled order,
with META-INF/MANIFEST.MF, Descriptor.cap and Debug.cap, so a reader that uses ZIP order or
loads Descriptor/Debug gets a different load file data block. The JSON carries the expected
load file data block (JCVM §6.2 order), its SHA-1 and SHA-256 (hashlib), AIDs and versions.
--descriptors writes through a non-seekable stream, so zipfile sets flag bit 3 and writes
data descriptors (with their signature) after each entry.
"""
import argparse
import hashlib
import io
import json
import random
import struct
import zipfile

LOAD_ORDER = ["Header", "Directory", "Import", "Applet", "Class", "Method", "StaticField", "Export",
              "ConstantPool", "RefLocation"]
TAGS = {"Header": 1, "Directory": 2, "Applet": 3, "Import": 4, "ConstantPool": 5, "Class": 6, "Method": 7,
        "StaticField": 8, "RefLocation": 9, "Export": 10, "Descriptor": 11, "Debug": 12}


def component(name, info):
    return bytes([TAGS[name]]) + struct.pack(">H", len(info)) + info


class Unseekable(io.RawIOBase):
    """A write-only stream without tell/seek, so zipfile writes data descriptors."""

    def __init__(self):
        self.data = bytearray()

    def writable(self):
        return True

    def write(self, b):
        self.data += b
        return len(b)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--method", default="mixed", choices=["stored", "deflated", "mixed"])
    parser.add_argument("--descriptors", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--format", default="2.2", choices=["2.1", "2.2"])
    parser.add_argument("--no-applet", action="store_true")
    parser.add_argument("--package-path", default="com/example/hello")
    args = parser.parse_args()
    rng = random.Random(args.seed)

    package_aid = bytes.fromhex("D2760000850101") + bytes([args.seed & 0xFF])
    major, minor = 1, 3
    fmt_major, fmt_minor = (2, 1) if args.format == "2.1" else (2, 2)
    header = struct.pack(">IBBB", 0xDECAFFED, fmt_minor, fmt_major, 0x04 if not args.no_applet else 0x00)
    header += bytes([minor, major, len(package_aid)]) + package_aid
    if (fmt_major, fmt_minor) >= (2, 2):
        name = args.package_path.encode()
        header += bytes([len(name)]) + name
    applets = [package_aid + b"\x01", package_aid + b"\x02\x03"]
    applet_info = bytes([len(applets)])
    for i, aid in enumerate(applets):
        applet_info += bytes([len(aid)]) + aid + struct.pack(">H", 0x10 * (i + 1))
    java_lang = bytes.fromhex("A0000000620001")
    import_info = bytes([1, 0, 1, len(java_lang)]) + java_lang

    components = {"Header": component("Header", header), "Import": component("Import", import_info)}
    if not args.no_applet:
        components["Applet"] = component("Applet", applet_info)
    for name in ["Directory", "Class", "Method", "StaticField", "Export", "ConstantPool", "RefLocation",
                 "Descriptor", "Debug"]:
        size = rng.randrange(1, 300)
        # Repetitive enough that deflate shrinks it.
        info = bytes(rng.choice(b"\x00\x01\x02\x8a\xff") for _ in range(size))
        components[name] = component(name, info)

    folder = args.package_path + "/javacard/"
    entries = [(folder + n + ".cap", data) for n, data in components.items()]
    entries.append(("META-INF/MANIFEST.MF", b"Manifest-Version: 1.0\r\nCreated-By: make-cap.py\r\n\r\n"))
    rng.shuffle(entries)

    sink = Unseekable() if args.descriptors else io.BytesIO()
    with zipfile.ZipFile(sink, "w") as archive:
        for i, (name, data) in enumerate(entries):
            if args.method == "stored" or (args.method == "mixed" and i % 2 == 0):
                method = zipfile.ZIP_STORED
            else:
                method = zipfile.ZIP_DEFLATED
            info = zipfile.ZipInfo(name, date_time=(2026, 12, 7, 4, 0, 0))
            info.compress_type = method
            archive.writestr(info, data)
    data = bytes(sink.data) if args.descriptors else sink.getvalue()
    with open(args.out, "wb") as f:
        f.write(data)

    lfdb = b"".join(components[n] for n in LOAD_ORDER if n in components)
    print(json.dumps({
        "zipOrder": [name for name, _ in entries],
        "loadFileDataBlock": lfdb.hex(),
        "sha1": hashlib.sha1(lfdb).hexdigest(),
        "sha256": hashlib.sha256(lfdb).hexdigest(),
        "packageAID": package_aid.hex(),
        "packageVersion": [major, minor],
        "formatVersion": [fmt_major, fmt_minor],
        "packageName": args.package_path if (fmt_major, fmt_minor) >= (2, 2) else None,
        "appletAIDs": [] if args.no_applet else [a.hex() for a in applets],
        "componentSizes": {n: len(c) for n, c in components.items()},
    }, sort_keys=True))


if __name__ == "__main__":
    main()
