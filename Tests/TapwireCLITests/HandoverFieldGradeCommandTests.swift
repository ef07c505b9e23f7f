// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Issue 21 for handover records: a bad local `cr` or `err` (Connection Handover 1.5 §6.3.3,
/// §6.3.4) is marked in place; the carriers and the other records still decode.
@Suite("tapwire decode: handover local records")
struct HandoverFieldGradeCommandTests {
  /// Hr 1.2 at 0 (payload at 5): `cr` at 6 whose payload 12 34 56 at 11 is 3 bytes, a valid
  /// `ac` at 14, `err` at 23 with reason 02 and one data byte at 29.
  static let requestWithBadLocals =
    "d1021a487212" + "9102036372123456" + "110204616301013000" + "5103026572720200"
  /// Hr 1.2 at 0: `cr` 12 34 at 6, `ac` at 13, `err` reason 03 data 05 at 22.
  static let requestWithGoodLocals =
    "d10219487212" + "91020263721234" + "110204616301013000" + "5103026572720305"

  static func handoverRecords(_ object: [String: Any]) throws -> ([String: Any], [[String: Any]]) {
    let records = try #require(object["records"] as? [[String: Any]])
    let handover = try #require(records.first?["decoded"] as? [String: Any])
    return (handover, try #require(handover["records"] as? [[String: Any]]))
  }

  @Test func badLocalRecordsKeepTheHandoverAndAreMarkedInPlace() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", Self.requestWithBadLocals])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == false)
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == "collisionResolutionInvalidLength")
    #expect(error["offset"] as? Int == 11)
    let (handover, records) = try Self.handoverRecords(object)
    #expect(handover["kind"] as? String == "handoverRequest")
    #expect(handover["collisionResolution"] is NSNull)
    #expect((handover["alternativeCarriers"] as? [[String: Any]])?.first?["dataReference"] as? String == "30")
    let decoded = records.map { $0["decoded"] as? [String: Any] }
    #expect(decoded.map { $0?["kind"] as? String } == ["malformed", nil, "malformed"])
    #expect(decoded[0]?["recordType"] as? String == "collisionResolution")
    #expect((decoded[0]?["error"] as? [String: Any])?["offset"] as? Int == 11)
    #expect(decoded[2]?["recordType"] as? String == "handoverError")
    let errError = try #require(decoded[2]?["error"] as? [String: Any])
    #expect(errError["code"] as? String == "handoverErrorInvalid")
    #expect(errError["offset"] as? Int == 29)
  }

  @Test func theTreeShowsEachErrorUnderItsRecord() throws {
    let tree = try CLI.run(["decode", "--as", "ndef", Self.requestWithBadLocals])
    #expect(tree.status == 1)
    let lines = tree.stdout.split(separator: "\n").map(String.init)
    let cr = try #require(lines.firstIndex { $0.contains("wellKnown \"cr\"") })
    let crError = try #require(
      lines.firstIndex { $0.contains("error: collisionResolutionInvalidLength at offset 11") })
    let err = try #require(lines.firstIndex { $0.contains("wellKnown \"err\"") })
    let errError = try #require(lines.firstIndex { $0.contains("error: handoverErrorInvalid at offset 29") })
    #expect(cr < crError && crError < err && err < errError)
    #expect(lines[crError + 2].contains("^^ offset 11"))
    #expect(lines[errError + 2].contains("^^ offset 29"))
  }

  @Test func validLocalRecordsGetTheirKinds() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", Self.requestWithGoodLocals])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    let (handover, records) = try Self.handoverRecords(object)
    #expect(handover["collisionResolution"] as? Int == 0x1234)
    let decoded = records.map { $0["decoded"] as? [String: Any] }
    #expect(decoded.map { $0?["kind"] as? String } == ["collisionResolution", nil, "handoverError"])
    #expect(decoded[0]?["collisionResolution"] as? Int == 0x1234)
    #expect(decoded[2]?["reason"] as? Int == 3)
    #expect(decoded[2]?["data"] as? Int == 5)
  }

  @Test func lenientModeWarnsAndDecodes() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", "--lenient", Self.requestWithBadLocals])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    #expect(object["error"] == nil)
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    #expect(
      warnings.map { $0["code"] as? String } == ["collisionResolutionInvalidLength", "handoverErrorInvalid"])
    #expect(warnings.map { $0["offset"] as? Int } == [11, 29])
  }
}
