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
  func waitingRead() throws -> ProcessTree {
    let tree = try ProcessTree(
      Self.tapwire, ["read", "--pcsc", PCSCStack.nfcReader, "--timeout", "60"],
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
