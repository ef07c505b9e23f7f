import CMallocCounter
import Foundation

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
  var allocationsPerOperation: Double
  var samples: Int
}

enum Harness {
  nonisolated(unsafe) static var sink = 0

  static func nanoseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }

  /// Warms up, picks an iteration count so one sample takes about `sampleTime`, then takes
  /// `samples` samples and reports the median. Allocations are counted over one extra
  /// sample with the interposed malloc counter.
  static func measure(
    _ benchmark: Benchmark, samples: Int, sampleTime: Double = 0.02, fixedIterations: Int? = nil
  ) -> Measurement {
    let clock = ContinuousClock()
    var iterations = fixedIterations ?? 1
    // Warm-up and calibration (skipped with a fixed count, e.g. under callgrind).
    while fixedIterations == nil {
      let start = clock.now
      sink &+= benchmark.run(iterations)
      let elapsed = nanoseconds(clock.now - start)
      if elapsed > sampleTime * 1e9 / 4 || iterations >= 1 << 30 {
        iterations = max(1, Int(Double(iterations) * sampleTime * 1e9 / max(elapsed, 1)))
        break
      }
      iterations *= 4
    }
    var perOperation: [Double] = []
    for _ in 0..<samples {
      let start = clock.now
      sink &+= benchmark.run(iterations)
      perOperation.append(nanoseconds(clock.now - start) / Double(iterations))
    }
    perOperation.sort()
    let median = perOperation[perOperation.count / 2]
    let spread = (perOperation.last! - perOperation.first!) / median * 100
    let before = tapwire_allocation_count()
    sink &+= benchmark.run(iterations)
    let allocations = Double(tapwire_allocation_count() - before) / Double(iterations)
    let opsPerSecond = 1e9 / median
    return Measurement(
      name: benchmark.name, nanosecondsPerOperation: median, spreadPercent: spread,
      operationsPerSecond: opsPerSecond,
      megabytesPerSecond: Double(benchmark.bytesPerOperation) * opsPerSecond / 1e6,
      itemsPerSecond: Double(benchmark.itemsPerOperation) * opsPerSecond,
      allocationsPerOperation: allocations, samples: samples)
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
    }.joined(separator: "\n")
  }

  static func json(_ measurements: [Measurement]) -> String {
    let objects = measurements.map { m in
      """
      {"name":"\(m.name)","nsPerOp":\(format(m.nanosecondsPerOperation, decimals: 2)),\
      "opsPerSec":\(format(m.operationsPerSecond, decimals: 0)),"mbPerSec":\(format(m.megabytesPerSecond, decimals: 2)),\
      "itemsPerSec":\(format(m.itemsPerSecond, decimals: 0)),"allocsPerOp":\(format(m.allocationsPerOperation, decimals: 3)),\
      "spreadPercent":\(format(m.spreadPercent, decimals: 1)),"samples":\(m.samples)}
      """
    }
    return "[" + objects.joined(separator: ",\n") + "]"
  }
}
