// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire decode --as t4t`: Type 4 Tag CC files (T4T 2.0/3.0 §5.1), optionally followed by
/// the NDEF file (NLEN, message; §5.2). Vectors are hand-assembled from the field tables.
@Suite("tapwire decode --as t4t")
struct T4TDecodeTests {
  /// CCLEN 000F, mapping 2.0, MLe 003B, MLc 0034, NDEF File Control TLV 04 06: file E104,
  /// maximum size 00FF, read 00, write 00.
  static let cc = "000F20003B00340406E10400FF0000"

  @Test func mappingVersion2CC() throws {
    let result = try CLI.run(["decode", "--as", "t4t", "--json", Self.cc])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    #expect(object["format"] as? String == "t4t")
    let cc = try #require(object["capabilityContainer"] as? [String: Any])
    #expect(cc["size"] as? Int == 15)
    #expect(cc["version"] as? Int == 0x20)
    #expect(cc["versionText"] as? String == "2.0")
    #expect(cc["mle"] as? Int == 0x3B)
    #expect(cc["mlc"] as? Int == 0x34)
    #expect(cc["extended"] as? Bool == false)
    #expect(cc["fileIdentifier"] as? String == "e104")
    #expect(cc["maxFileSize"] as? Int == 0xFF)
    #expect(cc["readAccess"] as? Int == 0)
    #expect(cc["writeAccess"] as? Int == 0)
    let tlvs = try #require(object["tlvs"] as? [[String: Any]])
    #expect(tlvs.count == 1)
    #expect(tlvs.first?["type"] as? Int == 4)
    #expect(tlvs.first?["typeName"] as? String == "ndefFileControl")
    #expect(tlvs.first?["offset"] as? Int == 7)
    #expect(tlvs.first?["length"] as? Int == 6)
    #expect(object["ndef"] is NSNull)
    #expect(object["dataAreaSize"] as? Int == 0xFF)
    #expect(object["maxNDEFSize"] as? Int == 0xFD)
    #expect(object["readOnly"] as? Bool == false)
    #expect((object["warnings"] as? [Any])?.isEmpty == true)
  }

  /// Mapping 3.0 with the Extended NDEF File Control TLV (06 08, a 4-byte size 00010000)
  /// and write access FF (no write access: read-only).
  @Test func mappingVersion3ExtendedCC() throws {
    let result = try CLI.run(["decode", "--as", "t4t", "--json", "00113000FF00FF0608E10400010000 00FF"])
    #expect(result.status == 0, "\(result.stdout)")
    let object = try CLI.object(result.stdout)
    let cc = try #require(object["capabilityContainer"] as? [String: Any])
    #expect(cc["size"] as? Int == 17)
    #expect(cc["versionText"] as? String == "3.0")
    #expect(cc["extended"] as? Bool == true)
    #expect(cc["maxFileSize"] as? Int == 0x1_0000)
    #expect(cc["writeAccess"] as? Int == 0xFF)
    #expect(object["maxNDEFSize"] as? Int == 0x1_0000 - 4)
    #expect(object["readOnly"] as? Bool == true)
    #expect((object["tlvs"] as? [[String: Any]])?.first?["typeName"] as? String == "extendedNDEFFileControl")
  }

  /// CCLEN 0017 holds a Proprietary File Control TLV (05 06) after the NDEF one.
  @Test func otherTLVsAreListed() throws {
    let result = try CLI.run([
      "decode", "--as", "t4t", "--json", "001720003B00340406E10400FF0000 0506E10500800000",
    ])
    #expect(result.status == 0, "\(result.stdout)")
    let tlvs = try #require(try CLI.object(result.stdout)["tlvs"] as? [[String: Any]])
    #expect(tlvs.count == 2)
    #expect(tlvs.last?["type"] as? Int == 5)
    #expect(tlvs.last?["typeName"] as? String == "proprietaryFileControl")
    #expect(tlvs.last?["offset"] as? Int == 15)
    #expect(tlvs.last?["length"] as? Int == 6)
  }

  /// CC file, then the NDEF file: NLEN 000C and a URI record "https://" + "nfc.com"; the
  /// record offset is absolute in the input (15 + 2).
  @Test func ccFollowedByNDEFFile() throws {
    let input = Self.cc + "000C" + "D1010855046E66632E636F6D" + "0000"
    let result = try CLI.run(["decode", "--as", "t4t", "--json", input])
    #expect(result.status == 0, "\(result.stdout)")
    let ndef = try #require(try CLI.object(result.stdout)["ndef"] as? [String: Any])
    #expect(ndef["offset"] as? Int == 17)
    #expect(ndef["length"] as? Int == 12)
    let record = try #require((ndef["records"] as? [[String: Any]])?.first)
    #expect(record["offset"] as? Int == 17)
    let decoded = try #require(record["decoded"] as? [String: Any])
    #expect(decoded["uri"] as? String == "https://nfc.com")
  }

