#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""SUN URLs as an NTAG 424 DNA in AES mode makes them (NXP AN12196 section 3), made with
python3-cryptography from random keys, UIDs, counters and file data, for TagTrustTests.

usage: sun_urls.py SEED COUNT
prints COUNT lines: META_KEY FILE_KEY URL UID COUNTER FILE_DATA|-  (hex, counter decimal)
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


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for index in range(count):
        meta_key = bytes(rng.getrandbits(8) for _ in range(16))
        file_key = bytes(rng.getrandbits(8) for _ in range(16))
        uid = b"\x04" + bytes(rng.getrandbits(8) for _ in range(6))
        counter = rng.randrange(0, 1 << 24)
        counter_le = counter.to_bytes(3, "little")
        plain_mirror = index % 4 == 3
        file_data = None
        if not plain_mirror and rng.random() < 0.5:
            file_data = bytes(rng.getrandbits(8) for _ in range(16 * rng.randrange(1, 4)))
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
        fields = [meta_key.hex(), file_key.hex(), url, uid.hex().upper(), str(counter),
                  file_data.hex().upper() if file_data is not None else "-"]
        print(" ".join(fields))


if __name__ == "__main__":
    main()
