#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""SUN URLs as an NTAG 424 DNA in AES mode makes them (NXP AN12196 section 3), made with
python3-cryptography from random keys, UIDs, counters and file data, for TagTrustTests.

usage: sun_urls.py SEED COUNT [lrp]
prints COUNT lines: META_KEY FILE_KEY URL UID COUNTER FILE_DATA|-  (hex, counter decimal)
With `lrp`, the URLs are in LRP mode (NXP AN12304 for the primitive, AN12321 section 3 for
SUN), the LRP written here from AN12304's algorithms on python3-cryptography's AES.
"""
import random
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.cmac import CMAC


def cmac(key, message):
    c = CMAC(algorithms.AES(key))
    c.update(message)
    return c.finalize()


def aes(key, mode, data, encrypt=True):
    cipher = Cipher(algorithms.AES(key), mode)
    op = cipher.encryptor() if encrypt else cipher.decryptor()
    return op.update(data) + op.finalize()


def padded(data):
    return data + b"\x00" * (-len(data) % 16)


def session_key(file_key, label, uid, counter_le):
    return cmac(file_key, padded(label + b"\x00\x01\x00\x80" + uid + counter_le))


def aes_block(key, block):
    return aes(key, modes.ECB(), block)


class LRP:
    """AN12304 section 2.1: Algorithm 1 (plaintexts), 2 (updated keys), 3 (evaluation)."""

    def __init__(self, key):
        self.plaintexts = []
        h = aes_block(key, b"\x55" * 16)
        for _ in range(16):
            self.plaintexts.append(aes_block(h, b"\xAA" * 16))
            h = aes_block(h, b"\x55" * 16)
        self.updated = []
        h = aes_block(key, b"\xAA" * 16)
        for _ in range(4):
            self.updated.append(aes_block(h, b"\xAA" * 16))
            h = aes_block(h, b"\x55" * 16)

    def evaluate(self, x, index, final=True):
        y = self.updated[index]
        for byte in x:
            for nibble in (byte >> 4, byte & 15):
                y = aes_block(y, self.plaintexts[nibble])
        return aes_block(y, b"\x00" * 16) if final else y

    def encrypt(self, data, counter, index):
        """Section 2.2 LRICB over whole blocks, the counter big-endian, one step a block."""
        out = b""
        value = int.from_bytes(counter, "big")
        for start in range(0, len(data), 16):
            key = self.evaluate(value.to_bytes(len(counter), "big"), index)
            out += aes_block(key, data[start:start + 16])
            value = (value + 1) % (1 << (8 * len(counter)))
        return out

    def cmac(self, message):
        """Section 2.3: NIST SP 800-38B CMAC with the evaluation under updated key 0."""
        def double(block):
            value = int.from_bytes(block, "big") << 1
            if value >> 128:
                value = (value ^ 0x87) & ((1 << 128) - 1)
            return value.to_bytes(16, "big")
        k1 = double(self.evaluate(b"\x00" * 16, 0))
        k2 = double(k1)
        blocks = [message[i:i + 16] for i in range(0, len(message), 16)] or [b""]
        y = b"\x00" * 16
        for block in blocks[:-1]:
            y = self.evaluate(bytes(a ^ b for a, b in zip(y, block)), 0)
        last = blocks[-1]
        if len(last) == 16:
            last = bytes(a ^ b for a, b in zip(last, k1))
        else:
            last = last + b"\x80" + b"\x00" * (15 - len(last))
            last = bytes(a ^ b for a, b in zip(last, k2))
        return self.evaluate(bytes(a ^ b for a, b in zip(y, last)), 0)


def lrp_url(rng, meta_key, file_key, uid, counter_le, file_data):
    """AN12321 section 3: PICCRand, the LRICB-encrypted PICC data, the file data under the
    session key's updated key 1, the MAC over LRP from SV = 0001 0080 UID counter pad 1EE1."""
    picc_rand = bytes(rng.getrandbits(8) for _ in range(8))
    plain = bytes([0xC7]) + uid + counter_le + bytes(rng.getrandbits(8) for _ in range(5))
    picc_data = picc_rand + LRP(meta_key).encrypt(plain, picc_rand, 0)
    vector = b"\x00\x01\x00\x80" + uid + counter_le
    vector += b"\x00" * (14 - len(vector)) + b"\x1E\xE1"
    session = LRP(LRP(file_key).cmac(vector))
    name = rng.choice(["picc_data", "e"])
    query = f"{name}={picc_data.hex().upper()}"
    mac_name = rng.choice(["cmac", "c"])
    mac_input = b""
    if file_data is not None:
        enc = session.encrypt(file_data, counter_le + b"\x00" * 3, 1).hex().upper()
        query += f"&enc={enc}"
        mac_input = (enc + f"&{mac_name}=").encode("ascii")
    query += f"&{mac_name}="
    mac = session.cmac(mac_input)[1::2]
    return f"https://sdm.example/?{query}{mac.hex().upper()}"


