// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import NFCReader
import NFCReaderPCSC
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 35: the other side going away mid-flow over PC/SC gives a typed result, not a hang:
/// the card removed in the middle of an NDEF write, pcscd exiting and coming back, the
/// reader unplugged.
///
/// Where the test daemons differ from real ones: the card "leaves" by closing its socket to
/// the driver, which the driver reports to pcscd at once (its polling function) but only
/// between exchanges, where a real reader's card leaving the field fails the exchange in
/// flight at once; pcscd is
/// killed (SIGKILL, as a crash) and a new one started in the same namespaces, where a
/// systemd restart stops it with SIGTERM first (its clients see the same closed socket);
/// the unplugged reader is Tapwire's driver answering IFD_NO_SUCH_DEVICE, as a USB reader's
/// driver does once the device is gone, but pcscd keeps a serial-configured reader listed
/// (as unavailable) where a hot-plugged one would be removed from the list.
extension PCSCTransportTests {
  /// The NDEF message on the tag before the write: one URI record.
  static let oldMessage: [UInt8] = [0xD1, 0x01, 0x05, 0x55, 0x04, 0x61, 0x2E, 0x62, 0x63]
  /// The message written: a Text record of 300 bytes of text (SR=0), two UPDATE BINARY.
  static let newMessage: [UInt8] = {
    let payload: [UInt8] = [0x02, 0x65, 0x6E] + [UInt8](repeating: 0x7A, count: 300)
    return [0xC1, 0x01, 0x00, 0x00, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF), 0x54] + payload
  }()

  /// The tag leaves on each APDU of the write in turn (`insert ndef OLD k`: the (k+1)th
  /// APDU is never answered). The write fails with `tagLost` naming the PC/SC code, and what
  /// the tag holds is the old message, an NLEN of 0, or (once the write got through) the
  /// new message: never a part. T4T 3.0 §5.5's order makes that so: NLEN 0 first, the
  /// message, NLEN last.
  @Test func aCardRemovedMidWriteHoldsAWholeMessageOrLengthZero() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let context = try PCSCContext()
    let old = Self.hex(Self.oldMessage)
    var seen: [String] = []
    for leaveAfter in 3..<16 {
      #expect(try stack.send("insert ndef \(old) \(leaveAfter)") == "inserted")
      _ = try #require(try await context.waitForCard(in: PCSCStack.nfcReader, timeout: .seconds(10)))
      let card = try await context.connect(to: PCSCStack.nfcReader)
      let start = ContinuousClock.now
      var failure: PCSCNDEFError?
      do { try await card.writeNDEF(bytes: Self.newMessage) } catch { failure = error }
      let took = ContinuousClock.now - start
      try? await card.disconnect()
      if failure != nil { #expect(try stack.line(timeout: .seconds(10)) == "left after \(leaveAfter) APDUs") }
      let stored = try stack.send("stored").split(separator: " ").map(String.init)
      try #require(stored.count >= 2 && stored[0] == "stored", "\(stored)")
      let length = Int(stored[1]) ?? -1
      let bytes = stored.count > 2 ? stored[2] : ""
      let held =
        length == 0
        ? "NLEN 0"
        : bytes == old ? "the old message" : bytes == Self.hex(Self.newMessage) ? "the new message" : "?"
      seen.append(held)
      print(
        "tag left after \(leaveAfter) APDUs: \(failure.map { "\($0)" } ?? "written") in \(took); it holds \(held)"
      )
      #expect(held != "?", "NLEN \(length), \(bytes)")
      #expect(took < .seconds(3))
      guard let failure else {
        #expect(held == "the new message")
        break
      }
      guard case .reader(let error) = failure else {
        Issue.record("not a reader failure: \(failure)")
        continue
      }
      #expect(error.code == .tagLost, "\(error)")
      #expect(
        error.transportCodeName == "SCARD_W_REMOVED_CARD" || error.transportCodeName == "SCARD_E_NO_SMARTCARD"
      )
      #expect(held != "the new message")
      _ = try await context.waitForRemoval(from: PCSCStack.nfcReader, timeout: .seconds(5))
    }
    // Every state was met: before NLEN 0, in the body, and the whole write.
    #expect(seen.contains("the old message"))
    #expect(seen.contains("NLEN 0"))
    #expect(seen.last == "the new message")
  }
}

extension PCSCTransportTests {
  /// Runs `body` in a task whose value is the error it threw, or nil when it returned.
  static func failure(_ body: @escaping @Sendable () async throws(ReaderError) -> Void) -> Task<
    ReaderError?, Never
  > {
    Task {
      do throws(ReaderError) {
        try await body()
        return nil
      } catch {
        return error
      }
    }
  }

  /// Lets `waiting` start, runs `trigger`, and checks that `waiting` then ends within 3 s
  /// with `noReader` (the time printed under `label`); returns its error.
  static func endsTyped(
    _ waiting: Task<ReaderError?, Never>, label: String, after trigger: () throws -> Void
  ) async throws -> ReaderError {
    try await Task.sleep(for: .milliseconds(300))
    try trigger()
    let start = ContinuousClock.now
    let error = try #require(await waiting.value)
    let waited = ContinuousClock.now - start
    print("\(label) ended after \(waited) with \(error)")
    #expect(waited < .seconds(3))
    #expect(error.code == .noReader, "\(error)")
    return error
  }

