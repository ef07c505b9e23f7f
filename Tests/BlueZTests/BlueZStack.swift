// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A private D-Bus system bus (`dbus-daemon` with its own config, a unix socket in a temp
/// directory) with python3-dbusmock's `bluez5` template on it, and `bluez_mock.py` driving the
/// mock, all in a private network namespace (`unshare --net`). Clients reach the bus by its
/// socket path (``address``). Started and stopped by PID for each test
/// (``DaemonStack/DaemonNamespace``); one test uses it at a time (commands are sent from one
/// task at once).
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
    for path in [daemon, python] where !fileManager.fileExists(atPath: path) {
      return "\(path) is missing (.ci/install-packages installs dbus python3-dbusmock)"
    }
    if let missing = DaemonNamespace.missingTools { return missing }
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

  /// The bus and the mock (background daemons), and `bluez_mock.py` (the foreground program).
  let namespace: DaemonNamespace

  /// The folder of the bus socket, its configuration and the logs.
  var directory: String { namespace.directory }

  /// The bus address clients use.
  var address: String { "unix:path=\(directory)/bus" }

  /// Starts the bus, the mock (with `mock` false, only the bus: no BlueZ on it) and the driver.
  init(mock: Bool = true) throws {
    let directory = "/tmp/tapwire-bluez-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
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
    let startMock =
      mock
      ? """
      \(Self.python) -m dbusmock --system --template bluez5 > \(directory)/mock.log 2>&1 &
      echo "pid $!"
      exec \(Self.python) \(Self.script)
      """
      : "echo ready; exec cat > /dev/null"
    let script = """
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
    namespace = try DaemonNamespace(
      directory: directory, namespaces: .network, foreground: "the mock driver", script: script
    ) {
      try config.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
    }
  }

  /// Sends a command to `bluez_mock.py`; throws unless it answers `ok`.
  @discardableResult
  func send(_ command: String) throws -> String {
    namespace.write(line: command)
    let answer = try namespace.line(timeout: .seconds(30))
    guard answer.hasPrefix("ok") else { throw DaemonStackError("\(command): \(answer)") }
    return answer
  }

  /// Stops the driver (closing its input), the mock and the bus, each by PID.
  func stop() { namespace.stop() }
}
