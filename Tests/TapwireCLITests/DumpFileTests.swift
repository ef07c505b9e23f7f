// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Tag dump files (Flipper Zero `.nfc`, Proxmark3 JSON, libnfc `.mfd`) in
/// `Corpus/tags/dumps/`, written from `Corpus/tags/seeds/t2t-ntag215-smartposter.bin`: each
/// must decode to exactly the JSON of that raw image.
@Suite("tapwire decode: tag dump files")
struct DumpFileTests {
  static let seed = "Corpus/tags/seeds/t2t-ntag215-smartposter.bin"

  @Test(arguments: [
    ("t2t-ntag215-smartposter.nfc", "Flipper Zero NFC file"),
    ("t2t-ntag215-smartposter.json", "Proxmark3 JSON dump"),
    ("t2t-ntag215-smartposter.mfd", "libnfc .mfd image"),
  ])
  func decodesLikeTheRawImage(_ entry: (String, String)) throws {
    let raw = try CLI.run(["decode", "--as", "t2t", "--json", Self.seed])
    #expect(raw.status == 0)
    let dump = try CLI.run(["decode", "--json", "Corpus/tags/dumps/\(entry.0)"])
    #expect(dump.status == 0, "\(dump.stdout)")
    #expect(dump.stdout == raw.stdout)
    #expect(dump.stderr.contains("read as a \(entry.1) (540 bytes of pages), decoded as t2t"))
    let explicit = try CLI.run(["decode", "--as", "t2t", "--json", "Corpus/tags/dumps/\(entry.0)"])
    #expect(explicit.stdout == raw.stdout)
  }

  /// Detection is by content: the Flipper text through standard input decodes the same.
  @Test func flipperFromStandardInput() throws {
    let text = try String(
      contentsOf: CLI.root.appendingPathComponent("Corpus/tags/dumps/t2t-ntag215-smartposter.nfc"),
      encoding: .utf8)
    let result = try CLI.run(["decode", "--json"], stdin: text)
    #expect(result.status == 0)
    #expect(result.stdout == (try CLI.run(["decode", "--as", "t2t", "--json", Self.seed])).stdout)
  }

  /// Older Flipper files (format version 2) name the chip in `Device type:` itself.
  @Test func flipperVersion2DeviceType() throws {
    let text = try String(
      contentsOf: CLI.root.appendingPathComponent("Corpus/tags/dumps/t2t-ntag215-smartposter.nfc"),
      encoding: .utf8)
    let older = text.replacingOccurrences(of: "Device type: NTAG/Ultralight", with: "Device type: NTAG215")
      .replacingOccurrences(of: "Version: 4", with: "Version: 2")
    #expect(older != text)
    let result = try CLI.run(["decode", "--json"], stdin: older)
    #expect(result.status == 0)
    #expect(result.stdout == (try CLI.run(["decode", "--as", "t2t", "--json", Self.seed])).stdout)
  }

  /// Malformed dumps: the code and the byte offset in the file.
  @Test(arguments: [
    ("Filetype: Flipper NFC device\nDevice type: Mifare Classic\n", "missingDumpPages", 57),
    ("Filetype: Flipper NFC device\nPage 0: 04 11 22 9F\nPage 2: 00 00 00 00\n", "invalidDumpPage", 49),
    ("Filetype: Flipper NFC device\nPage 0: 04 11 22\n", "invalidDumpPage", 29),
    ("Filetype: Flipper NFC device\nVersion: 4\n", "missingDumpPages", 40),
    ("{\"Created\": \"proxmark3\", \"FileType\": \"mfc\", \"blocks\": {}}", "unsupportedDumpType", 25),
    (
      "{\"Created\": \"proxmark3\", \"FileType\": \"mfu\", \"blocks\": {\"0\": \"0411229F\", \"2\": \"00\"}}",
      "invalidDumpPage", 44
    ),
    ("{\"FileType\": \"mfu\", \"blocks\": {\"0\": \"04XX229F\"}}", "invalidDumpPage", 31),
    ("{\"FileType\": \"mfu\", \"blocks\": ", "invalidDumpJSON", 0),
  ])
  func malformed(_ entry: (String, String, Int)) throws {
    let result = try CLI.run(["decode", "--json"], stdin: entry.0)
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == false)
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == entry.1, "\(entry.0)")
    #expect(error["offset"] as? Int == entry.2, "\(entry.0)")
  }

  /// A `.mfd` file that is not whole pages fails at the first byte of the partial page.
  @Test func mfdOfPartialPage() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tapwire-\(getpid()).mfd")
    defer { try? FileManager.default.removeItem(at: path) }
    try Data([0x04, 0x11, 0x22, 0x9F, 0x33, 0x44]).write(to: path)
    let result = try CLI.run(["decode", "--json", path.path])
    #expect(result.status == 1)
    let error = try #require(try CLI.object(result.stdout)["error"] as? [String: Any])
    #expect(error["code"] as? String == "invalidDumpSize")
    #expect(error["offset"] as? Int == 4)
  }
}
