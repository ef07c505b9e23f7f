// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import Foundation
import ISO7816
import NDEF

/// Cost curves (`--scaling`): time per byte for one message of 1 KiB to 16 MiB, per record
/// for 1 to 100,000 records, per level for BER-TLV nesting up to `maximumDepth`. Each curve
/// prints the per-unit cost at every size and the largest over the smallest per-unit cost
/// (≈1 means linear). Reader discovery (`--scaling --filter discovery`): time and
/// allocations per report against the number of devices tracked (≈1 means flat).
enum ScalingBenchmarks {
  struct Curve {
    var name: String
    var unit: String
    /// (size, benchmark whose operation processes `size` units).
    var points: [(Int, Benchmark)]
    /// What a size counts, when the units per operation are not the size (e.g. devices).
    var sizeLabel: String? = nil
    /// Units one operation processes, when not the size.
    var unitsPerOperation: Int? = nil
  }

  /// The discovery engine of one curve point, kept between the harness's calls so every
  /// sample continues the same crowded scene.
  final class DiscoveryScene {
    var discovery: ReaderDiscovery
    let reports: [AdvertisingReport]
    let devices: Int
    let step: Duration
    var time = MonotonicInstant.origin
    var next = 0

    /// `devices` readers of the example profile, each advertising 20 times a second (a
    /// report every 50 ms / `devices`), RSSI varying by report; `maximumDevices` = `devices`.
    init(mode: ReaderDiscovery.Mode, devices: Int, decisionDelay: Duration = .seconds(1)) {
      self.devices = devices
      self.step = .nanoseconds(50_000_000 / devices)
      var reports: [AdvertisingReport] = []
      for variant in 0..<4 {
        for device in 0..<devices {
          let serial = Array(String(100_000_000 + device).utf8.suffix(8))
          let data =
            (try? AdvertisingData(values: [
              .flags([.leGeneralDiscoverable, .brEDRNotSupported]),
              .manufacturerData(.testing, [0x01] + serial + [UInt8(device % 101)]),
              .localName("TW-\(String(decoding: serial.suffix(4), as: UTF8.self))", complete: true),
            ]).encodedBytes(budget: .legacy)) ?? []
          let rssi = Int8(-40 - (device * 7) % 50 - (variant * 5 + device) % 9)
          reports.append(
            AdvertisingReport(
              address: BluetoothAddress(0xC0_00_00_00_00_00 | UInt64(device)), rssi: rssi, data: data))
        }
      }
      self.reports = reports
      discovery = ReaderDiscovery(
        profiles: [.example], mode: mode,
        configuration: .init(timeout: nil, decisionDelay: decisionDelay, maximumDevices: devices))
      _ = discovery.start(at: time)
      // Every device heard four times before measuring: the table is full.
      _ = feed(4 * devices)
    }

    /// Feeds the next `count` reports; returns the number of events.
    func feed(_ count: Int) -> Int {
      var events = 0
      for _ in 0..<count {
        time = time + step
        events &+= discovery.receive(reports[next], at: time).count
        next = next + 1 == reports.count ? 0 : next + 1
      }
      return events
    }
  }

  /// A Text record of `size` bytes (UTF-8, one 3-byte character in every 16 bytes).
  static func textMessage(size: Int) -> [UInt8] {
    var text = [UInt8](repeating: 0x61, count: size)
    var index = 0
    while index + 3 <= size {
      text[index] = 0xE2
      text[index + 1] = 0x82
      text[index + 2] = 0xAC
      index += 16
    }
    let record = NDEFRecord(
      typeNameFormat: .wellKnown, type: [0x54], payload: [0x02] + Array("en".utf8) + text)
    return try! NDEFMessage(records: [record]).encodedBytes()
  }

  /// A media record of `size` bytes in 255-byte chunks.
  static func chunkedMessage(size: Int) -> [UInt8] {
    let record = NDEFRecord(
      typeNameFormat: .media, type: Array("application/octet-stream".utf8),
      payload: [UInt8](repeating: 0x5A, count: size))
    return try! NDEFMessage(records: [record]).encodedBytes(
      options: NDEFEncodingOptions(maximumChunkPayloadSize: 255))
  }

