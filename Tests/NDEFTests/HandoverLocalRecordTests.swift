// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

/// Handover local records (`cr`, Connection Handover 1.5 §6.3.3; `err`, §6.3.4) whose payload
/// breaks their rule are malformed nested records in place; the carriers and the other local
/// records still decode (issue 21). Local names resolve only inside the handover record
/// (RTD 1.0 §2.3).
@Suite("Handover local records")
struct HandoverLocalRecordTests {
  /// Hr 1.2 at 0 (payload at 5, nested message at 6): `cr` at 6 with a 3-byte payload at 11
  /// (§6.3.3 wants 2), a valid `ac` at 14, `err` at 23 with reason 02 and one data byte at 29
  /// (§6.3.4 wants four for 0x02).
  static let requestWithBadLocals = hex(
    "d1 02 1a 48 72 12" + " 91 02 03 63 72 12 34 56" + " 11 02 04 61 63 01 01 30 00"
      + " 51 03 02 65 72 72 02 00")
  /// Hs 1.2 at 0: `err` at 6 with the unknown reason 07 (payload at 12), `ac` at 14 whose
  /// reference length 5 at 20 runs past its payload, a valid `ac` at 22.
  static let selectWithBadErrorAndCarrier = hex(
    "d1 02 1a 48 73 12" + " 91 03 02 65 72 72 07 00" + " 11 02 03 61 63 01 05 31"
      + " 51 02 04 61 63 01 01 30 00")
  /// Hr 1.2 at 0: valid `cr` 12 34 at 6, `ac` at 13, `err` reason 03 data 05 at 22.
  static let requestWithGoodLocals = hex(
    "d1 02 19 48 72 12" + " 91 02 02 63 72 12 34" + " 11 02 04 61 63 01 01 30 00"
      + " 51 03 02 65 72 72 03 05")

  static func handover(_ bytes: [UInt8], _ kind: HandoverKind, _ options: NDEFDecodingOptions = .strict)
    throws(NDEFError) -> (
      carriers: Int, collision: UInt16?, reason: UInt8?, data: UInt32?, malformed: [NestedMalformedRecord],
      warnings: [NDEFWarning]
    )
  {
    let view = try HandoverView(
      validating: bytes.span.bytes.extracting(5..<bytes.count), kind: kind, baseOffset: 5, options: options)
    return (
      view.alternativeCarrierCount, view.collisionResolution, view.errorReason, view.errorData,
      view.malformedRecords(), view.warnings
    )
  }

