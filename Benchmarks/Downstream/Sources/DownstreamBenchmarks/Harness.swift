// SPDX-License-Identifier: Apache-2.0
import Foundation

// The downstream package (Benchmarks/Downstream) builds this file too, where the counter's
// module has another name (target names are unique across a package graph).
#if TAPWIRE_DOWNSTREAM
  import DownstreamMallocCounter
#else
  import CMallocCounter
#endif

/// One measured workload: `run(n)` performs the operation `n` times and returns a checksum
/// (so the optimizer cannot drop the work).
struct Benchmark {
  var name: String
  /// Input bytes one operation processes (for MB/s); 0 when not meaningful.
  var bytesPerOperation: Int
  /// Items (records, structures, steps) per operation, for the items/s column; 0 for none.
  var itemsPerOperation: Int = 0
  var run: (Int) -> Int
}

/// What one benchmark measured.
struct Measurement {
  var name: String
  var nanosecondsPerOperation: Double
  /// (max - min) / median over the samples, in percent.
  var spreadPercent: Double
  var operationsPerSecond: Double
  var megabytesPerSecond: Double
  var itemsPerSecond: Double
  /// Items one operation processes (the benchmark's `itemsPerOperation`).
  var itemsPerOperation: Int
  var allocationsPerOperation: Double
  var samples: Int
  /// The benchmark this one is compared with, and the median of the per-round ratios
  /// (this time / its time), when it has one.
  var reference: (name: String, ratio: Double)? = nil
}

enum Harness {
  nonisolated(unsafe) static var sink = 0

