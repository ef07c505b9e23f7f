// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A private D-Bus system bus (`dbus-daemon` with its own config, a unix socket in a temp
/// directory) with python3-dbusmock's `bluez5` template on it, and `bluez_mock.py` driving the
/// mock, all in a private network namespace (`unshare --net`). Clients reach the bus by its
/// socket path (``address``). Started and stopped by PID for each test; one test uses it at a
/// time (commands are sent from one task at once).
final class BlueZStack: @unchecked Sendable {
  static let python = "/usr/bin/python3"
  static let daemon = "/usr/bin/dbus-daemon"
  /// Debian's dbus-bin (a dependency of dbus): asks the bus whether it answers yet.
  static let send = "/usr/bin/dbus-send"
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("bluez_mock.py").path

  /// Why the stack cannot run here, or nil when it can.
  static let unavailableReason: String? = {
    let fileManager = FileManager.default
    for path in [daemon, python, "/usr/bin/unshare"] where !fileManager.fileExists(atPath: path) {
      return "\(path) is missing (.ci/install-packages installs dbus python3-dbusmock)"
    }
    let probe = Process()
    probe.executableURL = URL(fileURLWithPath: python)
    probe.arguments = ["-c", "import dbusmock, dbus"]
    probe.standardError = FileHandle.nullDevice
    guard (try? probe.run()) != nil else { return "\(python) does not run" }
    probe.waitUntilExit()
    if probe.terminationStatus != 0 { return "python3-dbusmock or python3-dbus is missing" }
    return nil
  }()

  /// Whether CI asked for the BlueZ tests to run for real (`TAPWIRE_REQUIRE_BLUEZ=1`).
  static var isRequired: Bool { ProcessInfo.processInfo.environment["TAPWIRE_REQUIRE_BLUEZ"] == "1" }
  static var isAvailable: Bool { unavailableReason == nil }

  let directory: String
  let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var pending: [UInt8] = []
  private var pids: [pid_t] = []
  private var stopped = false

  /// The bus address clients use.
  var address: String { "unix:path=\(directory)/bus" }

  /// Starts the bus, the mock (with `mock` false, only the bus: no BlueZ on it) and the driver.
  init(mock: Bool = true) throws {
    directory = "/tmp/tapwire-bluez-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let config = """
      <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
      <busconfig>
        <type>system</type>
        <listen>unix:path=\(directory)/bus</listen>
        <auth>EXTERNAL</auth>
        <policy context="default">
          <allow user="*"/>
          <allow own="*"/>
          <allow send_type="method_call"/>
          <allow send_type="signal"/>
          <allow send_type="method_return"/>
          <allow send_type="error"/>
          <allow receive_type="method_call"/>
          <allow receive_type="signal"/>
          <allow receive_type="method_return"/>
          <allow receive_type="error"/>
        </policy>
      </busconfig>

      """
    try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
    let startMock =
      mock
      ? """
      \(Self.python) -m dbusmock --system --template bluez5 > \(directory)/mock.log 2>&1 &
      echo "pid $!"
      exec \(Self.python) \(Self.script)
      """
      : "echo ready; exec cat > /dev/null"
    let script = """
      ip link set lo up 2>/dev/null
      \(Self.daemon) --config-file=\(directory)/bus.conf --nofork > \(directory)/bus.log 2>&1 &
      echo "pid $!"
      # Ready when the bus answers (its socket file appears at bind(), before listen()).
      for i in $(seq 400); do
        \(Self.send) --bus=unix:path=\(directory)/bus --print-reply --dest=org.freedesktop.DBus \
          /org/freedesktop/DBus org.freedesktop.DBus.GetId > /dev/null 2>&1 && break
        sleep 0.05
      done
      export DBUS_SYSTEM_BUS_ADDRESS=unix:path=\(directory)/bus
      \(startMock)
      """
    process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    process.arguments = (geteuid() == 0 ? ["--net"] : ["--map-root-user", "--net"]) + ["sh", "-c", script]
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    while true {
      let line = try self.line(timeout: .seconds(30))
      if line.hasPrefix("pid "), let pid = pid_t(line.dropFirst(4)) {
        pids.append(pid)
      } else if line == "ready" {
        break
      } else {
        stop()
        throw StackError("the mock did not start: \(line)")
      }
    }
  }

  struct StackError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// Sends a command to `bluez_mock.py`; throws unless it answers `ok`.
  @discardableResult
  func send(_ command: String) throws -> String {
    input.fileHandleForWriting.write(Data((command + "\n").utf8))
    let answer = try line(timeout: .seconds(30))
    guard answer.hasPrefix("ok") else { throw StackError("\(command): \(answer)") }
    return answer
  }

  func line(timeout: Duration) throws -> String {
    let deadline = ContinuousClock.now + timeout
    let fd = output.fileHandleForReading.fileDescriptor
    while true {
      if let newline = pending.firstIndex(of: 0x0A) {
        let text = String(decoding: pending[..<newline], as: UTF8.self)
        pending.removeSubrange(...newline)
        return text
      }
      var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
      guard ContinuousClock.now < deadline else { throw StackError("no answer within \(timeout)") }
      if poll(&fds, 1, 200) <= 0 { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(fd, &buffer, buffer.count)
      guard count > 0 else { throw StackError("the mock driver exited") }
      pending += buffer.prefix(count)
    }
  }

  /// Stops the driver (closing its input), the mock and the bus, each by PID.
  func stop() {
    guard !stopped else { return }
    stopped = true
    try? input.fileHandleForWriting.close()
    for pid in pids.reversed() { Self.terminate(pid) }
    let deadline = Date().addingTimeInterval(10)
    while process.isRunning && Date() < deadline { usleep(20_000) }
    if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
    try? FileManager.default.removeItem(atPath: directory)
  }

  deinit { stop() }

  /// SIGTERM, wait up to 10 s, then SIGKILL (the processes are the shell's children, not ours).
  static func terminate(_ pid: pid_t) {
    guard kill(pid, SIGTERM) == 0 else { return }
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      if kill(pid, 0) != 0 { return }
      if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")"), stat[stat.index(close, offsetBy: 2)] == "Z"
      {
        return
      }
      usleep(20_000)
    }
    kill(pid, SIGKILL)
  }
}