  /// Validates the message and decodes its Text record (UTF-8 checked); the text length.
  @inline(never)
  static func text(_ bytes: [UInt8]) -> Int {
    guard let message = try? NDEFMessageView(validating: bytes.span) else { return -1 }
    var records = message.records
    guard let record = records.next(), let view = try? TextRecordView(validating: record) else { return -1 }
    return view.text.byteCount
  }

  /// BER-TLV constructed objects nested `depth` deep around one primitive.
  static func nested(depth: Int) -> [UInt8] {
    var object = BERTLV(tag: BERTag(rawValue: 0x80)!, value: [0x01, 0x02])
    for _ in 0..<depth { object = BERTLV(tag: BERTag(rawValue: 0xE1)!, children: [object]) }
    return try! BERTLV.encodedBytes(of: [object])
  }

  /// Validates a BER-TLV sequence (the whole tree) and walks down to the innermost object.
  @inline(never)
  static func descend(_ bytes: [UInt8]) -> Int {
    guard let sequence = try? BERTLVSequenceView(validating: bytes.span.bytes) else { return -1 }
    var levels = 0
    var objects = sequence.objects
    guard var object = objects.next() else { return -1 }
    while true {
      var children = object.children
      guard let child = children.next() else { break }
      object = child
      levels &+= 1
    }
    return levels
  }

  static func curves() -> [Curve] {
    let sizes = [1 << 10, 1 << 14, 1 << 17, 1 << 20, 1 << 22, 1 << 24]
    let textPoints = sizes.map { size -> (Int, Benchmark) in
      let bytes = textMessage(size: size)
      precondition(text(bytes) == size, "text message of \(size) bytes decodes")
      return (
        size,
        Benchmark(name: "scaling.bytes.text-\(size)", bytesPerOperation: bytes.count, itemsPerOperation: 1) {
          n in
          var sum = 0
          for _ in 0..<n { sum &+= text(bytes) }
          return sum
        }
      )
    }
    let chunkPoints = sizes.map { size -> (Int, Benchmark) in
      let bytes = chunkedMessage(size: size)
      return (
        size,
        Benchmark(name: "scaling.bytes.chunked-\(size)", bytesPerOperation: bytes.count, itemsPerOperation: 1)
        {
          n in
          var sum = 0
          let span = bytes.span.bytes
          for _ in 0..<n { sum &+= NDEFBenchmarks.walk(span) }
          return sum
        }
      )
    }
    let recordPoints = [1, 10, 100, 1000, 10_000, 100_000].map { count -> (Int, Benchmark) in
      let bytes = NDEFBenchmarks.uriMessage(records: count)
      return (
        count,
        Benchmark(
          name: "scaling.records.uri-\(count)", bytesPerOperation: bytes.count, itemsPerOperation: count
        ) {
          n in
          var sum = 0
          let span = bytes.span.bytes
          for _ in 0..<n { sum &+= NDEFBenchmarks.walk(span) }
          return sum
        }
      )
    }
    let maximumDepth = BERTLVDecodingOptions.strict.maximumDepth
    let depthPoints = [1, 2, 4, 8, maximumDepth - 1].map { depth -> (Int, Benchmark) in
      let bytes = nested(depth: depth)
      precondition(descend(bytes) == depth, "BER-TLV nested \(depth) deep decodes")
      return (
        depth,
        Benchmark(
          name: "scaling.depth.bertlv-\(depth)", bytesPerOperation: bytes.count, itemsPerOperation: depth
        ) {
          n in
          var sum = 0
          for _ in 0..<n { sum &+= descend(bytes) }
          return sum
        }
      )
    }
    let reportsPerOperation = 1000
    let scenes: [(String, String, (Int) -> DiscoveryScene)] = [
      ("scan", "scan mode (the list kept)", { DiscoveryScene(mode: .scan, devices: $0) }),
      (
        "proximity", "proximity mode, still choosing (the nearest kept)",
        { DiscoveryScene(mode: .proximity, devices: $0, decisionDelay: .seconds(1_000_000)) }
      ),
      (
        "reconnect", "reconnect mode, the saved serial absent",
        { DiscoveryScene(mode: .reconnect(serial: "TW-ABSENT"), devices: $0) }
      ),
    ]
    let discoveryCurves = scenes.map { key, title, make in
      Curve(
        name: "ReaderDiscovery, \(title), every device a reader",
        unit: "report",
        points: [8, 64, 256, 1024].map { devices -> (Int, Benchmark) in
          // Built on first use, so a filter that skips the point skips its set-up too.
          var scene: DiscoveryScene?
          return (
            devices,
            Benchmark(
              name: "scaling.discovery.\(key)-\(devices)-devices", bytesPerOperation: 0,
              itemsPerOperation: reportsPerOperation
            ) { n in
              let current = scene ?? make(devices)
              scene = current
              var sum = 0
              for _ in 0..<n { sum &+= current.feed(reportsPerOperation) }
              return sum
            }
          )
        }, sizeLabel: "devices", unitsPerOperation: reportsPerOperation)
    }
    return [
      Curve(name: "NDEF Text record, UTF-8 validated (view)", unit: "byte", points: textPoints),
      Curve(name: "NDEF media record in 255-byte chunks (view walk)", unit: "byte", points: chunkPoints),
      Curve(name: "NDEF message of short URI records (view walk)", unit: "record", points: recordPoints),
      Curve(name: "BER-TLV nesting, validate + descend (view)", unit: "level", points: depthPoints),
    ] + discoveryCurves
  }

