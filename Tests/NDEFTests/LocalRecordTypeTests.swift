// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

/// Smart Poster local records (`act`, `s`, `t`, RTD Smart Poster 1.0 §3.3.3-§3.3.5) whose
/// payload breaks their rule are malformed nested records in place; the URI and titles
/// still decode (issue 21). Local names resolve only inside the poster (RTD 1.0 §2.3).
@Suite("Smart Poster local records")
struct LocalRecordTypeTests {
  /// Sp at 0 (payload at 5): URI https://a.bc at 5, Title "hi" (en) at 14 (payload at 18),
  /// `act` at 23 with a 2-byte payload 00 01 at 29 (§3.3.3 wants one byte).
  static let posterWithTwoByteAction = hex(
    "d1 02 1a 53 70" + " 91 01 05 55 04 61 2e 62 63" + " 11 01 05 54 02 65 6e 68 69"
      + " 51 03 02 61 63 74 00 01")
  /// Sp at 0: URI at 5, `s` at 14 with a 3-byte payload at 18 (§3.3.4 wants 4).
  static let posterWithThreeByteSize = hex(
    "d1 02 10 53 70" + " 91 01 05 55 04 61 2e 62 63" + " 51 01 03 73 00 00 01")
  /// Sp at 0: URI at 5, `t` at 14 with payload 61 ff 62 at 18: the FF at 19 is not UTF-8.
  static let posterWithBadType = hex(
    "d1 02 10 53 70" + " 91 01 05 55 04 61 2e 62 63" + " 51 01 03 74 61 ff 62")
  /// Sp at 0: URI at 5, valid `act` 01 (saveForLater), `s` 00 00 01 00, `t` "a/b".
  static let posterWithGoodLocals = hex(
    "d1 02 1f 53 70" + " 91 01 05 55 04 61 2e 62 63" + " 11 03 01 61 63 74 01"
      + " 11 01 04 73 00 00 01 00" + " 51 01 03 74 61 2f 62")

  @Test func twoByteActionIsMalformedInPlaceAndTheRestDecodes() throws {
    let rawTwoByteAction = Self.posterWithTwoByteAction
    let poster = try SmartPosterView(
      validating: rawTwoByteAction.span.bytes.extracting(5..<rawTwoByteAction.count), baseOffset: 5)
    #expect(poster.uri?.uri == "https://a.bc")
    #expect(poster.titleCount == 1)
    #expect(poster.action == nil)
    #expect(
      poster.malformedRecords()
        == [
          NestedMalformedRecord(
            index: 2,
            malformed: MalformedRecord(
              recordType: .smartPosterAction, error: NDEFError(.smartPosterInvalidAction, offset: 29)))
        ])
    #expect(poster.malformedRecords().first?.malformed.recordType.rawValue == "smartPosterAction")
  }

  @Test func threeByteSizeIsMalformedInPlace() throws {
    let rawThreeByteSize = Self.posterWithThreeByteSize
    let poster = try SmartPosterView(
      validating: rawThreeByteSize.span.bytes.extracting(5..<rawThreeByteSize.count), baseOffset: 5)
    #expect(poster.uri?.uri == "https://a.bc")
    #expect(poster.size == nil)
    #expect(
      poster.malformedRecords()
        == [
          NestedMalformedRecord(
            index: 1,
            malformed: MalformedRecord(
              recordType: .smartPosterSize, error: NDEFError(.smartPosterInvalidSize, offset: 18)))
        ])
  }

  @Test func typeThatIsNotUTF8IsMalformedAtTheBadByte() throws {
    let rawBadType = Self.posterWithBadType
    let poster = try SmartPosterView(
      validating: rawBadType.span.bytes.extracting(5..<rawBadType.count), baseOffset: 5)
    #expect(poster.uri?.uri == "https://a.bc")
    var typeCount = -1
    if let type = poster.mimeType { typeCount = type.byteCount }
    #expect(typeCount == -1)
    #expect(
      poster.malformedRecords()
        == [
          NestedMalformedRecord(
            index: 1,
            malformed: MalformedRecord(
              recordType: .smartPosterType, error: NDEFError(.invalidUTF8, offset: 19)))
        ])
  }

  @Test func lenientKeepsWarnings() throws {
    let rawTwoByteAction = Self.posterWithTwoByteAction
    let poster = try SmartPosterView(
      validating: rawTwoByteAction.span.bytes.extracting(5..<rawTwoByteAction.count), baseOffset: 5,
      options: .lenient)
    #expect(poster.malformedRecords().isEmpty)
    #expect(poster.warnings.contains(NDEFWarning(.smartPosterInvalidAction, offset: 29)))
    let rawBadType = Self.posterWithBadType
    let typed = try SmartPosterView(
      validating: rawBadType.span.bytes.extracting(5..<rawBadType.count), baseOffset: 5, options: .lenient)
    #expect(typed.warnings.contains(NDEFWarning(.invalidUTF8, offset: 19)))
    var typeCount = -1
    if let type = typed.mimeType { typeCount = type.byteCount }
    #expect(typeCount == 3)
  }

  @Test func validLocalsDecode() throws {
    let rawGoodLocals = Self.posterWithGoodLocals
    let poster = try SmartPosterView(
      validating: rawGoodLocals.span.bytes.extracting(5..<rawGoodLocals.count), baseOffset: 5)
    #expect(poster.action == .saveForLater)
    #expect(poster.size == 256)
    var type: [UInt8] = []
    if let mime = poster.mimeType { type = mime.copiedBytes() }
    #expect(type == Array("a/b".utf8))
    #expect(poster.malformedRecords().isEmpty)
  }

  @Test func actionAtTopLevelIsUnrecognized() throws {
    // `act` at 0 outside a poster, payload 05 at 6: a local name, not resolved (RTD 1.0 §2.3).
    let bytes = hex("d1 03 01 61 63 74 05")
    let message = try NDEFMessageView(validating: bytes.span)
    var records = message.records
    guard let record = records.next() else {
      Issue.record("no record")
      return
    }
    #expect(RecordKind(typeNameFormat: record.typeNameFormat, type: record.type) == .unrecognized)
    #expect(message.malformedRecords().isEmpty)
  }
}
