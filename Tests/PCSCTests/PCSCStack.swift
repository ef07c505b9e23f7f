// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import NFCReader
import NFCReaderPCSC
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// pcscd with the vsmartcard `vpcd` driver and a `tapwire-vcard` card, both in a private
/// network and mount namespace (`unshare --mount --net`): vpcd's TCP listener exists only on
/// that namespace's loopback, and pcscd's socket (always `/run/pcscd/pcscd.comm` in 1.9.9)
/// lands in this test process's own directory, because `/run` is bind-mounted over there.
/// The client library reaches it through `PCSCLITE_CSOCK_NAME` (pcsc-lite's client honours
/// it; the daemon does not, hence the mount). Started and stopped by PID for each test
/// (``DaemonStack/DaemonNamespace``).
final class PCSCStack {
  /// The reader the card is inserted into (vpcd slot 0, port 35963).
  static let reader = "Tapwire Virtual 00 00"
  /// vpcd's second slot (port 35964), always empty here.
  static let secondReader = "Tapwire Virtual 00 01"
  static let port = 35963
  static let pcscd = "/usr/sbin/pcscd"
  static let vpcdDriver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"

  /// One directory per test process; the client library reads `PCSCLITE_CSOCK_NAME` once.
  static let directory: String = {
    let path = "/tmp/tapwire-pcsc-\(getpid())"
    setenv("PCSCLITE_CSOCK_NAME", path + "/run/pcscd/pcscd.comm", 1)
    return path
  }()

  /// Why the stack cannot run here, or nil when it can (root, pcscd, vpcd, unshare, ip).
  static let unavailableReason: String? = {
    if geteuid() != 0 { return "needs root for unshare --mount --net" }
    for path in [pcscd, vpcdDriver] where !FileManager.default.fileExists(atPath: path) {
      return "\(path) is missing (.ci/install-packages installs pcscd vsmartcard-vpcd)"
    }
    return DaemonNamespace.missingTools
  }()

  /// Whether CI asked for the PC/SC tests to run for real (`TAPWIRE_REQUIRE_PCSC=1`).
  static var isRequired: Bool { ProcessInfo.processInfo.environment["TAPWIRE_REQUIRE_PCSC"] == "1" }

  /// Whether the PC/SC tests run: the stack is available. When it is not, the tests show as
  /// skipped with the reason, and `PCSCAvailabilityTests` fails if CI required them.
  static var isAvailable: Bool { unavailableReason == nil }

  /// The virtual card executable next to the test bundle.
  /// `TAPWIRE_BIN_DIR` names another directory (CI runs the command tests against the release build).
  static var virtualCard: String {
    if let directory = ProcessInfo.processInfo.environment["TAPWIRE_BIN_DIR"] {
      return URL(fileURLWithPath: directory).appendingPathComponent("tapwire-vcard").path
    }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<3 {
      let candidate = directory.appendingPathComponent("tapwire-vcard")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
      directory = directory.deletingLastPathComponent()
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return root.appendingPathComponent(".build/debug/tapwire-vcard").path
  }

  /// The reader driver pcscd loads.
  enum Driver {
    /// vsmartcard's vpcd (two slots).
    case vpcd
    /// Tapwire's own IFD handler (`libTapwireIFD.so`, one reader `Tapwire NFC 00 00`), with
    /// its control log and scripting files in ``directory``.
    case tapwire
  }

  /// The reader Tapwire's driver shows.
  static let nfcReader = "Tapwire NFC 00 00"
  /// The port of Tapwire's driver (the card connects to it as to vpcd).
  static let nfcPort = 35970

  /// `libTapwireIFD.so`, built by SwiftPM next to the test executables.
  static var tapwireDriver: String {
    URL(fileURLWithPath: virtualCard).deletingLastPathComponent().appendingPathComponent("libTapwireIFD.so")
      .path
  }

  /// pcscd (the one background daemon) and the card process (the foreground program).
  let namespace: DaemonNamespace

  /// pcscd's PID: other processes join the stack's network namespace through it.
  var pcscdPID: pid_t { namespace.pids.first ?? 0 }

  /// Starts pcscd and the card process, then waits (up to 60 s, polling) until pcscd lists
  /// the virtual reader.
  init(driver: Driver = .vpcd) async throws {
    let directory = Self.directory
    let port = driver == .vpcd ? Self.port : Self.nfcPort
    let reader = driver == .vpcd ? Self.reader : Self.nfcReader
    let script = """
      mount --bind \(directory)/run /run || { echo "mount --bind \(directory)/run /run failed"; exit 1; }
      \(Self.pcscd) -f -i -c \(directory)/conf > \(directory)/pcscd.log 2>&1 &
      echo "pid $!"
      echo ready
      exec \(Self.virtualCard) --port \(port)
      """
    namespace = try DaemonNamespace(
      directory: directory, namespaces: [.mount, .network], foreground: "tapwire-vcard", script: script
    ) {
      let fileManager = FileManager.default
      try fileManager.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true)
      try fileManager.createDirectory(atPath: directory + "/conf", withIntermediateDirectories: true)
      try Self.configuration(driver, directory: directory)
        .write(toFile: directory + "/conf/vpcd", atomically: true, encoding: .utf8)
    }
    try await namespace.waitUntil("pcscd did not list \(reader)") {
      guard let context = try? PCSCContext(), let readers = try? await context.readers() else { return false }
      return readers.contains(reader)
    }
  }