  /// The inputs of a hex corpus in `Benchmarks/data` (one input a line, hex digits; blank
  /// lines skipped): the shared field-shaped corpora (`Benchmarks/data/README.md`). Read from
  /// the working directory (the repository root, as the scripts run it), else next to this
  /// source file. Stops the program when the file is missing or a line is not hex.
  static func hexCorpus(_ name: String, sourceFile: String = #filePath) -> [[UInt8]] {
    let beside = URL(fileURLWithPath: sourceFile).resolvingSymlinksInPath().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("data/\(name)").path
    guard
      let text = ["Benchmarks/data/\(name)", beside].lazy.compactMap({
        try? String(contentsOfFile: $0, encoding: .utf8)
      }).first
    else { fatalError("Benchmarks/data/\(name) not found: run from the repository root") }
    return text.split(whereSeparator: \.isNewline).compactMap { line in
      let digits = Array(line.utf8).filter { $0 != 0x20 && $0 != 0x0D }
      guard !digits.isEmpty else { return nil }
      func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x61...0x66: return c - 0x61 + 10
        case 0x41...0x46: return c - 0x41 + 10
        default: fatalError("Benchmarks/data/\(name): not hex: \(line.prefix(40))")
        }
      }
      precondition(digits.count % 2 == 0, "Benchmarks/data/\(name): odd number of hex digits")
      return stride(from: 0, to: digits.count, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
    }
  }

  static func nanoseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }

  /// Measures `benchmarks` interleaved: each is warmed up and calibrated so one sample
  /// takes about `sampleTime`, then sample k of every benchmark is taken before sample
  /// k + 1 of any, so a machine that speeds up or slows down during the run moves all of
  /// them alike. Reports each median, and for a benchmark with a `reference`, the median
  /// of the per-round time ratios to it. Allocations are counted over one extra sample with
  /// the interposed malloc counter.
  static func measure(
    _ benchmarks: [Benchmark], samples: Int, sampleTime: Double = 0.02, fixedIterations: Int? = nil,
    references: [String: String] = [:], progress: (String) -> Void = { _ in }
  ) -> [Measurement] {
    let clock = ContinuousClock()
    var iterations: [Int] = []
    for benchmark in benchmarks {
      var count = fixedIterations ?? 1
      // Warm-up and calibration (skipped with a fixed count, e.g. under callgrind).
      while fixedIterations == nil {
        let start = clock.now
        sink &+= benchmark.run(count)
        let elapsed = nanoseconds(clock.now - start)
        if elapsed > sampleTime * 1e9 / 4 || count >= 1 << 30 {
          count = max(1, Int(Double(count) * sampleTime * 1e9 / max(elapsed, 1)))
          break
        }
        count *= 4
      }
      iterations.append(count)
    }
    var perOperation = Array(repeating: [Double](), count: benchmarks.count)
    for _ in 0..<samples {
      for (index, benchmark) in benchmarks.enumerated() {
        let start = clock.now
        sink &+= benchmark.run(iterations[index])
        perOperation[index].append(nanoseconds(clock.now - start) / Double(iterations[index]))
      }
    }
    let indexByName = Dictionary(uniqueKeysWithValues: benchmarks.enumerated().map { ($1.name, $0) })
    var results: [Measurement] = []
    for (index, benchmark) in benchmarks.enumerated() {
      let before = tapwire_allocation_count()
      sink &+= benchmark.run(iterations[index])
      let allocations = Double(tapwire_allocation_count() - before) / Double(iterations[index])
      let sorted = perOperation[index].sorted()
      let median = sorted[sorted.count / 2]
      let spread = (sorted.last! - sorted.first!) / median * 100
      var ratio: Double? = nil
      if let reference = references[benchmark.name], let other = indexByName[reference] {
        let ratios = zip(perOperation[index], perOperation[other]).map { $0 / $1 }.sorted()
        ratio = ratios[ratios.count / 2]
      }
      let opsPerSecond = 1e9 / median
      results.append(
        Measurement(
          name: benchmark.name, nanosecondsPerOperation: median, spreadPercent: spread,
          operationsPerSecond: opsPerSecond,
          megabytesPerSecond: Double(benchmark.bytesPerOperation) * opsPerSecond / 1e6,
          itemsPerSecond: Double(benchmark.itemsPerOperation) * opsPerSecond,
          itemsPerOperation: benchmark.itemsPerOperation,
          allocationsPerOperation: allocations, samples: samples,
          reference: ratio.map { (references[benchmark.name]!, $0) }))
      progress(benchmark.name)
    }
    return results
  }

  /// Times single samples on request, for a driver that interleaves them with another
  /// library's (`Benchmarks/peers/peers.py`): reads lines `NAME ITERATIONS` from standard
  /// input and answers each with one line, the sample's nanoseconds per operation, items
  /// per operation and checksum, or `error ...`. Ends at end of input.
  static func serve(_ benchmarks: [Benchmark]) {
    let byName = Dictionary(uniqueKeysWithValues: benchmarks.map { ($0.name, $0) })
    let clock = ContinuousClock()
    // Unbuffered: the driver waits for each answer.
    let output = FileHandle.standardOutput
    while let line = readLine() {
      let fields = line.split(separator: " ")
      guard fields.count == 2, let benchmark = byName[String(fields[0])], let count = Int(fields[1]),
        count > 0
      else {
        output.write(Data("error: expected NAME ITERATIONS with a known NAME, got \(line)\n".utf8))
        continue
      }
      let start = clock.now
      let checksum = benchmark.run(count)
      let elapsed = nanoseconds(clock.now - start)
      output.write(
        Data(
          "\(format(elapsed / Double(count), decimals: 3)) \(benchmark.itemsPerOperation) \(checksum)\n".utf8)
      )
    }
  }

  static func format(_ value: Double, decimals: Int = 1) -> String {
    String(format: "%.\(decimals)f", value)
  }

  static func table(_ measurements: [Measurement]) -> String {
    let header = ["benchmark", "ns/op", "ops/s", "MB/s", "items/s", "allocs/op", "spread"]
    var rows = [header]
    for m in measurements {
      rows.append([
        m.name, format(m.nanosecondsPerOperation), format(m.operationsPerSecond, decimals: 0),
        m.megabytesPerSecond > 0 ? format(m.megabytesPerSecond) : "-",
        m.itemsPerSecond > 0 ? format(m.itemsPerSecond, decimals: 0) : "-",
        format(m.allocationsPerOperation, decimals: 2), "\(format(m.spreadPercent))%",
      ])
    }
    let widths = (0..<header.count).map { column in rows.map { $0[column].count }.max() ?? 0 }
    return rows.map { row in
      row.enumerated().map { column, cell in
        column == 0
          ? cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
          : String(repeating: " ", count: widths[column] - cell.count) + cell
      }.joined(separator: "  ")
    }.joined(separator: "\n") + ratios(measurements)
  }

  /// The lines for benchmarks measured against a reference, e.g. the C header walk.
  static func ratios(_ measurements: [Measurement]) -> String {
    let lines = measurements.compactMap { m in
      m.reference.map {
        "\(m.name): \(format($0.ratio, decimals: 2))x the time of \($0.name) (median of per-round ratios)"
      }
    }
    return lines.isEmpty ? "" : "\n\n" + lines.joined(separator: "\n")
  }

  static func json(_ measurements: [Measurement]) -> String {
    let objects = measurements.map { m in
      """
      {"name":"\(m.name)","nsPerOp":\(format(m.nanosecondsPerOperation, decimals: 2)),\
      "opsPerSec":\(format(m.operationsPerSecond, decimals: 0)),"mbPerSec":\(format(m.megabytesPerSecond, decimals: 2)),\
      "itemsPerSec":\(format(m.itemsPerSecond, decimals: 0)),"itemsPerOp":\(m.itemsPerOperation),"allocsPerOp":\(format(m.allocationsPerOperation, decimals: 3)),\
      "spreadPercent":\(format(m.spreadPercent, decimals: 1)),"samples":\(m.samples)\
      \(m.reference.map { ",\"reference\":\"\($0.name)\",\"ratioToReference\":\(format($0.ratio, decimals: 3))" } ?? "")}
      """
    }
    return "[" + objects.joined(separator: ",\n") + "]"
  }
}
