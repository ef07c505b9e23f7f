// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Issue 21: an NDEF message whose record N cannot be framed still shows records 0..<N
/// (NDEF 1.0 §3.2: nothing after a bad record's lengths can be located).
@Suite("tapwire decode: NDEF records before a framing error")
struct NDEFFramingFieldGradeCommandTests {
  /// Record 0 at 0: URI "http://www.nfc.com" (MB, not ME); record 1 at 12 announces a
  /// 255-byte payload (PAYLOAD_LENGTH at 14) with one byte left.
  static let secondRunsPast = "91010855016e66632e636f6d" + "5101ff5501"

  @Test func theRecordsBeforeTheBadOneAreShown() throws {
    let object = try CLI.failedObject(
      "ndef", Self.secondRunsPast, code: "payloadLengthExceedsInput", offset: 14)
    let records = try #require(object["records"] as? [[String: Any]])
    #expect(records.count == 1)
    #expect((records.first?["decoded"] as? [String: Any])?["uri"] as? String == "http://www.nfc.com")
    let errors = try #require(object["errors"] as? [[String: Any]])
    #expect(errors.compactMap { $0["offset"] as? Int } == [14])

    let (lines, errorLine) = try CLI.treeError(
      "ndef", Self.secondRunsPast, code: "payloadLengthExceedsInput", offset: 14)
    let record = try #require(lines.firstIndex { $0.contains("Record 0: wellKnown \"U\"") })
    #expect(record < errorLine)
  }

  @Test func aFirstRecordThatCannotBeFramedGetsThePlainError() throws {
    let object = try CLI.failedObject("ndef", "d101ff5501", code: "payloadLengthExceedsInput", offset: 2)
    #expect(object["records"] == nil)
    #expect(object["errors"] == nil)
  }

  /// Record 0 at 0: Text "A" (en), MB without ME; record 1 at 8: URI "http://", ME clear.
  /// The bytes end at 13 before a record with ME (NDEF 1.0 §3.2.2).
  static let noMessageEnd = "9101045402656e41" + "1101015503"

  @Test func everyRecordIsShownWhenMEIsMissing() throws {
    let object = try CLI.failedObject("ndef", Self.noMessageEnd, code: "missingMessageEnd", offset: 13)
    let records = try #require(object["records"] as? [[String: Any]])
    #expect(records.compactMap { $0["offset"] as? Int } == [0, 8])
    #expect((records.last?["decoded"] as? [String: Any])?["uri"] as? String == "http://")
    let errors = try #require(object["errors"] as? [[String: Any]])
    #expect(errors.compactMap { $0["code"] as? String } == ["missingMessageEnd"])

    let (lines, errorLine) = try CLI.treeError(
      "ndef", Self.noMessageEnd, code: "missingMessageEnd", offset: 13)
    let last = try #require(lines.firstIndex { $0.contains("Record 1: wellKnown \"U\"") })
    #expect(last < errorLine)
  }

  @Test func aSingleRecordWithoutMEIsShown() throws {
    let object = try CLI.failedObject("ndef", "9101015503", code: "missingMessageEnd", offset: 5)
    let records = try #require(object["records"] as? [[String: Any]])
    #expect(records.count == 1)
    #expect((records.first?["decoded"] as? [String: Any])?["uri"] as? String == "http://")
  }

  @Test func theMessageBeforeTrailingBytesIsShown() throws {
    // Record 0 has MB and ME; one byte (at 8) follows it.
    let object = try CLI.failedObject(
      "ndef", "d101045402656e41" + "00", code: "dataAfterMessageEnd", offset: 8)
    let records = try #require(object["records"] as? [[String: Any]])
    #expect(records.count == 1)
    #expect((records.first?["decoded"] as? [String: Any])?["text"] as? String == "A")
    let (lines, errorLine) = try CLI.treeError(
      "ndef", "d101045402656e41" + "00", code: "dataAfterMessageEnd", offset: 8)
    #expect(lines[..<errorLine].contains { $0.contains("text: \"A\"") })
  }

  @Test func lenientModeStillWarnsOnly() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--lenient", "--json", Self.noMessageEnd])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    #expect((object["records"] as? [Any])?.count == 2)
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    #expect(warnings.compactMap { $0["code"] as? String } == ["missingMessageEnd"])
  }

  /// A Type 2 image whose NDEF TLV (at 16, 13 bytes of value from 18) holds `noMessageEnd`:
  /// the message ends at 31 without ME.
  @Test func aTagMessageWithoutMEKeepsEveryRecord() throws {
    var image = [UInt8](repeating: 0, count: 64)
    image.replaceSubrange(12..<16, with: [0xE1, 0x10, 0x06, 0x00])
    let tlvs: [UInt8] = [
      0x03, 0x0D, 0x91, 0x01, 0x04, 0x54, 0x02, 0x65, 0x6E, 0x41, 0x11, 0x01, 0x01, 0x55, 0x03, 0xFE,
    ]
    image.replaceSubrange(16..<(16 + tlvs.count), with: tlvs)
    let hex = image.map { String(format: "%02x", $0) }.joined()
    let object = try CLI.failedObject("t2t", hex, code: "missingMessageEnd", offset: 31)
    let ndef = try #require(object["ndef"] as? [String: Any])
    let records = try #require(ndef["records"] as? [[String: Any]])
    #expect(records.compactMap { $0["offset"] as? Int } == [18, 26])
    let (lines, errorLine) = try CLI.treeError("t2t", hex, code: "missingMessageEnd", offset: 31)
    #expect(lines[..<errorLine].contains { $0.contains("Record 1: wellKnown \"U\"") })
  }
}
