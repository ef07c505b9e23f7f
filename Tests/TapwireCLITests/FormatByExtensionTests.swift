// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// A file's extension decides the format; the content guess is for extension-less input and
/// stdin; stderr says how the format was chosen.
@Suite("tapwire decode: format by file extension")
struct FormatByExtensionTests {
  /// A URI record whose PAYLOAD_LENGTH (8) claims more than the 4 bytes after it: a damaged
  /// NDEF message that happens to parse as a response APDU (data d1010855016e, SW 6663).
  static let damagedNDEF: [UInt8] = [0xD1, 0x01, 0x08, 0x55, 0x01, 0x6E, 0x66, 0x63]

  static func file(_ name: String, _ bytes: [UInt8]) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tapwire-ext-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
  }

  @Test func aDamagedNDEFFileIsDecodedAsNDEFWithItsError() throws {
    let path = try Self.file("tag.ndef", Self.damagedNDEF)
    let result = try CLI.run(["decode", "--json", path])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["format"] as? String == "ndef")
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == "payloadLengthExceedsInput")
    #expect(error["offset"] as? Int == 2)
    #expect(
      result.stderr.contains("input decoded as ndef (from the file extension .ndef; use --as to choose)"))
  }

  @Test func theSameBytesWithoutAnExtensionAreGuessed() throws {
    let path = try Self.file("tag", Self.damagedNDEF)
    let result = try CLI.run(["decode", "--json", path])
    #expect(result.status == 0)
    #expect(try CLI.object(result.stdout)["format"] as? String == "rapdu")
    #expect(result.stderr.contains("(guessed from the content: no known file extension; use --as to choose)"))
    // An unknown extension is no decision either.
    let binary = try CLI.run(["decode", "--json", try Self.file("tag.bin", Self.damagedNDEF)])
    #expect(try CLI.object(binary.stdout)["format"] as? String == "rapdu")
  }

  @Test func stdinIsGuessedAndSaysSo() throws {
    let result = try CLI.run(["decode", "--json"], stdin: "d1 01 08 55 01 6e 66 63")
    #expect(try CLI.object(result.stdout)["format"] as? String == "rapdu")
    #expect(result.stderr.contains("(guessed from the content: no file name; use --as to choose)"))
  }

  @Test func asStillWinsOverTheExtension() throws {
    let path = try Self.file("tag.ndef", Self.damagedNDEF)
    let result = try CLI.run(["decode", "--as", "rapdu", "--json", path])
    #expect(result.status == 0)
    #expect(try CLI.object(result.stdout)["format"] as? String == "rapdu")
    #expect(!result.stderr.contains("file extension"))
  }

  @Test(arguments: [
    ("select.APDU", "capdu"), ("select.capdu", "capdu"), ("status.rapdu", "rapdu"), ("fci.tlv", "bertlv"),
    ("fci.bertlv", "bertlv"), ("beacon.adv", "adv"), ("image.t2t", "t2t"),
  ])
  func extensionDecides(name: String, format: String) throws {
    // The same 4 bytes (00 A4 04 00) for every name: only the extension picks the format.
    let path = try Self.file(name, [0x00, 0xA4, 0x04, 0x00])
    let result = try CLI.run(["decode", "--json", path])
    #expect(try CLI.object(result.stdout)["format"] as? String == format, "\(result.stdout)")
    let ext = String(name.split(separator: ".").last!).lowercased()
    #expect(result.stderr.contains("(from the file extension .\(ext);"))
  }

  @Test func aNFCFileThatIsNoFlipperDumpSaysSo() throws {
    let path = try Self.file("tag.nfc", Array("hello\n".utf8))
    let result = try CLI.run(["decode", path])
    #expect(result.status == 1)
    #expect(result.stderr.contains("Flipper Zero NFC file: missingDumpPages"))
  }
}

/// Repeated single-valued AD structures: decoded in both modes, the last wins; listed as
/// warnings (lenient) or notes (strict, where `warnings` stays empty).
@Suite("tapwire decode: duplicate AD structures")
struct DuplicateADStructureCommandTests {
  /// Complete Local Name "A" (0), "B" (3), TX Power 0 (6), TX Power 1 (9).
  static let advertisement = "020941020942020a00020a01"

  @Test func strictListsThemAsNotes() throws {
    let result = try CLI.run(["decode", "--as", "adv", "--json", Self.advertisement])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["localName"] as? String == "B")
    #expect(object["txPower"] as? Int == 1)
    #expect((object["warnings"] as? [Any])?.isEmpty == true)
    let notes = try #require(object["notes"] as? [[String: Any]])
    #expect(notes.map { $0["offset"] as? Int } == [3, 9])
    #expect(notes.allSatisfy { $0["code"] as? String == "duplicateSingleValuedType" })
    let tree = try CLI.run(["decode", "--as", "adv", Self.advertisement])
    #expect(tree.stdout.contains("note: duplicateSingleValuedType at offset 9:"))
  }

  @Test func lenientListsThemAsWarnings() throws {
    let result = try CLI.run(["decode", "--as", "adv", "--json", "--lenient", Self.advertisement])
    let object = try CLI.object(result.stdout)
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    #expect(warnings.map { $0["offset"] as? Int } == [3, 9])
    #expect((object["notes"] as? [Any])?.isEmpty == true)
  }
}
