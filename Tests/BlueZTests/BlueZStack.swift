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
  static let daemon = PrivateSystemBus.daemon
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
    let startMock =
      mock
      ? """
      \(Self.python) -m dbusmock --system --template bluez5 > \(directory)/mock.log 2>&1 &
      echo "pid $!"
      exec \(Self.python) \(Self.script)
      """
      : "echo ready; exec cat > /dev/null"
    let script = PrivateSystemBus.startScript(directory: directory) + startMock
    namespace = try DaemonNamespace(
      directory: directory, namespaces: .network, foreground: "the mock driver", script: script
    ) {
      try PrivateSystemBus.configuration(directory: directory)
        .write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
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
