// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Issue 21: a tag image whose TLV area breaks a strict rule after (or around) the NDEF TLV
/// still shows its capability container, TLVs and NDEF message, with the error in place.
@Suite("tapwire decode: tag images with a bad TLV")
struct TagFieldGradeCommandTests {
  /// A 64-byte Type 2 image: CC E1 10 06 00, the NDEF TLV at 16 (a URI record at 18), an
  /// unknown TLV 42 at 30, a terminator at 34.
  static let unknownAfterNDEF: String = {
    var image = [UInt8](repeating: 0, count: 64)
    image.replaceSubrange(12..<16, with: [0xE1, 0x10, 0x06, 0x00])
    let tlvs: [UInt8] =
      [0x03, 0x0C, 0xD1, 0x01, 0x08, 0x55, 0x01, 0x6E, 0x66, 0x63, 0x2E, 0x63, 0x6F, 0x6D]
      + [0x42, 0x02, 0xAA, 0xBB, 0xFE]
    image.replaceSubrange(16..<(16 + tlvs.count), with: tlvs)
    return image.map { String(format: "%02x", $0) }.joined()
  }()

  @Test func strictModeShowsTheMessageAndTheErrorInPlace() throws {
    let object = try CLI.failedObject("t2t", Self.unknownAfterNDEF, code: "unknownTLVType", offset: 30)
    let errors = try #require(object["errors"] as? [[String: Any]])
    #expect(errors.count == 1)
    #expect(errors.first?["offset"] as? Int == 30)
    let tlvs = try #require(object["tlvs"] as? [[String: Any]])
    #expect(tlvs.compactMap { $0["offset"] as? Int } == [16, 30])
    let ndef = try #require(object["ndef"] as? [String: Any])
    let records = try #require(ndef["records"] as? [[String: Any]])
    let decoded = try #require(records.first?["decoded"] as? [String: Any])
    #expect(decoded["uri"] as? String == "http://www.nfc.com")
    #expect((object["warnings"] as? [Any])?.isEmpty == true)

    let (lines, errorLine) = try CLI.treeError(
      "t2t", Self.unknownAfterNDEF, code: "unknownTLVType", offset: 30)
    let uri = try #require(lines.firstIndex { $0.contains("URI: \"http://www.nfc.com\"") })
    #expect(uri < errorLine)
  }

  /// The NDEF TLV at 16 holds 17 bytes: record 0 (URI, at 18) and record 1 at 30, whose
  /// PAYLOAD_LENGTH 255 (at 32) runs past the TLV.
  static let recordRunsPastTheTLV: String = {
    var image = [UInt8](repeating: 0, count: 64)
    image.replaceSubrange(12..<16, with: [0xE1, 0x10, 0x06, 0x00])
    let tlvs: [UInt8] =
      [0x03, 0x11, 0x91, 0x01, 0x08, 0x55, 0x01, 0x6E, 0x66, 0x63, 0x2E, 0x63, 0x6F, 0x6D]
      + [0x51, 0x01, 0xFF, 0x55, 0x01, 0xFE]
    image.replaceSubrange(16..<(16 + tlvs.count), with: tlvs)
    return image.map { String(format: "%02x", $0) }.joined()
  }()

  @Test func aMessageWhoseRecordCannotBeFramedKeepsTheImage() throws {
    let object = try CLI.failedObject(
      "t2t", Self.recordRunsPastTheTLV, code: "payloadLengthExceedsInput", offset: 32)
    #expect((object["capabilityContainer"] as? [String: Any])?["size"] as? Int == 6)
    let ndef = try #require(object["ndef"] as? [String: Any])
    #expect((ndef["error"] as? [String: Any])?["offset"] as? Int == 32)
    let records = try #require(ndef["records"] as? [[String: Any]])
    #expect(records.count == 1)
    #expect((records.first?["decoded"] as? [String: Any])?["uri"] as? String == "http://www.nfc.com")

    let (lines, errorLine) = try CLI.treeError(
      "t2t", Self.recordRunsPastTheTLV, code: "payloadLengthExceedsInput", offset: 32)
    let uri = try #require(lines.firstIndex { $0.contains("URI: \"http://www.nfc.com\"") })
    #expect(uri < errorLine)
  }

