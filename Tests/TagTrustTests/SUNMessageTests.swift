// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@testable import TagTrust

/// A published SUN URL and what it holds.
struct PublishedSUN: Sendable, CustomStringConvertible {
  let source: String
  let url: String
  let key: String
  let mode: SUNMode
  let piccDataTag: UInt8?
  let uid: String
  let counter: UInt32
  let fileData: [UInt8]?
  var description: String { source }
}

/// NXP AN12196's example URLs (§3.4.2 encrypted PICC data, §3.4.3 with encrypted file data,
/// §3.2 plain mirror) and sdm-backend's LRP-mode ones (tests/test_libsdm.py), all with the
/// all-zero key.
let publishedSUNs: [PublishedSUN] = [
  PublishedSUN(
    source: "AN12196 encrypted PICC data",
    url: "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086",
    key: "00000000000000000000000000000000", mode: .aes, piccDataTag: 0xC7, uid: "04DE5F1EACC040",
    counter: 61, fileData: nil),
  PublishedSUN(
    source: "AN12196 encrypted file data",
    url:
      "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6",
    key: "00000000000000000000000000000000", mode: .aes, piccDataTag: 0xC7, uid: "04958CAA5C5E80",
    counter: 8, fileData: Array("xxxxxxxxxxxxxxxx".utf8)),
  PublishedSUN(
    source: "AN12196 plain mirror",
    url: "https://choose.url.com/ntag424?uid=041E3C8A2D6B80&ctr=000006&cmac=4B00064004B0B3D3",
    key: "00000000000000000000000000000000", mode: .aes, piccDataTag: nil, uid: "041E3C8A2D6B80",
    counter: 6, fileData: nil),
  PublishedSUN(
    source: "sdm-backend LRP with file data",
    url:
      "https://sdm.example/?picc_data=07D9CA2545881D4BFDD920BE1603268C0714420DD893A497&enc=D6E921C47DB4C17C56F979F81559BB83&cmac=F9481AC7D855BDB6",
    key: "00000000000000000000000000000000", mode: .lrp, piccDataTag: 0xC7, uid: "049B112A2F7080",
    counter: 4, fileData: Array("NTXXb7dz3PsYYBlU".utf8)),
  PublishedSUN(
    source: "sdm-backend LRP",
    url:
      "https://sdm.example/?picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F&cmac=4231608BA7B02BA9",
    key: "00000000000000000000000000000000", mode: .lrp, piccDataTag: 0xC7, uid: "04940E2A2F7080",
    counter: 3, fileData: nil),
]

@Suite("SUN messages")
struct SUNMessageTests {
  @Test("a published URL verifies and gives its UID, counter and file data", arguments: publishedSUNs)
  func published(example: PublishedSUN) throws {
    let message = try SUNMessage(parsingURL: example.url)
    #expect(message.mode == example.mode)
    let verdict = try message.verify(keys: SUNKeys(key: hex(example.key)), crypto: crypto)
    guard case .valid(let data) = verdict else {
      Issue.record("\(example): \(verdict)")
      return
    }
    #expect(data.mode == example.mode)
    #expect(data.piccDataTag == example.piccDataTag)
    #expect(data.uid == hex(example.uid))
    #expect(data.counter == example.counter)
    #expect(data.fileData == example.fileData)
  }

  @Test("sdm-backend's wrong SDMMAC for AN12196's file data URL is a MAC mismatch")
  func publishedWrongMAC() throws {
    let url =
      "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962&cmac=3CC1E7F6C6C33B33"
    let verdict = try SUNMessage(parsingURL: url).verify(
      keys: SUNKeys(key: [UInt8](repeating: 0, count: 16)), crypto: crypto)
    #expect(verdict == .invalid(.macMismatch))
  }

