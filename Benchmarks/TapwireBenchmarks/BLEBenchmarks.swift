// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import CNDEFLimit
import Foundation

/// AD structure and HCI report workloads.
enum BLEBenchmarks {
  static func corpus(_ folder: String) -> [[UInt8]] {
    let path = "Corpus/\(folder)/seeds"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? []
    return files.compactMap { FileManager.default.contents(atPath: "\(path)/\($0)").map { [UInt8]($0) } }
  }

  /// Every field bluetooth-data-tools' parser returns, in one strict walk
  /// (`AdvertisingDataView.checkedStructures`, which checks each Length octet as it goes):
  /// the local name (complete else shortened, the last of each kind), the TX power, every
  /// service UUID (16/32/128-bit, complete and incomplete lists), every service data UUID
  /// and value, every manufacturer's company and data; flags and appearance besides. Values
  /// come out typed (UUIDs as 128-bit values, the name as a view of its UTF-8 bytes); a
  /// malformed structure of a known type is an error, as in `ADStructureView`'s accessors.
  @inline(never)
  static func parse(_ bytes: RawSpan) -> Int {
    do throws(BLEAdvertisingError) {
      var structures = AdvertisingDataView.checkedStructures(bytes)
      var sum = 0
      var completeName = 0
      var shortenedName = 0
      var txPower = 0
      while let structure = try structures.next() {
        switch structure.type.rawValue {
        case 0x01: sum &+= Int(structure.flags?.rawValue ?? 0)
        case 0x02...0x07:
          guard let list = try structure.uuidList() else { continue }
          for index in 0..<list.count {
            if let uuid = list.uuid(at: index) { sum &+= Int(truncatingIfNeeded: uuid.high ^ uuid.low) }
          }
        case 0x08: shortenedName = structure.data.byteCount
        case 0x09: completeName = structure.data.byteCount
        case 0x0A: txPower = Int(try structure.txPowerLevel() ?? 0)
        case 0x16, 0x20, 0x21:
          guard let service = try structure.serviceData() else { continue }
          sum &+= Int(truncatingIfNeeded: service.uuid.high) &+ service.data.byteCount
        case 0x19: sum &+= Int(try structure.appearance() ?? 0)
        case 0xFF:
          guard let maker = try structure.manufacturerData() else { continue }
          sum &+= Int(maker.companyID.rawValue) &+ maker.data.byteCount
        default: break
        }
      }
      return sum &+ txPower &+ (completeName > 0 ? completeName : shortenedName)
    } catch {
      return -1
    }
  }

  /// Walks the AD structures of `bytes` with `AdvertisingDataView.checkedStructures` (each
  /// Length octet checked), taking each structure's type and data; returns a checksum, -1
  /// when a Length runs past the end. What the C AD walk does, handing out views.
  @inline(never)
  static func checkedWalk(_ bytes: RawSpan) -> Int {
    do throws(BLEAdvertisingError) {
      var structures = AdvertisingDataView.checkedStructures(bytes)
      var sum = 0
      while let structure = try structures.next() {
        sum &+= Int(structure.type.rawValue) &+ structure.data.byteCount
      }
      return sum
    } catch {
      return -1
    }
  }

  // The measured passes over a flattened corpus, named for `Benchmarks/run-callgrind.sh`.

  /// The C AD walk (Length octets only, `Benchmarks/CNDEFLimit`) over every advertisement.
  @inline(never)
  static func adCWalkPass(_ all: UnsafeBufferPointer<UInt8>, _ ranges: [Range<Int>]) -> Int {
    var sum = 0
    for range in ranges { sum &+= tapwire_ad_walk(all.baseAddress! + range.lowerBound, range.count) }
    return sum
  }

  /// ``checkedWalk(_:)`` over every advertisement.
  @inline(never)
  static func adCheckedPass(_ all: RawSpan, _ ranges: [Range<Int>]) -> Int {
    var sum = 0
    for range in ranges { sum &+= checkedWalk(all.extracting(range)) }
    return sum
  }

  /// ``parse(_:)`` (every field bluetooth-data-tools returns) over every advertisement.
  @inline(never)
  static func adParsePass(_ all: RawSpan, _ ranges: [Range<Int>]) -> Int {
    var sum = 0
    for range in ranges { sum &+= parse(all.extracting(range)) }
    return sum
  }

  /// The number of AD structures in `messages` (zero Length padding not counted).
  static func structureCount(_ messages: [[UInt8]]) -> Int {
    messages.reduce(0) { $0 + ((try? AdvertisingDataView(validating: $1.span))?.structureCount ?? 0) }
  }

  /// The shared field-shaped advertising data (`Benchmarks/data/ble-field-all.hex`, from an
  /// independent generator): the C AD walk, the checked walk and the full parse, over the
  /// same buffer; items are AD structures.
  static func sharedField() -> [Benchmark] {
    let ads = Harness.hexCorpus("ble-field-all.hex")
    let (flat, ranges) = NDEFBenchmarks.flattened(ads)
    let structures = structureCount(ads)
    precondition(
      ads.allSatisfy { checkedWalk($0.span.bytes) >= 0 }, "every line of ble-field-all.hex walks")
    // (Not through the pass functions: run-callgrind.sh counts every call of those.)
    precondition(
      ads.reduce(0) { sum, ad in
        ad.withUnsafeBufferPointer { sum + tapwire_ad_walk($0.baseAddress!, $0.count) }
      }
        == structures, "the C AD walk counts alike")
    return [
      Benchmark(
        name: "adv.limit.c-ad-walk.shared-field", bytesPerOperation: flat.count, itemsPerOperation: structures
      ) { n in
        var sum = 0
        flat.withUnsafeBufferPointer { all in
          for _ in 0..<n { sum &+= adCWalkPass(all, ranges) }
        }
        return sum
      },
      Benchmark(
        name: "adv.checked.shared-field", bytesPerOperation: flat.count, itemsPerOperation: structures
      ) {
        n in
        var sum = 0
        let all = flat.span.bytes
        for _ in 0..<n { sum &+= adCheckedPass(all, ranges) }
        return sum
      },
      Benchmark(name: "adv.parse.shared-field", bytesPerOperation: flat.count, itemsPerOperation: structures)
      {
        n in
        var sum = 0
        let all = flat.span.bytes
        for _ in 0..<n { sum &+= adParsePass(all, ranges) }
        return sum
      },
    ]
  }

