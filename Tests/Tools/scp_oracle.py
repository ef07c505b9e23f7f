#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""An independent GlobalPlatform SCP02/SCP03 implementation (card side and host wrapping),
written from GPCS 2.3 Appendix E and Amendment D with Debian's python3-cryptography, for
SecureChannelTests' differential test. Nothing here comes from Tapwire's Swift code.

    scp_oracle.py SEED COUNT

prints COUNT random sessions (random keys, challenges, security levels, commands and
answers) as lines of hex the Swift test replays through its own implementation:

    case SCP S16 SL I KVN        (hex bytes; S16 0/1)
    keys ENC MAC DEK
    challenge HOST-CHALLENGE
    iu INITIALIZE-UPDATE-RESPONSE-DATA
    ea EXTERNAL-AUTHENTICATE
    cmd PLAIN-COMMAND WRAPPED-COMMAND PLAIN-DATA|- SW WRAPPED-DATA|-
    end
"""
import random
import sys

from cryptography.hazmat.primitives import cmac
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

try:  # cryptography >= 43 keeps TripleDES in the decrepit module
    from cryptography.hazmat.decrepit.ciphers.algorithms import TripleDES
except ImportError:  # Debian 12's 38
    TripleDES = algorithms.TripleDES


def aes_ecb(key, data):
    e = Cipher(algorithms.AES(key), modes.ECB()).encryptor()
    return e.update(data) + e.finalize()


def aes_cbc(key, iv, data, encrypt=True):
    c = Cipher(algorithms.AES(key), modes.CBC(iv))
    x = c.encryptor() if encrypt else c.decryptor()
    return x.update(data) + x.finalize()


def aes_cmac(key, data):
    c = cmac.CMAC(algorithms.AES(key))
    c.update(data)
    return c.finalize()


def tdes_cbc(key, iv, data):
    e = Cipher(TripleDES(key), modes.CBC(iv)).encryptor()
    return e.update(data) + e.finalize()


def des_ecb(key8, block, encrypt=True):
    c = Cipher(TripleDES(key8 * 3), modes.ECB())
    x = c.encryptor() if encrypt else c.decryptor()
    return x.update(block) + x.finalize()


def pad80(data, size):
    data = data + b"\x80"
    return data + b"\x00" * (-len(data) % size)


def xor(a, b):
    return bytes(x ^ y for x, y in zip(a, b))


def retail_mac(key16, icv, data):
    """ISO/IEC 9797-1 MAC algorithm 3: single-DES CBC, then DES^-1(K2), DES(K1) on the end."""
    k1, k2 = key16[:8], key16[8:]
    h = icv
    for i in range(0, len(data), 8):
        h = des_ecb(k1, xor(h, data[i:i + 8]))
    return des_ecb(k1, des_ecb(k2, h, encrypt=False))


def kdf(key, const, bits, context):
    out = b""
    i = 1
    while len(out) * 8 < bits:
        out += aes_cmac(key, b"\x00" * 11 + bytes([const, 0]) + bits.to_bytes(2, "big") + bytes([i]) + context)
        i += 1
    return out[: bits // 8]


def le_bytes(ne):
    return b"" if ne is None else bytes([ne & 0xFF])


class Host:
    """Host-side wrapping, as a reference."""

    def __init__(self, scp, sl, s16, senc, smac, srmac, mcv):
        self.scp, self.sl, self.s16 = scp, sl, s16
        self.senc, self.smac, self.srmac, self.mcv = senc, smac, srmac, mcv
        self.counter = 1
        self.maclen = 16 if s16 else 8

    def wrap(self, cla, ins, p1, p2, data, ne):
        if not self.sl & 0x01:
            self.counter += 1
            return bytes([cla, ins, p1, p2]) + ((bytes([len(data)]) + data) if data else b"") + le_bytes(ne)
        further = cla & 0x40
        sm = 0x20 if further else 0x04
        chan = 0x0F if further else 0x03
        scla = cla | sm
        mcla = scla & ~chan & 0xFF
        if self.scp == 3:
            self.cmd_counter = self.counter
            body = data
            if self.sl & 0x02 and data:
                icv = aes_ecb(self.senc, self.counter.to_bytes(16, "big"))
                body = aes_cbc(self.senc, icv, pad80(data, 16))
            lc = len(body) + self.maclen
            self.mcv = aes_cmac(self.smac, self.mcv + bytes([mcla, ins, p1, p2, lc]) + body)
            mac = self.mcv[: self.maclen]
        else:
            lc = len(data) + 8
            icv = des_ecb(self.smac[:8], self.mcv)
            mac = retail_mac(self.smac, icv, pad80(bytes([mcla, ins, p1, p2, lc]) + data, 8))
            self.mcv = mac
            body = data
            if self.sl & 0x02 and data:
                body = tdes_cbc(self.senc, b"\x00" * 8, pad80(data, 8))
        self.counter += 1
        if ne is not None and self.sl & 0x10:
            ne = 256
        return bytes([scla, ins, p1, p2, len(body) + len(mac)]) + body + mac + le_bytes(ne)

    def card_answer(self, data, sw):
        """The card's protected answer to the last command."""
        if not self.sl & 0x10 or not (sw == 0x9000 or sw >> 8 in (0x62, 0x63)):
            return data
        body = data
        if self.sl & 0x20 and data:
            icv = aes_ecb(self.senc, b"\x80" + self.cmd_counter.to_bytes(15, "big"))
            body = aes_cbc(self.senc, icv, pad80(data, 16))
        mac = aes_cmac(self.srmac, self.mcv + body + sw.to_bytes(2, "big"))[: self.maclen]
        return body + mac


