// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `decode --as btsnoop`: an advertising event that breaks a rule, or a last record that
/// cannot be framed, hides none of the reports around it.
@Suite("btsnoop field-grade decoding")
struct BTSnoopFieldGradeCommandTests {
  /// A btsnoop v1 file, datalink 1001 (HCI without H4 octet), one received event per record.
  static func file(_ events: [String]) -> String {
    func be(_ value: Int, _ width: Int) -> String {
      (0..<width).reversed().map { String(format: "%02x", (value >> ($0 * 8)) & 0xFF) }.joined()
    }
    var out = "6274736e6f6f7000" + be(1, 4) + be(1001, 4)
    for event in events {
      let count = event.count / 2
      out += be(count, 4) + be(count, 4) + be(3, 4) + be(0, 4) + "00e2e7d7274dc000" + event
    }
    return out
  }

  static let advInd = "3e25020100015544332211c0190201060cffffff013030303132333435020a04050954572d41c4"
  static let scanRsp = "3e11020104015544332211c00504160f185ac3"

  @Test func reportsAroundABadEventStillDecode() throws {
    // Event 1 (at 103) frames one report, then its second Data_Length (at 128) runs past.
    let file = Self.file([Self.advInd, FieldGradeSweepCommandTests.hciSecondRunsPast, Self.scanRsp])
    let object = try CLI.failedObject("btsnoop", file, code: "reportDataExceedsEvent", offset: 128)
    let reports = try #require(object["reports"] as? [[String: Any]])
    #expect(
      reports.map { $0["address"] as? String } == [
        "C0:11:22:33:44:55", "11:22:33:44:55:66", "C0:11:22:33:44:55",
      ])
    #expect(reports.map { $0["rssi"] as? Int } == [-60, -60, -61])
    #expect((object["errors"] as? [[String: Any]])?.map { $0["offset"] as? Int } == [128])
    let (lines, errorLine) = try CLI.treeError("btsnoop", file, code: "reportDataExceedsEvent", offset: 128)
    let record1 = try #require(lines.firstIndex { $0.contains("Record 1") })
    let record2 = try #require(lines.firstIndex { $0.contains("Record 2") })
    #expect(record1 < errorLine && errorLine < record2)
    // Lenient: a warning, exit 0, the same reports.
    let lenient = try CLI.run(["decode", "--as", "btsnoop", "--lenient", "--json", file])
    #expect(lenient.status == 0)
    let lenientObject = try CLI.object(lenient.stdout)
    #expect((lenientObject["reports"] as? [[String: Any]])?.count == 3)
    #expect((lenientObject["warnings"] as? [[String: Any]])?.first?["offset"] as? Int == 128)
  }

  @Test func aTruncatedLastRecordKeepsTheRecordsBefore() throws {
    let whole = Self.file([Self.advInd, Self.scanRsp])
    let file = String(whole.dropLast(6))
    // Record 1 starts at 79; its included length (at 83) runs past the input.
    let object = try CLI.failedObject("btsnoop", file, code: "recordLengthExceedsInput", offset: 83)
    let reports = try #require(object["reports"] as? [[String: Any]])
    #expect(reports.map { $0["address"] as? String } == ["C0:11:22:33:44:55"])
    #expect((reports.first?["advertising"] as? [String: Any])?["localName"] as? String == "TW-A")
    let (lines, errorLine) = try CLI.treeError("btsnoop", file, code: "recordLengthExceedsInput", offset: 83)
    let record0 = try #require(lines.firstIndex { $0.contains("Record 0") })
    #expect(record0 < errorLine)
    #expect(!lines.contains { $0.contains("Record 1") })
  }

  @Test func aWholeCaptureIsStillOK() throws {
    let result = try CLI.run(["decode", "--as", "btsnoop", "--json", Self.file([Self.advInd, Self.scanRsp])])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    #expect(object["errors"] == nil)
    #expect((object["reports"] as? [[String: Any]])?.count == 2)
  }

  /// Two LE Extended Advertising Report fragments of one advertiser (Core 5.x Vol 4 Part E
  /// §7.7.65.13); the second's Event_Type (at 116) has data status 0b11, which is reserved.
  @Test func aFragmentReassemblyRejectsIsShownInItsPacket() throws {
    let first =
      "3e2e0d01210001010000f3e2d1010203f8ba0000000000000000001402010622ffffff01303030363738393000010203"
    let second =
      "3e350d01610001010000f3e2d1010203f8bc0000000000000000001b0405060708090a0b0c0d0e0f101112131415080954572d45585431"
    let file = Self.file([first, second])
    let object = try CLI.failedObject("btsnoop", file, code: "reservedDataStatus", offset: 116)
    // The first fragment stays pending and is flushed, truncated, at the end of the capture.
    #expect(
      (object["reports"] as? [[String: Any]])?.map { $0["address"] as? String } == ["D1:E2:F3:00:00:01"])
    let (lines, errorLine) = try CLI.treeError("btsnoop", file, code: "reservedDataStatus", offset: 116)
    let record1 = try #require(lines.firstIndex { $0.contains("Record 1") })
    #expect(record1 < errorLine)
    #expect(lines.filter { $0.contains("error: reservedDataStatus") }.count == 1)
  }

  /// Offsets are the input's (Documentation/cli-json.md): the first AD structure (Flags) of `advInd` is at
  /// 13 of the event, so at 13 in `hci` and at 40 + 13 = 53 in a btsnoop file.
  @Test func advertisingStructureOffsetsAreTheInputs() throws {
    func structureOffsets(_ format: String, _ hex: String) throws -> [Int] {
      let result = try CLI.run(["decode", "--as", format, "--json", hex])
      #expect(result.status == 0)
      let reports = try #require(try CLI.object(result.stdout)["reports"] as? [[String: Any]])
      let advertising = try #require(reports.first?["advertising"] as? [String: Any])
      let structures = try #require(advertising["structures"] as? [[String: Any]])
      return structures.compactMap { $0["offset"] as? Int }
    }
    #expect(try structureOffsets("hci", Self.advInd) == [13, 16, 29, 32])
    #expect(try structureOffsets("btsnoop", Self.file([Self.advInd])) == [53, 56, 69, 72])
  }
}
