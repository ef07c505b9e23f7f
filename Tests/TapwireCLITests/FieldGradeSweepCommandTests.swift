// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Issue 21's sweep: a bad Smart Poster local record and an HCI report that can't be framed
/// are reported where they are; everything around them still decodes.
@Suite("tapwire decode: local poster records and HCI reports")
struct FieldGradeSweepCommandTests {
  /// Sp at 0: URI https://a.bc at 5, Title "hi" at 14, `act` at 23 whose payload 00 01
  /// (offset 29) is two bytes (RTD Smart Poster §3.3.3 wants one).
  static let posterWithTwoByteAction =
    "d1021a5370" + "9101055504612e6263" + "1101055402656e6869" + "5103026163740001"
  /// Sp at 0: URI at 5, `act` 01, `s` 00000100, `t` "a/b".
  static let posterWithGoodLocals =
    "d1021f5370" + "9101055504612e6263" + "1103016163740" + "1" + "1101047300000100" + "5101037461" + "2f62"
  /// Three legacy reports announced; report 0 at 4 frames, report 1 at 17 has a Data_Length
  /// of 5 (offset 25) with two bytes left.
  static let hciSecondRunsPast =
    "3e1a0203" + "0000665544332211" + "03020106c4" + "0000665544332211" + "050102"

  static func posterRecords(_ object: [String: Any]) throws -> ([String: Any], [[String: Any]]) {
    let records = try #require(object["records"] as? [[String: Any]])
    let poster = try #require(records.first?["decoded"] as? [String: Any])
    return (poster, try #require(poster["records"] as? [[String: Any]]))
  }

  @Test func aBadActionRecordKeepsThePosterAndIsMarkedInPlace() throws {
    let object = try CLI.failedObject(
      "ndef", Self.posterWithTwoByteAction, code: "smartPosterInvalidAction", offset: 29)
    let (poster, records) = try Self.posterRecords(object)
    #expect(poster["kind"] as? String == "smartPoster")
    #expect(poster["uri"] as? String == "https://a.bc")
    #expect((poster["titles"] as? [[String: Any]])?.first?["text"] as? String == "hi")
    #expect(poster["action"] is NSNull)
    let action = try #require(records[2]["decoded"] as? [String: Any])
    #expect(action["kind"] as? String == "malformed")
    #expect(action["recordType"] as? String == "smartPosterAction")
    #expect((action["error"] as? [String: Any])?["offset"] as? Int == 29)
    // The tree: the error with its caret under the `act` record's payload.
    let (lines, errorLine) = try CLI.treeError(
      "ndef", Self.posterWithTwoByteAction, code: "smartPosterInvalidAction", offset: 29)
    let record = try #require(lines.firstIndex { $0.contains("Record 2: wellKnown \"act\"") })
    #expect(record < errorLine)
  }

  @Test func validLocalRecordsGetTheirKinds() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", Self.posterWithGoodLocals])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    let (poster, records) = try Self.posterRecords(object)
    #expect(poster["action"] as? String == "saveForLater")
    #expect(poster["size"] as? Int == 256)
    #expect(poster["mimeType"] as? String == "a/b")
    let kinds = records.map { ($0["decoded"] as? [String: Any])?["kind"] as? String }
    #expect(kinds == ["uri", "smartPosterAction", "smartPosterSize", "smartPosterType"])
    #expect((records[1]["decoded"] as? [String: Any])?["action"] as? String == "saveForLater")
    #expect((records[2]["decoded"] as? [String: Any])?["size"] as? Int == 256)
    #expect((records[3]["decoded"] as? [String: Any])?["mimeType"] as? String == "a/b")
  }

  @Test func lenientModeWarnsAndDecodes() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", "--lenient", Self.posterWithTwoByteAction])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    #expect(warnings.map { $0["code"] as? String } == ["smartPosterInvalidAction"])
    #expect(warnings.first?["offset"] as? Int == 29)
  }

  @Test func actAtTopLevelIsNotAPosterRecord() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", "d103016163740" + "5"])
    #expect(result.status == 0)
    let records = try #require((try CLI.object(result.stdout))["records"] as? [[String: Any]])
    #expect(records.first?["decoded"] == nil)
  }

  @Test func hciReportsBeforeAnUnframedOneStillDecode() throws {
    let object = try CLI.failedObject(
      "hci", Self.hciSecondRunsPast, code: "reportDataExceedsEvent", offset: 25)
    let reports = try #require(object["reports"] as? [[String: Any]])
    #expect(reports.count == 1)
    #expect(reports.first?["address"] as? String == "11:22:33:44:55:66")
    #expect(reports.first?["rssi"] as? Int == -60)
    #expect((object["errors"] as? [[String: Any]])?.map { $0["offset"] as? Int } == [25])
    let (lines, errorLine) = try CLI.treeError(
      "hci", Self.hciSecondRunsPast, code: "reportDataExceedsEvent", offset: 25)
    let rssi = try #require(lines.firstIndex { $0.contains("RSSI: -60 dBm") })
    #expect(rssi < errorLine)
  }
}
