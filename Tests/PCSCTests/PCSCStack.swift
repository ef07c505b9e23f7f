// SPDX-License-Identifier: Apache-2.0
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
/// it; the daemon does not, hence the mount). Started and stopped by PID for each test.
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
    let fileManager = FileManager.default
    for path in [pcscd, vpcdDriver, "/usr/bin/unshare"] where !fileManager.fileExists(atPath: path) {
      return "\(path) is missing (.ci/install-packages installs pcscd vsmartcard-vpcd)"
    }
    if !["/usr/sbin/ip", "/usr/bin/ip", "/sbin/ip", "/bin/ip"].contains(
      where: fileManager.fileExists(atPath:))
    {
      return "ip is missing (apt-get install iproute2)"
    }
    return nil
  }()

  /// Whether CI asked for the PC/SC tests to run for real (`TAPWIRE_REQUIRE_PCSC=1`).
  static var isRequired: Bool { ProcessInfo.processInfo.environment["TAPWIRE_REQUIRE_PCSC"] == "1" }

  /// Whether the PC/SC tests run: the stack is available. When it is not, the tests show as
  /// skipped with the reason, and `PCSCAvailabilityTests` fails if CI required them.
  static var isAvailable: Bool { unavailableReason == nil }

  /// The virtual card executable next to the test bundle.
  static var virtualCard: String {
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

  let card = Process()
  private let input = Pipe()
  private let output = Pipe()
  private var pending: [UInt8] = []
  private(set) var pcscdPID: pid_t = 0
  private var stopped = false

  /// Starts pcscd and the card process, then waits (up to 60 s, polling) until pcscd lists
  /// the virtual reader.
  init(driver: Driver = .vpcd) async throws {
    let directory = Self.directory
    let fileManager = FileManager.default
    try? fileManager.removeItem(atPath: directory)
    try fileManager.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true)
    try fileManager.createDirectory(atPath: directory + "/conf", withIntermediateDirectories: true)
    let port = driver == .vpcd ? Self.port : Self.nfcPort
    let reader = driver == .vpcd ? Self.reader : Self.nfcReader
    let conf =
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
    try conf.write(toFile: directory + "/conf/vpcd", atomically: true, encoding: .utf8)
    let script = """
      ip link set lo up && mount --bind \(directory)/run /run || exit 1
      \(Self.pcscd) -f -i -c \(directory)/conf > \(directory)/pcscd.log 2>&1 &
      echo "pcscd $!"
      exec \(Self.virtualCard) --port \(port)
      """
    card.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
    card.arguments = ["--mount", "--net", "--propagation", "private", "sh", "-c", script]
    card.standardInput = input
    card.standardOutput = output
    try card.run()
    let first = try line(timeout: .seconds(30))
    guard first.hasPrefix("pcscd "), let pid = pid_t(first.dropFirst(6)) else {
      stop()
      throw StackError("the namespace did not start: \(first)")
    }
    pcscdPID = pid
    let deadline = ContinuousClock.now + .seconds(60)
    while true {
      if let context = try? PCSCContext(), let readers = try? await context.readers(),
        readers.contains(reader)
      {
        break
      }
      if ContinuousClock.now > deadline {
        let log = (try? String(contentsOfFile: directory + "/pcscd.log", encoding: .utf8)) ?? ""
        stop()
        throw StackError("pcscd did not list \(reader) within 60 s; log:\n\(log)")
      }
      try await Task.sleep(for: .milliseconds(100))
    }
  }

  struct StackError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  /// Sends one command line to the card process and returns its answer line.
  @discardableResult
  func send(_ command: String) throws -> String {
    input.fileHandleForWriting.write(Data((command + "\n").utf8))
    return try line(timeout: .seconds(60))
  }

  /// `insert ndef HEX`: a Type 4 tag holding `message`.
  func insertType4(message: [UInt8]) throws {
    let answer = try send("insert ndef " + message.map { String(format: "%02x", $0) }.joined())
    guard answer == "inserted" else { throw StackError(answer) }
  }

  /// `insert gp [N]`: the GlobalPlatform-like card, leaving after N APDUs when given.
  func insertGlobalPlatform(leavingAfter count: Int? = nil) throws {
    let answer = try send("insert gp" + (count.map { " \($0)" } ?? ""))
    guard answer == "inserted" else { throw StackError(answer) }
  }

  /// One line of the card process's output (blocking read with a deadline).
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
      let left = deadline - ContinuousClock.now
      guard left > .zero else { throw StackError("no answer from tapwire-vcard within \(timeout)") }
      let ready = poll(&fds, 1, Int32(min(left.components.seconds * 1000 + 1, 1000)))
      if ready <= 0 { continue }
      var buffer = [UInt8](repeating: 0, count: 4096)
      let count = read(fd, &buffer, buffer.count)
      guard count > 0 else { throw StackError("tapwire-vcard exited") }
      pending += buffer.prefix(count)
    }
  }

  /// Stops the card process (closing its input) and pcscd (SIGTERM, then SIGKILL after 10 s),
  /// each by PID.
  func stop() {
    guard !stopped else { return }
    stopped = true
    try? input.fileHandleForWriting.close()
    if pcscdPID > 0 { Self.terminate(pcscdPID) }
    if card.isRunning {
      let deadline = Date().addingTimeInterval(10)
      while card.isRunning && Date() < deadline { usleep(20_000) }
      if card.isRunning { kill(card.processIdentifier, SIGKILL) }
    }
    card.waitUntilExit()
    // The next test recreates it; the last one leaves nothing behind in /tmp.
    try? FileManager.default.removeItem(atPath: Self.directory)
  }

  /// SIGTERM, wait up to 10 s for the process to go, then SIGKILL.
  static func terminate(_ pid: pid_t) {
    guard kill(pid, SIGTERM) == 0 else { return }
    let deadline = Date().addingTimeInterval(10)
    while Date() < deadline {
      // pcscd is not our child (its parent is the card process): probe with signal 0.
      if kill(pid, 0) != 0 || isZombie(pid) { return }
      usleep(20_000)
    }
    kill(pid, SIGKILL)
  }

  /// Whether `pid` has exited and waits to be reaped (state Z in /proc/PID/stat).
  static func isZombie(_ pid: pid_t) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return true }
    return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
  }

  deinit { stop() }
}

extension PCSCStack {
  /// Lines of Tapwire's driver's control log (`control CODE in HEX -> RC out HEX`).
  func controlLog() -> [String] {
    let text = (try? String(contentsOfFile: Self.directory + "/control.log", encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  /// Writes one of the driver's scripting files (`behaviour`, `command`, `uid`).
  func script(_ name: String, _ contents: String) throws {
    try contents.write(toFile: Self.directory + "/" + name, atomically: true, encoding: .utf8)
  }
}
