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
}
