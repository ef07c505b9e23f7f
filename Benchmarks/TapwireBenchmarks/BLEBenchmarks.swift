import BLEAdvertising
import Foundation

/// AD structure and HCI report workloads.
enum BLEBenchmarks {
  static func corpus(_ folder: String) -> [[UInt8]] {
    let path = "Corpus/\(folder)/seeds"
    let files = (try? FileManager.default.contentsOfDirectory(atPath: path))?.sorted() ?? []
    return files.compactMap { FileManager.default.contents(atPath: "\(path)/\($0)").map { [UInt8]($0) } }
  }

  /// Every field a scanner reads (what bluetooth-data-tools extracts): flags, name, TX power,
  /// appearance, service UUIDs, service and manufacturer data.
  static func parse(_ bytes: [UInt8]) -> Int {
    guard let view = try? AdvertisingDataView(validating: bytes.span) else { return -1 }
    var sum = Int(view.flags?.rawValue ?? 0) &+ Int(view.txPowerLevel ?? 0) &+ Int(view.appearance ?? 0)
    var structures = view.structures
    while let structure = structures.next() {
      sum &+= structure.data.byteCount &+ Int(structure.type.rawValue)
    }
    if let name = view.localName() { sum &+= name.utf8.byteCount }
    return sum
  }

  static func all() -> [Benchmark] {
    // 31-byte legacy: flags, 16-bit UUID list, TX power, manufacturer data, shortened name.
    let legacy: [UInt8] =
      [0x02, 0x01, 0x06, 0x03, 0x03, 0x0F, 0x18, 0x02, 0x0A, 0x04, 0x0B, 0xFF, 0xFF, 0xFF, 0x01]
      + Array("00012345".utf8) + [0x07, 0x08] + Array("TW-A01".utf8)
    var extended = legacy
    while extended.count + 12 <= 254 {
      extended += [0x0B, 0xFF, 0x4C, 0x00] + Array(repeating: 0x42, count: 8)
    }
    let advCorpus = corpus("adv")
    let advBytes = advCorpus.reduce(0) { $0 + $1.count }
    let hci = corpus("hci")
    let hciBytes = hci.reduce(0) { $0 + $1.count }
    return [
      Benchmark(name: "adv.parse.legacy-31", bytesPerOperation: legacy.count, itemsPerOperation: 1) { n in
        var sum = 0
        for _ in 0..<n { sum &+= parse(legacy) }
        return sum
      },
      Benchmark(name: "adv.parse.extended-254", bytesPerOperation: extended.count, itemsPerOperation: 1) {
        n in
        var sum = 0
        for _ in 0..<n { sum &+= parse(extended) }
        return sum
      },
      Benchmark(name: "adv.parse.corpus", bytesPerOperation: advBytes, itemsPerOperation: advCorpus.count) {
        n in
        var sum = 0
        for _ in 0..<n { for ad in advCorpus { sum &+= parse(ad) } }
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