  @Test func badCollisionResolutionAndErrorAreMalformedInPlace() throws {
    let request = try Self.handover(Self.requestWithBadLocals, .request)
    #expect(request.carriers == 1)
    #expect(request.collision == nil)
    #expect(request.reason == nil)
    #expect(request.data == nil)
    #expect(request.warnings.isEmpty)
    #expect(
      request.malformed == [
        NestedMalformedRecord(
          index: 0,
          malformed: MalformedRecord(
            recordType: .collisionResolution, error: NDEFError(.collisionResolutionInvalidLength, offset: 11))
        ),
        NestedMalformedRecord(
          index: 2,
          malformed: MalformedRecord(
            recordType: .handoverError, error: NDEFError(.handoverErrorInvalid, offset: 29))),
      ])
    #expect(
      request.malformed.map { $0.malformed.recordType.rawValue } == ["collisionResolution", "handoverError"])
  }

  @Test func aMalformedCollisionResolutionIsNotAMissingOne() throws {
    // Hr 1.2 whose only `cr` (payload at 11) is one byte: present, so no
    // `handoverMissingCollisionResolution` in either mode.
    let bytes = hex("d1 02 10 48 72 12" + " 91 02 01 63 72 12" + " 51 02 04 61 63 01 01 30 00")
    let strict = try Self.handover(bytes, .request)
    #expect(
      strict.malformed.map { $0.malformed.error } == [
        NDEFError(.collisionResolutionInvalidLength, offset: 11)
      ])
    let lenient = try Self.handover(bytes, .request, .lenient)
    #expect(lenient.warnings == [NDEFWarning(.collisionResolutionInvalidLength, offset: 11)])
    #expect(lenient.malformed.isEmpty)
    // Without any `cr` record the rule still holds.
    let none = hex("d1 02 0a 48 72 12" + " d1 02 04 61 63 01 01 30 00")
    #expect(
      payloadError { () throws(NDEFError) in _ = try Self.handover(none, .request) }
        == NDEFError(.handoverMissingCollisionResolution, offset: 5))
  }

  @Test func malformedLocalsJoinTheMessagesOwnInRecordOrder() throws {
    let select = try Self.handover(Self.selectWithBadErrorAndCarrier, .select)
    #expect(select.carriers == 1)
    #expect(select.reason == nil)
    #expect(
      select.malformed == [
        NestedMalformedRecord(
          index: 0,
          malformed: MalformedRecord(
            recordType: .handoverError, error: NDEFError(.handoverErrorInvalid, offset: 12))),
        NestedMalformedRecord(
          index: 1,
          malformed: MalformedRecord(
            recordType: .alternativeCarrier, error: NDEFError(.alternativeCarrierTruncated, offset: 20))),
      ])
  }

  @Test func lenientKeepsWarnings() throws {
    let request = try Self.handover(Self.requestWithBadLocals, .request, .lenient)
    #expect(request.carriers == 1)
    #expect(request.collision == nil)
    #expect(request.reason == nil)
    #expect(request.malformed.isEmpty)
    #expect(
      request.warnings == [
        NDEFWarning(.collisionResolutionInvalidLength, offset: 11),
        NDEFWarning(.handoverErrorInvalid, offset: 29),
      ])
  }

  @Test func validSiblingsDecode() throws {
    let request = try Self.handover(Self.requestWithGoodLocals, .request)
    #expect(request.carriers == 1)
    #expect(request.collision == 0x1234)
    #expect(request.reason == 3)
    #expect(request.data == 5)
    #expect(request.malformed.isEmpty)
    #expect(request.warnings.isEmpty)
  }

  @Test(
    arguments: [
      ("01 05", nil), ("03 ff", nil), ("02 00 00 10 00", nil), ("02 00", 12), ("01", 12), ("01 00 00", 12),
      ("00 00", 12), ("04 00", 12), ("", 12),
    ] as [(String, Int?)])
  func errorDataWidthFollowsTheReason(_ entry: (String, Int?)) throws {
    // Hs 1.2 at 0 with one `err` at 6 whose payload (at 12) is `entry.0`.
    let data = hex(entry.0)
    let bytes =
      [0xd1, 0x02, UInt8(7 + data.count), 0x48, 0x73, 0x12, 0xd1, 0x03, UInt8(data.count), 0x65, 0x72, 0x72]
      + data
    let offset = try Self.handover(bytes, .select).malformed.first?.malformed.error.offset
    #expect(offset == entry.1)
  }

  @Test func localRecordErrorIsNilForValidOtherAndLenientRecords() throws {
    let message = try NDEFMessageView(
      validating: Self.requestWithBadLocals.span.bytes.extracting(6..<Self.requestWithBadLocals.count),
      baseOffset: 6)
    var records = message.records
    var strict: [MalformedRecord?] = []
    var lenient: [MalformedRecord?] = []
    while let record = records.next() {
      strict.append(HandoverView.localRecordError(record))
      lenient.append(HandoverView.localRecordError(record, options: .lenient))
    }
    #expect(
      strict == [
        MalformedRecord(
          recordType: .collisionResolution, error: NDEFError(.collisionResolutionInvalidLength, offset: 11)),
        nil,
        MalformedRecord(recordType: .handoverError, error: NDEFError(.handoverErrorInvalid, offset: 29)),
      ])
    #expect(lenient == [nil, nil, nil])
  }

  @Test func theHandoverRecordClassifiesAsOne() throws {
    let message = try NDEFMessageView(validating: Self.requestWithBadLocals.span)
    var records = message.records
    guard let record = records.next() else {
      Issue.record("no record")
      return
    }
    guard case .handover(let request) = DecodedRecord(classifying: record) else {
      Issue.record("the Handover Request is not decoded as one")
      return
    }
    #expect(request.malformedRecords(depth: 0).map { $0.malformed.error.offset } == [11, 29])
  }
}
