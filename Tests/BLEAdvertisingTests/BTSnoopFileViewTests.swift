// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

/// Builds a btsnoop v1 file; timestamps start at 1700000000 s Unix time, 100 ms apart.
func btsnoop(datalink: UInt32, _ packets: [(flags: UInt32, data: [UInt8])]) -> [UInt8] {
  func be(_ v: UInt64, _ width: Int) -> [UInt8] {
    (0..<width).reversed().map { UInt8(truncatingIfNeeded: v >> UInt64($0 * 8)) }
  }
  var out = Array("btsnoop".utf8) + [0] + be(1, 4) + be(UInt64(datalink), 4)
  let t0 = UInt64(BTSnoopFileView.unixEpochOffset) + 1_700_000_000_000_000
  for (i, p) in packets.enumerated() {
    out += be(UInt64(p.data.count), 4) + be(UInt64(p.data.count), 4) + be(UInt64(p.flags), 4)
    out += be(0, 4) + be(t0 + UInt64(i) * 100_000, 8) + p.data
  }
  return out
}

@Suite("BTSnoopFileView")
struct BTSnoopFileViewTests {
  /// Corpus/btsnoop/seeds/h4-advertising.btsnoop. btmon 5.66 (`btmon -r`) and tshark 4.0
  /// decode it as: frame 1 LE Set Scan Enable; 2 ADV_IND from C0:11:22:33:44:55 RSSI -60,
  /// company 0xffff, TX power 4, name TW-A; 3 SCAN_RSP RSSI -61, service data 0x180f = 5a;
  /// 4 and 5 extended fragments from D1:E2:F3:00:00:01 (incomplete, then complete),
  /// RSSI -70 and -68; tshark's frame.time_epoch 1700000000.0, .1, ... .4.
  static let h4File = hex(
    "6274736e6f6f700000000001000003ea0000000600000006000000020000000000e2e7d7274dc000010c200201000000002800000028000000030000000000e2e7d7274f46a0043e25020100015544332211c0190201060cffffff013030303132333435020a04050954572d41c40000001400000014000000030000000000e2e7d72750cd40043e11020104015544332211c00504160f185ac30000003100000031000000030000000000e2e7d7275253e0043e2e0d01210001010000f3e2d1010203f8ba0000000000000000001402010622ffffff013030303637383930000102030000003800000038000000030000000000e2e7d72753da80043e350d01010001010000f3e2d1010203f8bc0000000000000000001b0405060708090a0b0c0d0e0f101112131415080954572d45585431"
  )

  static let command = hex("0c20020100")
  static var events: [[UInt8]] {
    [
      HCIVectors.legacyAdvInd, HCIVectors.legacyScanRsp, HCIVectors.extendedFragment1,
      HCIVectors.extendedFragment2,
    ].map(hex)
  }

  static func reports(_ file: [UInt8], options: BLEAdvertisingOptions = .strict)
    throws(BLEAdvertisingError) -> [AdvertisingReport]
  {
    let view = try BTSnoopFileView(validating: file.span.bytes, options: options)
    var it = view.advertisingReports
    var result: [AdvertisingReport] = []
    while let r = try it.next() { result.append(r) }
    return result
  }

  @Test func builderMatchesTheCheckedSeed() {
    let built = btsnoop(
      datalink: 1002, [(2, [0x01] + Self.command)] + Self.events.map { (3, [0x04] + $0) })
    #expect(built == Self.h4File)
  }

  @Test func headerAndRecords() throws {
    let view = try BTSnoopFileView(validating: Self.h4File.span.bytes)
    let datalink = view.datalink
    let count = view.recordCount
    var it = view.records
    var stamps: [Int64] = []
    var lengths: [Int] = []
    var offsets: [Int] = []
    var received: [Bool] = []
    while let r = it.next() {
      stamps.append(r.unixMicroseconds)
      lengths.append(r.data.byteCount)
      offsets.append(r.offset)
      received.append(r.isReceived)
    }
    #expect(datalink == .h4)
    #expect(datalink.name == "h4")
    #expect(count == 5)
    #expect(stamps == (0..<5).map { 1_700_000_000_000_000 + Int64($0) * 100_000 })
    #expect(lengths == [6, 40, 20, 49, 56])
    #expect(offsets == [16, 46, 110, 154, 227])
    #expect(received == [false, true, true, true, true])
  }