  /// Each malformed field with its error code and absolute offset.
  @Test(arguments: [
    ("000E20003B00340406E10400FF0000", "invalidCCFile", 0),  // CCLEN below 000F
    ("000F40003B00340406E10400FF0000", "unsupportedVersion", 2),  // mapping 4.0
    ("000F20000E00340406E10400FF0000", "invalidCCFile", 3),  // MLe below 000F
    ("000F20003B00000406E10400FF0000", "invalidCCFile", 5),  // MLc 0000
    ("000F20003B00340506E10400FF0000", "missingNDEFFileControl", 7),  // T = 05 first
    ("000F20003B00340407E10400FF0000", "invalidNDEFFileControl", 8),  // L = 7
    ("000F20003B00340406E10300FF0000", "invalidNDEFFileControl", 9),  // file id E103 (the CC file)
    ("000F20003B00340406E10400040000", "invalidNDEFFileControl", 11),  // size 0004
    ("000F20003B00340406E10400FF00", "responseTooShort", 14),  // 14 bytes
    ("001120003B00340406E10400FF00000506", "truncatedTLV", 15),  // TLV value past CCLEN
    ("000F20003B00340406E10400FF00000100", "ndefLengthExceedsFile", 15),  // NLEN 256 > 253
    ("000F20003B00340406E10400FF0000000CD101", "truncatedImage", 19),  // NLEN past the input
  ])
  func malformed(_ entry: (String, String, Int)) throws {
    let result = try CLI.run(["decode", "--as", "t4t", "--json", entry.0])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == false)
    #expect(object["format"] as? String == "t4t")
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == entry.1, "\(entry.0)")
    #expect(error["offset"] as? Int == entry.2, "\(entry.0)")
  }

  /// The human tree names the fields; an error shows code, offset and a caret.
  @Test func humanOutput() throws {
    let result = try CLI.run(["decode", "--as", "t4t", Self.cc])
    #expect(result.status == 0)
    #expect(result.stdout.hasPrefix("NFC Forum Type 4 tag CC file (t4t), 15 bytes"))
    #expect(result.stdout.contains("fileIdentifier: e104"))
    #expect(result.stdout.contains("versionText: 2.0"))
    let bad = try CLI.run(["decode", "--as", "t4t", "000F40003B00340406E10400FF0000"])
    #expect(bad.status == 1)
    #expect(bad.stderr.contains("t4t: unsupportedVersion at offset 2"))
    #expect(bad.stderr.contains("^^ offset 2"))
  }

  /// A CC file is guessed as t4t; inputs other formats decode keep their guesses.
  @Test(arguments: [
    (cc, "t4t"), ("00113000FF00FF0608E1040001000000FF", "t4t"), ("00A4040007A000000151000000", "capdu"),
    ("020106 03095457 03030F18 04160F185A 05FF4C000102", "adv"), ("6F 05 84 03 A0 00 01", "bertlv"),
    ("9000", "rapdu"), ("d00000", "ndef"),
  ])
  func guessing(_ entry: (String, String)) throws {
    let result = try CLI.run(["decode", "--json", entry.0])
    #expect(result.stderr.contains("decoded as \(entry.1) (guessed"), "\(entry.0): \(result.stderr)")
    #expect(try CLI.object(result.stdout)["format"] as? String == entry.1)
  }

  /// Every tag image seed is still guessed as the type its name starts with.
  @Test func tagSeedsKeepTheirGuess() throws {
    let folder = CLI.root.appendingPathComponent("Corpus/tags/seeds")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(files.count >= 16)
    for file in files {
      let result = try CLI.run(["decode", "--json", "Corpus/tags/seeds/\(file)"])
      #expect(result.stderr.contains("decoded as \(file.prefix(3)) (guessed"), "\(file): \(result.stderr)")
    }
  }
}

/// Colour: on a terminal (run under `script`, which gives the command a pseudo-terminal)
/// keys are coloured; with `NO_COLOR` set, or in a pipe, no escape sequence appears.
@Suite("tapwire decode: colour only on a terminal")
struct ColourTests {
  static func runOnTerminal(noColor: String?) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    let command = "\(CLI.executable.path) decode --as t4t \(T4TDecodeTests.cc)"
    process.arguments = ["-qec", command, "/dev/null"]
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = noColor
    environment["TERM"] = "xterm"
    process.environment = environment
    let out = Pipe()
    process.standardOutput = out
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self)
  }

  @Test func colouredOnlyOnATerminalWithoutNoColor() throws {
    #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is needed")
    let coloured = try Self.runOnTerminal(noColor: nil)
    #expect(coloured.contains("\u{1B}[36mfileIdentifier\u{1B}[0m: e104"))
    #expect(coloured.contains("\u{1B}[1mNFC Forum Type 4 tag CC file"))
    let plain = try Self.runOnTerminal(noColor: "1")
    #expect(plain.contains("fileIdentifier: e104"))
    #expect(!plain.contains("\u{1B}["))
    let piped = try CLI.run(["decode", "--as", "t4t", T4TDecodeTests.cc], environment: ["TERM": "xterm"])
    #expect(!piped.stdout.contains("\u{1B}["))
    #expect(piped.stdout.contains("writeAccess: 0 = granted"))
  }
}