  @Test("changing any hex digit of any SUN value makes a published URL invalid", arguments: publishedSUNs)
  func tampered(example: PublishedSUN) throws {
    let message = try SUNMessage(parsingURL: example.url)
    let bytes = Array(example.url.utf8)
    var changed = 0
    for (role, start) in message.valueOffsets {
      var end = start
      while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
      for position in start..<end {
        var tampered = bytes
        tampered[position] = tampered[position] == UInt8(ascii: "0") ? UInt8(ascii: "1") : UInt8(ascii: "0")
        let url = String(decoding: tampered, as: UTF8.self)
        let verdict = try SUNMessage(parsingURL: url).verify(
          keys: SUNKeys(key: hex(example.key)), crypto: crypto)
        #expect(!verdict.isValid, "\(role) digit at \(position)")
        changed += 1
      }
    }
    #expect(changed >= 32)
  }

  @Test("a wrong key makes a published URL invalid", arguments: publishedSUNs)
  func wrongKey(example: PublishedSUN) throws {
    let message = try SUNMessage(parsingURL: example.url)
    var key = hex(example.key)
    key[15] ^= 1
    let wrongMeta = try message.verify(
      keys: SUNKeys(metaReadKey: key, fileReadKey: hex(example.key)), crypto: crypto)
    let wrongFile = try message.verify(
      keys: SUNKeys(metaReadKey: hex(example.key), fileReadKey: key), crypto: crypto)
    #expect(wrongFile == .invalid(.macMismatch))
    if example.piccDataTag != nil { #expect(!wrongMeta.isValid) } else { #expect(wrongMeta.isValid) }
  }

  @Test("URLs made by python3-cryptography with random keys verify, and fail with the keys swapped")
  func pythonMade() throws {
    let seed = UInt64.random(in: 1...UInt64(UInt32.max))
    print("SUN URLs from sun_urls.py, seed \(seed)")
    let lines = try runGenerator(seed: seed, count: 40)
    #expect(lines.count == 40)
    for line in lines {
      let fields = line.split(separator: " ").map(String.init)
      try #require(fields.count == 6, "\(line)")
      let keys = SUNKeys(metaReadKey: hex(fields[0]), fileReadKey: hex(fields[1]))
      let message = try SUNMessage(parsingURL: fields[2])
      let verdict = try message.verify(keys: keys, crypto: crypto)
      guard case .valid(let data) = verdict else {
        Issue.record("seed \(seed): \(fields[2]): \(verdict)")
        continue
      }
      #expect(data.uid == hex(fields[3]))
      #expect(data.counter == UInt32(fields[4]))
      #expect(data.fileData == (fields[5] == "-" ? nil : hex(fields[5])))
      let swapped = SUNKeys(metaReadKey: keys.fileReadKey, fileReadKey: keys.metaReadKey)
      #expect(!(try message.verify(keys: swapped, crypto: crypto)).isValid, "seed \(seed): \(fields[2])")
    }
  }

  @Test("the MAC input: NXP's enc-to-MAC slice, or empty, or from a named value")
  func macInput() throws {
    let message = try SUNMessage(
      parsingURL:
        "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6"
    )
    #expect(
      String(decoding: try message.macInput(.automatic), as: UTF8.self)
        == "CEE9A53E3E463EF1F459635736738962&cmac=")
    #expect(try message.macInput(.empty).isEmpty)
    #expect(
      String(decoding: try message.macInput(.from(.piccData)), as: UTF8.self)
        == "FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962&cmac=")
    #expect(throws: TagTrustError(.missingParameter, offset: message.macOffset)) {
      try message.macInput(.from(.uid))
    }
    // The same URL checked with another MAC input does not verify.
    let key = SUNKeys(key: [UInt8](repeating: 0, count: 16))
    #expect(try message.verify(keys: key, macInput: .empty, crypto: crypto) == .invalid(.macMismatch))
  }

  @Test(
    "malformed URLs are typed errors at the first bad byte",
    arguments: [
      ("https://x/ntag", TagTrustError(.invalidURL, offset: 14)),
      ("x?e=EF963FF7828658A599F3041510671E88", TagTrustError(.missingParameter, offset: 36)),
      ("x?c=94EED9EE65337086", TagTrustError(.missingParameter, offset: 20)),
      ("x?e=EF963FF7828658A599F3041510671E8G&c=94EED9EE65337086", TagTrustError(.invalidHex, offset: 35)),
      ("x?e=EF963FF7828658A599F3041510671E8&c=94EED9EE65337086", TagTrustError(.invalidHex, offset: 4)),
      (
        "x?e=EF963FF7828658A599F3041510671E&c=94EED9EE65337086",
        TagTrustError(.invalidParameterLength, offset: 4)
      ),
      (
        "x?e=EF963FF7828658A599F3041510671E88&c=94EED9EE653370",
        TagTrustError(.invalidParameterLength, offset: 39)
      ),
      (
        "x?e=EF963FF7828658A599F3041510671E88&e=00&c=94EED9EE65337086",
        TagTrustError(.duplicateParameter, offset: 37)
      ),
      (
        "x?e=EF963FF7828658A599F3041510671E88&flag&c=94EED9EE65337086", TagTrustError(.invalidURL, offset: 37)
      ),
      ("x?uid=041E3C8A2D6B&c=94EED9EE65337086", TagTrustError(.invalidParameterLength, offset: 6)),
      ("x?uid=041E3C8A2D6B80&ctr=06&c=94EED9EE65337086", TagTrustError(.invalidParameterLength, offset: 25)),
      (
        "x?e=EF963FF7828658A599F3041510671E88&enc=00&c=94EED9EE65337086",
        TagTrustError(.invalidParameterLength, offset: 41)
      ),
    ])
  func malformed(url: String, error: TagTrustError) {
    #expect(throws: error) { try SUNMessage(parsingURL: url) }
  }

  @Test("unknown parameters and a fragment are ignored")
  func otherParameters() throws {
    let url =
      "https://ntag.nxp.com/424?x=1&e=EF963FF7828658A599F3041510671E88&&lang=en&c=94EED9EE65337086#top"
    let verdict = try SUNMessage(parsingURL: url).verify(
      keys: SUNKeys(key: [UInt8](repeating: 0, count: 16)), crypto: crypto)
    #expect(verdict.isValid)
  }

  @Test("keys that are not 16 bytes are an error")
  func keyLength() throws {
    let message = try SUNMessage(parsingURL: publishedSUNs[0].url)
    #expect(throws: TagTrustError(.invalidKeyLength)) {
      try message.verify(keys: SUNKeys(key: [UInt8](repeating: 0, count: 24)), crypto: crypto)
    }
  }

  @Test("file data without a counter cannot be checked")
  func fileDataWithoutCounter() throws {
    let url = "https://x/?uid=041E3C8A2D6B80&enc=CEE9A53E3E463EF1F459635736738962&cmac=4B00064004B0B3D3"
    let verdict = try SUNMessage(parsingURL: url).verify(
      keys: SUNKeys(key: [UInt8](repeating: 0, count: 16)), crypto: crypto)
    #expect(verdict == .invalid(.counterMissing))
  }

  @Test("the counter check: first seen and higher are fresh, equal or lower replayed")
  func counterVerdict() {
    let data = SUNData(mode: .aes, piccDataTag: 0xC7, uid: nil, counter: 61, fileData: nil)
    #expect(data.counterVerdict(lastSeen: nil) == .fresh)
    #expect(data.counterVerdict(lastSeen: 60) == .fresh)
    #expect(data.counterVerdict(lastSeen: 61) == .replayed(lastSeen: 61))
    #expect(data.counterVerdict(lastSeen: 62) == .replayed(lastSeen: 62))
    let none = SUNData(mode: .aes, piccDataTag: 0x87, uid: nil, counter: nil, fileData: nil)
    #expect(none.counterVerdict(lastSeen: 1) == nil)
  }

  /// The lines `sun_urls.py SEED COUNT [MODE]` prints (`mode` `["lrp"]` for LRP URLs).
  func runGenerator(seed: UInt64, count: Int, mode: [String] = []) throws -> [String] {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "sun_urls.py")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [script.path, String(seed), String(count)] + mode
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(process.terminationStatus == 0)
    return String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
  }
}
