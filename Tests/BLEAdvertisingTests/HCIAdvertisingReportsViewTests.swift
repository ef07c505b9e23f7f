// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

/// Vectors shared by the HCI and btsnoop tests; the same bytes are the seeds in
/// Corpus/hci/seeds and were decoded by btmon 5.66 and tshark for comparison.
enum HCIVectors {
  static let legacyAdvInd =
    "3e25020100015544332211c0190201060cffffff013030303132333435020a04050954572d41c4"
  static let legacyScanRsp = "3e11020104015544332211c00504160f185ac3"
  static let extendedFragment1 =
    "3e2e0d01210001010000f3e2d1010203f8ba0000000000000000001402010622ffffff01303030363738393000010203"
  static let extendedFragment2 =
    "3e350d01010001010000f3e2d1010203f8bc0000000000000000001b0405060708090a0b0c0d0e0f101112131415080954572d45585431"
}

/// Plain values of one report view.
struct ReportFields: Equatable {
  var extended: Bool
  var eventType: UInt16
  var addressType: UInt8
  var address: String
  var primaryPHY: UInt8
  var secondaryPHY: UInt8
  var sid: UInt8?
  var txPower: Int8?
  var rssi: Int8?
  var data: String
  var offset: Int
  var dataOffset: Int
  var status: String
  var scanResponse: Bool
}

func reportFields(_ text: String, options: BLEAdvertisingOptions = .strict) throws(BLEAdvertisingError)
  -> [ReportFields]
{
  let bytes = hex(text)
  let view = try HCIAdvertisingReportsView(validating: bytes.span.bytes, options: options)
  var it = view.reports
  var result: [ReportFields] = []
  while let r = it.next() {
    result.append(
      ReportFields(
        extended: r.isExtended, eventType: r.rawEventType, addressType: r.addressType.rawValue,
        address: r.address.description, primaryPHY: r.primaryPHY.rawValue,
        secondaryPHY: r.secondaryPHY.rawValue, sid: r.advertisingSID, txPower: r.txPower,
        rssi: r.rssi, data: Hex.string(r.data), offset: r.offset, dataOffset: r.dataOffset,
        status: r.dataStatus.name, scanResponse: r.isScanResponse))
  }
  return result
}

/// Replaces `LL` after the event code with the parameter length.
func withLength(_ text: String) -> String {
  let compact = String(text.filter { $0 != " " })
  guard compact.count >= 4, compact.dropFirst(2).hasPrefix("LL") else { return compact }
  let params = compact.count / 2 - 2
  let digits = Array("0123456789abcdef")
  let length = String([digits[params >> 4], digits[params & 15]])
  return String(compact.prefix(2)) + length + String(compact.dropFirst(4))
}

func hciError(_ text: String) -> (String, Int)? {
  do throws(BLEAdvertisingError) {
    _ = try reportFields(text)
    return nil
  } catch {
    return (error.code.name, error.offset)
  }
}

