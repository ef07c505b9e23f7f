// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// A malformed record inside a Smart Poster or a handover record is shown where it is; the
/// container and the nested record's siblings still decode (`Documentation/cli-json.md`,
/// `decoded` kind `malformed` in nested `records`).
@Suite("tapwire decode: nested malformed records")
struct NestedMalformedRecordCommandTests {
  /// Sp at 0: URI https://a.bc at 5, Title at 14 whose text byte FF (offset 21) is not UTF-8.
  static let poster = "d102125370" + "9101055504612e6263" + "5101055402656efffe"
  /// Hs 1.2 at 0: `ac` at 6 (reference "0"), `ac` at 15 whose reference length 5 (offset 21)
  /// runs past its 3-byte payload.
  static let select = "d1021248731" + "2" + "910204616301013000" + "5102036163010531"

  static func nested(_ object: [String: Any]) throws -> ([String: Any], [[String: Any]]) {
    let records = try #require(object["records"] as? [[String: Any]])
    let decoded = try #require(records.first?["decoded"] as? [String: Any])
    return (decoded, try #require(decoded["records"] as? [[String: Any]]))
  }

  @Test func strictJSONKeepsThePosterAndMarksTheTitle() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", Self.poster])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == false)
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == "invalidUTF8")
    #expect(error["offset"] as? Int == 21)
    let (poster, records) = try Self.nested(object)
    #expect(poster["kind"] as? String == "smartPoster")
    #expect(poster["uri"] as? String == "https://a.bc")
    #expect(records.count == 2)
    #expect((records[0]["decoded"] as? [String: Any])?["uri"] as? String == "https://a.bc")
    #expect(records[1]["offset"] as? Int == 14)
    let title = try #require(records[1]["decoded"] as? [String: Any])
    #expect(title["kind"] as? String == "malformed")
    #expect(title["recordType"] as? String == "text")
    let titleError = try #require(title["error"] as? [String: Any])
    #expect(titleError["code"] as? String == "invalidUTF8")
    #expect(titleError["offset"] as? Int == 21)
  }

  @Test func lenientJSONListsTheNestedErrorAsAWarning() throws {
    // The same URI, then a Title at 14 whose status 05 (offset 18) announces a 5-byte
    // language code in a 1-byte payload: an error in both modes (RTD Text §3.2.1).
    let poster = "d1020e5370" + "9101055504612e6263" + "5101015405"
    let result = try CLI.run(["decode", "--as", "ndef", "--json", "--lenient", poster])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    let (poster0, records) = try Self.nested(object)
    #expect(poster0["kind"] as? String == "smartPoster")
    let title = try #require(records[1]["decoded"] as? [String: Any])
    #expect(title["kind"] as? String == "malformed")
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    #expect(warnings.count == 1)
    #expect(warnings.first?["code"] as? String == "textLanguageLengthExceedsPayload")
    #expect(warnings.first?["offset"] as? Int == 18)
  }

  @Test func lenientJSONListsANestedRecordsWarningOnce() throws {
    // Hs 1.2: `ac` "0" at 6, then a URI record at 15 whose prefix 0x24 (offset 19) is
    // reserved: a warning in lenient mode (URI RTD §3.2.2), listed once.
    let select = "d102104873" + "12" + "910204616301013000" + "5101025524" + "61"
    let lenient = try CLI.object(
      try CLI.run(["decode", "--as", "ndef", "--json", "--lenient", select]).stdout)
    let warnings = try #require(lenient["warnings"] as? [[String: Any]])
    #expect(warnings.map { $0["code"] as? String } == ["uriReservedPrefix"])
    #expect(warnings.first?["offset"] as? Int == 19)
    let strict = try CLI.run(["decode", "--as", "ndef", "--json", select])
    #expect(strict.status == 1)
    #expect(
      (try CLI.object(strict.stdout)["error"] as? [String: Any])?["code"] as? String == "uriReservedPrefix")
    // A poster's Title that is not UTF-8: the poster's view and the nested record both know
    // the warning; it is listed once.
    let poster = try CLI.object(
      try CLI.run(["decode", "--as", "ndef", "--json", "--lenient", Self.poster]).stdout)
    let posterWarnings = try #require(poster["warnings"] as? [[String: Any]])
    #expect(posterWarnings.map { $0["code"] as? String } == ["invalidUTF8"])
    #expect(posterWarnings.first?["offset"] as? Int == 21)
  }

  @Test func posterWithoutURIIsAnErrorOfThePoster() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", "d102095370d101055402656e6869"])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    let records = try #require(object["records"] as? [[String: Any]])
    let decoded = try #require(records.first?["decoded"] as? [String: Any])
    #expect(decoded["kind"] as? String == "malformed")
    #expect(decoded["recordType"] as? String == "smartPoster")
    #expect((decoded["error"] as? [String: Any])?["code"] as? String == "smartPosterMissingURI")
  }

  @Test func handoverSelectKeepsTheGoodCarrier() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", Self.select])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect((object["error"] as? [String: Any])?["code"] as? String == "alternativeCarrierTruncated")
    let (select, records) = try Self.nested(object)
    #expect(select["kind"] as? String == "handoverSelect")
    let carriers = try #require(select["alternativeCarriers"] as? [[String: Any]])
    #expect(carriers.map { $0["dataReference"] as? String } == ["30"])
    #expect(records.count == 2)
    #expect(records[0]["decoded"] == nil)
    let bad = try #require(records[1]["decoded"] as? [String: Any])
    #expect(bad["kind"] as? String == "malformed")
    #expect(bad["recordType"] as? String == "alternativeCarrier")
    #expect((bad["error"] as? [String: Any])?["offset"] as? Int == 21)
  }

  @Test func treeShowsTheErrorUnderTheNestedRecord() throws {
    let result = try CLI.run(["decode", "--as", "ndef", Self.select])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let good = try #require(lines.firstIndex { $0.contains("carrier data reference: \"0\"") })
    let second = try #require(lines.firstIndex { $0.contains("000f  51 02 03") && $0.contains("Record 1") })
    let error = try #require(
      lines.firstIndex {
        $0.hasPrefix("0015  05") && $0.contains("error: alternativeCarrierTruncated at offset 21")
      })
    #expect(good < second && second < error)
    #expect(lines[error + 2].hasSuffix("^^ offset 21"))
    #expect(result.stderr.contains("tapwire: ndef: alternativeCarrierTruncated at offset 21"))
  }
}
