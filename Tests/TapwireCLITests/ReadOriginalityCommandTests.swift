// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire read --json` and `--dump` with the originality verdict (NTAG21x READ_SIG, `3C 00`,
/// checked against the makers' keys by `tapwire-nfc`), over real libnfc against `tapwire
/// simulate`: a genuine published UID and signature pair, a made-up signature, and a tag
/// without GET_VERSION (no READ_SIG sent, no verdict).
@Suite("tapwire read: originality verdicts", .timeLimit(.minutes(1)))
struct ReadOriginalityCommandTests {
  /// proxmark3's published NTAG21x pair, which `simulate --tag ntag215-genuine` presents.
  static let genuineUID = "04e10cda993c80"
  static let genuineSignature = "8b76052ee42f5567beb53238b3e3f9950707c0dcc956b5c5efcfdb709b2d82b3"

  /// Runs `body` with a simulated `tag`'s connection string, then stops the simulator.
  func withSimulator(_ tag: String, _ body: (String) throws -> Void) throws {
    let (simulator, input, connstring) = try ReadCommandTests.startSimulator(image: nil, tag: tag)
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    try #require(connstring.hasPrefix("pn532_uart:/dev/pts/"))
    try body(connstring)
  }

  /// `tapwire read --device CONNSTRING --json` plus `extra`: exit 0 and a `t2t` object.
  func readObject(_ connstring: String, _ extra: [String] = []) throws -> [String: Any] {
    let read = try CLI.run(["read", "--device", connstring, "--json", "--timeout", "10"] + extra)
    #expect(read.status == 0, "\(read.stderr)")
    let object = try CLI.object(read.stdout)
    #expect(object["format"] as? String == "t2t", "\(read.stdout)")
    return object
  }

  /// `tapwire read --device CONNSTRING --dump` (the hex dump): exit 0 and its text.
  func dumpText(_ connstring: String) throws -> String {
    let dump = try CLI.run(["read", "--device", connstring, "--dump", "--timeout", "10"])
    #expect(dump.status == 0, "\(dump.stderr)")
    return dump.stdout
  }

  @Test func aGenuineNTAG215ReadsWithItsVerdictInJSONAndDumps() throws {
    try withSimulator("ntag215-genuine") { connstring in
      let originality = try #require(try readObject(connstring)["originality"] as? [String: Any])
      #expect(originality["genuine"] as? Bool == true)
      #expect(originality["verdict"] as? String == "genuine")
      #expect(originality["family"] as? String == "NTAG21x")
      #expect(originality["keyFamily"] as? String == "NTAG21x")
      #expect(originality["curve"] as? String == "secp128r1")
      #expect((originality["source"] as? String)?.contains("AN11350") == true)
      #expect((originality["uid"] as? String)?.lowercased() == Self.genuineUID)
      #expect((originality["signature"] as? String)?.lowercased() == Self.genuineSignature)
      #expect(originality["signatureLength"] as? Int == 32)

      let dumpedVerdict = try #require(
        try readObject(connstring, ["--dump"])["originality"] as? [String: Any])
      #expect(dumpedVerdict["verdict"] as? String == "genuine")
      #expect(dumpedVerdict["family"] as? String == "NTAG21x")

      let last = try dumpText(connstring).split(separator: "\n").last.map(String.init) ?? ""
      #expect(last.hasPrefix("originality signature: genuine: NTAG21x key"), "\(last)")

      // `ntag info` takes the same path and says the same.
      let info = try CLI.run(["ntag", "info", "--device", connstring, "--timeout", "10"])
      #expect(info.status == 0, "\(info.stderr)")
      #expect(info.stdout.contains("genuine: NTAG21x key"), "\(info.stdout)")
    }
  }

  @Test func aMadeUpSignatureIsNotGenuineAndTheReadStillSucceeds() throws {
    try withSimulator("ntag213") { connstring in
      let originality = try #require(try readObject(connstring)["originality"] as? [String: Any])
      #expect(originality["genuine"] as? Bool == false)
      #expect(originality["verdict"] as? String == "notGenuine")
      #expect((originality["keysTried"] as? Int ?? 0) >= 1)
      #expect(originality["family"] == nil)
      // The simulator's made-up signature: A0 A1 ... BF.
      let madeUp = (0..<32).map { String(format: "%02x", 0xA0 + $0) }.joined()
      #expect((originality["signature"] as? String)?.lowercased() == madeUp)

      let dump = try dumpText(connstring)
      #expect(dump.contains("originality signature: NOT GENUINE"), "\(dump)")
    }
  }

  @Test func aTagWithoutGetVersionHasNoVerdict() throws {
    try withSimulator("ultralight") { connstring in
      let read = try readObject(connstring)
      let dumped = try readObject(connstring, ["--dump"])
      let dump = try dumpText(connstring)
      #expect(read["originality"] == nil && dumped["originality"] == nil)
      #expect(!dump.contains("originality"), "\(dump)")
    }
  }
}
