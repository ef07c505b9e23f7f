#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Parses Type 2 tag memory images with nfcpy's own Type 2 tag code (nfc.tag.tt2, PyPI
nfcpy) and the NDEF message with ndeflib (PyPI ndeflib): the independent reading the PC/SC
suite compares Tapwire's Type2TagView and NDEF parsing with.

Reads one memory image (hex, from page 0) per line on standard input; writes one JSON object
per line: the capability container bytes ("cc"), nfcpy's readable/writeable flags, the TLVs
nfcpy walked (type, absolute offset, length; -1 for NULL and Terminator TLVs, which have no
length field), the NDEF TLV's offset and the capacity nfcpy computes, the NDEF message bytes
nfcpy assembled (skipping the bytes Lock and Memory Control TLVs reserve) and the records
ndeflib decodes from them (type, name, payload hex). nfcpy is driven through a tag object
whose page READ answers from the image (16 bytes per READ, as a real tag does); the TLV list
is what nfcpy's parser logs as it walks ("tlv type T length L at offset O").
"""
import json
import logging
import sys

import ndef
import nfc.tag.tt2 as tt2


class ImageTag(tt2.Type2Tag):
    """A Type 2 tag whose memory is an image: READ(page) gives 16 bytes from page*4."""

    def __init__(self, image):
        # Type2Tag.__init__ needs a contactless frontend; nothing of it is used here.
        self.image = bytes(image)

    def sector_select(self, sector):
        if sector != 0:
            raise tt2.Type2TagCommandError(tt2.INVALID_SECTOR_ERROR)

    def read(self, page):
        start = page * 4
        if start >= len(self.image):
            raise tt2.Type2TagCommandError(tt2.INVALID_PAGE_ERROR)
        # A READ past the end rolls over to page 0, as NTAG and Ultralight do.
        data = (self.image + self.image)[start:start + 16]
        return bytearray(data)


class TLVLog(logging.Handler):
    """Collects the TLVs nfcpy's parser logs while it walks the data area."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.tlvs = []

    def emit(self, record):
        message = record.getMessage()
        if message.startswith("tlv type "):
            words = message.split()
            self.tlvs.append({"type": int(words[2]), "length": int(words[4]), "offset": int(words[7])})


def parse(image):
    handler = TLVLog()
    logger = logging.getLogger(tt2.__name__)
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    try:
        tag_ndef = tt2.Type2Tag.NDEF(ImageTag(image))
        octets = tag_ndef._read_ndef_data()
    finally:
        logger.removeHandler(handler)
    result = {"cc": image[12:16].hex(), "tlvs": handler.tlvs}
    if octets is None:
        result["ndef"] = None
        return result
    result.update({
        "readable": tag_ndef._readable,
        "writeable": tag_ndef._writeable,
        "ndefOffset": tag_ndef._ndef_tlv_offset,
        "capacity": tag_ndef._capacity,
        "ndef": bytes(octets).hex(),
    })
    records = []
    if len(octets) > 0:
        for record in ndef.message_decoder(bytes(octets), errors="strict"):
            records.append({"type": record.type, "name": record.name, "data": bytes(record.data).hex()})
    result["records"] = records
    return result


def main():
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            print(json.dumps(parse(bytes.fromhex(line))), flush=True)
        except Exception as error:  # reported to the Swift test, which fails on it
            print(json.dumps({"error": "%s: %s" % (type(error).__name__, error)}), flush=True)


if __name__ == "__main__":
    main()
