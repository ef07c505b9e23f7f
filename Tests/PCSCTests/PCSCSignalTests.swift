// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import NFCReaderPCSC
import PCSCControl
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 35: `tapwire read --pcsc` waiting for a card stops on SIGINT or SIGTERM: the
/// reader-driven session is cancelled (the reader gets STOP_NFC with "Cancelled"), the exit
/// status is 128 + n within a second or so, and no `tapwire-nfc` is left.
extension PCSCTransportTests {
  func waitingRead(_ extra: [String] = []) throws -> ProcessTree {
    let tree = try ProcessTree(
      Self.tapwire, ["read", "--pcsc", PCSCStack.nfcReader, "--timeout", "60"] + extra,
      environment: ["PCSCLITE_CSOCK_NAME": PCSCStack.directory + "/run/pcscd/pcscd.comm"])
    try tree.waitFor("reader-driven NFC discovery", timeout: 30)
    return tree
  }

  /// The STOP the reader got last (the stop-reason queries aside).
  static func stopSent(_ log: [String]) -> Bool {
    withoutReasonQueries(log).last
      == line(NFCControlCodes.tapwireDefaults.stopNFC, Array("Cancelled".utf8))
  }

  @Test(arguments: [SIGINT, SIGTERM])
  func readWaitingForACardStopsOnASignal(_ number: Int32) async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let tree = try waitingRead()
    let child = try tree.child()
    kill(tree.process.processIdentifier, number)
    let exit = try #require(tree.waitForExit(timeout: 5))
    #expect(exit.status == 128 + number, "\(tree.output)")
    #expect(exit.seconds < 2)
    #expect(ProcessTree.ends(child, within: 1))
    #expect(Self.stopSent(stack.controlLog()), "\(stack.controlLog())")
  }

  /// `tapwire read --dump --pcsc` waiting for a card, the same (`tapwire-nfc dump`, a session
  /// of its own).
  @Test(arguments: [SIGINT, SIGTERM])
  func dumpWaitingForACardStopsOnASignal(_ number: Int32) async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let tree = try waitingRead(["--dump"])
    let child = try tree.child()
    let exit = try #require(tree.signal(number, label: "read --dump --pcsc waiting for a card"))
    #expect(exit.status == 128 + number, "\(tree.output)")
    #expect(exit.seconds < ProcessTree.exitBound)
    #expect(ProcessTree.ends(child, within: 1))
    #expect(Self.stopSent(stack.controlLog()), "\(stack.controlLog())")
  }

  /// The same when `tapwire-nfc` itself gets the signal.
  @Test func readStopsWhenTheChildIsSignalled() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let tree = try waitingRead()
    let child = try tree.child()
    kill(child, SIGINT)
    let exit = try #require(tree.waitForExit(timeout: 5))
    #expect(exit.status == 130, "\(tree.output)")
    #expect(exit.seconds < 2)
    #expect(Self.stopSent(stack.controlLog()), "\(stack.controlLog())")
  }
}

/// Issue 35: `tapwire pcsc script` stopped in the middle of a script, and `tapwire admin`
/// stopped in the middle of a round trip, by SIGINT or SIGTERM to either process.
extension PCSCTransportTests {
  /// A script long enough to be signalled in its middle: GET DATA (the card's tag FE, 300
  /// bytes) `count` times.
  static func longScript(_ count: Int) throws -> String {
    let path = PCSCStack.directory + "/long.apdu"
    try String(repeating: "80CA00FE00\n", count: count).write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// The script stops between two steps (the one not sent is named), the card is
  /// disconnected, the exit is 128 + n within the bound. pcscd's side: the card is free
  /// (an exclusive connection from this process succeeds at once) and answers.
  @Test(arguments: [(SIGINT, false), (SIGTERM, true)])
  func pcscScriptStopsMidScript(_ number: Int32, _ toChild: Bool) async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert gp-cm") == "inserted")
    // Each GET DATA is three exchanges (61XX, then GET RESPONSE twice) of about 40 ms each
    // through vpcd: a few steps in is the middle of the script.
    let total = 1_000
    let tree = try ProcessTree(
      Self.tapwire, ["pcsc", "script", "--reader", PCSCStack.reader, try Self.longScript(total)],
      environment: ["PCSCLITE_CSOCK_NAME": PCSCStack.directory + "/run/pcscd/pcscd.comm"])
    try tree.waitFor("step 3/\(total)", timeout: 30)
    let child = try tree.child()
    let exit = try #require(
      tree.signal(number, to: toChild ? child : nil, label: "pcsc script mid-script"))
    #expect(exit.status == 128 + number, "\(tree.output.suffix(400))")
    #expect(exit.seconds < ProcessTree.exitBound)
    #expect(ProcessTree.ends(child, within: 1))
    let name = number == SIGINT ? "SIGINT" : "SIGTERM"
    let stopped = tree.output.split(separator: "\n").first {
      $0.contains("interrupted (\(name)) before it was sent")
    }
    print("pcsc script mid-script: \(stopped ?? "no interruption line")")
    #expect(stopped != nil, "\(tree.output.suffix(400))")
    #expect(tree.output.contains("tapwire: script failed at step "))
    let context = try PCSCContext()
    let card = try await context.connect(to: PCSCStack.reader, share: .exclusive)
    // 61XX: the data waits for GET RESPONSE, as in the script.
    let answer = try await card.transmit([0x80, 0xCA, 0x00, 0xFE, 0x00])
    #expect(answer.first == 0x61 || answer.first == 0x90, "\(answer)")
    try await card.disconnect()
  }

  /// The RAM server answers round trip 2 after 20 s: SIGINT or SIGTERM in that wait cancels
  /// the request, reports the failed update with where to resume (round trip 1's next URI),
  /// and exits 128 + n within the bound (not after the round-trip timeout).
  @Test(arguments: [(SIGINT, false), (SIGTERM, true)])
  func adminStopsInARoundTrip(_ number: Int32, _ toChild: Bool) async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert gp-cm") == "inserted")
    let description = """
      {"stall": {"rounds": [{"commands": ["80CA00FE00"]}, {"commands": ["80CA00FE00"], "fault": {"delay": 20}}]}}
      """
    let server = try RAMServer(
      namespaceOf: stack.pcscdPID, description: description, directory: PCSCStack.directory)
    defer { server.stop() }
    let tree = try ProcessTree(
      RAMServer.nsenter,
      [
        "--net=/proc/\(stack.pcscdPID)/ns/net", Self.tapwire, "admin", server.url("stall"), "--pcsc",
        PCSCStack.reader, "--timeout", "60", "--json",
      ],
      environment: ["PCSCLITE_CSOCK_NAME": PCSCStack.directory + "/run/pcscd/pcscd.comm"])
    try tree.waitFor("round trip 2: POST", timeout: 30)
    let child = try tree.child()
    let exit = try #require(tree.signal(number, to: toChild ? child : nil, label: "admin in a round trip"))
    #expect(exit.status == 128 + number, "\(tree.output)")
    #expect(exit.seconds < ProcessTree.exitBound)
    #expect(ProcessTree.ends(child, within: 1))
    let resume = server.url("stall") + "/1"
    #expect(tree.output.contains("resume with: --resume \(resume)"), "\(tree.output)")
    let line = try #require(tree.output.split(separator: "\n").first { $0.hasPrefix("{") })
    let object = try Self.object(String(line))
    #expect(object["ok"] as? Bool == false)
    #expect(object["resumeURI"] as? String == resume)
    print("admin in a round trip: error \(object["error"] ?? "none")")
  }
}
