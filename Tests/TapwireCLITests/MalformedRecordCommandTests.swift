// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// A record whose payload breaks its record type never hides the message or the tag image
/// holding it (`Documentation/cli-json.md`, `decoded` kind `malformed`).
@Suite("tapwire decode: malformed records")
struct MalformedRecordCommandTests {
  /// Text "hi" (offset 0), an Android Application Record whose package name is FF FE
  /// (record at 9, payload at 27), URI https://a.bc (offset 29).
  static let message =
    "9101055402656e6869" + "140f02616e64726f69642e636f6d3a706b67fffe" + "5101055504612e6263"
  /// The same message in an NTAG213-shaped Type 2 image: 16 header bytes (CC E1 10 12 00),
  /// the NDEF TLV at 16 (message at 18, so the bad byte is at 45), a terminator, zeros.
  static var tagImage: String {
    let data = "0326" + message + "fe"
    return "04a1b29fc3d4e5f600480000e1101200" + data + String(repeating: "0", count: 288 - data.count)
  }

  static func records(_ object: [String: Any]) throws -> [[String: Any]] {
    try #require(object["records"] as? [[String: Any]])
  }

  @Test func strictJSONHasEveryRecordAndTheMalformedOne() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", Self.message])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == false)
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == "invalidUTF8")
    #expect(error["offset"] as? Int == 27)
    let records = try Self.records(object)
    #expect(records.count == 3)
    #expect((records[0]["decoded"] as? [String: Any])?["kind"] as? String == "text")
    #expect((records[2]["decoded"] as? [String: Any])?["uri"] as? String == "https://a.bc")
    #expect(records[1]["payload"] as? String == "fffe")
    let decoded = try #require(records[1]["decoded"] as? [String: Any])
    #expect(decoded["kind"] as? String == "malformed")
    #expect(decoded["recordType"] as? String == "androidApplication")
    let recordError = try #require(decoded["error"] as? [String: Any])
    #expect(recordError["code"] as? String == "invalidUTF8")
    #expect(recordError["offset"] as? Int == 27)
    #expect(recordError["message"] as? String == "the text is not well-formed UTF-8")
  }

  @Test func emptyPackageNameIsMalformedEvenInLenientMode() throws {
    let empty = "9101055402656e6869" + "140f00616e64726f69642e636f6d3a706b67" + "5101055504612e6263"
    let result = try CLI.run(["decode", "--as", "ndef", "--json", "--lenient", empty])
    // Lenient: the message counts as decoded; the record-type error is listed as a warning.
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    let decoded = try #require(try Self.records(object)[1]["decoded"] as? [String: Any])
    #expect(decoded["kind"] as? String == "malformed")
    #expect((decoded["error"] as? [String: Any])?["code"] as? String == "emptyPayload")
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    #expect(warnings.map { $0["code"] as? String } == ["emptyPayload"])
    #expect(warnings.first?["offset"] as? Int == 27)
  }

  @Test func treeShowsEveryRecordWithTheErrorUnderItsRecord() throws {
    let result = try CLI.run(["decode", "--as", "ndef", Self.message])
    #expect(result.status == 1)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    let record1 = try #require(lines.firstIndex { $0.contains("Record 1: external \"android.com:pkg\"") })
    let record2 = try #require(lines.firstIndex { $0.contains("Record 2: wellKnown \"U\"") })
    let error = try #require(
      lines.firstIndex {
        $0.hasPrefix("001b  ff")
          && $0.contains("error: invalidUTF8 at offset 27: the text is not well-formed UTF-8")
      })
    #expect(record1 < error && error < record2)
    // The input line holding the bad byte and a caret under it, right below the error.
    #expect(lines[error + 1].contains("0010  6f 69 64 2e 63 6f 6d 3a 70 6b 67 ff fe 51 01 05"))
    #expect(lines[error + 2].hasSuffix("^^ offset 27"))
    #expect(lines.contains { $0.contains("URI: \"https://a.bc\"") })
    #expect(result.stderr.contains("tapwire: ndef: invalidUTF8 at offset 27"))
  }

  @Test func tagImageKeepsItsMessage() throws {
    let json = try CLI.run(["decode", "--as", "t2t", "--json", Self.tagImage])
    #expect(json.status == 1)
    let object = try CLI.object(json.stdout)
    #expect(object["ok"] as? Bool == false)
    #expect((object["error"] as? [String: Any])?["offset"] as? Int == 45)
    #expect(object["dataAreaSize"] as? Int == 144)
    let ndef = try #require(object["ndef"] as? [String: Any])
    let records = try Self.records(ndef)
    #expect(records.count == 3)
    #expect((records[1]["decoded"] as? [String: Any])?["kind"] as? String == "malformed")
    let tree = try CLI.run(["decode", "--as", "t2t", Self.tagImage])
    #expect(tree.status == 1)
    #expect(tree.stdout.contains("error: invalidUTF8 at offset 45"))
    #expect(tree.stdout.contains("Record 2: wellKnown \"U\""))
    #expect(tree.stdout.contains("^^ offset 45"))
  }

  @Test func linesModeCountsTheMessageAsFailed() throws {
    let result = try CLI.run(
      ["decode", "--as", "ndef", "--lines", "--json"], stdin: Self.message + "\nd00000\n")
    #expect(result.status == 1)
    let objects = try result.stdout.split(separator: "\n").map { try CLI.object(String($0)) }
    #expect(objects.count == 2)
    #expect(objects[0]["ok"] as? Bool == false)
    #expect((objects[0]["records"] as? [Any])?.count == 3)
    #expect(objects[1]["ok"] as? Bool == true)
  }
}

/// A Type 2 user-memory dump (NTAG213 header and data area, 160 bytes) whose factory Lock
/// Control TLV points at lock bytes 160-161, past the image.
@Suite("tapwire decode: control area outside the image")
struct ControlAreaOutsideImageCommandTests {
  static let dump: String = {
    let used = "04A1B29FC3D4E5F604480000E1101200" + "0103A00C34" + "030CD1010855016E66632E636F6D" + "FE"
    return used + String(repeating: "0", count: 320 - used.count)
  }()

  @Test func jsonDecodesTheMessageWithANote() throws {
    for lenient in [false, true] {
      let result = try CLI.run(
        ["decode", "--as", "t2t", "--json"] + (lenient ? ["--lenient"] : []) + [Self.dump])
      #expect(result.status == 0)
      let object = try CLI.object(result.stdout)
      #expect(object["ok"] as? Bool == true)
      #expect((object["warnings"] as? [Any])?.isEmpty == true)
      let notes = try #require(object["notes"] as? [[String: Any]])
      #expect(notes.count == 1)
      #expect(notes.first?["code"] as? String == "controlAreaOutsideImage")
      #expect(notes.first?["offset"] as? Int == 16)
      let ndef = try #require(object["ndef"] as? [String: Any])
      let records = try #require(ndef["records"] as? [[String: Any]])
      #expect((records.first?["decoded"] as? [String: Any])?["uri"] as? String == "http://www.nfc.com")
    }
  }

  @Test func treeShowsTheAreaAndTheNote() throws {
    let result = try CLI.run(["decode", "--as", "t2t", Self.dump])
    #expect(result.status == 0)
    #expect(
      result.stdout.contains(
        "lock area: 12 lock bits, each locks 8 bytes, bytes 160-161 past the end of the image"))
    #expect(result.stdout.contains("note: controlAreaOutsideImage at offset 16: the lock or reserved bytes"))
    #expect(result.stdout.contains("URI: \"http://www.nfc.com\""))
  }
}
