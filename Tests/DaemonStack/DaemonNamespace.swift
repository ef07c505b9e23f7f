// SPDX-License-Identifier: Apache-2.0
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Daemons in a private namespace for one test: one `unshare ... sh -c SCRIPT` process whose
/// script starts the daemons in the background, announces each by PID, says it is ready,
/// then `exec`s the foreground program the test talks to over its standard input and output
/// (a virtual card, a mock driver). Everything is stopped by PID, never by name.
///
/// The script's announcement lines, before anything else on its output:
/// - `pid N` for each background daemon, in start order (stopped in reverse order);
/// - `ready` once they are started (the script may wait for them first, with its own bound).
///
/// Any other line ends the start with a ``DaemonStackError`` naming that line and the logs.
package final class DaemonNamespace: @unchecked Sendable {
  /// The namespaces `unshare` creates.
  package struct Namespaces: OptionSet, Sendable {
    /// The raw option bits.
    package let rawValue: Int

    /// Creates the set from its option bits.
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// A network namespace (`--net`): only a loopback, brought up before the script runs.
    package static let network = Namespaces(rawValue: 1 << 0)
    /// A mount namespace with private propagation (`--mount --propagation private`): bind
    /// mounts the script makes are seen by its processes only.
    package static let mount = Namespaces(rawValue: 1 << 1)
  }

  /// How long a daemon has to exit after SIGTERM (and the foreground program after its input
  /// closes) before SIGKILL.
  package static let grace: Duration = .seconds(10)

  /// The folder of this stack's files (configuration, sockets, `*.log`): made empty at start,
  /// removed by ``stop()``.
  package let directory: String
  /// The `unshare` process; after the script's `exec`, the foreground program.
  package let process = Process()
  /// The background daemons' PIDs, in the order the script announced them.
  package private(set) var pids: [pid_t] = []
  /// The foreground program's name in error messages (`tapwire-vcard`, `the mock driver`).
  private let foreground: String
  private let input = Pipe()
  private let output = Pipe()
  private var pending: [UInt8] = []
  private var stopped = false

  /// `unshare` and `ip`, which every stack needs; nil when both are here.
  package static var missingTools: String? {
    if !FileManager.default.fileExists(atPath: unshare) {
      return "\(unshare) is missing (apt-get install util-linux)"
    }
    if ip == nil { return "ip is missing (apt-get install iproute2)" }
    return nil
  }

  static let unshare = "/usr/bin/unshare"
  static let ip = ["/usr/sbin/ip", "/usr/bin/ip", "/sbin/ip", "/bin/ip"].first(
    where: FileManager.default.fileExists(atPath:))

  /// Makes `directory` empty, calls `prepare` (to write the daemons' configuration there),
  /// runs `script` under `sh -c` in new `namespaces` (mapping the caller to root in a user
  /// namespace when it is not root), and reads the announcement lines until `ready`
  /// (bounded by `timeout`).
  package init(
    directory: String, namespaces: Namespaces, foreground: String, script: String,
    timeout: Duration = .seconds(30), prepare: () throws -> Void = {}
  ) throws {
    self.directory = directory
    self.foreground = foreground
    let fileManager = FileManager.default
    try? fileManager.removeItem(atPath: directory)
    try fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
    try prepare()
    var arguments = geteuid() == 0 ? [] : ["--map-root-user"]
    if namespaces.contains(.mount) { arguments += ["--mount", "--propagation", "private"] }
    var prologue = ""
    if namespaces.contains(.network) {
      arguments.append("--net")
      prologue = "\(Self.ip ?? "ip") link set lo up || { echo 'ip link set lo up failed'; exit 1; }\n"
    }
    process.executableURL = URL(fileURLWithPath: Self.unshare)
    process.arguments = arguments + ["sh", "-c", prologue + script]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    do {
      while true {
        let line = try self.line(timeout: timeout)
        if line.hasPrefix("pid "), let pid = pid_t(line.dropFirst(4)) {
          pids.append(pid)
        } else if line == "ready" {
          break
        } else {
          throw DaemonStackError("the namespace did not start: \(line)\(logs())")
        }
      }
    } catch {
      stop()
      throw error
    }
  }

  /// Polls `isReady` every `interval` until it holds; after `timeout`, stops the stack and
  /// throws an error naming `what` and carrying the logs.
  package func waitUntil(
    _ what: String, timeout: Duration = .seconds(60), interval: Duration = .milliseconds(100),
    _ isReady: () async -> Bool
  ) async throws {
    let deadline = ContinuousClock.now + timeout
    while !(await isReady()) {
      if ContinuousClock.now > deadline {
        let error = DaemonStackError("\(what) within \(timeout)\(logs())")
        stop()
        throw error
      }
      try await Task.sleep(for: interval)
    }
  }

  /// Writes one line to the foreground program's standard input.
  package func write(line: String) {
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
  }

  /// One line of the foreground program's output (blocking, with a deadline).
  package func line(timeout: Duration) throws -> String {
    let deadline = ContinuousClock.now + timeout
    let fd = output.fileHandleForReading.fileDescriptor
    while true {
      if let newline = pending.firstIndex(of: 0x0A) {
        let text = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return text
      }
      let left = deadline - ContinuousClock.now
      guard left > .zero else { throw DaemonStackError("no answer from \(foreground) within \(timeout)") }
      var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      if poll(&fds, 1, Int32(min(left.components.seconds * 1000 + 1, 200))) <= 0 { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(fd, &buffer, buffer.count)
      guard count > 0 else { throw DaemonStackError("\(foreground) exited") }
      pending += buffer.prefix(count)
    }
  }

  /// The text of `name` in ``directory`` (a daemon's log), or "" when there is none.
  package func file(_ name: String) -> String {
    (try? String(contentsOfFile: directory + "/" + name, encoding: .utf8)) ?? ""
  }

  /// Every `*.log` in ``directory``, each under its name, for an error message.
  func logs() -> String {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    return names.filter { $0.hasSuffix(".log") }.sorted().map { "\n--- \($0):\n" + file($0) }.joined()
  }

  /// Closes the foreground program's input, stops the daemons (newest first) by PID with
  /// ``terminate(_:)``, waits ``grace`` for the foreground program (then SIGKILL), and removes
  /// ``directory``. Runs once.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    try? input.fileHandleForWriting.close()
    for pid in pids.reversed() { Self.terminate(pid) }
    if process.isRunning {
      let deadline = ContinuousClock.now + Self.grace
      while process.isRunning && ContinuousClock.now < deadline { usleep(20_000) }
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
    process.waitUntilExit()
    try? FileManager.default.removeItem(atPath: directory)
  }

  deinit { stop() }

  /// SIGTERM to `pid`, up to ``grace`` for it to go, then SIGKILL. The daemons are the
  /// script's children, not ours: their exit shows as no process or a zombie.
  package static func terminate(_ pid: pid_t) {
    // A child of the test process may start with SIGTERM blocked (the spawning thread's
    // mask): it would never see SIGTERM, so waiting out the grace would only cost time.
    if blocks(SIGTERM, pid) {
      kill(pid, SIGKILL)
      return
    }
    guard kill(pid, SIGTERM) == 0 else { return }
    let deadline = ContinuousClock.now + grace
    while ContinuousClock.now < deadline {
      if kill(pid, 0) != 0 || isZombie(pid) { return }
      usleep(20_000)
    }
    kill(pid, SIGKILL)
  }

  /// Whether `pid` blocks `signal` (its `SigBlk` mask in /proc/PID/status).
  static func blocks(_ signal: Int32, _ pid: pid_t) -> Bool {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") }),
      let mask = UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
    else { return false }
    return mask & (1 << UInt64(signal - 1)) != 0
  }

  /// Whether `pid` has exited and waits to be reaped (state Z in /proc/PID/stat); also true
  /// when the file cannot be read (the process is gone).
  static func isZombie(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return true }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
  }
}

/// Why a daemon stack did not start or did not answer, with the logs when there are any.
package struct DaemonStackError: Error, CustomStringConvertible {
  /// The message.
  package var description: String

  /// An error with this message.
  package init(_ description: String) { self.description = description }
}