@Suite("HCIAdvertisingReportsView")
struct HCIAdvertisingReportsViewTests {
  @Test func legacyAdvInd() throws {
    let got = try reportFields(HCIVectors.legacyAdvInd)
    #expect(
      got == [
        ReportFields(
          extended: false, eventType: 0, addressType: 1, address: "C0:11:22:33:44:55",
          primaryPHY: 1, secondaryPHY: 0, sid: nil, txPower: nil, rssi: -60,
          data: "0201060cffffff013030303132333435020a04050954572d41", offset: 4, dataOffset: 13,
          status: "complete", scanResponse: false)
      ])
    let bytes = hex(HCIVectors.legacyAdvInd)
    let view = try HCIAdvertisingReportsView(validating: bytes.span.bytes)
    var it = view.reports
    var name: String? = nil
    var legacyName: String? = nil
    if let r = it.next() {
      name = try AdvertisingData(parsing: r.data).localName
      legacyName = r.legacyEventType?.name
    }
    #expect(name == "TW-A")
    #expect(legacyName == "advInd")
  }

  @Test func legacyScanResponse() throws {
    let got = try reportFields(HCIVectors.legacyScanRsp)
    #expect(got.count == 1)
    #expect(got.first?.scanResponse == true)
    #expect(got.first?.rssi == -61)
    #expect(got.first?.data == "04160f185a")
  }

  @Test func extendedFragment() throws {
    let got = try reportFields(HCIVectors.extendedFragment1)
    #expect(
      got == [
        ReportFields(
          extended: true, eventType: 0x21, addressType: 1, address: "D1:E2:F3:00:00:01",
          primaryPHY: 1, secondaryPHY: 2, sid: 3, txPower: -8, rssi: -70,
          data: "02010622ffffff01303030363738393000010203", offset: 4, dataOffset: 28,
          status: "incomplete", scanResponse: false)
      ])
  }

  @Test func severalLegacyReportsAndNotAvailableValues() throws {
    // Two reports: the second has RSSI 127 (not available) and empty data.
    let text = "3eLL 02 02 00 00 010203040506 03 020106 c8 03 01 0a0b0c0d0e0f 00 7f"
    let got = try reportFields(withLength(text))
    #expect(got.map { $0.address } == ["06:05:04:03:02:01", "0F:0E:0D:0C:0B:0A"])
    #expect(got.map { $0.rssi } == [-56, nil])
    #expect(got.map { $0.offset } == [4, 17])
    #expect(got.map { $0.data } == ["020106", ""])
  }

  /// (event hex, code, offset).
  static let malformed: [(String, String, Int)] = [
    ("", "emptyInput", 0),
    ("3e", "truncatedEventHeader", 1),
    ("3e05 0201", "eventLengthMismatch", 1),
    ("3e01 0201", "eventLengthMismatch", 1),
    ("0e04 01020304", "notLEMetaEvent", 0),
    ("3e00", "truncatedReport", 2),
    ("3e02 0301", "unsupportedSubevent", 2),
    ("3e01 02", "truncatedReport", 3),
    ("3e02 0200", "invalidReportCount", 3),
    ("3e02 021a", "invalidReportCount", 3),
    ("3e02 0d0b", "invalidReportCount", 3),
    ("3eLL 0201 000001", "truncatedReport", 6),
    ("3eLL 0201 0000 010203040506 01", "reportDataExceedsEvent", 12),
    ("3eLL 0201 0000 010203040506 01 02", "reportDataExceedsEvent", 12),
    ("3eLL 0201 0000 010203040506 20" + String(repeating: "00", count: 33), "reportDataExceedsEvent", 12),
    ("3eLL 0201 0000 010203040506 00 c8 ff", "trailingBytes", 14),
    ("3eLL 0202 0000 010203040506 00 c8", "truncatedReport", 14),
    ("3eLL 0d01 0000 00 010203040506", "truncatedReport", 13),
    (
      "3eLL 0d01 0000 00 010203040506 0100 ff 7f 7f 0000 00 000000000000 05 0102", "reportDataExceedsEvent",
      27
    ),
  ]

  @Test(arguments: 0..<malformed.count)
  func rejectsMalformedEvents(index: Int) {
    let (text, code, offset) = Self.malformed[index]
    let error = hciError(withLength(text))
    #expect(error?.0 == code)
    #expect(error?.1 == offset)
  }

  @Test func lenientAcceptsTrailingBytes() throws {
    let text = withLength("3eLL 0201 0000 010203040506 00 c8 ff")
    let got = try reportFields(text, options: .lenient)
    #expect(got.count == 1)
    let bytes = hex(text)
    let view = try HCIAdvertisingReportsView(validating: bytes.span.bytes, options: .lenient)
    let warnings = view.warnings
    #expect(warnings == [BLEAdvertisingWarning(.trailingBytes, offset: 14)])
  }

  @Test func truncationAtEveryOffset() {
    for text in [HCIVectors.legacyAdvInd, HCIVectors.extendedFragment2] {
      let bytes = hex(text)
      for cut in 0..<bytes.count {
        let prefix = Hex.string(Array(bytes[0..<cut]))
        let error = hciError(prefix)
        #expect(error != nil, "cut \(cut)")
        if cut >= 2 { #expect(error?.0 == "eventLengthMismatch", "cut \(cut)") }
      }
      // With the length octet fixed to the cut, the error is inside the reports.
      for cut in 3..<bytes.count {
        var prefix = Array(bytes[0..<cut])
        prefix[1] = UInt8(cut - 2)
        let error = hciError(Hex.string(prefix))
        #expect(
          error?.0 == "truncatedReport" || error?.0 == "reportDataExceedsEvent", "cut \(cut)")
        #expect((error?.1 ?? -1) >= 3 && (error?.1 ?? -1) <= cut, "cut \(cut)")
      }
    }
  }

  @Test func dataPointsIntoTheInput() throws {
    let bytes = hex(HCIVectors.legacyAdvInd)
    let span = bytes.span.bytes
    let view = try HCIAdvertisingReportsView(validating: span)
    var it = view.reports
    var address: UInt = 0
    if let r = it.next() { address = r.data.baseAddressForIdentity }
    #expect(address == span.baseAddressForIdentity + 13)
  }

  @Test func randomEventsNeverTrap() {
    let seed = testSeed("HCIAdvertisingReportsView.randomEventsNeverTrap")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<1000 {
      let count = Int.random(in: 0...60, using: &rng)
      var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
      if bytes.count >= 4 {
        bytes[0] = 0x3E
        bytes[1] = UInt8(bytes.count - 2)
        bytes[2] = Bool.random(using: &rng) ? 0x02 : 0x0D
        bytes[3] = UInt8.random(in: 1...2, using: &rng)
      }
      _ = hciError(Hex.string(bytes))
    }
  }
}