  @Test(arguments: [UInt32(1001), 1002, 2001])
  func advertisingReportsPerDatalink(datalink: UInt32) throws {
    let file: [UInt8]
    switch datalink {
    case 1002: file = Self.h4File
    default: file = btsnoop(datalink: datalink, [(2, Self.command)] + Self.events.map { (3, $0) })
    }
    let reports = try Self.reports(file)
    #expect(reports.count == 3)
    #expect(
      reports.map { $0.address.description } == [
        "C0:11:22:33:44:55", "C0:11:22:33:44:55", "D1:E2:F3:00:00:01",
      ])
    #expect(reports.map { $0.rssi } == [-60, -61, -68])
    #expect(reports.map { $0.isScanResponse } == [false, true, false])
    let base = BTSnoopFileView.unixEpochOffset + 1_700_000_000_000_000
    #expect(reports.map { $0.timestamp } == [base + 100_000, base + 200_000, base + 400_000])
    #expect(reports[0].advertising.localName == "TW-A")
    #expect(reports[1].advertising.serviceData(for: BluetoothUUID(uuid16: 0x180F)) == [0x5A])
    #expect(reports[2].advertising.localName == "TW-EXT1")
    #expect(reports[2].txPower == -8)
    #expect(reports[2].secondaryPHY == .le2M)
  }

  @Test func monitorDatalinkSkipsOtherOpcodes() throws {
    // Opcode 4 (ACL tx) holding event-looking bytes is not an event.
    let file = btsnoop(datalink: 2001, [(4, Self.events[0]), (0x0001_0003, Self.events[1])])
    let reports = try Self.reports(file)
    #expect(reports.count == 1)
    #expect(reports.first?.isScanResponse == true)
  }

  static let malformed: [(String, String, Int)] = [
    ("", "emptyInput", 0),
    ("6274736e6f6f70", "truncatedFileHeader", 7),
    ("6274736e6f6f700000000001000003", "truncatedFileHeader", 15),
    ("6274736e6f6f7001 00000001 000003ea", "invalidMagic", 0),
    ("6274736e6f6f7000 00000002 000003ea", "unsupportedVersion", 8),
    ("6274736e6f6f7000 00000001 000003eb", "unsupportedDatalink", 12),
    ("6274736e6f6f7000 00000001 000003ea 00000001", "truncatedRecordHeader", 16),
    (
      "6274736e6f6f7000 00000001 000003ea 00000001 00000002 00000000 00000000 0000000000000000 04",
      "includedLengthExceedsOriginal", 20
    ),
    (
      "6274736e6f6f7000 00000001 000003ea 00000002 00000002 00000000 00000000 0000000000000000 04",
      "recordLengthExceedsInput", 20
    ),
    (
      "6274736e6f6f7000 00000001 000003ea ffffffff ffffffff 00000000 00000000 0000000000000000 04",
      "recordLengthExceedsInput", 20
    ),
  ]

  @Test(arguments: 0..<malformed.count)
  func rejectsMalformedFiles(index: Int) {
    let (text, code, offset) = Self.malformed[index]
    do throws(BLEAdvertisingError) {
      _ = try BTSnoopFileView(validating: hex(text).span.bytes)
      Issue.record("expected \(code)")
    } catch {
      #expect(error.code.name == code)
      #expect(error.offset == offset)
    }
  }

  @Test func truncationAtEveryOffset() throws {
    let recordStarts = [16, 46, 110, 154, 227, Self.h4File.count]
    for cut in 0..<Self.h4File.count {
      let prefix = Array(Self.h4File[0..<cut])
      var strict: (String, Int)? = nil
      do throws(BLEAdvertisingError) {
        _ = try BTSnoopFileView(validating: prefix.span.bytes)
      } catch {
        strict = (error.code.name, error.offset)
      }
      if cut >= 16 && recordStarts.contains(cut) {
        #expect(strict == nil, "cut \(cut)")
      } else {
        #expect(strict != nil, "cut \(cut)")
      }
      if cut >= 16 {
        let lenient = try BTSnoopFileView(validating: prefix.span.bytes, options: .lenient)
        let complete = recordStarts.filter { $0 <= cut }.count - 1
        let count = lenient.recordCount
        let warned = lenient.warnings.count
        #expect(count == complete, "cut \(cut)")
        #expect(warned == (recordStarts.contains(cut) ? 0 : 1), "cut \(cut)")
        _ = try Self.reports(prefix, options: .lenient)
      }
    }
  }

  @Test func malformedEventInCapture() throws {
    var bad = Self.events[0]
    bad[3] = 0  // Num_Reports 0
    let file = btsnoop(datalink: 1001, [(3, bad), (3, Self.events[1])])
    #expect(throws: BLEAdvertisingError(.invalidReportCount, offset: 16 + 24 + 3)) {
      _ = try Self.reports(file)
    }
    let view = try BTSnoopFileView(validating: file.span.bytes, options: .lenient)
    var it = view.advertisingReports
    var count = 0
    while try it.next() != nil { count += 1 }
    let warnings = it.warnings
    #expect(count == 1)
    #expect(warnings == [BLEAdvertisingWarning(.invalidReportCount, offset: 43)])
  }

  @Test func randomMutationsNeverTrap() {
    let seed = testSeed("BTSnoopFileView.randomMutationsNeverTrap")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<500 {
      var bytes = Self.h4File
      for _ in 0..<Int.random(in: 1...6, using: &rng) {
        let i = Int.random(in: 16..<bytes.count, using: &rng)
        bytes[i] = UInt8.random(in: 0...255, using: &rng)
      }
      for options in [BLEAdvertisingOptions.strict, .lenient] {
        if let reports = try? Self.reports(bytes, options: options) {
          for r in reports { _ = (r.advertising.localName, r.advertising.serviceUUIDs) }
        }
      }
    }
  }

  @Test func pendingFragmentsFlushedAtEnd() throws {
    let file = btsnoop(datalink: 1001, [(3, Self.events[2])])
    let reports = try Self.reports(file)
    #expect(reports.count == 1)
    #expect(reports.first?.isTruncated == true)
  }
}
