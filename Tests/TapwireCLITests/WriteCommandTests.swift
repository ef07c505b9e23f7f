// SPDX-License-Identifier: Apache-2.0
import Foundation
import PN532Simulator
import Testing

/// `tapwire write` end to end: the records built as `encode` builds them, written by
/// `tapwire-nfc` through libnfc's pn532_uart driver to the simulated PN532, read back by
/// `tapwire read`.
@Suite("tapwire write", .timeLimit(.minutes(1)))
struct WriteCommandTests {
  /// The decoded objects of the NDEF records `tapwire read --json` prints.
  static func readRecords(_ connstring: String) throws -> [[String: Any]] {
    let result = try CLI.run(["read", "--device", connstring, "--json", "--timeout", "10"])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try CLI.object(result.stdout)
    let records =
      (object["ndef"] as? [String: Any])?["records"] as? [[String: Any]] ?? object["records"]
      as? [[String: Any]]
    return try #require(records).map { $0["decoded"] as? [String: Any] ?? [:] }
  }

  @Test func writesRecordsToASimulatedNTAG215() throws {
    let (simulator, input, connstring) = try ReadCommandTests.startSimulator(
      image: "Corpus/tags/seeds/t2t-ntag215-smartposter.bin")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let result = try CLI.run([
      "write", "--device", connstring, "--timeout", "10", "uri", "https://example.com", "text", "--lang",
      "en",
      "Hello",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("type2 NTAG215 tag UID 04112233445566"))
    let encoded = try CLI.run(["encode", "uri", "https://example.com", "text", "--lang", "en", "Hello"])
    #expect(result.stdout.contains(encoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
    let records = try Self.readRecords(connstring)
    #expect(records.count == 2)
    #expect(records.first?["uri"] as? String == "https://example.com")
    #expect(records.last?["text"] as? String == "Hello")
  }

  @Test func writesAMessageToASimulatedType4Tag() throws {
    let (simulator, input, connstring) = try ReadCommandTests.startSimulator(
      image: "Corpus/ndef/seeds/uri-http-www-nfc-com.ndef", tag: "type4")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    // Text record "en" "Hi there": D1 01 0B 54 02 65 6E + "Hi there".
    let message = "d1010b5402656e4869207468657265"
    let result = try CLI.run(["write", "--device", connstring, "--timeout", "10", "--message", message])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("wrote 15 bytes to type4 tag UID 08545704, verified"))
    let records = try Self.readRecords(connstring)
    #expect(records.count == 1)
    #expect(records.first?["text"] as? String == "Hi there")
    #expect(records.first?["language"] as? String == "en")
  }

  @Test func aMessageTooLargeForNTAG213IsRefusedAndNothingIsWritten() throws {
    let (simulator, input, connstring) = try ReadCommandTests.startSimulator(
      image: "Corpus/tags/seeds/t2t-ntag213-blank.bin", tag: "ntag213")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    // NTAG213 holds 144 bytes of data area; this Text record is 207 bytes.
    let text = String(repeating: "x", count: 200)
    let result = try CLI.run(["write", "--device", connstring, "--timeout", "10", "text", text])
    #expect(result.status == 1)
    #expect(result.stderr.contains("does not fit"), "\(result.stderr)")
    #expect(result.stderr.contains("messageTooLarge"))
    let dump = try CLI.run(["read", "--device", connstring, "--dump", "--json", "--timeout", "10"])
    let image = try #require(try CLI.object(dump.stdout)["image"] as? String)
    let file = try Data(
      contentsOf: CLI.root.appendingPathComponent("Corpus/tags/seeds/t2t-ntag213-blank.bin"))
    // As READ shows the tag: PWD and PACK as zeros (NTAG213/215/216 §8.8.1).
    let readable = try SimulatedType2Tag(product: .ntag213, memory: Array(file)).readableMemory
    #expect(image == readable.map { String(format: "%02x", $0) }.joined())
  }

  @Test func aReadOnlyTagIsAClearError() throws {
    let (simulator, input, connstring) = try ReadCommandTests.startSimulator(
      image: "Corpus/tags/seeds/t2t-ntag216-readonly.bin", tag: "ntag216")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let result = try CLI.run([
      "write", "--device", connstring, "--timeout", "10", "uri", "https://example.com",
    ])
    #expect(result.status == 1)
    #expect(result.stderr.contains("read-only tag"), "\(result.stderr)")
  }

  @Test func noReaderIsAClearError() throws {
    let result = try CLI.run([
      "write", "--device", "pn532_uart:/dev/null-no-such-device", "--timeout", "1", "uri",
      "https://example.com",
    ])
    #expect(result.status == 1)
    #expect(result.stderr.contains("no reader"))
  }

  @Test func aBadRecordIsAUsageErrorBeforeAnyReaderIsOpened() throws {
    let result = try CLI.run(["write", "--device", "pn532_uart:/dev/null-no-such-device", "urx", "x"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("did you mean 'uri'"))
    #expect(!result.stderr.contains("no reader"))
  }

  /// `tapwire write` to blank simulated Type 1 (static and dynamic) and Type 3 tags, read
  /// back by `tapwire read --json`.
  @Test(arguments: [
    ("topaz96", "t1t-static-blank.bin", "type1 tag UID 01020304"),
    ("topaz512", "t1t-dynamic-topaz512-blank.bin", "type1 tag UID 01020304"),
    ("felica", "t3t-blank.bin", "type3 tag UID 012e545700000003"),
  ])
  func writesRecordsToSimulatedType1AndType3Tags(_ tag: String, _ seed: String, _ described: String) throws {
    let (simulator, input, connstring) = try ReadCommandTests.startSimulator(
      image: "Corpus/tags/seeds/" + seed, tag: tag)
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    // A text long enough to run past block 0x0F of a Topaz 512 (and over several T3T blocks).
    let text = String(repeating: "tapwire ", count: tag == "topaz96" ? 4 : 16)
    let result = try CLI.run([
      "write", "--device", connstring, "--timeout", "10", "uri", "https://example.com", "text", text,
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains(described), "\(result.stdout)")
    #expect(result.stdout.contains("verified"))
    let records = try Self.readRecords(connstring)
    #expect(records.count == 2)
    #expect(records.first?["uri"] as? String == "https://example.com")
    #expect(records.last?["text"] as? String == text)
  }
}
