// SPDX-License-Identifier: Apache-2.0
import GlobalPlatformCryptoOpenSSL
import NDEF
import Testing

@testable import TagTrust

/// The per-request SUN check (`SUNMessage.verify(url:keys:crypto:)`: the URL read in place,
/// keys and blocks inline, OpenSSL's context reused) against `SUNMessage`'s, and the
/// allocation-free AES entry points against published vectors.
@Suite("SUN checks per request")
struct SUNRequestTests {
  @Test(
    "a published URL verifies in place, with SUNMessage's verdict and the file data in place",
    arguments: publishedSUNs)
  func published(example: PublishedSUN) throws {
    let keys = SUNKeys(key: hex(example.key))
    let verdict = try SUNMessage.verify(url: example.url, keys: keys, crypto: crypto)
    #expect(verdict == (try SUNMessage(parsingURL: example.url).verify(keys: keys, crypto: crypto)))
    guard case .valid(let data) = verdict else {
      Issue.record("\(example): \(verdict)")
      return
    }
    #expect(data.uid == hex(example.uid) && data.counter == example.counter)
    #expect(data.withFileData(Self.bytes) == example.fileData)
  }

  /// The bytes of `span`.
  static func bytes(_ span: Span<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    for index in span.indices { out.append(span[index]) }
    return out
  }

  @Test("every digit of every value changed: invalid, as SUNMessage says", arguments: publishedSUNs)
  func tampered(example: PublishedSUN) throws {
    let message = try SUNMessage(parsingURL: example.url)
    let bytes = Array(example.url.utf8)
    let keys = SUNKeys(key: hex(example.key))
    var changed = 0
    for start in message.valueOffsets.values {
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
      for position in start..<end {
        var tampered = bytes
        tampered[position] = tampered[position] == UInt8(ascii: "F") ? UInt8(ascii: "E") : UInt8(ascii: "F")
        let inPlace = try SUNMessage.verify(url: tampered.span, keys: keys, crypto: crypto)
        #expect(!inPlace.isValid, "digit at \(position)")
        let url = String(decoding: tampered, as: UTF8.self)
        #expect(try SUNMessage(parsingURL: url).verify(keys: keys, crypto: crypto) == inPlace)
        changed += 1
      }
    }
    #expect(changed >= 32)
  }

  @Test(
    "malformed URLs: the same typed errors at the same offsets",
    arguments: [
      "https://x/ntag", "x?e=EF963FF7828658A599F3041510671E88", "x?c=94EED9EE65337086",
      "x?e=EF963FF7828658A599F3041510671E8G&c=94EED9EE65337086",
      "x?e=EF963FF7828658A599F3041510671E8&c=94EED9EE65337086",
      "x?e=EF963FF7828658A599F3041510671E88&e=00&c=94EED9EE65337086",
      "x?e=EF963FF7828658A599F3041510671E88&flag&c=94EED9EE65337086",
      "x?uid=041E3C8A2D6B80&ctr=06&c=94EED9EE65337086",
    ])
  func malformed(url: String) throws {
    let keys = SUNKeys(key: [UInt8](repeating: 0, count: 16))
    var messageError: TagTrustError?
    do { _ = try SUNMessage(parsingURL: url) } catch { messageError = error }
    var requestError: TagTrustError?
    do { _ = try SUNMessage.verify(url: url, keys: keys, crypto: crypto) } catch { requestError = error }
    #expect(messageError != nil)
    #expect(requestError == messageError)
  }