  /// A Type 3 image: attribute block (Ln 17, T3T §7.1 checksum) and the same two records
  /// from offset 16; record 1 at 28 has PAYLOAD_LENGTH 255 at 30.
  static let type3RecordRunsPast: String = {
    var block: [UInt8] = [0x10, 0x04, 0x01, 0x00, 0x0D, 0, 0, 0, 0, 0, 0x01, 0x00, 0x00, 0x11]
    let sum = block.reduce(0) { $0 + Int($1) }
    block += [UInt8(sum >> 8), UInt8(sum & 0xFF)]
    var image = block
    image += [
      0x91, 0x01, 0x08, 0x55, 0x01, 0x6E, 0x66, 0x63, 0x2E, 0x63, 0x6F, 0x6D, 0x51, 0x01, 0xFF, 0x55, 0x01,
    ]
    image += [UInt8](repeating: 0, count: 64 - image.count)
    return image.map { String(format: "%02x", $0) }.joined()
  }()

  @Test func aType3MessageKeepsTheRecordsBeforeTheBadOne() throws {
    let object = try CLI.failedObject(
      "t3t", Self.type3RecordRunsPast, code: "payloadLengthExceedsInput", offset: 30)
    let ndef = try #require(object["ndef"] as? [String: Any])
    #expect(ndef["offset"] as? Int == 16)
    let records = try #require(ndef["records"] as? [[String: Any]])
    #expect(records.compactMap { $0["offset"] as? Int } == [16])
    #expect((object["capabilityContainer"] as? [String: Any])?["ln"] as? Int == 17)
    #expect((object["errors"] as? [[String: Any]])?.compactMap { $0["offset"] as? Int } == [30])
  }

  @Test func lenientModeWarnsOnce() throws {
    let result = try CLI.run(["decode", "--as", "t2t", "--lenient", "--json", Self.unknownAfterNDEF])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    #expect(object["errors"] == nil)
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    // One warning per rule broken (the TLV area's warnings were once listed twice).
    #expect(warnings.map { $0["code"] as? String } == ["unknownTLVType"])
    #expect(warnings.first?["offset"] as? Int == 30)
  }

  /// A Type 4 CC file (T4T 3.0 §5.1) then its NDEF file: NLEN 7 at 15 and a URI record
  /// "http://www.ab" at 17. `cc` replaces the 15 CC bytes.
  static func type4(cc: String) -> String { cc + "0007" + "d1010355016162" }

  @Test func aType4CCWithABadMLeKeepsEveryOtherFieldAndTheMessage() throws {
    // MLe 0x0005 (at 3) is below 0x000F.
    let hex = Self.type4(cc: "000f20000500340406e10400320000")
    let object = try CLI.failedObject("t4t", hex, code: "invalidCCFile", offset: 3)
    let cc = try #require(object["capabilityContainer"] as? [String: Any])
    #expect(cc["mle"] as? Int == 5)
    #expect(cc["mlc"] as? Int == 0x34)
    #expect(cc["fileIdentifier"] as? String == "e104")
    let records = try #require((object["ndef"] as? [String: Any])?["records"] as? [[String: Any]])
    #expect((records.first?["decoded"] as? [String: Any])?["uri"] as? String == "http://www.ab")

    let (lines, errorLine) = try CLI.treeError("t4t", hex, code: "invalidCCFile", offset: 3)
    #expect(lines[errorLine...].contains { $0.contains("URI: \"http://www.ab\"") })
  }

  @Test func everyBadType4FieldIsListedAndABadFileSizeDoesNotBoundNLEN() throws {
    // Version 4.0 (at 2), MLc 0 (at 5), maximum file size 3 (at 11), below NLEN 7.
    let hex = Self.type4(cc: "000f40003b00000406e10400030000")
    let object = try CLI.failedObject("t4t", hex, code: "unsupportedVersion", offset: 2)
    let errors = try #require(object["errors"] as? [[String: Any]])
    #expect(errors.compactMap { $0["offset"] as? Int } == [2, 5, 11])
    #expect(((object["ndef"] as? [String: Any])?["records"] as? [Any])?.count == 1)

    let lenient = try CLI.run(["decode", "--as", "t4t", "--lenient", "--json", hex])
    #expect(lenient.status == 0)
    let warnings = try #require(try CLI.object(lenient.stdout)["warnings"] as? [[String: Any]])
    #expect(warnings.compactMap { $0["offset"] as? Int } == [2, 5, 11])
  }

  @Test func aBadCCLENLeavesTheNDEFFileUnlocated() throws {
    // CCLEN 5 (at 0): the NDEF file's start is unknown, the CC's fields are still shown.
    let object = try CLI.failedObject(
      "t4t", Self.type4(cc: "000520003b00340406e10400320000"), code: "invalidCCFile", offset: 0)
    #expect(object["ndef"] is NSNull)
    #expect((object["capabilityContainer"] as? [String: Any])?["maxFileSize"] as? Int == 50)
    #expect((object["tlvs"] as? [Any])?.count == 1)
  }
}
