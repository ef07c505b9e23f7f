// SPDX-License-Identifier: Apache-2.0
import GlobalPlatformCryptoOpenSSL
import TagTrust

/// SUN URL and originality signature checks with OpenSSL's provider, one check an operation:
/// the items/s column is verifications per second on one core, allocs/op the heap allocations
/// per verification (0 for the `sun.verify.*` ones: the per-request call
/// `SUNMessage.verify(url:keys:crypto:)` reads the URL in place and OpenSSL's provider rekeys
/// one AES context).
enum TrustBenchmarks {
  static func all() -> [Benchmark] {
    guard let crypto = try? OpenSSLTagTrustCrypto() else { return [] }
    let zero = SUNKeys(key: [UInt8](repeating: 0, count: 16))
    // NXP AN12196's example URLs (encrypted PICC data; with encrypted file data; the plain
    // mirror) and sdm-backend's LRP ones (tests/test_libsdm.py), all with the zero key.
    let urls = [
      ("sun.verify.aes", "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086"),
      (
        "sun.verify.aes-file-data",
        "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6"
      ),
      (
        "sun.verify.aes-plain-mirror",
        "https://choose.url.com/ntag424?uid=041E3C8A2D6B80&ctr=000006&cmac=4B00064004B0B3D3"
      ),
      (
        "sun.verify.lrp",
        "https://sdm.example/?picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F&cmac=4231608BA7B02BA9"
      ),
      (
        "sun.verify.lrp-file-data",
        "https://sdm.example/?picc_data=07D9CA2545881D4BFDD920BE1603268C0714420DD893A497&enc=D6E921C47DB4C17C56F979F81559BB83&cmac=F9481AC7D855BDB6"
      ),
    ]
    var benchmarks = urls.map { name, url in
      Benchmark(name: name, bytesPerOperation: url.utf8.count, itemsPerOperation: 1) { n in
        var valid = 0
        for _ in 0..<n {
          if (try? SUNMessage.verify(url: url, keys: zero, crypto: crypto))?.isValid == true { valid &+= 1 }
        }
        return valid
      }
    }
    // LRP with keys prepared once (their LRP plaintexts and updated keys made at start-up).
    if let prepared = try? zero.preparedForLRP(crypto: crypto) {
      for (name, url) in urls where name.hasPrefix("sun.verify.lrp") {
        benchmarks.append(
          Benchmark(name: name + ".prepared-keys", bytesPerOperation: url.utf8.count, itemsPerOperation: 1) {
            n in
            var valid = 0
            for _ in 0..<n {
              if (try? SUNMessage.verify(url: url, keys: prepared, crypto: crypto))?.isValid == true {
                valid &+= 1
              }
            }
            return valid
          })
      }
    }
    // The same AES URL through SUNMessage (its values copied into arrays), for comparison.
    let (_, first) = urls[0]
    benchmarks.append(
      Benchmark(name: "sun.message-verify.aes", bytesPerOperation: first.utf8.count, itemsPerOperation: 1) {
        n in
        var valid = 0
        for _ in 0..<n {
          guard let message = try? SUNMessage(parsingURL: first),
            let verdict = try? message.verify(keys: zero, crypto: crypto)
          else { continue }
          if verdict.isValid { valid &+= 1 }
        }
        return valid
      })
    // proxmark3's NTAG21x pair (the first key of the table) and an NTAG 424 DNA pair (P-224,
    // found after the other P-224 keys are tried).
    let pairs: [(String, [UInt8], [UInt8])] = [
      (
        "signature.verify.ntag21x", hex("04E10CDA993C80"),
        hex("8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3")
      ),
      (
        "signature.verify.ntag424dna", hex("0463474AA26A80"),
        hex(
          "27E9A50E6CA4BA9037C02F7D20A80D0284D0C1D83C67F5A5AC1D8A4EF86C9508417E4E9C6F85AA7920F0ABDED984CAF20467D66EA54BBF08"
        )
      ),
    ]
    for (name, uid, signature) in pairs {
      benchmarks.append(
        Benchmark(name: name, bytesPerOperation: uid.count + signature.count, itemsPerOperation: 1) { n in
          var genuine = 0
          for _ in 0..<n {
            if (try? OriginalitySignature.verify(uid: uid, signature: signature, crypto: crypto))?.isGenuine
              == true
            {
              genuine &+= 1
            }
          }
          return genuine
        })
    }
    return benchmarks
  }

  /// The bytes of a hex literal of this file.
  static func hex(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
      let next = text.index(index, offsetBy: 2)
      out.append(UInt8(text[index..<next], radix: 16) ?? 0)
      index = next
    }
    return out
  }
}
