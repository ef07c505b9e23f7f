// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISO7816
import NDEF
import NFCReader
import NFCReaderPCSC
import NFCTags
import Testing

/// Fails when CI asked for the PC/SC tests (`TAPWIRE_REQUIRE_PCSC=1`) but they would be
/// skipped, so a missing package cannot pass silently.
@Suite("PC/SC availability")
struct PCSCAvailabilityTests {
  @Test func theStackRunsWhenRequired() {
    if PCSCStack.isRequired {
      #expect(
        PCSCStack.unavailableReason == nil,
        "PC/SC tests required but skipped: \(PCSCStack.unavailableReason ?? "")")
    } else if let reason = PCSCStack.unavailableReason {
      print("note: the PC/SC tests are skipped here: \(reason)")
    }
  }
}

/// The real pcsc-lite client library against pcscd with vpcd and `tapwire-vcard`. Serialized:
/// every test uses this process's one socket path and vpcd port.
@Suite(
  "PC/SC with pcscd and a virtual card", .serialized, .timeLimit(.minutes(3)),
  .enabled(if: PCSCStack.isAvailable, "needs root, pcscd, vsmartcard-vpcd and iproute2"))
struct PCSCTransportTests {
  static let jcopATR: [UInt8] = [
    0x3B, 0xF8, 0x13, 0x00, 0x00, 0x81, 0x31, 0xFE, 0x45, 0x4A, 0x43, 0x4F, 0x50, 0x76, 0x32, 0x34, 0x31,
    0xB7,
  ]

  @Test func readerListAndInsertionRemovalEvents() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let readers = try await context.readers()
    #expect(readers == [PCSCStack.reader, PCSCStack.secondReader])

    let empty = try await context.state(of: PCSCStack.reader)
    #expect(empty.flags.contains(.empty))
    #expect(!empty.isCardPresent)
    #expect(empty.atr.isEmpty)

    try stack.insertGlobalPlatform()
    let inserted = try #require(try await context.waitForCard(in: PCSCStack.reader, timeout: .seconds(60)))
    #expect(inserted.isCardPresent)
    #expect(inserted.atr == Self.jcopATR)
    #expect(inserted.flags.eventCount > empty.flags.eventCount)
    let atr = try AnswerToReset(parsing: inserted.atr)
    #expect(atr.protocols == [1])
    #expect(String(decoding: atr.historicalBytes, as: UTF8.self) == "JCOPv241")

