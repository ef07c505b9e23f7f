// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `tapwire discover` / `tapwire connect` on the mock bus (the executables built beside the
/// test bundle).
@Suite(.serialized, .enabled(if: BlueZStack.isAvailable || BlueZStack.isRequired))
struct DiscoverCommandTests {
  static var tapwire: String {
    if let directory = ProcessInfo.processInfo.environment["TAPWIRE_BIN_DIR"] {
      return URL(fileURLWithPath: directory).appendingPathComponent("tapwire").path
    }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<3 {
      let candidate = directory.appendingPathComponent("tapwire")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate.path }
      directory = directory.deletingLastPathComponent()
    }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent(".build/debug/tapwire").path
  }

  func run(_ arguments: [String]) throws -> (Int32, [String]) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.tapwire)
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    )
  }

  func stack() throws -> BlueZStack {
    let stack = try BlueZStack()
    try stack.send("adapter hci0")
    try stack.send("device hci0 C0:00:00:00:00:01 TW-0001")
    try stack.send(
      #"set hci0 C0:00:00:00:00:01 {"RSSI": -50, "ManufacturerData": {"0xffff": "\#(makerHex(serial: "TW000001", battery: 60))"}}"#
    )
    return stack
  }

  @Test func scanListsTheReader() throws {
    let stack = try stack()
    defer { stack.stop() }
    let (status, lines) = try run(["discover", "--bluez", "--bus", stack.address, "--timeout", "1", "--json"])
    #expect(status == 0)
    #expect(
      lines.first?.hasPrefix(
        #"{"ok":true,"format":"discovery","event":"readersChanged","readers":[{"serial":"TW000001""#) == true)
    #expect(lines.last?.contains(#""event":"scanEnded""#) == true)
    #expect(lines.first?.contains(#""batteryLevel":60,"rssi":-50"#) == true)
  }

  /// `--profile FILE` over BlueZ: the Acme reader of Tests/Fixtures/reader-profiles.json is
  /// found (serial in hex from its manufacturer data, battery from service data 0xFFF0), the
  /// example-profile reader is not.
  @Test func profileFileRecognizesItsReaders() throws {
    let stack = try stack()
    defer { stack.stop() }
    try stack.send("device hci0 C0:AA:00:00:00:01 ACME-7")
    try stack.send(
      #"set hci0 C0:AA:00:00:00:01 {"RSSI": -55, "ManufacturerData": {"0xffff": "02a1b2c3d4e5f6"}, "ServiceData": {"0000fff0-0000-1000-8000-00805f9b34fb": "004b"}}"#
    )
    let profiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/reader-profiles.json").path
    let (status, lines) = try run([
      "discover", "--bluez", "--bus", stack.address, "--profile", profiles, "--timeout", "1", "--json",
    ])
    #expect(status == 0)
    let found = lines.filter { $0.contains(#""event":"readersChanged""#) }
    #expect(!found.isEmpty)
    #expect(found.allSatisfy { !$0.contains("TW000001") })
    #expect(
      found.contains {
        $0.contains(
          #"{"serial":"a1b2c3d4e5f6","profile":"Acme pocket reader","address":"C0:AA:00:00:00:01""#)
          && $0.contains(#""batteryLevel":75"#)
      })
  }

  /// `connect --profile FILE`: the saved serial is read with the file's profile.
  @Test func connectWithAProfileFile() throws {
    let stack = try stack()
    defer { stack.stop() }
    try stack.send("device hci0 C0:AA:00:00:00:01 ACME-7")
    try stack.send(
      #"set hci0 C0:AA:00:00:00:01 {"RSSI": -55, "ManufacturerData": {"0xffff": "02a1b2c3d4e5f6"}}"#)
    let profiles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/reader-profiles.json").path
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.tapwire)
    process.arguments = [
      "connect", "--bluez", "--bus", stack.address, "--serial", "a1b2c3d4e5f6", "--profile", profiles,
      "--json",
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    var text = ""
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline, !text.contains(#""event":"connected""#) {
      var fds = [pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)]
      if poll(&fds, 1, 200) <= 0 { continue }
      let chunk = output.fileHandleForReading.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    kill(process.processIdentifier, SIGINT)
    text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
    #expect(
      text.contains(
        #"{"ok":true,"format":"connection","event":"connected","serial":"a1b2c3d4e5f6","address":"C0:AA:00:00:00:01"}"#
      ))
  }

  @Test func savedSerialMissing() throws {
    let stack = try stack()
    defer { stack.stop() }
    let (status, lines) = try run([
      "discover", "--bluez", "--bus", stack.address, "--serial", "TW000009", "--timeout", "1",
    ])
    #expect(status == 1)
    #expect(lines == ["not found"])
  }

  /// A discovery without an end stopped by SIGINT (Ctrl-C) exits 130, the shell's status for
  /// SIGINT, not 2 (the usage status Foundation's bare signal number gave before; issue 35);
  /// SIGTERM 143. The scan stops (StopDiscovery) and `tapwire-nfc` is gone with `tapwire`.
  @Test(arguments: [SIGINT, SIGTERM])
  func discoveryStopsOnASignal(_ number: Int32) throws {
    let stack = try stack()
    defer { stack.stop() }
    let tree = try ProcessTree(
      Self.tapwire, ["discover", "--bluez", "--bus", stack.address, "--scan", "--timeout", "30"])
    try tree.waitFor("TW000001")
    let child = try tree.child()
    kill(tree.process.processIdentifier, number)
    let exit = try #require(tree.waitForExit(timeout: 5))
    #expect(exit.status == 128 + number)
    #expect(exit.seconds < 2)
    #expect(ProcessTree.ends(child, within: 1))
  }

  /// The signal tests start `tapwire` with SIGINT and SIGTERM at their default actions (not
  /// ignored). They may arrive blocked (Foundation's Process keeps the mask of the starting
  /// thread, and the test runner's threads block every signal): `tapwire` and `tapwire-nfc`
  /// unblock them when they install their handlers, so that case is tested too.
  @Test func processesStartWithDefaultSignalDispositions() throws {
    let dispositions = try ProcessTree.signalDispositions()
    #expect(!dispositions.ignored)
  }

  /// Starts `connect` and waits for its `connected` event.
  func connected(_ stack: BlueZStack) throws -> ProcessTree {
    let tree = try ProcessTree(
      Self.tapwire, ["connect", "--bluez", "--bus", stack.address, "--serial", "TW000001", "--json"])
    try tree.waitFor(#""event":"connected""#)
    return tree
  }

  /// Issue 35: SIGINT or SIGTERM to `tapwire` while connected disconnects (the mock's last
  /// Device1 call is Disconnect, `disconnected(requestedByApp)` is printed) and exits 128 + n
  /// within a second or so, with no `tapwire-nfc` left.
  @Test(arguments: [SIGINT, SIGTERM])
  func connectDisconnectsOnASignal(_ number: Int32) throws {
    let stack = try stack()
    defer { stack.stop() }
    let tree = try connected(stack)
    let child = try tree.child()
    kill(tree.process.processIdentifier, number)
    let exit = try #require(tree.waitForExit(timeout: 5))
    #expect(exit.status == 128 + number)
    #expect(exit.seconds < 2)
    #expect(ProcessTree.ends(child, within: 1))
    #expect(
      tree.output.contains(
        #"{"ok":true,"format":"connection","event":"disconnected","reason":"requestedByApp"}"#))
    let calls = try stack.send("calls hci0 C0:00:00:00:00:01").split(separator: " ").dropFirst()
    #expect(calls.first == "Connect")
    #expect(calls.last == "Disconnect")
  }

  /// The same when the signal goes to `tapwire-nfc` itself (`tapwire` passes on its status).
  @Test func connectDisconnectsWhenTheChildIsSignalled() throws {
    let stack = try stack()
    defer { stack.stop() }
    let tree = try connected(stack)
    let child = try tree.child()
    kill(child, SIGTERM)
    let exit = try #require(tree.waitForExit(timeout: 5))
    #expect(exit.status == 143)
    #expect(exit.seconds < 2)
    #expect(ProcessTree.ends(child, within: 1))
    #expect(tree.output.contains(#""event":"disconnected","reason":"requestedByApp""#))
    let calls = try stack.send("calls hci0 C0:00:00:00:00:01").split(separator: " ").dropFirst()
    #expect(calls.last == "Disconnect")
  }

  /// A second signal forces the exit while the graceful stop waits (BlueZ answers Disconnect
  /// only after 6 s here); so does the grace period when no second signal comes.
  @Test func aSecondSignalForcesTheExit() throws {
    let stack = try stack()
    defer { stack.stop() }
    let tree = try connected(stack)
    let child = try tree.child()
    try stack.send("stall hci0 C0:00:00:00:00:01")
    kill(tree.process.processIdentifier, SIGINT)
    usleep(300_000)
    #expect(tree.process.isRunning)
    kill(tree.process.processIdentifier, SIGINT)
    let exit = try #require(tree.waitForExit(timeout: 5))
    #expect(exit.status == 130)
    #expect(exit.seconds < 1.5)
    #expect(ProcessTree.ends(child, within: 1))
  }

  /// Without a second signal the stop is bounded: the child's grace period (3 s).
  @Test func theGracePeriodBoundsTheStop() throws {
    let stack = try stack()
    defer { stack.stop() }
    let tree = try connected(stack)
    let child = try tree.child()
    try stack.send("stall hci0 C0:00:00:00:00:01")
    kill(tree.process.processIdentifier, SIGTERM)
    let exit = try #require(tree.waitForExit(timeout: 8))
    #expect(exit.status == 143)
    #expect(exit.seconds < 5)
    #expect(ProcessTree.ends(child, within: 1))
  }

  @Test func usageErrors() throws {
    #expect(try run(["discover"]).0 == 2)
    #expect(try run(["discover", "--bluez", "--btsnoop", "x"]).0 == 2)
    #expect(try run(["connect", "--bluez"]).0 == 2)
    #expect(try run(["discover", "--bluez", "--frobnicate"]).0 == 2)
  }

  @Test func connectPrintsTheLifecycleUntilInterrupted() throws {
    let stack = try stack()
    defer { stack.stop() }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Self.tapwire)
    process.arguments = ["connect", "--bluez", "--bus", stack.address, "--serial", "TW000001", "--json"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    var pending: [UInt8] = []
    var lines: [String] = []
    func readLine() throws -> String {
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        if let newline = pending.firstIndex(of: 0x0A) {
          let line = String(decoding: pending[..<newline], as: UTF8.self)
          pending.removeSubrange(...newline)
          lines.append(line)
          return line
        }
        var fds = [pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)]
        if poll(&fds, 1, 200) <= 0 { continue }
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        pending += chunk
      }
      throw DaemonStackError("no line; so far \(lines)")
    }
    defer {
      if process.isRunning {
        kill(process.processIdentifier, SIGINT)
        usleep(500_000)
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
      }
    }
    while try !readLine().contains(#""event":"connected""#) {}
    try stack.send("drop hci0 C0:00:00:00:00:01")
    while try !readLine().contains(#""event":"reconnectSucceeded""#) {}
    kill(process.processIdentifier, SIGINT)
    while try !readLine().contains(#""event":"disconnected""#) {}
    process.waitUntilExit()
    #expect(process.terminationStatus == 130)
    let events = lines.compactMap { $0.split(separator: "\"event\":\"").last?.split(separator: "\"").first }
    #expect(
      events == [
        "statusChanged", "statusChanged", "statusChanged", "connected", "statusChanged", "reconnectStarted",
        "reconnectAttempt",
        "statusChanged", "reconnectSucceeded", "statusChanged", "disconnected",
      ])
    #expect(
      lines.last == #"{"ok":true,"format":"connection","event":"disconnected","reason":"requestedByApp"}"#)
  }
}
