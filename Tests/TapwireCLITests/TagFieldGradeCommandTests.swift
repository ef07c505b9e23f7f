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
}
