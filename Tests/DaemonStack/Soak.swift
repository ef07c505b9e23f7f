// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// What this process holds at one moment: resident memory (`VmRSS` of `/proc/self/status`),
/// open file descriptors (the entries of `/proc/self/fd`) and threads (`/proc/self/task`).
package struct ResourceSample: Sendable, Hashable, CustomStringConvertible {
  /// Resident memory in KiB.
  package var residentKiB: Int
  /// Open file descriptors.
  package var openFiles: Int
  /// Threads.
  package var threads: Int

  /// Samples this process now, after handing the allocator's free pages back to the system
  /// (`malloc_trim(0)`: glibc keeps freed memory in per-thread arenas, so resident memory
  /// would otherwise count what the busiest moment so far left cached, not what is held).
  package static func now() -> ResourceSample {
    trimAllocator()
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    var resident = -1
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
      resident =
        Int(line.dropFirst(6).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") ?? -1
    }
    // Listing /proc/self/fd opens one more descriptor while it reads: not counted.
    let files = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd"))?.count ?? 0) - 1
    let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task"))?.count ?? -1
    return ResourceSample(residentKiB: resident, openFiles: files, threads: threads)
  }

  /// glibc's `malloc_trim(0)` (malloc.h, outside the Glibc module), looked up once.
  private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
    #if canImport(Glibc)
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
      return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    #else
      return nil
    #endif
  }()

  private static func trimAllocator() { _ = mallocTrim?(0) }

  /// `rss 12345 KiB, 17 fds, 9 threads`.
  package var description: String { "rss \(residentKiB) KiB, \(openFiles) fds, \(threads) threads" }
}

/// One soak run: a flow repeated many times in this process, with the process's resources
/// sampled at the start, after the warm-up and at the end.
///
/// "Flat" means, from the warm-up sample to the end sample: no more open file descriptors
/// and no more threads (after up to ``settle`` for threads and connections that
/// end asynchronously to go), and resident memory grown by at most ``residentBoundKiB``.
/// The warm-up (the first tenth of the cycles, at least 10) fills what a process keeps once
/// and reuses: Swift's cooperative pool and Dispatch's worker threads, the allocator's arenas,
/// libcurl's connection cache. A leak of one descriptor or one thread per cycle then shows at
/// once; a leak of memory shows once it passes the bound, which is why the bound scales with
/// the cycle count (see ``residentBoundKiB``).
package struct SoakRun {
  /// Whether soak runs are wanted (`TAPWIRE_SOAK` set: `short` or `1` for CI's counts,
  /// `full` for the issue's).
  package static var isEnabled: Bool { (ProcessInfo.processInfo.environment["TAPWIRE_SOAK"] ?? "") != "" }

  /// Whether `TAPWIRE_SOAK=full`.
  package static var isFull: Bool { ProcessInfo.processInfo.environment["TAPWIRE_SOAK"] == "full" }

  /// The number of cycles: `TAPWIRE_SOAK_CYCLES` when set, else `full` or `short`.
  package static func cycles(full: Int, short: Int) -> Int {
    if let text = ProcessInfo.processInfo.environment["TAPWIRE_SOAK_CYCLES"], let count = Int(text), count > 0
    {
      return count
    }
    return isFull ? full : short
  }

  /// How long the end sample waits for threads and descriptors to come back down.
  package static let settle: Duration = .seconds(5)

  /// The flow's name in the printed line.
  package let name: String
  /// The cycles to run.
  package let cycles: Int
  /// The cycle after which the warm-up sample is taken.
  package let warmUp: Int
  /// The samples.
  package private(set) var start = ResourceSample.now()
  package private(set) var warm: ResourceSample?
  package private(set) var end: ResourceSample?
  private let began = ContinuousClock.now
  private var warmedAt = ContinuousClock.now
  private var endedAt = ContinuousClock.now

  /// Starts a run of `cycles` cycles of `name` (the start sample is taken now).
  package init(_ name: String, cycles: Int) {
    self.name = name
    self.cycles = cycles
    warmUp = min(max(cycles / 10, 10), max(cycles - 1, 0))
  }

  /// Call after each cycle (0-based): takes the warm-up sample after cycle ``warmUp``.
  package mutating func finished(cycle: Int) {
    if cycle + 1 == warmUp || (warmUp == 0 && warm == nil) {
      warm = ResourceSample.now()
      warmedAt = ContinuousClock.now
    }
  }

  /// The resident memory growth allowed from the warm-up to the end: 8 MiB plus 64 bytes per
  /// cycle after the warm-up (8.6 MiB for 10,000 cycles). The constant covers the
  /// allocator's arenas (glibc gives threads arenas of their own as they come) and pages
  /// touched late (a thread's stack that reached a new depth, a buffer that grew to a new
  /// high: the remote management soak streams 4 MiB bodies); a leak of a connection, a task, a
  /// thread or a session's state (kilobytes per cycle) passes it within a full run.
  package var residentBoundKiB: Int { 8192 + (cycles - warmUp) * 64 / 1024 }

  /// Takes the end sample (waiting up to ``settle`` for threads and descriptors to return to
  /// the warm-up's counts) and returns the problems: empty when the run was flat.
  package mutating func finish() async -> [String] {
    endedAt = ContinuousClock.now
    let warm = self.warm ?? start
    var sample = ResourceSample.now()
    let deadline = ContinuousClock.now + Self.settle
    while (sample.openFiles > warm.openFiles || sample.threads > warm.threads)
      && ContinuousClock.now < deadline
    {
      try? await Task.sleep(for: .milliseconds(100))
      sample = ResourceSample.now()
    }
    end = sample
    var problems: [String] = []
    if sample.openFiles > warm.openFiles {
      problems.append(
        "\(name): open file descriptors \(warm.openFiles) after the warm-up, \(sample.openFiles) at the end")
    }
    if sample.threads > warm.threads {
      problems.append("\(name): threads \(warm.threads) after the warm-up, \(sample.threads) at the end")
    }
    if sample.residentKiB - warm.residentKiB > residentBoundKiB {
      problems.append(
        "\(name): resident memory grew \(sample.residentKiB - warm.residentKiB) KiB after the warm-up"
          + " (bound \(residentBoundKiB) KiB)")
    }
    return problems
  }

  /// The line a soak prints: counts, rate and the three samples.
  package var report: String {
    let seconds = Self.seconds(endedAt - began)
    let steady = Double(cycles - warmUp) / max(Self.seconds(endedAt - warmedAt), 1e-9)
    let growth = (end?.residentKiB ?? 0) - (warm ?? start).residentKiB
    return "soak \(name): \(cycles) cycles in \(Int(seconds.rounded())) s"
      + " (\((steady * 10).rounded() / 10) cycles/s after the warm-up); start: \(start);"
      + " after \(warmUp) cycles: \(warm ?? start); end: \(end ?? start);"
      + " rss growth after the warm-up \(growth) KiB (bound \(residentBoundKiB) KiB)"
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