  /// Starts a new pcscd in the stack's namespaces (the old one's socket and PID file removed,
  /// as its service manager would); stopped by PID by the caller.
  static func restartPCSCD(_ stack: PCSCStack) throws -> Process {
    let run = PCSCStack.directory + "/run/pcscd"
    try? FileManager.default.removeItem(atPath: run + "/pcscd.comm")
    try? FileManager.default.removeItem(atPath: run + "/pcscd.pid")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: RAMServer.nsenter)
    process.arguments = [
      "--target", "\(stack.namespace.process.processIdentifier)", "--mount", "--net", PCSCStack.pcscd, "-f",
      "-i", "-c", PCSCStack.directory + "/conf",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// pcscd killed while a wait for a change and a connection are open: the wait ends with a
  /// typed `noReader` naming the PC/SC code within a second or so, the card's next exchange
  /// too; once a new pcscd runs, a new context sees the reader and the card inserted again.
  @Test func pcscdGoingAwayEndsWaitsAndCardsTyped() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    try stack.insertType4(message: Self.oldMessage)
    let context = try PCSCContext()
    _ = try #require(try await context.waitForCard(in: PCSCStack.nfcReader, timeout: .seconds(10)))
    let card = try await context.connect(to: PCSCStack.nfcReader)
    let watcher = try PCSCContext()
    let waiting = Self.failure { () async throws(ReaderError) in
      _ = try await watcher.waitForRemoval(from: PCSCStack.nfcReader, timeout: .seconds(30))
    }
    let waitError = try await Self.endsTyped(waiting, label: "pcscd gone: the wait") {
      kill(stack.pcscdPID, SIGKILL)
    }
    #expect(waitError.transportCodeName == "SCARD_E_NO_SERVICE")
    var cardError: ReaderError?
    do { _ = try await card.transmit([0x00, 0xA4, 0x04, 0x00, 0x00]) } catch { cardError = error }
    print("pcscd gone: the card's next exchange: \(cardError.map { "\($0)" } ?? "answered")")
    #expect(cardError?.code == .noReader, "\(String(describing: cardError))")
    #expect(cardError?.transportCodeName == "SCARD_E_NO_SERVICE")
    let restarted = try Self.restartPCSCD(stack)
    defer {
      kill(restarted.processIdentifier, SIGKILL)
      restarted.waitUntilExit()
    }
    // The old context is gone with its pcscd: typed, at once.
    var oldError: ReaderError?
    do { _ = try await context.readers() } catch { oldError = error }
    print("pcscd restarted: the old context: \(oldError.map { "\($0)" } ?? "answered")")
    #expect(oldError != nil)
    try await stack.namespace.waitUntil(
      "the new pcscd did not list \(PCSCStack.nfcReader)", timeout: .seconds(20)
    ) {
      guard let fresh = try? PCSCContext(), let readers = try? await fresh.readers() else { return false }
      return readers.contains(PCSCStack.nfcReader)
    }
    try stack.insertType4(message: Self.oldMessage)
    let fresh = try PCSCContext()
    _ = try #require(try await fresh.waitForCard(in: PCSCStack.nfcReader, timeout: .seconds(10)))
    let again = try await fresh.connect(to: PCSCStack.nfcReader)
    #expect(try await again.readNDEFFile() == [0x00, UInt8(Self.oldMessage.count)] + Self.oldMessage)
    try await again.disconnect()
  }

  /// The reader unplugged (Tapwire's driver answers IFD_NO_SUCH_DEVICE from the next presence
  /// poll) while a wait for a card runs and while a card is connected: both end typed,
  /// `noReader`, within a second or so, not at the wait's timeout.
  @Test func anUnpluggedReaderEndsWaitsAndCardsTyped() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let context = try PCSCContext()
    let waiting = Self.failure { () async throws(ReaderError) in
      _ = try await context.waitForCard(in: PCSCStack.nfcReader, timeout: .seconds(30))
    }
    _ = try await Self.endsTyped(waiting, label: "reader unplugged: the wait for a card") {
      try stack.script("command", "unplug")
    }
  }
}

extension PCSCTransportTests {
  /// `tapwire read --pcsc` waiting in a reader-driven session when pcscd goes away: exit 1
  /// within the bound, the reason named (the PC/SC code), not a wait to the timeout.
  @Test func aWaitingReadEndsWhenPCSCDGoesAway() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let tree = try waitingRead()
    let child = try tree.child()
    kill(stack.pcscdPID, SIGKILL)
    let exit = try #require(tree.waitForExit(timeout: 10), "\(tree.output)")
    print(
      "read --pcsc waiting, pcscd gone: exit \(exit.status) after \(Int(exit.seconds * 1000)) ms: \(tree.output)"
    )
    #expect(exit.status == 1)
    #expect(exit.seconds < ProcessTree.exitBound)
    #expect(ProcessTree.ends(child, within: 1))
    #expect(tree.output.contains("SCARD_E_NO_SERVICE"), "\(tree.output)")
  }
}