@Suite("ExtendedAdvertisingReassembler")
struct ExtendedAdvertisingReassemblerTests {
  static func add(
    _ texts: [String], into reassembler: inout ExtendedAdvertisingReassembler
  ) throws(BLEAdvertisingError) -> [AdvertisingReport] {
    var done: [AdvertisingReport] = []
    for (i, text) in texts.enumerated() {
      let bytes = hex(text)
      let view = try HCIAdvertisingReportsView(validating: bytes.span.bytes)
      var it = view.reports
      while let r = it.next() {
        if let report = try reassembler.add(r, timestamp: Int64(i)) { done.append(report) }
      }
    }
    return done
  }

  @Test func reassemblesFragments() throws {
    var reassembler = ExtendedAdvertisingReassembler()
    let done = try Self.add(
      [HCIVectors.extendedFragment1, HCIVectors.legacyAdvInd, HCIVectors.extendedFragment2],
      into: &reassembler)
    #expect(done.count == 2)
    #expect(done.first?.isExtended == false)
    let ext = done.last
    #expect(ext?.data.count == 20 + 27)
    #expect(ext?.rssi == -68)
    #expect(ext?.txPower == -8)
    #expect(ext?.timestamp == 2)
    #expect(ext?.isTruncated == false)
    #expect(ext?.advertisingSID == 3)
    #expect(ext?.advertising.localName == "TW-EXT1")
    #expect(ext?.advertising.manufacturerData(for: .testing)?.count == 31)
    #expect(reassembler.pendingCount == 0)
  }

  @Test func truncatedStatusAndFlush() throws {
    var reassembler = ExtendedAdvertisingReassembler()
    var truncated = hex(HCIVectors.extendedFragment2)
    truncated[4] = 0x41  // data status 0b10
    let done = try Self.add(
      [HCIVectors.extendedFragment1, Hex.string(truncated)], into: &reassembler)
    #expect(done.count == 1)
    #expect(done.first?.isTruncated == true)
    _ = try Self.add([HCIVectors.extendedFragment1], into: &reassembler)
    #expect(reassembler.pendingCount == 1)
    let flushed = reassembler.flush()
    #expect(flushed.count == 1)
    #expect(flushed.first?.isTruncated == true)
    #expect(reassembler.pendingCount == 0)
  }

  @Test func limits() throws {
    var small = ExtendedAdvertisingReassembler(
      options: BLEAdvertisingOptions(maximumReassembledSize: 30))
    #expect(throws: BLEAdvertisingError(.reassemblyOverflow, offset: 28)) {
      _ = try Self.add([HCIVectors.extendedFragment1, HCIVectors.extendedFragment2], into: &small)
    }
    var lenient = ExtendedAdvertisingReassembler(
      options: BLEAdvertisingOptions(isLenient: true, maximumReassembledSize: 30))
    let done = try Self.add(
      [HCIVectors.extendedFragment1, HCIVectors.extendedFragment2], into: &lenient)
    #expect(done.first?.data.count == 30)
    #expect(done.first?.isTruncated == true)
    #expect(lenient.warnings.map { $0.code } == [.reassemblyOverflow])

    var one = ExtendedAdvertisingReassembler(
      options: BLEAdvertisingOptions(maximumPendingAdvertisers: 1))
    var other = hex(HCIVectors.extendedFragment1)
    other[8] = 0x99  // another address
    #expect(throws: BLEAdvertisingError(.tooManyPendingAdvertisers, offset: 4)) {
      _ = try Self.add([HCIVectors.extendedFragment1, Hex.string(other)], into: &one)
    }
    var reserved = hex(HCIVectors.extendedFragment2)
    reserved[4] = 0x61
    var strict = ExtendedAdvertisingReassembler()
    #expect(throws: BLEAdvertisingError(.reservedDataStatus, offset: 4)) {
      _ = try Self.add([Hex.string(reserved)], into: &strict)
    }
  }
}