  /// Measures every curve and prints it; returns the measurements (for `--json`).
  static func run(samples: Int, json: Bool, filter: String? = nil, iterations: Int? = nil) -> [Measurement] {
    var all: [Measurement] = []
    var report: [String] = []
    for curve in curves() {
      report.append("\(curve.name): ns per \(curve.unit)")
      var perUnit: [Double] = []
      for (size, benchmark) in curve.points where filter == nil || benchmark.name.contains(filter!) {
        let m = Harness.measure([benchmark], samples: samples, fixedIterations: iterations)[0]
        all.append(m)
        let units = Double(curve.unitsPerOperation ?? size)
        let cost = m.nanosecondsPerOperation / units
        perUnit.append(cost)
        if let label = curve.sizeLabel {
          report.append(
            "  \(String(size).leftPadded(to: 9)) \(label)  \(Harness.format(cost, decimals: 1).leftPadded(to: 12)) ns/\(curve.unit)"
              + "  allocs/\(curve.unit) \(Harness.format(m.allocationsPerOperation / units, decimals: 2))")
          if !json { FileHandle.standardError.write(Data("measured \(benchmark.name)\n".utf8)) }
          continue
        }
        report.append(
          "  \(String(size).leftPadded(to: 9)) \(curve.unit)s  \(Harness.format(m.nanosecondsPerOperation).leftPadded(to: 14)) ns/op"
            + "  \(Harness.format(cost, decimals: 3).leftPadded(to: 10)) ns/\(curve.unit)"
            + "  allocs/op \(Harness.format(m.allocationsPerOperation, decimals: 2))")
        if !json { FileHandle.standardError.write(Data("measured \(benchmark.name)\n".utf8)) }
      }
      // Flatness over the sizes where fixed costs no longer dominate (the upper half).
      guard !perUnit.isEmpty else { continue }
      // Per device count, every point counts: the cost must not grow with the table.
      let upper = curve.sizeLabel == nil ? Array(perUnit.suffix(perUnit.count / 2 + 1)) : perUnit
      let ratio = (upper.max() ?? 0) / max(upper.min() ?? 1, 1e-9)
      let over = curve.sizeLabel == nil ? "the upper sizes" : "every point"
      report.append(
        "  largest / smallest per-\(curve.unit) cost over \(over): \(Harness.format(ratio, decimals: 2))")
    }
    if !json { print(report.joined(separator: "\n")) }
    return all
  }
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
