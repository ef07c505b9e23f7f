// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A `tapwire` run with its `tapwire-nfc` child, for the signal tests: started as a terminal or
/// a service manager starts it (Foundation's `Process`, SIGINT and SIGTERM at their defaults
/// and unblocked; ``signalDispositions(of:)`` checks that), its standard output and error read
/// together, signalled, and waited for with a bound.
public final class ProcessTree {
  /// The `tapwire` process.
  public let process = Process()
  private let pipe = Pipe()
  private var pending: [UInt8] = []
  /// Everything read so far.
  public private(set) var output = ""

  /// The write end of `tapwire`'s standard input when it was kept open (`simulate` serves
  /// until it closes); otherwise its input is `/dev/null`.
  public let input: Pipe?

  /// Starts `executable` with `arguments`, `environment` added to the test's; its standard
  /// input a pipe the test holds when `keepInputOpen`, else `/dev/null`.
  public init(
    _ executable: String, _ arguments: [String], environment: [String: String] = [:],
    keepInputOpen: Bool = false
  ) throws {
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    process.standardOutput = pipe
    process.standardError = pipe
    input = keepInputOpen ? Pipe() : nil
    process.standardInput = input ?? FileHandle.nullDevice
    try process.run()
  }

  deinit {
    for pid in [process.processIdentifier] + children(of: process.processIdentifier) where Self.isAlive(pid) {
      kill(pid, SIGKILL)
    }
    if process.isRunning { process.waitUntilExit() }
  }

  /// Reads until the output contains `text`; throws after `timeout` seconds or at its end.
  public func waitFor(_ text: String, timeout: Double = 20) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !output.contains(text) {
      guard Date() < deadline else {
        throw DaemonStackError("no '\(text)' within \(timeout) s; output: \(output)")
      }
      var fds = [pollfd(fd: pipe.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)]
      if poll(&fds, 1, 100) <= 0 { continue }
      let chunk = pipe.fileHandleForReading.availableData
      if chunk.isEmpty { throw DaemonStackError("output ended without '\(text)': \(output)") }
      output += String(decoding: chunk, as: UTF8.self)
    }
  }

  /// The `tapwire-nfc` child of `tapwire` (waits up to 5 s for it to appear).
  public func child() throws -> pid_t {
    let deadline = Date().addingTimeInterval(5)
    while Date() < deadline {
      if let pid = children(of: process.processIdentifier).first { return pid }
      usleep(20_000)
    }
    throw DaemonStackError("tapwire started no child")
  }

  /// Waits up to `timeout` seconds for `tapwire` to exit: its exit status (128 + n when a
  /// signal killed it) and the seconds it took, or nil when it is still running.
  public func waitForExit(timeout: Double) -> (status: Int32, seconds: Double)? {
    let start = Date()
    while process.isRunning {
      guard Date().timeIntervalSince(start) < timeout else { return nil }
      usleep(10_000)
    }
    output += String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let status =
      process.terminationReason == .uncaughtSignal
      ? 128 + process.terminationStatus : process.terminationStatus
    return (status, Date().timeIntervalSince(start))
  }

  /// How long the signal tests let a command take to exit after SIGINT or SIGTERM: the goal
  /// is under a second, the rest is slack for a loaded CI machine (the measured time is
  /// printed).
  public static let exitBound: Double = 3

  /// Sends signal `number` to `pid` (nil: `tapwire` itself; else its `tapwire-nfc` child),
  /// waits up to `timeout` seconds for `tapwire` to exit, and prints what `label` did and how
  /// long it took: the one measurement of the signal tests. Nil when it did not exit.
  public func signal(
    _ number: Int32, to pid: pid_t? = nil, label: String, timeout: Double = 8
  ) -> (status: Int32, seconds: Double)? {
    let target = pid ?? process.processIdentifier
    kill(target, number)
    let exit = waitForExit(timeout: timeout)
    let name = number == SIGINT ? "SIGINT" : number == SIGTERM ? "SIGTERM" : "signal \(number)"
    let whom = pid == nil ? "tapwire" : "tapwire-nfc"
    if let exit {
      print("\(label): \(name) to \(whom): exit \(exit.status) after \(Int(exit.seconds * 1000)) ms")
    } else {
      print("\(label): \(name) to \(whom): still running after \(timeout) s")
    }
    return exit
  }

  /// True while `pid` runs (a zombie waiting to be reaped counts as ended).
  public static func isAlive(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    return stat[stat.index(close, offsetBy: 2)] != "Z"
  }

  /// Waits up to `timeout` seconds for `pid` to end; true when it did.
  public static func ends(_ pid: pid_t, within timeout: Double) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while isAlive(pid) {
      if Date() > deadline { return false }
      usleep(10_000)
    }
    return true
  }

  private func children(of pid: pid_t) -> [pid_t] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
    return tasks.flatMap { task -> [pid_t] in
      let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/children", encoding: .utf8)) ?? ""
      return text.split(separator: " ").compactMap { pid_t($0) }
    }
  }

  /// `(blocked, ignored)`: whether SIGINT and SIGTERM are blocked or ignored in a process that
  /// `Process` starts the way it starts `tapwire` (read from `/proc/self/status` by `sh`).
  public static func signalDispositions() throws -> (blocked: Bool, ignored: Bool) {
    let tree = try ProcessTree("/bin/sh", ["-c", "grep -E '^Sig(Blk|Ign)' /proc/self/status; echo end"])
    try tree.waitFor("end")
    _ = tree.waitForExit(timeout: 5)
    func mask(_ name: String) -> UInt64 {
      let line = tree.output.split(separator: "\n").first { $0.hasPrefix(name) } ?? ""
      return UInt64(line.split(separator: "\t").last ?? "", radix: 16) ?? .max
    }
    let both: UInt64 = 1 << (UInt64(SIGINT) - 1) | 1 << (UInt64(SIGTERM) - 1)
    return (mask("SigBlk:") & both != 0, mask("SigIgn:") & both != 0)
  }
}
