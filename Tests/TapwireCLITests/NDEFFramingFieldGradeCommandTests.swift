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
    let result = try CLI.run(["decode", "--as", "ndef", "--json", Self.secondRunsPast])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == false)
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == "payloadLengthExceedsInput")
    #expect(error["offset"] as? Int == 14)
    let records = try #require(object["records"] as? [[String: Any]])
    #expect(records.count == 1)
    #expect((records.first?["decoded"] as? [String: Any])?["uri"] as? String == "http://www.nfc.com")
    let errors = try #require(object["errors"] as? [[String: Any]])
    #expect(errors.compactMap { $0["offset"] as? Int } == [14])

    let tree = try CLI.run(["decode", "--as", "ndef", Self.secondRunsPast])
    #expect(tree.status == 1)
    let lines = tree.stdout.split(separator: "\n").map(String.init)
    let record = try #require(lines.firstIndex { $0.contains("Record 0: wellKnown \"U\"") })
    let errorLine = try #require(
      lines.firstIndex { $0.contains("error: payloadLengthExceedsInput at offset 14") })
    #expect(record < errorLine)
    #expect(lines[errorLine + 2].contains("^^ offset 14"))
  }

  @Test func aFirstRecordThatCannotBeFramedGetsThePlainError() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", "d101ff5501"])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == false)
    #expect((object["error"] as? [String: Any])?["offset"] as? Int == 2)
    #expect(object["records"] == nil)
    #expect(object["errors"] == nil)
  }
}