  /// pcscd's reader configuration (`conf/vpcd`) for `driver`.
  static func configuration(_ driver: Driver, directory: String) -> String {
    driver == .vpcd
      ? """
      FRIENDLYNAME "Tapwire Virtual"
      DEVICENAME   /dev/null:\(Self.port)
      LIBPATH      \(Self.vpcdDriver)
      CHANNELID    \(Self.port)

      """
      : """
      FRIENDLYNAME "Tapwire NFC"
      DEVICENAME   \(directory):\(Self.nfcPort)
      LIBPATH      \(Self.tapwireDriver)

      """
  }

  /// Sends one command line to the card process and returns its answer line.
  @discardableResult
  func send(_ command: String) throws -> String {
    namespace.write(line: command)
    return try namespace.line(timeout: .seconds(60))
  }

  /// `insert ndef HEX`: a Type 4 tag holding `message`.
  func insertType4(message: [UInt8]) throws {
    let answer = try send("insert ndef " + message.map { String(format: "%02x", $0) }.joined())
    guard answer == "inserted" else { throw DaemonStackError(answer) }
  }

  /// `insert gp [N]`: the GlobalPlatform-like card, leaving after N APDUs when given.
  func insertGlobalPlatform(leavingAfter count: Int? = nil) throws {
    let answer = try send("insert gp" + (count.map { " \($0)" } ?? ""))
    guard answer == "inserted" else { throw DaemonStackError(answer) }
  }

  /// `insert atr HEX`: a card that presents `atr` and answers 6A81 to every APDU.
  func insertATR(_ atr: [UInt8]) throws {
    let answer = try send("insert atr " + atr.map { String(format: "%02x", $0) }.joined())
    guard answer == "inserted" else { throw DaemonStackError(answer) }
  }

  /// One line of the card process's output (blocking read with a deadline).
  func line(timeout: Duration) throws -> String { try namespace.line(timeout: timeout) }

  /// Stops the card process (closing its input) and pcscd (SIGTERM, then SIGKILL after 10 s),
  /// each by PID, and removes ``directory``: the next test recreates it, the last one leaves
  /// nothing behind in /tmp.
  func stop() { namespace.stop() }
}

extension PCSCStack {
  /// Lines of Tapwire's driver's control log (`control CODE in HEX -> RC out HEX`).
  func controlLog() -> [String] {
    namespace.file("control.log").split(separator: "\n").map(String.init)
  }

  /// Writes one of the driver's scripting files (`behaviour`, `command`, `uid`).
  func script(_ name: String, _ contents: String) throws {
    try contents.write(toFile: Self.directory + "/" + name, atomically: true, encoding: .utf8)
  }
}