  /// `count` reports from 8 readers of the example profile (serial, battery, name), RSSI
  /// varying, 10 ms apart.
  static func discoveryReports(count: Int) -> [AdvertisingReport] {
    (0..<count).map { index in
      let device = index % 8
      let serial = Array("TW00000\(device)".utf8)
      let data =
        (try? AdvertisingData(values: [
          .flags([.leGeneralDiscoverable, .brEDRNotSupported]),
          .manufacturerData(.testing, [0x01] + serial + [UInt8(device * 10)]),
          .localName("TW-000\(device)", complete: true),
        ]).encodedBytes(budget: .legacy)) ?? []
      let rssi = Int8(-40 - device * 5 - (index * 7) % 9)
      return AdvertisingReport(
        address: BluetoothAddress(0xC0_00_00_00_00_00 | UInt64(device)), rssi: rssi, data: data)
    }
  }

  /// Feeds every report to a fresh discovery in `mode`; returns the number of events.
  @inline(never)
  static func discover(_ reports: [AdvertisingReport], mode: ReaderDiscovery.Mode) -> Int {
    var discovery = ReaderDiscovery(profiles: [.example], mode: mode, configuration: .init(timeout: nil))
    var events = discovery.start(at: .origin).count
    var time = MonotonicInstant.origin
    for report in reports {
      time = time + .milliseconds(10)
      events &+= discovery.receive(report, at: time).count
    }
    return events
  }

  static func all() -> [Benchmark] {
    // 31-byte legacy: flags, 16-bit UUID list, TX power, manufacturer data, shortened name.
    let legacy: [UInt8] =
      [0x02, 0x01, 0x06, 0x03, 0x03, 0x0F, 0x18, 0x02, 0x0A, 0x04, 0x0C, 0xFF, 0xFF, 0xFF, 0x01]
      + Array("00012345".utf8) + [0x07, 0x08] + Array("TW-A01".utf8)
    precondition(
      (try? AdvertisingDataView(validating: legacy.span)) != nil, "the legacy vector must be valid")
    var extended = legacy
    while extended.count + 12 <= 254 {
      extended += [0x0B, 0xFF, 0x4C, 0x00] + Array(repeating: 0x42, count: 8)
    }
    precondition(
      (try? AdvertisingDataView(validating: extended.span)) != nil, "the extended vector must be valid")
    let advCorpus = corpus("adv")
    let advBytes = advCorpus.reduce(0) { $0 + $1.count }
    let (advFlat, advRanges) = NDEFBenchmarks.flattened(advCorpus)
    let hci = corpus("hci")
    let reports = discoveryReports(count: 1000)
    precondition(discover(reports, mode: .scan) > 0, "the discovery workload finds readers")
    let hciBytes = hci.reduce(0) { $0 + $1.count }
    return sharedField() + [
      Benchmark(name: "adv.parse.legacy-31", bytesPerOperation: legacy.count, itemsPerOperation: 1) { n in
        var sum = 0
        let span = legacy.span.bytes
        for _ in 0..<n { sum &+= parse(span) }
        return sum
      },
      Benchmark(name: "adv.parse.extended-254", bytesPerOperation: extended.count, itemsPerOperation: 1) {
        n in
        var sum = 0
        let span = extended.span.bytes
        for _ in 0..<n { sum &+= parse(span) }
        return sum
      },
      Benchmark(name: "adv.parse.corpus", bytesPerOperation: advBytes, itemsPerOperation: advCorpus.count) {
        n in
        var sum = 0
        // One buffer and the advertisements' ranges in it: iterating an array of arrays
        // would retain and release each advertisement, harness cost rather than parsing.
        let all = advFlat.span.bytes
        for _ in 0..<n {
          for range in advRanges { sum &+= parse(all.extracting(range)) }
        }
        return sum
      },
      Benchmark(name: "discovery.scan.1000-reports", bytesPerOperation: 0, itemsPerOperation: reports.count) {
        n in
        var sum = 0
        for _ in 0..<n { sum &+= discover(reports, mode: .scan) }
        return sum
      },
      Benchmark(
        name: "discovery.proximity.1000-reports", bytesPerOperation: 0, itemsPerOperation: reports.count
      ) { n in
        var sum = 0
        for _ in 0..<n { sum &+= discover(reports, mode: .proximity) }
        return sum
      },
      Benchmark(name: "hci.reports.corpus", bytesPerOperation: hciBytes, itemsPerOperation: hci.count) { n in
        var sum = 0
        for _ in 0..<n {
          for event in hci {
            guard let view = try? HCIAdvertisingReportsView(validating: event.span.bytes) else { continue }
            var reports = view.reports
            while let report = reports.next() { sum &+= Int(report.rssi ?? 0) &+ report.data.byteCount }
          }
        }
        return sum
      },
    ]
  }
}
