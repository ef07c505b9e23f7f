// SPDX-License-Identifier: Apache-2.0
import GlobalPlatformCryptoOpenSSL
import TagTrust

/// The TagTrust catalog's example (TagTrust.md), on proxmark3's NTAG21x pair and NXP AN12196's
/// first SUN URL.
func checkTagTrust() {
  group("TagTrust: an originality signature and a SUN URL, with OpenSSL (TagTrust.md)") {
    let uid: [UInt8] = [0x04, 0xE1, 0x0C, 0xDA, 0x99, 0x3C, 0x80]
    let signature: [UInt8] = [
      0x8B, 0x76, 0x05, 0x2E, 0xE4, 0x2F, 0x55, 0x67, 0xBE, 0xB5, 0x32, 0x38, 0xB3, 0xE3, 0xF9, 0x95,
      0x07, 0x07, 0xC0, 0xDC, 0xC9, 0x56, 0xB5, 0xC5, 0xEF, 0xCF, 0xDB, 0x70, 0x9B, 0x2D, 0x82, 0xB3,
    ]
    let key = [UInt8](repeating: 0, count: 16)
    let lastCounter: UInt32? = 60

    let crypto = try OpenSSLTagTrustCrypto()
    switch try OriginalitySignature.verify(uid: uid, signature: signature, crypto: crypto) {
    case .genuine(let family, let key): check(family == "NTAG21x" && key.source.contains("AN11350"), "family")
    case .notGenuine, .noSignature, .unknownFamily: check(false, "the NTAG21x pair is genuine")
    }

    let message = try SUNMessage(
      parsingURL: "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086")
    if case .valid(let data) = try message.verify(keys: SUNKeys(key: key), crypto: crypto) {
      let replay = data.counterVerdict(lastSeen: lastCounter)
      expectEqual(data.counter, 61, "counter")
      expectEqual(replay, .fresh, "counter above the last one")
    } else {
      check(false, "AN12196's URL is valid")
    }
  }
}
