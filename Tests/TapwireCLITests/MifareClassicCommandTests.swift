// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire format`, `write`, `read` and `lock` on a simulated MIFARE Classic card, end to
/// end through `tapwire-nfc` and libnfc's pn532_uart driver. Keys never show in the output.
@Suite("tapwire MIFARE Classic", .timeLimit(.minutes(1)))
struct MifareClassicCommandTests {
  static let keyB = "5A17E90C3381"

  /// Every output of a run, to look for key bytes in.
  static func everything(_ result: CLI.Result) -> String { (result.stdout + result.stderr).uppercased() }

  @Test func formatsWritesReadsAndLocksA1KCard() throws {
    let (simulator, input, connstring) = try ReadCommandTests.startSimulator(image: nil, tag: "mifare-1k")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let device = ["--device", connstring, "--timeout", "10"]
    let format = try CLI.run(["format"] + device + ["--key-b", Self.keyB])
    #expect(format.status == 0, "\(format.stderr)")
    #expect(format.stdout.contains("MIFARE Classic 1K"))
    #expect(format.stdout.contains("15 NFC sectors"))
    let write = try CLI.run(
      ["write"] + device + ["uri", "https://example.com", "text", "--lang", "en", "Hello"])
    #expect(write.status == 0, "\(write.stderr)")
    let read = try CLI.run(["read"] + device + ["--json"])
    #expect(read.status == 0, "\(read.stderr)")
    let object = try CLI.object(read.stdout)
    #expect(object["format"] as? String == "mfc")
    #expect(object["readOnly"] as? Bool == false)
    let mad = try #require(object["mad"] as? [String: Any])
    #expect(mad["version"] as? Int == 1)
    #expect((mad["ndefSectors"] as? [Int])?.count == 15)
    #expect((mad["sectorsRead"] as? [Int]) == [1])
    let records = try #require((object["ndef"] as? [String: Any])?["records"] as? [[String: Any]])
    #expect((records.first?["decoded"] as? [String: Any])?["uri"] as? String == "https://example.com")
    let human = try CLI.run(["read"] + device)
    #expect(human.stdout.contains("MAD version 1: NDEF in sectors 1, 2, 3"))
    let dump = try CLI.run(["read"] + device + ["--dump", "--json"])
    let image = try #require(try CLI.object(dump.stdout)["image"] as? String)
    #expect(image.count == 2048)
    // Locking needs the confirmation flag, then key B.
    let refused = try CLI.run(["lock"] + device)
    #expect(refused.status == 2)
    let noKey = try CLI.run(["lock"] + device + ["--confirm-permanent"])
    #expect(noKey.status == 1)
    #expect(noKey.stderr.contains("no key opened sector 1"))
    let lock = try CLI.run(["lock"] + device + ["--key", "B:" + Self.keyB, "--confirm-permanent"])
    #expect(lock.status == 0, "\(lock.stderr)")
    let locked = try CLI.object(try CLI.run(["read"] + device + ["--json"]).stdout)
    #expect(locked["readOnly"] as? Bool == true)
    let rewrite = try CLI.run(["write"] + device + ["text", "--lang", "en", "again"])
    #expect(rewrite.status == 1)
    #expect(rewrite.stderr.contains("read-only"))
    for result in [format, write, read, human, dump, refused, noKey, lock, rewrite] {
      #expect(!Self.everything(result).contains(Self.keyB))
    }
  }

  @Test func wrongKeysAreNamedWithoutTheirBytes() throws {
    let (simulator, input, connstring) = try ReadCommandTests.startSimulator(image: nil, tag: "mifare-4k")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let device = ["--device", connstring, "--timeout", "10"]
    #expect(try CLI.run(["format"] + device + ["--key-b", Self.keyB]).status == 0)
    let keys = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tapwire-mfc-keys-\(getpid()).dic")
    try "# a dictionary\n112233445566\nAABBCCDDEEFF # a comment\n".write(
      to: keys, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: keys) }
    let lock = try CLI.run(
      ["lock"] + device + ["--keys", keys.path, "--key", "B:0BADC0FFEE42", "--confirm-permanent"])
    #expect(lock.status == 1)
    #expect(lock.stderr.contains("sector 1"))
    #expect(lock.stderr.contains("key B"))
    for secret in ["112233445566", "AABBCCDDEEFF", "0BADC0FFEE42", Self.keyB] {
      #expect(!Self.everything(lock).contains(secret))
    }
    let badKey = try CLI.run(["read"] + device + ["--key", "B:0BADC0FFEE"])
    #expect(badKey.status == 2)
    #expect(!badKey.stderr.uppercased().contains("0BADC0FFEE"))
    let read = try CLI.run(["read"] + device + ["--json"])
    #expect(read.status == 0, "\(read.stderr)")
    let mad = try #require(try CLI.object(read.stdout)["mad"] as? [String: Any])
    #expect(mad["version"] as? Int == 2)
    #expect((mad["ndefSectors"] as? [Int])?.contains(16) == false)
    #expect((mad["ndefSectors"] as? [Int])?.count == 38)
  }
}
