// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire decode --as bertlv`: a bad nested object is reported on the constructed object
/// holding it; its parents and siblings still decode.
@Suite("tapwire decode: BER-TLV with a bad object")
struct BERTLVFieldGradeCommandTests {
  /// 6F at 0 holds 84 at 2 and A5 at 6, whose 9F65 at 8 has a length (05, offset 10) past A5;
  /// 88 at 11 follows.
  static let nestedBad = "6F098402A000A5039F6505880102"

  @Test func strictJSONKeepsEveryFramedObject() throws {
    let object = try CLI.failedObject("bertlv", Self.nestedBad, code: "lengthExceedsInput", offset: 10)
    let tlvs = try #require(object["tlvs"] as? [[String: Any]])
    #expect(tlvs.map { $0["tag"] as? String } == ["6f", "88"])
    #expect(tlvs[1]["value"] as? String == "02")
    let children = try #require(tlvs[0]["children"] as? [[String: Any]])
    #expect(children.map { $0["offset"] as? Int } == [2, 6])
    #expect(children[0]["value"] as? String == "a000")
    #expect(tlvs[0]["error"] == nil)
    let bad = try #require(children[1]["error"] as? [String: Any])
    #expect(bad["code"] as? String == "lengthExceedsInput")
    #expect(bad["offset"] as? Int == 10)
    #expect((children[1]["children"] as? [Any])?.isEmpty == true)
    let errors = try #require(object["errors"] as? [[String: Any]])
    #expect(errors.map { $0["offset"] as? Int } == [10])
  }

  @Test func theTreeShowsTheErrorInPlaceWithACaret() throws {
    let (lines, errorLine) = try CLI.treeError(
      "bertlv", Self.nestedBad, code: "lengthExceedsInput", offset: 10)
    // After A5's length line, before the sibling 88.
    let a5 = try #require(lines.firstIndex { $0.contains("TLV A5") })
    let sibling = try #require(lines.firstIndex { $0.contains("TLV 88") })
    #expect(a5 < errorLine && errorLine < sibling)
  }

  @Test func aTopLevelErrorAfterObjectsAndNothingFramedAtAll() throws {
    let result = try CLI.run(["decode", "--as", "bertlv", "--json", "8401AA850501"])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == false)
    #expect((object["error"] as? [String: Any])?["offset"] as? Int == 4)
    #expect((object["tlvs"] as? [[String: Any]])?.count == 1)
    // No object framed: the plain error envelope, and no claim that the input is BER-TLV.
    let none = try CLI.run(["decode", "--as", "bertlv", "--json", "850501"])
    #expect(none.status == 1)
    let failure = try CLI.object(none.stdout)
    #expect(failure["tlvs"] == nil)
    #expect((failure["error"] as? [String: Any])?["code"] as? String == "lengthExceedsInput")
  }

  @Test func aPartialDecodeDoesNotWinTheFormatGuess() throws {
    // Valid BER-TLV is guessed as such; the damaged one is not called BER-TLV by the guess.
    let valid = try CLI.run(["decode", "--json", "6F078402A000880102"])
    #expect((try CLI.object(valid.stdout))["format"] as? String == "bertlv")
    let damaged = try CLI.run(["decode", "--json", Self.nestedBad])
    #expect((try CLI.object(damaged.stdout))["format"] as? String != "bertlv")
  }

  @Test func validInputIsUnchanged() throws {
    let result = try CLI.run(["decode", "--as", "bertlv", "--json", "6F078402A000880102"])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    #expect(object["errors"] == nil)
    #expect((object["tlvs"] as? [[String: Any]])?.first?["error"] == nil)
  }
}
