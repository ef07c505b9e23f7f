// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

/// Inside a Smart Poster or a handover record, a nested record whose payload breaks its
/// record type is reported where it is; the container and the nested record's siblings
/// still decode (the same rule as for a top-level message).
@Suite("Nested malformed records")
struct NestedMalformedRecordTests {
  /// Sp record at 0 (payload at 5): nested URI https://a.bc at 5 (payload 04 61 2e 62 63 at
  /// 9), then a Title at 14 whose payload (at 18) is status 02, "en", FF FE: the FF at 21
  /// is not UTF-8 (RTD Text §3.2.1). Hand-assembled (NDEF 1.0 §3.2, short records).
  static let posterWithBadTitle = hex(
    "d1 02 12 53 70" + " 91 01 05 55 04 61 2e 62 63" + " 51 01 05 54 02 65 6e ff fe")
  /// Sp whose only nested record is a Title "hi" (no URI record at all).
  static let posterWithoutURI = hex("d1 02 09 53 70" + " d1 01 05 54 02 65 6e 68 69")
  /// Sp whose only URI record has the reserved prefix 0x24 (payload at 9).
  static let posterWithBadURI = hex("d1 02 06 53 70" + " d1 01 02 55 24 61")
  /// Hs record at 0 (payload at 5: version 0x12), nested message at 6: `ac` at 6 (payload at
  /// 11: CPS active, reference "0", no auxiliary references), then `ac` at 15 whose payload
  /// (at 20) is CPS 01, reference length 5 (at 21) but one reference byte (Handover 1.5 §6.3.2).
  static let selectWithBadCarrier = hex(
    "d1 02 12 48 73 12" + " 91 02 04 61 63 01 01 30 00" + " 51 02 03 61 63 01 05 31")

  @Test func posterWithGoodURIAndBadTitleDecodesAndListsTheTitle() throws {
    let message = try NDEFMessageView(validating: Self.posterWithBadTitle.span)
    var records = message.records
    guard let record = records.next() else {
      Issue.record("no record")
      return
    }
    let decoded = DecodedRecord(classifying: record)
    guard case .smartPoster(let poster) = decoded else {
      Issue.record("the Smart Poster is not decoded as one")
      return
    }
    #expect(poster.uri?.uri == "https://a.bc")
    #expect(poster.titleCount == 0)
    #expect(
      poster.malformedRecords()
        == [
          NestedMalformedRecord(
            index: 1,
            malformed: MalformedRecord(recordType: .text, error: NDEFError(.invalidUTF8, offset: 21)))
        ])
    // The throwing entry point gives the poster too: the title is the nested record's error.
    #expect((try? SmartPosterView(validating: record)) != nil)
  }

  @Test func lenientPosterKeepsTheTitleWithAWarning() throws {
    let message = try NDEFMessageView(validating: Self.posterWithBadTitle.span, options: .lenient)
    var records = message.records
    guard let record = records.next() else {
      Issue.record("no record")
      return
    }
    let poster = try SmartPosterView(validating: record, options: .lenient)
    #expect(poster.titleCount == 1)
    #expect(poster.malformedRecords().isEmpty)
    #expect(poster.warnings.contains(NDEFWarning(.invalidUTF8, offset: 21)))
  }

  @Test func posterWithoutAnyURIRecordIsAnErrorOfThePoster() throws {
    let message = try NDEFMessageView(validating: Self.posterWithoutURI.span)
    var records = message.records
    guard let record = records.next() else {
      Issue.record("no record")
      return
    }
    #expect(throws: NDEFError(.smartPosterMissingURI, offset: 5)) {
      _ = try SmartPosterView(validating: record)
    }
    let decoded = DecodedRecord(classifying: record)
    #expect(
      decoded.error == NDEFError(.smartPosterMissingURI, offset: 5))
  }

  @Test func posterWhoseURIRecordIsMalformedIsNotMissingIt() throws {
    let message = try NDEFMessageView(validating: Self.posterWithBadURI.span)
    var records = message.records
    guard let record = records.next() else {
      Issue.record("no record")
      return
    }
    let poster = try SmartPosterView(validating: record)
    #expect(poster.uri?.uri == nil)
    #expect(
      poster.malformedRecords()
        == [
          NestedMalformedRecord(
            index: 0,
            malformed: MalformedRecord(recordType: .uri, error: NDEFError(.uriReservedPrefix, offset: 9)))
        ])
  }

  @Test func handoverSelectWithOneGoodAndOneBadCarrier() throws {
    let message = try NDEFMessageView(validating: Self.selectWithBadCarrier.span)
    var records = message.records
    guard let record = records.next() else {
      Issue.record("no record")
      return
    }
    guard case .handover(let select) = DecodedRecord(classifying: record) else {
      Issue.record("the Handover Select is not decoded as one")
      return
    }
    #expect(select.kind == .select)
    #expect(select.version == "1.2")
    #expect(select.alternativeCarrierCount == 1)
    var carriers = select.alternativeCarriers
    guard let carrier = carriers.next() else {
      Issue.record("no carrier")
      return
    }
    #expect(carrier.powerState == .active)
    let reference = carrier.dataReference.copiedBytes()
    #expect(reference == [0x30])
    var more = 0
    while carriers.next() != nil { more += 1 }
    #expect(more == 0)
    #expect(
      select.malformedRecords()
        == [
          NestedMalformedRecord(
            index: 1,
            malformed: MalformedRecord(
              recordType: .alternativeCarrier, error: NDEFError(.alternativeCarrierTruncated, offset: 21)))
        ])
  }

  @Test func handoverRequestWhoseOnlyCarrierIsMalformedIsNotMissingOne() throws {
    // Hr 1.1 (no Collision Resolution needed), payload at 5, nested `ac` at 6 with the same
    // bad payload (reference length at 12).
    let bytes = hex("d1 02 09 48 72 11" + " d1 02 03 61 63 01 05 31")
    let message = try NDEFMessageView(validating: bytes.span)
    var records = message.records
    guard let record = records.next() else {
      Issue.record("no record")
      return
    }
    let request = try HandoverView(
      validating: record.payload, kind: .request, baseOffset: record.payloadOffset)
    #expect(request.alternativeCarrierCount == 0)
    #expect(
      request.malformedRecords().map { $0.malformed.error } == [
        NDEFError(.alternativeCarrierTruncated, offset: 12)
      ])
  }
}
