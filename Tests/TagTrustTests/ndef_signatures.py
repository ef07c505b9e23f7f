#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""NDEF messages with Signature RTD 2.0 records, made with python3-cryptography from fresh
keys and X.509 chains, for TagTrustTests and the `tapwire verify ndef` tests.

usage: ndef_signatures.py OUTDIR
writes OUTDIR/ca.pem (the trust anchor), OUTDIR/other-ca.pem, OUTDIR/*.ndef, and prints one
line per message: FILE VERDICT[,VERDICT...] (one verdict per Signature record, in order).
The signed data is TYPE, ID and PAYLOAD of each record the signature covers (from the message
start or the record after the previous Signature record), concatenated.
"""
import datetime
import os
import struct
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature
from cryptography.x509.oid import NameOID


def name(common):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def certificate(subject_key, subject, issuer_key, issuer, ca):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder().subject_name(name(subject)).issuer_name(name(issuer))
               .public_key(subject_key.public_key()).serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(days=1))
               .not_valid_after(now + datetime.timedelta(days=30))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if ca:
        builder = builder.add_extension(
            x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                          data_encipherment=False, key_agreement=False, key_cert_sign=True, crl_sign=True,
                          encipher_only=False, decipher_only=False), critical=True)
    return builder.sign(issuer_key, hashes.SHA256())


def der(cert):
    return cert.public_bytes(serialization.Encoding.DER)


def record(tnf, rtype, payload, rid=b""):
    return (tnf, rtype, rid, payload)


def encode(records):
    out = b""
    for index, (tnf, rtype, rid, payload) in enumerate(records):
        header = tnf
        if index == 0:
            header |= 0x80
        if index == len(records) - 1:
            header |= 0x40
        short = len(payload) < 256
        if short:
            header |= 0x10
        if rid:
            header |= 0x08
        out += bytes([header, len(rtype)])
        out += bytes([len(payload)]) if short else struct.pack(">I", len(payload))
        if rid:
            out += bytes([len(rid)])
        out += rtype + rid + payload
    return out


def signed_data(records):
    return b"".join(rtype + rid + payload for (_, rtype, rid, payload) in records)


def signature_payload(sig_type, signature, chain, uri=None, cert_format=0, cert_uri=None):
    sig_field = bytes([(0x80 if uri else 0) | sig_type, 0x02])
    value = uri if uri else signature
    sig_field += struct.pack(">H", len(value)) + value
    cert_field = bytes([(0x80 if cert_uri else 0) | (cert_format << 4) | len(chain)])
    for c in chain:
        cert_field += struct.pack(">H", len(c)) + c
    if cert_uri:
        cert_field += struct.pack(">H", len(cert_uri)) + cert_uri
    return bytes([0x20]) + sig_field + cert_field


def sign(key, data, form):
    der_signature = key.sign(data, ec.ECDSA(hashes.SHA256()))
    if form == "der":
        return der_signature
    r, s = decode_dss_signature(der_signature)
    size = (key.curve.key_size + 7) // 8
    return r.to_bytes(size, "big") + s.to_bytes(size, "big")


SIG_TYPE = {"P-256": 0x0B, "P-224": 0x08, "P-192": 0x04}
CURVE = {"P-256": ec.SECP256R1(), "P-224": ec.SECP224R1(), "P-192": ec.SECP192R1()}


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = certificate(ca_key, "Tapwire test root", ca_key, "Tapwire test root", True)
    other_key = ec.generate_private_key(ec.SECP256R1())
    other = certificate(other_key, "Another root", other_key, "Another root", True)
    intermediate_key = ec.generate_private_key(ec.SECP256R1())
    intermediate = certificate(intermediate_key, "Tapwire test issuer", ca_key, "Tapwire test root", True)
    with open(os.path.join(out, "ca.pem"), "wb") as f:
        f.write(ca.public_bytes(serialization.Encoding.PEM))
    with open(os.path.join(out, "other-ca.pem"), "wb") as f:
        f.write(other.public_bytes(serialization.Encoding.PEM))

    uri = record(0x01, b"U", b"\x04example.com/tapwire")
    text = record(0x01, b"T", b"\x02enHello, signed world", rid=b"greeting")
    mime = record(0x02, b"application/octet-stream", bytes(range(200)) * 2)

    def signer(curve):
        key = ec.generate_private_key(CURVE[curve])
        return key, der(certificate(key, "Signer " + curve, ca_key, "Tapwire test root", False))

    def sig_record(payload):
        return record(0x01, b"Sig", payload)

    lines = []

    def write(file, records, verdicts):
        with open(os.path.join(out, file), "wb") as f:
            f.write(encode(records))
        lines.append(f"{file} {','.join(verdicts)}")

    for curve in ["P-256", "P-224", "P-192"]:
        for form in ["rs", "der"]:
            key, leaf = signer(curve)
            covered = [uri, text, mime]
            sig = sign(key, signed_data(covered), form)
            write(f"signed-{curve.lower()}-{form}.ndef",
                  covered + [sig_record(signature_payload(SIG_TYPE[curve], sig, [leaf]))], ["verified"])

    key, leaf = signer("P-256")
    sig = sign(key, signed_data([uri, text]), "der")
    good = signature_payload(0x0B, sig, [leaf])
    tampered_text = record(0x01, b"T", b"\x02enHello, signed worle", rid=b"greeting")
    write("tampered-payload.ndef", [uri, tampered_text, sig_record(good)], ["signatureMismatch"])
    write("tampered-id.ndef", [uri, record(0x01, b"T", text[3], rid=b"greetinG"), sig_record(good)],
          ["signatureMismatch"])
    write("record-added.ndef", [uri, uri, text, sig_record(good)], ["signatureMismatch"])

    # Intermediate in the chain: signer certificate first.
    leaf_key = ec.generate_private_key(ec.SECP256R1())
    leaf2 = der(certificate(leaf_key, "Signer via issuer", intermediate_key, "Tapwire test issuer", False))
    sig = sign(leaf_key, signed_data([uri]), "rs")
    write("chain-intermediate.ndef", [uri, sig_record(signature_payload(0x0B, sig, [leaf2, der(intermediate)]))],
          ["verified"])
    write("chain-missing-intermediate.ndef", [uri, sig_record(signature_payload(0x0B, sig, [leaf2]))],
          ["untrustedChain"])

    # Signed by a key whose certificate another root issued.
    rogue_key = ec.generate_private_key(ec.SECP256R1())
    rogue = der(certificate(rogue_key, "Rogue signer", other_key, "Another root", False))
    sig = sign(rogue_key, signed_data([uri]), "rs")
    write("wrong-root.ndef", [uri, sig_record(signature_payload(0x0B, sig, [rogue]))], ["untrustedChain"])

    # Two signed sections: each signature covers the records after the previous one.
    key, leaf = signer("P-256")
    first = sign(key, signed_data([uri]), "rs")
    second = sign(key, signed_data([text, mime]), "der")
    write("two-sections.ndef",
          [uri, sig_record(signature_payload(0x0B, first, [leaf])), text, mime,
           sig_record(signature_payload(0x0B, second, [leaf]))], ["verified", "verified"])
    # A marker (signature type 00) starts the signed section.
    marker = sig_record(signature_payload(0x00, b"", []))
    third = sign(key, signed_data([text]), "rs")
    write("marker.ndef", [uri, marker, text, sig_record(signature_payload(0x0B, third, [leaf]))],
          ["marker", "verified"])

    # What is not checked: by URI, other algorithms, M2M, no certificate, a P-224 signature
    # type with a P-256 key.
    write("signature-uri.ndef",
          [uri, sig_record(signature_payload(0x0B, b"", [leaf], uri=b"https://example.com/sig"))],
          ["signatureByURI"])
    write("rsa.ndef", [uri, sig_record(signature_payload(0x06, os.urandom(256), [leaf]))], ["unsupportedAlgorithm"])
    sig = sign(key, signed_data([uri]), "rs")
    write("m2m.ndef", [uri, sig_record(signature_payload(0x0B, sig, [leaf], cert_format=1))],
          ["unsupportedCertificateFormat"])
    write("certificate-uri-only.ndef",
          [uri, sig_record(signature_payload(0x0B, sig, [], cert_uri=b"https://example.com/cert"))],
          ["noCertificate"])
    write("key-mismatch.ndef", [uri, sig_record(signature_payload(0x08, os.urandom(56), [leaf]))],
          ["keyMismatch"])
    truncated = signature_payload(0x0B, sig, [leaf])[:-5]
    write("truncated.ndef", [uri, sig_record(truncated)], ["malformed"])
    print("\n".join(lines))


if __name__ == "__main__":
    main()