def scp03_case(rng, out):
    keylen = rng.choice([16, 24, 32])
    keys = [rng.randbytes(keylen) for _ in range(3)]
    s16 = rng.random() < 0.3
    i = rng.choice([0x00, 0x10, 0x60, 0x70]) | (0x01 if s16 else 0)
    levels = [0x00, 0x01, 0x03]
    if i & 0x20:
        levels += [0x11, 0x13]
    if i & 0x60 == 0x60:
        levels += [0x33]
    sl = rng.choice(levels)
    size = 16 if s16 else 8
    hc, cc = rng.randbytes(size), rng.randbytes(size)
    seq = rng.randbytes(3) if i & 0x10 else b""
    kvn = rng.randrange(0x30, 0x40)
    ctx = hc + cc
    senc = kdf(keys[0], 0x04, keylen * 8, ctx)
    smac = kdf(keys[1], 0x06, keylen * 8, ctx)
    srmac = kdf(keys[1], 0x07, keylen * 8, ctx)
    card_cryptogram = kdf(smac, 0x00, size * 8, ctx)
    host_cryptogram = kdf(smac, 0x01, size * 8, ctx)
    kdd = rng.randbytes(10)
    iu = kdd + bytes([kvn, 3, i]) + cc + card_cryptogram + seq
    header = bytes([0x84, 0x82, sl, 0x00, 2 * size])
    mcv = aes_cmac(smac, b"\x00" * 16 + header + host_cryptogram)
    ea = header + host_cryptogram + mcv[:size]
    host = Host(3, sl, s16, senc, smac, srmac, mcv)
    emit(rng, out, 3, s16, sl, i, kvn, keys, hc, iu, ea, host)


def scp02_case(rng, out):
    keys = [rng.randbytes(16) for _ in range(3)]
    sl = rng.choice([0x00, 0x01, 0x03])
    hc, cc, seq = rng.randbytes(8), rng.randbytes(6), rng.randbytes(2)
    kvn = rng.randrange(0x20, 0x30)

    def session(key, const):
        return tdes_cbc(key, b"\x00" * 8, const + seq + b"\x00" * 12)

    senc, smac = session(keys[0], b"\x01\x82"), session(keys[1], b"\x01\x01")
    card_cryptogram = tdes_cbc(senc, b"\x00" * 8, pad80(hc + seq + cc, 8))[-8:]
    host_cryptogram = tdes_cbc(senc, b"\x00" * 8, pad80(seq + cc + hc, 8))[-8:]
    iu = rng.randbytes(10) + bytes([kvn, 2]) + seq + cc + card_cryptogram
    header = bytes([0x84, 0x82, sl, 0x00, 0x10])
    mac = retail_mac(smac, b"\x00" * 8, pad80(header + host_cryptogram, 8))
    ea = header + host_cryptogram + mac
    host = Host(2, sl, False, senc, smac, None, mac)
    emit(rng, out, 2, False, sl, rng.choice([0x15, 0x55]), kvn, keys, hc, iu, ea, host)


def emit(rng, out, scp, s16, sl, i, kvn, keys, hc, iu, ea, host):
    out.append("case %02x %d %02x %02x %02x" % (scp, int(s16), sl, i, kvn))
    out.append("keys " + " ".join(k.hex() for k in keys))
    out.append("challenge " + hc.hex())
    out.append("iu " + iu.hex())
    out.append("ea " + ea.hex())
    maclen = (16 if s16 else 8) if sl & 1 else 0
    block = 16 if scp == 3 else 8
    room = 255 - maclen
    limit = room if not sl & 2 else (room // block) * block - 1
    for _ in range(rng.randrange(1, 6)):
        cla = rng.choice([0x80, 0x00, 0x81, 0x82, 0xC0, 0xC5])
        ins = rng.choice([0xCA, 0xF2, 0xE6, 0xE8, 0xD8, 0xE4, 0xA4])
        p1, p2 = rng.randrange(256), rng.randrange(256)
        n = rng.choice([0, 0, rng.randrange(1, 20), rng.randrange(0, limit + 1), limit])
        data = rng.randbytes(n)
        ne = rng.choice([None, 256, rng.randrange(1, 256)])
        plain = bytes([cla, ins, p1, p2]) + ((bytes([n]) + data) if n else b"") + le_bytes(ne)
        wrapped = host.wrap(cla, ins, p1, p2, data, ne)
        sw = rng.choice([0x9000, 0x9000, 0x6283, 0x63C1, 0x6A82, 0x6985])
        rdata = rng.randbytes(rng.randrange(0, 200)) if (sw == 0x9000 or sw >> 8 in (0x62, 0x63)) else b""
        answer = host.card_answer(rdata, sw)
        out.append("cmd %s %s %s %04x %s" % (plain.hex(), wrapped.hex(), rdata.hex() or "-", sw, answer.hex() or "-"))
    out.append("end")


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        (scp03_case if rng.random() < 0.7 else scp02_case)(rng, out)
    print("\n".join(out))


if __name__ == "__main__":
    main()
