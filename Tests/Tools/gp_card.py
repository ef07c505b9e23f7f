#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A GlobalPlatform issuer security domain as a virtual card for vsmartcard's vpcd, whose
secure channel is scp_oracle.py's independent SCP02/SCP03 code (python3-cryptography), not
Tapwire's. Written from GPCS 2.3 (chapter 11, Appendix E) and Amendment D.

    gp_card.py [--port P | --unix PATH] [--scp 02|03] [--key HEX | --key-enc/--key-mac/--key-dek HEX]
               [--kvn N] [--i HEX] [--diversify emv|visa2|kdf3] [--tries N] [--max-block N] [--status-budget N]
               [--log FILE]

Standard input takes one command a line, each answered by one line on standard output:
`insert [N]` (connects to vpcd on 127.0.0.1:P, or to the vpcd-protocol Unix socket PATH, such
as the PN532 simulator's VPCDCardBridge; with N the card leaves after N more APDUs: `inserted`),
`remove` (`removed`), `tries` (`tries N`: authentications left). Every APDU the card gets is
logged to FILE as `> HEX` (as received, wrapped) and `< HEX` (as answered).

Card side: SELECT (the ISD A000000151000000 and selectable applications), INITIALIZE UPDATE
and EXTERNAL AUTHENTICATE (SCP03 i=00/10/30/70 with S8 or S16; SCP02 i=15/55), C-MAC and
C-DECRYPTION checked and removed, R-MAC and R-ENCRYPTION added, a retry counter (each failed
EXTERNAL AUTHENTICATE answers 6300 and counts; at 0 INITIALIZE UPDATE answers 6983), GET
STATUS (80 ISD, 40 applications, 20 load files, 10 load files and modules; tagged (P2 02) and
legacy (P2 00) formats; 6310 and P2 01 for the rest when the answer exceeds the budget),
INSTALL [for load] / LOAD (blocks numbered from 00, the Load File Data Block's SHA-1/SHA-256
hash checked when INSTALL gave one, the package and applet AIDs read from the Header and
Applet components) / INSTALL [for install and make selectable], DELETE (P2 80 with related
objects), PUT KEY (keys decrypted under the DEK, check values verified, the answer is the
KVN and the check values), SET STATUS (applications: lock 83 / unlock 07), GET DATA CPLC and card recognition data
(0066, GPCS 2.3 §H.2: GlobalPlatform 2.3.1 and the card's SCP with its i).

Where it differs from a real card: the card challenge is random (SCP03 i=10 derives it from
the sequence counter and the AID), one key set is used for INITIALIZE UPDATE P1 00 (the
highest version), nothing checks privileges, tokens, DAPs or memory, the applets do nothing
but answer SELECT (9000) and every other command with 6D00, only the basic logical channel.
"""
import argparse
import warnings
import hashlib
import os
import select
import socket
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scp_oracle import (  # noqa: E402
    aes_cbc, aes_cmac, aes_ecb, des_ecb, kdf, pad80, retail_mac, tdes_cbc)
from cryptography.hazmat.primitives.ciphers import Cipher, modes  # noqa: E402
from scp_oracle import TripleDES  # noqa: E402

ISD_AID = bytes.fromhex("A000000151000000")
ATR = bytes.fromhex("3BF81300008131FE454A434F5076323431B7")


class CardError(Exception):
    def __init__(self, sw):
        self.sw = sw


def unpad80(data):
    end = data.rstrip(b"\x00")
    if not end or end[-1] != 0x80:
        raise CardError(0x6988)
    return end[:-1]


def tdes_ecb(key, data, encrypt=True):
    c = Cipher(TripleDES(key), modes.ECB())
    x = c.encryptor() if encrypt else c.decryptor()
    return x.update(data) + x.finalize()


def tlv(tag, value):
    n = len(value)
    length = bytes([n]) if n < 0x80 else (bytes([0x81, n]) if n < 0x100 else bytes([0x82, n >> 8, n & 0xFF]))
    return tag + length + value


CPLC = tlv(b"\x9F\x7F", bytes.fromhex("4790505147910000") + bytes(34))


def lv(data, offset):
    """One length-value field of an INSTALL command: (value, next offset)."""
    if offset >= len(data) or offset + 1 + data[offset] > len(data):
        raise CardError(0x6A80)
    n = data[offset]
    return data[offset + 1: offset + 1 + n], offset + 1 + n


def kcv(key, scp):
    if scp == 3:
        return aes_ecb(key, b"\x01" * 16)[:3]
    return tdes_cbc(key, b"\x00" * 8, b"\x00" * 8)[:3]


class Entry:
    def __init__(self, aid, kind, state, privileges=b"\x00\x00\x00", load_file=None, modules=(), version=b""):
        self.aid, self.kind, self.state, self.privileges = aid, kind, state, privileges
        self.load_file, self.modules, self.version = load_file, list(modules), version


KDD = bytes(range(0x11, 0x1B))  # the key diversification data this card answers with


def diversify(method, master, k):
    """The card's static key k (1 ENC, 2 MAC, 3 DEK) from a master key, as a card personalised
    with GlobalPlatformPro's --emv/--visa2/--kdf3 holds it: EMV CPS 1.1 5.4.2.1 (3DES-ECB of
    KDD[4..9] F0 k KDD[4..9] 0F k), VISA2 (KDD[0..1] KDD[4..7] in place of KDD[4..9]), KDF3
    (AES-CMAC of i 000000 k 00 KDD, i = 1, 2... until the master key's length)."""
    if method in ("emv", "visa2"):
        part = KDD[4:10] if method == "emv" else KDD[0:2] + KDD[4:8]
        return tdes_ecb(master, part + bytes([0xF0, k]) + part + bytes([0x0F, k]))
    out, i = b"", 1
    while len(out) < len(master):
        out += aes_cmac(master, bytes([i, 0, 0, 0, k, 0]) + KDD)
        i += 1
    return out[:len(master)]


class Card:
    def __init__(self, args):
        self.scp = int(args.scp, 16)
        keys = (args.key_enc, args.key_mac, args.key_dek)
        if args.diversify:
            keys = tuple(diversify(args.diversify, key, k) for k, key in enumerate(keys, 1))
        self.keys = {args.kvn: keys}
        self.i = args.i if args.i is not None else (0x70 if self.scp == 3 else 0x55)
        self.tries_max = self.tries = args.tries
        self.max_block = args.max_block
        self.budget = args.status_budget
        self.sequence = 0
        self.registry = [Entry(ISD_AID, "isd", 0x0F, b"\x9E\xFE\x80")]
        self.reset()

    def reset(self):
        self.selected = ISD_AID
        self.session = None
        self.pending = None  # the INITIALIZE UPDATE state awaiting EXTERNAL AUTHENTICATE
        self.loading = None
        self.more = []

    # -- secure channel --

    def initialize_update(self, p1, data):
        if self.tries == 0:
            raise CardError(0x6983)
        kvn = p1 or max(self.keys)
        if kvn not in self.keys:
            raise CardError(0x6A88)
        enc, mac, dek = self.keys[kvn]
        self.session = None
        kdd = KDD
        self.sequence += 1
        if self.scp == 2:
            if len(data) != 8:
                raise CardError(0x6700)
            seq = (self.sequence & 0xFFFF).to_bytes(2, "big")
            cc = os.urandom(6)

            def derive(key, const):
                return tdes_cbc(key, b"\x00" * 8, const + seq + b"\x00" * 12)

            s = dict(enc=derive(enc, b"\x01\x82"), mac=derive(mac, b"\x01\x01"), dek=derive(dek, b"\x01\x81"))
            cryptogram = tdes_cbc(s["enc"], b"\x00" * 8, pad80(data + seq + cc, 8))[-8:]
            expected = tdes_cbc(s["enc"], b"\x00" * 8, pad80(seq + cc + data, 8))[-8:]
            self.pending = dict(s, kvn=kvn, host=expected, size=8)
            return kdd + bytes([kvn, 2]) + seq + cc + cryptogram
        s16 = len(data) == 16
        if len(data) not in (8, 16) or s16 != bool(self.i & 0x01):
            raise CardError(0x6A80)
        size = len(data)
        cc = os.urandom(size)
        ctx = data + cc
        bits = len(enc) * 8
        smac = kdf(mac, 0x06, bits, ctx)
        s = dict(enc=kdf(enc, 0x04, bits, ctx), mac=smac, rmac=kdf(mac, 0x07, bits, ctx), dek=dek)
        self.pending = dict(s, kvn=kvn, host=kdf(smac, 0x01, size * 8, ctx), size=size)
        seq = (self.sequence & 0xFFFFFF).to_bytes(3, "big") if self.i & 0x10 else b""
        return kdd + bytes([kvn, 3, self.i]) + cc + kdf(smac, 0x00, size * 8, ctx) + seq

    def external_authenticate(self, apdu):
        pending, self.pending = self.pending, None
        if pending is None:
            raise CardError(0x6985)
        size = pending["size"]
        cla, ins, sl, p2, lc = apdu[:5]
        body = apdu[5:5 + lc]
        if cla != 0x84 or lc != 2 * size or len(body) != lc:
            raise CardError(0x6700)
        allowed = [0x00, 0x01, 0x03] + ([0x11, 0x13] if self.scp == 3 and self.i & 0x20 else []) + \
            ([0x33] if self.scp == 3 and self.i & 0x60 == 0x60 else [])
        if sl not in allowed:
            raise CardError(0x6A86)
        header = apdu[:5]
        if self.scp == 3:
            mcv = aes_cmac(pending["mac"], b"\x00" * 16 + header + body[:size])
            mac_ok = mcv[:size] == body[size:]
        else:
            mcv = retail_mac(pending["mac"], b"\x00" * 8, pad80(header + body[:8], 8))
            mac_ok = mcv == body[8:]
        if body[:size] != pending["host"] or not mac_ok:
            self.tries -= 1
            raise CardError(0x6300)
        self.tries = self.tries_max
        self.session = dict(pending, sl=sl, mcv=mcv, counter=1)

    def unwrap(self, apdu):
        """The plain (cla, ins, p1, p2, data) of a command, C-MAC checked and data decrypted."""
        cla, ins, p1, p2 = apdu[:4]
        data = apdu[5:5 + apdu[4]] if len(apdu) > 5 else b""
        s = self.session
        if s is None or ins == 0xC0:
            return cla, ins, p1, p2, data
        if not s["sl"] & 0x01:
            s["counter"] += 1
            return cla, ins, p1, p2, data
        if not cla & 0x04:
            self.session = None
            raise CardError(0x6982)
        mcla = cla & ~0x03 & 0xFF
        if self.scp == 3:
            n = 16 if s["size"] == 16 else 8
            body, mac = data[:-n], data[-n:]
            mcv = aes_cmac(s["mac"], s["mcv"] + bytes([mcla, ins, p1, p2, len(data)]) + body)
            if len(data) < n or mcv[:n] != mac:
                self.session = None
                raise CardError(0x6982)
            s["mcv"] = mcv
            s["command"] = s["counter"]
            if s["sl"] & 0x02 and body:
                if len(body) % 16:
                    self.session = None
                    raise CardError(0x6988)
                icv = aes_ecb(s["enc"], s["counter"].to_bytes(16, "big"))
                body = unpad80(aes_cbc(s["enc"], icv, body, encrypt=False))
        else:
            body, mac = data[:-8], data[-8:]
            if len(data) < 8:
                raise CardError(0x6982)
            if s["sl"] & 0x02 and body:
                body = unpad80(tdes_cbc_decrypt(s["enc"], body))
            icv = des_ecb(s["mac"][:8], s["mcv"])
            mcv = retail_mac(s["mac"], icv, pad80(bytes([mcla, ins, p1, p2, len(body) + 8]) + body, 8))
            if mcv != mac:
                self.session = None
                raise CardError(0x6982)
            s["mcv"] = mcv
        s["counter"] += 1
        return cla & ~0x04 & 0xFF, ins, p1, p2, body

    def wrap(self, data, sw):
        s = self.session
        if s is None or self.scp != 3 or not s["sl"] & 0x10 or not (sw == 0x9000 or sw >> 8 in (0x62, 0x63)):
            return data
        if s["sl"] & 0x20 and data:
            icv = aes_ecb(s["enc"], b"\x80" + s["command"].to_bytes(15, "big"))
            data = aes_cbc(s["enc"], icv, pad80(data, 16))
        n = 16 if s["size"] == 16 else 8
        return data + aes_cmac(s["rmac"], s["mcv"] + data + sw.to_bytes(2, "big"))[:n]

    # -- commands --

    def process(self, apdu):
        if len(apdu) < 4:
            return b"", 0x6700
        if self.selected != ISD_AID and not (apdu[1] == 0xA4 and apdu[0] & 0x80 == 0):
            return b"", 0x6D00
        ins = apdu[1]
        try:
            if ins == 0x50 and apdu[0] == 0x80:
                if len(apdu) < 5 or len(apdu) < 5 + apdu[4]:
                    raise CardError(0x6700)
                return self.initialize_update(apdu[2], apdu[5:5 + apdu[4]]), 0x9000
            if ins == 0x82 and self.pending is not None:
                self.external_authenticate(apdu)
                return b"", 0x9000
            self.pending = None
            if ins == 0xA4 and not apdu[0] & 0x04:  # a plain SELECT ends any session
                return self.select(apdu[2], apdu[5:5 + apdu[4]] if len(apdu) > 5 else b""), 0x9000
            cla, ins, p1, p2, data = self.unwrap(apdu)
            if ins == 0xA4:
                return self.select(p1, data), 0x9000
            if ins == 0xCA and p1 == 0x9F and p2 == 0x7F:
                return CPLC, 0x9000
            if ins == 0xCA and p1 == 0x00 and p2 == 0x66:
                return self.card_recognition_data(), 0x9000
            if self.session is None:
                raise CardError(0x6982)
            handler = {0xF2: self.get_status, 0xE6: self.install, 0xE8: self.load, 0xE4: self.delete,
                       0xD8: self.put_key, 0xF0: self.set_status}.get(ins)
            if handler is None:
                raise CardError(0x6D00)
            answer = handler(p1, p2, data)
            if isinstance(answer, tuple):
                return answer
            return answer, 0x9000
        except CardError as error:
            return b"", error.sw

    def card_recognition_data(self):
        # Only the version, scheme and SCP objects: real cards may add more (card
        # configuration, chip details), which the parser keeps as objects it does not read.
        gp = bytes.fromhex("2A864886FC6B")  # 1.2.840.114283
        oid = lambda arc: tlv(b"\x06", gp + arc)
        return tlv(b"\x66", tlv(b"\x73", oid(b"\x01") + tlv(b"\x60", oid(b"\x02\x02\x03\x01"))
                                 + tlv(b"\x63", oid(b"\x03"))
                                 + tlv(b"\x64", oid(b"\x04" + bytes([self.scp, self.i])))))

    def select(self, p1, data):
        if p1 != 0x04:
            raise CardError(0x6A86)
        if not data or data == ISD_AID:
            self.reset()
            block = tlv(b"\x9F\x65", bytes([self.max_block]))
            return tlv(b"\x6F", tlv(b"\x84", ISD_AID) + tlv(b"\xA5", block))
        app = self.find(data, "app")
        if app is None or app.state & 0x80 or app.state & 0x07 != 0x07:
            raise CardError(0x6A82)
        self.reset()
        self.selected = app.aid
        return tlv(b"\x6F", tlv(b"\x84", app.aid))

    def find(self, aid, kind=None):
        return next((e for e in self.registry if e.aid == aid and (kind is None or e.kind == kind)), None)

    def get_status(self, p1, p2, data):
        if p2 & 0x01:
            if not self.more:
                raise CardError(0x6A88)
            entries = self.more
        else:
            if data[:1] != b"\x4F":
                raise CardError(0x6A80)
            kinds = {0x80: ["isd"], 0x40: ["app"], 0x20: ["file"], 0x10: ["file"]}.get(p1)
            if kinds is None or p2 & 0xFC:
                raise CardError(0x6A86)
            prefix = data[2:2 + data[1]]
            entries = [e for e in self.registry if e.kind in kinds and e.aid.startswith(prefix)]
            if not entries:
                raise CardError(0x6A88)
        out = b""
        for index, e in enumerate(entries):
            if p2 & 0x02:
                value = tlv(b"\x4F", e.aid) + tlv(b"\x9F\x70", bytes([e.state])) + tlv(b"\xC5", e.privileges)
                if e.kind == "app":
                    value += tlv(b"\xC4", e.load_file)
                if e.kind == "file":
                    value += tlv(b"\xCE", e.version) if e.version else b""
                    if p1 == 0x10:
                        value += b"".join(tlv(b"\x84", m) for m in e.modules)
                item = tlv(b"\xE3", value)
            elif p1 == 0x10:
                item = bytes([len(e.aid)]) + e.aid + bytes([e.state, e.privileges[0], len(e.modules)]) + \
                    b"".join(bytes([len(m)]) + m for m in e.modules)
            else:
                item = bytes([len(e.aid)]) + e.aid + bytes([e.state, e.privileges[0]])
            if out and len(out) + len(item) > self.budget:
                self.more = entries[index:]
                return out, 0x6310
            out += item
        self.more = []
        return out

    def install(self, p1, p2, data):
        if p1 == 0x02:
            load_file, o = lv(data, 0)
            sd, o = lv(data, o)
            digest, o = lv(data, o)
            lv(data, o)
            if not 5 <= len(load_file) <= 16 or self.find(load_file):
                raise CardError(0x6A80 if not 5 <= len(load_file) <= 16 else 0x6985)
            if sd and sd != ISD_AID:
                raise CardError(0x6A88)
            if digest and len(digest) not in (20, 32):
                raise CardError(0x6A80)
            self.loading = dict(aid=load_file, hash=digest, block=0, data=b"")
            return b"\x00"
        if p1 & 0x0C:
            load_file, o = lv(data, 0)
            module, o = lv(data, o)
            app_aid, o = lv(data, o)
            privileges, o = lv(data, o)
            parameters, o = lv(data, o)
            lv(data, o)
            if not p1 & 0x04:
                raise CardError(0x6A86)
            file = self.find(load_file, "file")
            if file is None or module not in file.modules:
                raise CardError(0x6A88)
            if not 5 <= len(app_aid) <= 16 or len(privileges) not in (1, 3) or parameters[:1] not in (b"\xC9", b"\xEF"):
                raise CardError(0x6A80)
            if self.find(app_aid):
                raise CardError(0x6985)
            state = 0x07 if p1 & 0x08 else 0x03
            self.registry.append(Entry(app_aid, "app", state, privileges + b"\x00" * (3 - len(privileges)), load_file))
            return b"\x00"
        raise CardError(0x6A86)

    def load(self, p1, p2, data):
        loading = self.loading
        if loading is None:
            raise CardError(0x6985)
        if p2 != loading["block"] or p1 & 0x7F:
            self.loading = None
            raise CardError(0x6A86)
        if len(data) > self.max_block:
            self.loading = None
            raise CardError(0x6700)
        loading["data"] += data
        loading["block"] += 1
        if not p1 & 0x80:
            return b"\x00"
        self.loading = None
        blob = loading["data"]
        if blob[:1] != b"\xC4" or len(blob) < 2:
            raise CardError(0x6A80)
        n, o = blob[1], 2
        if n & 0x80:
            count = n & 0x7F
            n, o = int.from_bytes(blob[2:2 + count], "big"), 2 + count
        lfdb = blob[o:]
        if len(lfdb) != n:
            raise CardError(0x6A80)
        digest = loading["hash"]
        if digest and (hashlib.sha1 if len(digest) == 20 else hashlib.sha256)(lfdb).digest() != digest:
            raise CardError(0x6A80)
        package, version, applets = read_components(lfdb)
        if package != loading["aid"]:
            raise CardError(0x6A80)
        self.registry.append(Entry(package, "file", 0x01, b"\x00\x00\x00", modules=applets, version=version))
        return b"\x00"

    def delete(self, p1, p2, data):
        if len(data) < 2 or data[0] != 0x4F or len(data) != 2 + data[1]:
            raise CardError(0x6A80)
        aid = data[2:]
        entry = self.find(aid)
        if entry is None:
            raise CardError(0x6A88)
        if entry.kind == "isd":
            raise CardError(0x6985)
        if entry.kind == "file":
            apps = [e for e in self.registry if e.kind == "app" and e.load_file == aid]
            if apps and not p2 & 0x80:
                raise CardError(0x6985)
            self.registry = [e for e in self.registry if e not in apps]
        self.registry.remove(entry)
        return b"\x00"

    def put_key(self, p1, p2, data):
        if p2 != 0x81 or not data:
            raise CardError(0x6A86)
        kvn, o, keys, checks = data[0], 1, [], b""
        while o < len(data):
            if self.scp == 3:
                if data[o] != 0x88:
                    raise CardError(0x6A80)
                lk, klen = data[o + 1], data[o + 2]
                cipher = data[o + 3:o + 2 + lk]
                o += 2 + lk
                key = aes_cbc(self.session["dek"], b"\x00" * 16, cipher, encrypt=False)[:klen]
            else:
                if data[o:o + 2] != b"\x80\x10":
                    raise CardError(0x6A80)
                key = tdes_ecb(self.session["dek"], data[o + 2:o + 18], encrypt=False)
                o += 18
            if data[o:o + 1] != b"\x03" or data[o + 1:o + 4] != kcv(key, self.scp):
                raise CardError(0x6A80)
            keys.append(key)
            checks += data[o + 1:o + 4]
            o += 4
        if len(keys) != 3 or not 1 <= kvn <= 0x7F or (p1 and p1 not in self.keys):
            raise CardError(0x6A80)
        if p1:
            del self.keys[p1]
        self.keys[kvn] = tuple(keys)
        return bytes([kvn]) + checks

    def set_status(self, p1, p2, data):
        if p1 != 0x40:
            raise CardError(0x6A86)
        app = self.find(data, "app")
        if app is None:
            raise CardError(0x6A88)
        if p2 == 0x83:
            app.state |= 0x80
        elif p2 == 0x07 or p2 == 0x0F:
            app.state &= 0x7F
        else:
            raise CardError(0x6A80)
        return b""


def tdes_cbc_decrypt(key, data):
    c = Cipher(TripleDES(key), modes.CBC(b"\x00" * 8)).decryptor()
    return c.update(data) + c.finalize()


def read_components(lfdb):
    """The package AID, its version (major, minor) and the applet AIDs: Header (tag 1) and
    Applet (tag 3) components (JCVM 3.0.5 §6.4, §6.5)."""
    o, package, version, applets = 0, None, b"", []
    while o + 3 <= len(lfdb):
        tag, size = lfdb[o], int.from_bytes(lfdb[o + 1:o + 3], "big")
        info = lfdb[o + 3:o + 3 + size]
        if len(info) != size:
            raise CardError(0x6A80)
        if tag == 1:
            if info[:4] != b"\xDE\xCA\xFF\xED" or len(info) < 10:
                raise CardError(0x6A80)
            version = bytes([info[8], info[7]])
            package = info[10:10 + info[9]]
        elif tag == 3:
            p = 1
            for _ in range(info[0]):
                applets.append(info[p + 1:p + 1 + info[p]])
                p += 1 + info[p] + 2
        o += 3 + size
    if package is None or o != len(lfdb):
        raise CardError(0x6A80)
    return package, version, applets


class Server:
    def __init__(self, args):
        self.args = args
        self.card = Card(args)
        self.sock = None
        self.left = None
        self.log = open(args.log, "a", buffering=1) if args.log else None

    def say(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def connect(self):
        for _ in range(300):
            s = socket.socket(socket.AF_UNIX) if self.args.unix else socket.socket()
            try:
                if self.args.unix:
                    s.connect(self.args.unix)
                else:
                    s.connect(("127.0.0.1", self.args.port))
                    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                self.sock = s
                return True
            except OSError:
                s.close()
                select.select([], [], [], 0.1)
        return False

    def remove(self):
        if self.sock:
            self.sock.close()
        self.sock = None

    def command(self, line):
        words = line.split()
        if words[:1] == ["insert"]:
            self.remove()
            self.card.reset()
            self.left = int(words[1]) if len(words) > 1 else None
            self.say("inserted" if self.connect() else "error cannot connect to vpcd")
        elif words == ["remove"]:
            self.remove()
            self.say("removed")
        elif words == ["tries"]:
            self.say("tries %d" % self.card.tries)
        else:
            self.say("error unknown command")

    def read(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                return None
            data += chunk
        return data

    def frame(self):
        header = self.read(2)
        payload = header and self.read(int.from_bytes(header, "big"))
        if payload is None:
            self.remove()
            return
        if len(payload) == 1:
            if payload[0] == 4:
                self.send(ATR)
            else:
                self.card.reset()
            return
        if self.left is not None:
            if self.left == 0:
                self.remove()
                return
            self.left -= 1
        if self.log:
            self.log.write("> " + payload.hex().upper() + "\n")
        data, sw = self.card.process(payload)
        answer = self.card.wrap(data, sw) + sw.to_bytes(2, "big")
        if sw >> 8 not in (0x90, 0x62, 0x63) and sw != 0x9000:
            answer = sw.to_bytes(2, "big")
        if self.log:
            self.log.write("< " + answer.hex().upper() + "\n")
        self.send(answer)

    def send(self, payload):
        self.sock.sendall(len(payload).to_bytes(2, "big") + payload)

    def run(self):
        buffer = b""
        while True:
            fds = [sys.stdin] + ([self.sock] if self.sock else [])
            ready, _, _ = select.select(fds, [], [])
            if sys.stdin in ready:
                chunk = os.read(0, 65536)
                if not chunk:
                    self.remove()
                    return
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    self.command(line.decode())
            if self.sock and self.sock in ready:
                self.frame()


def main():
    warnings.simplefilter("ignore")
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, default=35963)
    p.add_argument("--unix")
    p.add_argument("--scp", default="03", choices=["02", "03"])
    p.add_argument("--key", type=bytes.fromhex, default=bytes(range(0x40, 0x50)))
    p.add_argument("--key-enc", type=bytes.fromhex)
    p.add_argument("--key-mac", type=bytes.fromhex)
    p.add_argument("--key-dek", type=bytes.fromhex)
    p.add_argument("--kvn", type=lambda v: int(v, 0), default=None)
    p.add_argument("--i", type=lambda v: int(v, 16), default=None)
    p.add_argument("--diversify", choices=["emv", "visa2", "kdf3"])
    p.add_argument("--tries", type=int, default=3)
    p.add_argument("--max-block", type=int, default=239)
    p.add_argument("--status-budget", type=int, default=200)
    p.add_argument("--log")
    args = p.parse_args()
    args.key_enc = args.key_enc or args.key
    args.key_mac = args.key_mac or args.key
    args.key_dek = args.key_dek or args.key
    if args.kvn is None:
        args.kvn = 0x30 if args.scp == "03" else 0x20
    Server(args).run()


if __name__ == "__main__":
    main()
