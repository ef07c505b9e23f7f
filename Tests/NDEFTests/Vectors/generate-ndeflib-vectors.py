#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes ndeflib-vectors.jsonl: NDEF messages encoded by nfcpy's ndeflib (an independent
implementation, from PyPI) with the values ndeflib decodes from them. Tapwire's tests read
the file; they do not need Python. Regenerate with:

    python3 -m venv /tmp/peer && /tmp/peer/bin/pip install ndeflib==0.3.3
    /tmp/peer/bin/python Tests/NDEFTests/Vectors/generate-ndeflib-vectors.py
"""
import json, os, random
import ndef

out = []
def add(kind, records, expect):
    octets = b"".join(ndef.message_encoder(records))
    decoded = list(ndef.message_decoder(octets))
    assert len(decoded) == len(records)
    out.append({"kind": kind, "hex": octets.hex(), "expect": expect})

rng = random.Random(20261202)
texts = [("en", "Hello, world!"), ("de-CH", "Grüezi"), ("ja", "こんにちは"), ("fr", ""), ("en-US", "a" * 300)]
for lang, text in texts:
    for enc in ("UTF-8", "UTF-16"):
        r = ndef.TextRecord(text, lang, enc)
        add("text", [r], {"language": r.language, "encoding": r.encoding, "text": r.text})
uris = ["https://www.nfc.com", "http://example.org/a?b=c", "tel:+15551234", "mailto:me@example.com",
        "urn:nfc:sn:1234", "file:///tmp/x", "ftp://anonymous:anonymous@host", "sips:alice@example.com",
        "custom-scheme:thing", "https://example.com/" + "x" * 280, "urn:epc:id:sgtin:1.2.3"]
for uri in uris:
    r = ndef.UriRecord(uri)
    add("uri", [r], {"uri": r.iri, "prefixCode": r.data[0]})
for i in range(3):
    r = ndef.SmartposterRecord("https://example.com/%d" % i)
    r.set_title("Title %d" % i, "en")
    if i > 0:
        r.set_title("Titel %d" % i, "de")
    r.action = ["exec", "save", "edit"][i]
    if i == 2:
        r.resource_size = 12345
        r.resource_type = "text/html"
    add("smartPoster", [r], {"uri": r.resource.iri, "titles": dict(r.titles), "action": i,
                            "size": r.resource_size, "mimeType": r.resource_type})
for pkg in ["com.example.app", "org.nfcpy.demo"]:
    # ndeflib has no AAR class: a plain external record of type android.com:pkg.
    r = ndef.Record("urn:nfc:ext:android.com:pkg", "", pkg.encode())
    add("androidApplication", [r], {"package": pkg})
di = ndef.DeviceInformationRecord("ABC Company", "Device XYZ", "My Device",
                                  "123e4567-e89b-12d3-a456-426655440000", "1.0.2")
add("deviceInformation", [di], {"manufacturer": "ABC Company", "model": "Device XYZ", "uniqueName": "My Device",
                               "uuid": "123e4567-e89b-12d3-a456-426655440000", "firmwareVersion": "1.0.2"})
# Wi-Fi Simple Configuration token.
credential = ndef.wifi.Credential()
credential.set_attribute("network-index", 1)
credential.set_attribute("ssid", b"Tapwire-Lab")
credential.set_attribute("authentication-type", "WPA2-Personal")
credential.set_attribute("encryption-type", "AES")
credential.set_attribute("network-key", b"correct horse battery staple")
credential.set_attribute("mac-address", b"\xff" * 6)
wifi = ndef.WifiSimpleConfigRecord()
wifi.set_attribute("version-1", 0x10)
wifi.set_attribute("credential", credential)
wifi.set_attribute("vendor-extension", b"\x00\x37\x2a", b"\x00\x01\x20")
add("wifiSimpleConfig", [wifi], {"ssid": "Tapwire-Lab", "networkKey": "correct horse battery staple",
                                "authentication": 0x20, "encryption": 0x08, "version2": 0x20})
# Wi-Fi P2P carrier (application/vnd.wfa.p2p). ndeflib writes the two part lengths big-endian,
# as Tapwire does, but each P2P attribute's 2-byte length big-endian too ('BH+'), where the
# Wi-Fi P2P specification (section 4.1.1) and wpa_supplicant write it little-endian. The
# expectations carry ndeflib's decoded WSC part and P2P attributes, so the test can show that
# the framing and the WSC part agree and that the attribute-length byte order is the only
# difference.
p2p = ndef.WifiPeerToPeerRecord()
p2p.set_attribute("manufacturer", "Tapwire")
p2p.set_attribute("model-name", "Reader")
p2p.set_attribute("model-number", "TW-1")
p2p.set_attribute("serial-number", "0042")
p2p.set_attribute("oob-password", b"\x00" * 20, 0x0007, b"")
p2p.set_attribute("rf-bands", 0x01)
p2p.set_attribute("uuid-enrollee", "123e4567-e89b-12d3-a456-426655440000")
p2p.set_attribute("vendor-extension", b"\x00\x37\x2a", b"\x00\x01\x20")
p2p.set_attribute("p2p-capability", 0x25, 0x01)
p2p.set_attribute("p2p-device-info", b"\x02\x11\x22\x33\x44\x55", 0x0188, "Computer::PC", [], "Tapwire Reader")
p2p.set_attribute("negotiation-channel", b"DE\x04", 81, 6, 0)
p2p_octets = b"".join(ndef.message_encoder([p2p]))
p2p_decoded = list(ndef.message_decoder(p2p_octets))[0]
wsc_keys = sorted(k for k in p2p_decoded.keys() if k > 0xFF)
p2p_keys = sorted(k for k in p2p_decoded.keys() if k <= 0xFF)
info = p2p_decoded.get_attribute("p2p-device-info")
add("wifiP2P", [p2p], {
    "wscAttributes": [[k, v.hex()] for k in wsc_keys for v in p2p_decoded[k]],
    "p2pAttributes": [[k, v.hex()] for k in p2p_keys for v in p2p_decoded[k]],
    "deviceAddress": ":".join("%02X" % b for b in info.device_address), "configMethods": 0x0188, "deviceName": info.device_name,
    "p2pLengthByteOrder": "big"})
# Handover Request with collision resolution and one alternative carrier, then the carrier record.
hr = ndef.HandoverRequestRecord("1.2", 0x1234)
hr.add_alternative_carrier("active", "wifi0")
carrier = ndef.WifiSimpleConfigRecord()
carrier.name = "wifi0"
carrier.set_attribute("version-1", 0x10)
carrier.set_attribute("credential", credential)
add("handoverRequest", [hr, carrier], {"version": "1.2", "collisionResolution": 0x1234,
                                      "carriers": [["active", "wifi0"]]})
hs = ndef.HandoverSelectRecord("1.3")
hs.add_alternative_carrier("activating", "c0", "aux1", "aux2")
hs_carrier = ndef.Record("application/x-carrier", "c0", b"\x01\x02")
add("handoverSelect", [hs, hs_carrier], {"version": "1.3", "carriers": [["activating", "c0", "aux1", "aux2"]]})
hc = ndef.HandoverCarrierRecord("urn:nfc:wkt:Hc-type-test", None, b"\x01\x02\x03")
# Generic records of every TNF ndeflib writes, with ids.
generic = [ndef.Record("text/plain", "id1", b"plain"), ndef.Record("urn:nfc:ext:example.com:thing", "", b"\x00"),
           ndef.Record("https://example.com/type", "", b"abs"), ndef.Record("unknown", "", b"\x01\x02"),
           ndef.Record()]
add("generic", generic, {"count": len(generic)})
with open(os.path.join(os.path.dirname(__file__), "ndeflib-vectors.jsonl"), "w") as f:
    for item in out:
        f.write(json.dumps(item, ensure_ascii=False, sort_keys=True) + "\n")
print("wrote", len(out), "vectors")