    #expect(try stack.send("remove") == "removed")
    let removed = try #require(
      try await context.waitForRemoval(from: PCSCStack.reader, timeout: .seconds(60)))
    #expect(removed.flags.contains(.empty))
    #expect(removed.flags.eventCount > inserted.flags.eventCount)

    // Nothing comes: the wait ends with nil at its timeout, not an error.
    let none = try await context.waitForCard(in: PCSCStack.reader, timeout: .milliseconds(300))
    #expect(none == nil)
    // An unknown reader is a typed error with its PC/SC name.
    await #expect {
      _ = try await context.state(of: "No Such Reader 00 00")
    } throws: { error in
      (error as? ReaderError)?.transportCodeName == "SCARD_E_UNKNOWN_READER"
    }
  }

  @Test func connectModesATRAndDisconnect() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    // No card yet: connecting is a typed error.
    await #expect {
      _ = try await context.connect(to: PCSCStack.reader)
    } throws: { error in
      (error as? ReaderError)?.transportCodeName == "SCARD_E_NO_SMARTCARD"
    }
    try stack.insertGlobalPlatform()
    _ = try #require(try await context.waitForCard(in: PCSCStack.reader, timeout: .seconds(60)))

    let card = try await context.connect(to: PCSCStack.reader, share: .exclusive)
    #expect(card.activeProtocol == .t1)
    #expect(try await card.atr() == Self.jcopATR)
    // A second client cannot share an exclusively held card.
    let other = try PCSCContext()
    await #expect {
      _ = try await other.connect(to: PCSCStack.reader, share: .shared)
    } throws: { error in
      guard let error = error as? ReaderError else { return false }
      return error.code == .deviceBusy && error.transportCodeName == "SCARD_E_SHARING_VIOLATION"
    }
    try await card.disconnect(.reset)
    await #expect {
      _ = try await card.atr()
    } throws: { error in
      (error as? ReaderError)?.code == .sessionEnded
    }

    // Shared twice is fine; direct mode reaches the reader.
    let first = try await context.connect(to: PCSCStack.reader)
    let second = try await other.connect(to: PCSCStack.reader)
    #expect(
      try await first.transmit([0x00, 0xA4, 0x04, 0x00, 0x05, 0xA0, 0x00, 0x00, 0x01, 0x51]) == [0x61, 0x09])
    #expect(try await second.atr() == Self.jcopATR)
    try await first.disconnect()
    try await second.disconnect()
    let direct = try await context.connect(to: PCSCStack.reader, share: .direct, protocols: [])
    // vpcd has no control codes: the answer is a typed PC/SC error, not a crash.
    await #expect {
      _ = try await direct.control(PCSCCard.controlCode(3500), [0x01])
    } throws: { error in
      (error as? ReaderError)?.transportCodeName?.hasPrefix("SCARD_") == true
    }
    try await direct.disconnect()
  }

  @Test func type4NDEFRead() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let message = NDEFMessage(records: [
      NDEFRecord(
        typeNameFormat: .wellKnown, type: Array("U".utf8), payload: [0x04] + Array("example.com/pcsc".utf8))
    ])
    let bytes = try message.encodedBytes()
    try stack.insertType4(message: bytes)
    let context = try PCSCContext()
    let state = try #require(try await context.waitForCard(in: PCSCStack.reader, timeout: .seconds(60)))
    #expect(state.atr == [0x3B, 0x80, 0x80, 0x01, 0x01])
    let card = try await context.connect(to: PCSCStack.reader)
    let read = try await card.readNDEF()
    #expect(read == message)
    let file = try await card.readNDEFFile()
    #expect(file == [0x00, UInt8(bytes.count)] + bytes)
    try await card.disconnect()
  }

  static let script = """
    # select (61XX, then GET RESPONSE for the FCI)
    00A4040008A000000151000000 -> 6F0A8408A000000151000000 9000
    # 300 bytes through GET RESPONSE rounds
    80CA00FE00 -> 61XX|9000
    # explicitly chained LOAD: two blocks, then the summary (blocks, length, XOR)
    90E8000003010203 -> 9000
    80E8800002AABB -> 02000511 9000
    # install: 4 bytes, one block
    80E60C0004C1C2C3C4 -> 01000404 9000
    """

  @Test func multiRoundScriptWithGetResponseAndChaining() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    try stack.insertGlobalPlatform()
    let context = try PCSCContext()
    _ = try #require(try await context.waitForCard(in: PCSCStack.reader, timeout: .seconds(60)))
    let card = try await context.connect(to: PCSCStack.reader)
    var runner = ScriptRunner(transport: PCSCAPDUTransport(card: card))
    var seen: [Int] = []
    let result = try await runner.run(try Script(parsingText: Self.script)) { seen.append($0.completedSteps) }
    #expect(result.failure == nil)
    #expect(result.responses.count == 5)
    #expect(seen == [1, 2, 3, 4, 5])
    #expect(result.responses[1].data == (0..<300).map { UInt8(truncatingIfNeeded: $0) })
    // 1 SELECT + 1 GET RESPONSE, 1 GET DATA + 2 GET RESPONSE (256 + 44), 1 + 1 + 1 LOAD and
    // its GET RESPONSE, 1 INSTALL + 1 GET RESPONSE.
    var exchanger = APDUExchanger(transport: PCSCAPDUTransport(card: card))
    // A 300-byte command is chained by the exchanger itself (CLA bit 0x10 on the first block).
    let load = CommandAPDU(
      cla: .globalPlatform, ins: Instruction(rawValue: 0xE8), p1: 0x80, p2: 0x00,
      data: Array(repeating: 0x5A, count: 300))
    let response = try await exchanger.send(load)
    #expect(response.data == [0x02, 0x01, 0x2C, 0x00])
    #expect(response.statusWord == .success)
    #expect(exchanger.transmissionCount == 3)
    try await card.disconnect()
  }

  @Test func cardRemovedMidScript() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    // The card answers 4 APDUs: SELECT, its GET RESPONSE, GET DATA and one GET RESPONSE,
    // then leaves while step 2 is still collecting its 300 bytes.
    try stack.insertGlobalPlatform(leavingAfter: 4)
    let context = try PCSCContext()
    _ = try #require(try await context.waitForCard(in: PCSCStack.reader, timeout: .seconds(60)))
    let card = try await context.connect(to: PCSCStack.reader)
    var runner = ScriptRunner(transport: PCSCAPDUTransport(card: card))
    var done: [Int] = []
    await #expect {
      _ = try await runner.run(try Script(parsingText: Self.script)) { done.append($0.completedSteps) }
    } throws: { error in
      guard case .transport(let failure) = error as? APDUExchangeError<ReaderError> else { return false }
      print("removal mid-script: \(failure)")
      return failure.code == .tagLost && failure.transportCodeName?.hasPrefix("SCARD_") == true
    }
    // Step 1 is done, step 2 (index 1) is the one that failed; nothing later is reported.
    #expect(done == [1])
    #expect(runner.lastResult.executedCount == 1)
    #expect(runner.lastResult.responses.first?.statusWord == .success)
    #expect(try stack.line(timeout: .seconds(30)) == "left after 4 APDUs")
  }
}
