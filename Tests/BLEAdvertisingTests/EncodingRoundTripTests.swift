// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

/// Decodes HCI events into reassembled reports.
func decodeEvents(_ events: [[UInt8]]) throws(BLEAdvertisingError) -> [AdvertisingReport] {
  var reassembler = ExtendedAdvertisingReassembler()
  var result: [AdvertisingReport] = []
  for event in events {
    let view = try HCIAdvertisingReportsView(validating: event.span.bytes)
    var it = view.reports
    while let r = it.next() {
      if let done = try reassembler.add(r) { result.append(done) }
    }
  }
  return result
}

@Suite("AdvertisingReport encoding")
struct AdvertisingReportEncodingTests {
  @Test(arguments: [HCIVectors.legacyAdvInd, HCIVectors.legacyScanRsp, HCIVectors.extendedFragment2])
  func reencodesVectorsExactly(text: String) throws {
    let bytes = hex(text)
    let reports = try decodeEvents([bytes])
    #expect(reports.count == 1)
    #expect(try reports.first?.encodedEvents() == [bytes])
  }

  @Test func fragmentsAndReassemblesExtendedData() throws {
    let reports = try decodeEvents([hex(HCIVectors.extendedFragment1), hex(HCIVectors.extendedFragment2)])
    let report = try #require(reports.first)
    let events = try report.encodedEvents(maximumFragmentSize: 20)
    #expect(events.count == 3)
    #expect(events.map { $0[4] >> 5 & 0b11 } == [1, 1, 0])
    #expect(try decodeEvents(events) == [report])
    var truncated = report
    truncated.isTruncated = true
    let last = try truncated.encodedEvents().last
    #expect(last.map { $0[4] >> 5 & 0b11 } == 2)
    #expect(throws: BLEAdvertisingError(.exceedsBudget, offset: 0)) {
      _ = try report.encodedEvents(maximumFragmentSize: 230)
    }
    var legacy = AdvertisingReport(address: addressA, rssi: nil, data: Array(repeating: 0, count: 32))
    #expect(throws: BLEAdvertisingError(.exceedsBudget, offset: 0)) { _ = try legacy.encodedEvents() }
    legacy.data = []
    let event = try legacy.encodedEvents()
    #expect(Hex.string(event[0]) == "3e0c020100010a00000000c0007f")
  }

  @Test func interleavedAdvertisersAndSIDsReassembleSeparately() throws {
    func report(_ address: BluetoothAddress, sid: UInt8, fill: UInt8) -> AdvertisingReport {
      var r = AdvertisingReport(
        address: address, rssi: -50, txPower: 0, data: Array(repeating: fill, count: 50),
        isExtended: true)
      r.advertisingSID = sid
      r.eventType = .connectable
      return r
    }
    let reports = [
      report(addressA, sid: 1, fill: 0xA1), report(addressA, sid: 2, fill: 0xA2),
      report(addressB, sid: 1, fill: 0xB1),
    ]
    let fragments = try reports.map { try $0.encodedEvents(maximumFragmentSize: 20) }
    // Round-robin: A1 #1, A2 #1, B1 #1, A1 #2, ...
    var interleaved: [[UInt8]] = []
    for i in 0..<3 {
      for f in fragments { interleaved.append(f[i]) }
    }
    let decoded = try decodeEvents(interleaved)
    #expect(decoded == reports)
  }

  @Test func randomReportsRoundTrip() throws {
    let seed = testSeed("AdvertisingReport.randomReportsRoundTrip")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<300 {
      let extended = Bool.random(using: &rng)
      let count = Int.random(in: 0...(extended ? 600 : 31), using: &rng)
      var report = AdvertisingReport(
        address: BluetoothAddress(UInt64.random(in: 0...0xFFFF_FFFF_FFFF, using: &rng)),
        addressType: BluetoothAddressType(rawValue: UInt8.random(in: 0...3, using: &rng)),
        rssi: Bool.random(using: &rng) ? Int8.random(in: -127...20, using: &rng) : nil,
        txPower: extended ? Int8.random(in: -127...20, using: &rng) : nil,
        data: (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) },
        isScanResponse: Bool.random(using: &rng), isExtended: extended)
      if extended {
        report.advertisingSID = UInt8.random(in: 0...15, using: &rng)
        report.secondaryPHY = .le2M
        report.eventType = HCIExtendedAdvertisingEventType(
          rawValue: UInt16.random(in: 0...0x0F, using: &rng) & ~0x04)
      }
      let events = try report.encodedEvents(maximumFragmentSize: Int.random(in: 1...229, using: &rng))
      let decoded = try decodeEvents(events)
      #expect(decoded == [report], "seed \(seed)")
    }
  }
}

@Suite("BTSnoopFile")
struct BTSnoopFileTests {
  @Test(arguments: [UInt32(1001), 1002, 2001])
  func reencodesCapturesExactly(datalink: UInt32) throws {
    var file = BTSnoopFile(datalink: BTSnoopDatalink(rawValue: datalink))
    let t0 = BTSnoopFileView.unixEpochOffset + 1_700_000_000_000_000
    let command = BTSnoopFileViewTests.command
    file.records.append(
      BTSnoopRecord(flags: 2, timestamp: t0, data: datalink == 1002 ? [0x01] + command : command))
    for (i, event) in BTSnoopFileViewTests.events.enumerated() {
      file.appendEvent(event, timestamp: t0 + Int64(i + 1) * 100_000)
    }
    let bytes = try file.encodedBytes()
    let expected =
      datalink == 1002
      ? BTSnoopFileViewTests.h4File
      : btsnoop(datalink: datalink, [(2, command)] + BTSnoopFileViewTests.events.map { (3, $0) })
    #expect(bytes == expected)
    #expect(try BTSnoopFile(parsing: bytes) == file)
  }

  @Test func snappedRecordsKeepTheirOriginalLength() throws {
    let file = BTSnoopFile(
      datalink: .h1,
      records: [
        BTSnoopRecord(flags: 3, timestamp: 5, data: [0x3E, 0x00], originalLength: 9, cumulativeDrops: 2)
      ])
    let bytes = try file.encodedBytes()
    #expect(Hex.string(Array(bytes[16..<24])) == "0000000900000002")
    #expect(try BTSnoopFile(parsing: bytes) == file)
    let bad = BTSnoopFile(
      datalink: .h1, records: [BTSnoopRecord(flags: 3, timestamp: 0, data: [1, 2], originalLength: 1)])
    #expect(throws: BLEAdvertisingError(.includedLengthExceedsOriginal, offset: 16)) {
      _ = try bad.encodedBytes()
    }
  }
}