def random_case(rng):
    """Random SDM keys, a 7-byte NXP UID and a 24-bit read counter."""
    meta_key = bytes(rng.getrandbits(8) for _ in range(16))
    file_key = bytes(rng.getrandbits(8) for _ in range(16))
    uid = b"\x04" + bytes(rng.getrandbits(8) for _ in range(6))
    return meta_key, file_key, uid, rng.randrange(0, 1 << 24)


def random_file_data(rng):
    return bytes(rng.getrandbits(8) for _ in range(16 * rng.randrange(1, 4)))


def print_case(meta_key, file_key, url, uid, counter, file_data):
    print(" ".join([meta_key.hex(), file_key.hex(), url, uid.hex().upper(), str(counter),
                    file_data.hex().upper() if file_data is not None else "-"]))


def main_lrp(seed, count):
    rng = random.Random(seed)
    for _ in range(count):
        meta_key, file_key, uid, counter = random_case(rng)
        file_data = random_file_data(rng) if rng.random() < 0.5 else None
        url = lrp_url(rng, meta_key, file_key, uid, counter.to_bytes(3, "little"), file_data)
        print_case(meta_key, file_key, url, uid, counter, file_data)


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    if len(sys.argv) > 3 and sys.argv[3] == "lrp":
        main_lrp(seed, count)
        return
    rng = random.Random(seed)
    for index in range(count):
        meta_key, file_key, uid, counter = random_case(rng)
        counter_le = counter.to_bytes(3, "little")
        plain_mirror = index % 4 == 3
        file_data = None
        if not plain_mirror and rng.random() < 0.5:
            file_data = random_file_data(rng)
        host = rng.choice(["https://sdm.example.com/tap", "https://ntag.nxp.com/424", "example.org/t"])
        if plain_mirror:
            query = f"uid={uid.hex().upper()}&ctr={counter.to_bytes(3, 'big').hex().upper()}&cmac="
            mac_input = b""
        else:
            picc = bytes([0xC7]) + uid + counter_le + bytes(rng.getrandbits(8) for _ in range(5))
            picc_data = aes(meta_key, modes.CBC(b"\x00" * 16), picc)
            name = rng.choice(["picc_data", "e"])
            query = f"{name}={picc_data.hex().upper()}"
            mac_input = b""
            if file_data is not None:
                enc_key = session_key(file_key, b"\xC3\x3C", uid, counter_le)
                iv = aes(enc_key, modes.ECB(), counter_le + b"\x00" * 13)
                enc = aes(enc_key, modes.CBC(iv), file_data).hex().upper()
                mac_name = rng.choice(["cmac", "c"])
                query += f"&enc={enc}&{mac_name}="
                mac_input = (enc + f"&{mac_name}=").encode("ascii")
            else:
                query += "&" + rng.choice(["cmac", "c"]) + "="
        mac_key = session_key(file_key, b"\x3C\xC3", uid, counter_le)
        mac = cmac(mac_key, mac_input)[1::2]
        url = f"{host}?{query}{mac.hex().upper()}"
        print_case(meta_key, file_key, url, uid, counter, file_data)


if __name__ == "__main__":
    main()