  @Test("more file data than an NTAG 424 DNA file can mirror is a length error")
  func fileDataLimit() throws {
    let blocks = String(repeating: "00", count: SUNData.maximumFileDataSize + 16)
    let url = "https://x/?uid=041E3C8A2D6B80&ctr=000006&enc=\(blocks)&cmac=4B00064004B0B3D3"
    #expect(throws: TagTrustError(.invalidParameterLength, offset: 45)) {
      try SUNMessage(parsingURL: url)
    }
    let most = String(repeating: "00", count: SUNData.maximumFileDataSize)
    let fits = "https://x/?uid=041E3C8A2D6B80&ctr=000006&enc=\(most)&cmac=4B00064004B0B3D3"
    #expect(
      try SUNMessage.verify(url: fits, keys: SUNKeys(key: [UInt8](repeating: 0, count: 16)), crypto: crypto)
        == .invalid(.macMismatch))
  }

  @Test(
    "URLs made by python3-cryptography verify in place and as messages, and fail with the keys swapped",
    arguments: ["aes", "lrp"])
  func pythonMade(mode: String) throws {
    let seed = UInt64.random(in: 1...UInt64(UInt32.max))
    print("SUN URLs from sun_urls.py \(mode), seed \(seed)")
    let lines = try SUNMessageTests().runGenerator(seed: seed, count: 24, mode: mode == "lrp" ? ["lrp"] : [])
    #expect(lines.count == 24)
    for line in lines {
      let fields = line.split(separator: " ").map(String.init)
      try #require(fields.count == 6, "\(line)")
      let keys = SUNKeys(metaReadKey: hex(fields[0]), fileReadKey: hex(fields[1]))
      let verdict = try SUNMessage.verify(url: fields[2], keys: keys, crypto: crypto)
      guard case .valid(let data) = verdict else {
        Issue.record("seed \(seed): \(fields[2]): \(verdict)")
        continue
      }
      #expect(data.mode.rawValue == mode)
      #expect(data.uid == hex(fields[3]))
      #expect(data.counter == UInt32(fields[4]))
      #expect(data.fileData == (fields[5] == "-" ? nil : hex(fields[5])))
      #expect(try SUNMessage(parsingURL: fields[2]).verify(keys: keys, crypto: crypto) == verdict)
      let swapped = SUNKeys(metaReadKey: keys.fileReadKey, fileReadKey: keys.metaReadKey)
      #expect(!(try SUNMessage.verify(url: fields[2], keys: swapped, crypto: crypto)).isValid, "seed \(seed)")
    }
  }

  @Test("the URL of an NDEF URI record, its prefix expanded by NDEF's URI code", arguments: publishedSUNs)
  func uriRecord(example: PublishedSUN) throws {
    let payload = URIRecord(example.url).payload
    #expect(payload.count < example.url.utf8.count, "an abbreviated prefix")
    let message = try SUNMessage(uriRecordPayload: payload)
    #expect(message.url == Array(example.url.utf8))
    #expect(try message.verify(keys: SUNKeys(key: hex(example.key)), crypto: crypto).isValid)
    #expect(throws: TagTrustError(.invalidURL, offset: 0)) { try SUNMessage(uriRecordPayload: []) }
    #expect(throws: TagTrustError(.invalidURL, offset: 0)) {
      try SUNMessage(uriRecordPayload: [0xF0] + Array(payload.dropFirst()))
    }
  }

  @Test(
    "keys prepared for LRP give the same verdicts, and equal the keys they came from",
    arguments: publishedSUNs)
  func preparedKeys(example: PublishedSUN) throws {
    let keys = SUNKeys(key: hex(example.key))
    let prepared = try keys.preparedForLRP(crypto: crypto)
    #expect(prepared == keys)
    let verdict = try SUNMessage.verify(url: example.url, keys: prepared, crypto: crypto)
    #expect(verdict.isValid)
    #expect(verdict == (try SUNMessage.verify(url: example.url, keys: keys, crypto: crypto)))
    // A key changed after preparing drops its prepared material: the check uses the new key.
    var changed = prepared
    changed.fileReadKey[0] ^= 1
    #expect(try SUNMessage.verify(url: example.url, keys: changed, crypto: crypto) == .invalid(.macMismatch))
    #expect(throws: TagTrustError(.invalidKeyLength)) {
      try SUNKeys(key: [1, 2, 3]).preparedForLRP(crypto: crypto)
    }
  }

  @Test("a key of the wrong length is an error in place too")
  func keyLength() {
    #expect(throws: TagTrustError(.invalidKeyLength)) {
      try SUNMessage.verify(
        url: publishedSUNs[0].url, keys: SUNKeys(key: [UInt8](repeating: 0, count: 15)), crypto: crypto)
    }
  }

  @Test("inline keys give the same verdict as array keys")
  func inlineKeys() throws {
    let keys = SUNKeys(metaReadKey: AESBlock(), fileReadKey: AESBlock())
    #expect(keys == SUNKeys(key: [UInt8](repeating: 0, count: 16)))
    for example in publishedSUNs {
      #expect(try SUNMessage.verify(url: example.url, keys: keys, crypto: crypto).isValid, "\(example)")
    }
  }

  @Test("FIPS 197 Appendix C.1: one AES-128 block both ways through the reused context")
  func aesBlock() throws {
    let key = try #require(AESBlock(hex("000102030405060708090A0B0C0D0E0F")))
    let plain = try #require(AESBlock(hex("00112233445566778899AABBCCDDEEFF")))
    let cipher = try crypto.aesBlock(encrypting: true, key: key, block: plain)
    #expect(cipher.array == hex("69C4E0D86A7B0430D8CDB78070B4C55A"))
    #expect(try crypto.aesBlock(encrypting: false, key: key, block: cipher) == plain)
  }

  @Test(
    "NIST SP 800-38B Appendix D.1: AES-128-CMAC in place equals the array CMAC",
    arguments: [
      (0, "BB1D6929E95937287FA37D129B756746"), (16, "070A16B46B4D4144F79BDD9DD04A287C"),
      (40, "DFA66747DE9AE63030CA32611497C827"), (64, "51F0BEBF7E3B9D92FC49741779363CFE"),
    ])
  func cmac(length: Int, expected: String) throws {
    let key = try #require(AESBlock(hex("2B7E151628AED2A6ABF7158809CF4F3C")))
    let message = Array(
      hex(
        "6BC1BEE22E409F96E93D7E117393172AAE2D8A571E03AC9C9EB76FAC45AF8E5130C81C46A35CE411E5FBC1191A0A52EFF69F2445DF4F9B17AD2B417BE66C3710"
      ).prefix(length))
    #expect(try crypto.aesCMAC(key: key, bytes: message.span).array == hex(expected))
    #expect(try crypto.aesCMAC(key: key.array, message: message) == hex(expected))
  }

  /// A provider with only the array operations: the default block and CMAC entry points.
  struct ArrayOnlyCrypto: TagTrustCrypto {
    let base: OpenSSLTagTrustCrypto
    func ecdsaVerify(curve: EllipticCurve, publicKey: [UInt8], digest: [UInt8], r: [UInt8], s: [UInt8])
      throws(TagTrustError) -> Bool
    { try base.ecdsaVerify(curve: curve, publicKey: publicKey, digest: digest, r: r, s: s) }
    func sha256(_ message: [UInt8]) throws(TagTrustError) -> [UInt8] { try base.sha256(message) }
    func aesECB(encrypting: Bool, key: [UInt8], data: [UInt8]) throws(TagTrustError) -> [UInt8] {
      try base.aesECB(encrypting: encrypting, key: key, data: data)
    }
    func aesCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(TagTrustError) -> [UInt8] {
      try base.aesCBC(encrypting: encrypting, key: key, iv: iv, data: data)
    }
    func aesCMAC(key: [UInt8], message: [UInt8]) throws(TagTrustError) -> [UInt8] {
      try base.aesCMAC(key: key, message: message)
    }
    func certifiedKey(chain: [[UInt8]], trustAnchors: [[UInt8]]) throws(TagTrustError)
      -> CertificateChainResult
    {
      try base.certifiedKey(chain: chain, trustAnchors: trustAnchors)
    }
  }

  @Test("a provider without the in-place entry points gives the same verdicts", arguments: publishedSUNs)
  func arrayOnlyProvider(example: PublishedSUN) throws {
    let keys = SUNKeys(key: hex(example.key))
    let arrays = try SUNMessage.verify(url: example.url, keys: keys, crypto: ArrayOnlyCrypto(base: crypto))
    #expect(arrays.isValid)
    #expect(arrays == (try SUNMessage.verify(url: example.url, keys: keys, crypto: crypto)))
  }

  @Test("one provider shared by many tasks at once: every check still right")
  func sharedProvider() async throws {
    let shared = try OpenSSLTagTrustCrypto()
    let results = await withTaskGroup(of: Bool.self) { group in
      for round in 0..<64 {
        group.addTask {
          let example = publishedSUNs[round % publishedSUNs.count]
          let keys = SUNKeys(key: hex(example.key))
          guard case .valid(let data)? = try? SUNMessage.verify(url: example.url, keys: keys, crypto: shared)
          else { return false }
          return data.counter == example.counter && data.uid == hex(example.uid)
        }
      }
      var all: [Bool] = []
      for await result in group { all.append(result) }
      return all
    }
    #expect(results.count == 64)
    #expect(results.allSatisfy { $0 })
  }
}
