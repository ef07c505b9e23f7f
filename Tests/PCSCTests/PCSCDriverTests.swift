// SPDX-License-Identifier: Apache-2.0

import Foundation
import NFCReader
import NFCReaderPCSC
import PCSCControl
import Testing

/// Real pcscd loading Tapwire's own IFD handler (`libTapwireIFD.so`) with `tapwire-vcard` as
/// its card: control codes, Part 10 features, Part 3 pseudo-APDUs and reader-driven NFC
/// sessions, every control buffer checked in the driver's log. In the serialized PC/SC suite.
extension PCSCTransportTests {
  static let ndefMessage: [UInt8] = [0xD1, 0x01, 0x08, 0x55, 0x01, 0x6E, 0x66, 0x63, 0x2E, 0x63, 0x6F, 0x6D]
  static let messages = SessionMessages(
    waiting: "Hold your card", working: "Reading…", success: "Done", failure: "Try again")

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.isEmpty ? "-" : bytes.map { String(format: "%02x", $0) }.joined()
  }

  /// The log line the driver writes for one control call.
  static func line(_ code: ControlCode, _ input: [UInt8], rc: Int = 0, _ output: [UInt8] = []) -> String {
    String(format: "control %08x in ", code.rawValue) + hex(input) + " -> \(rc) out " + hex(output)
  }

  /// The driver's log without the stop-reason queries a waiting session makes.
  static func withoutReasonQueries(_ log: [String]) -> [String] {
    log.filter {
      !$0.hasPrefix(
        String(format: "control %08x ", NFCControlCodes.tapwireDefaults.lastNFCStopReason.rawValue))
    }
  }

  @Test func driverAnswersEveryControlCode() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let context = try PCSCContext()
    let reader = try await context.connect(to: PCSCStack.nfcReader, share: .direct, protocols: [])

    let features = try await reader.features()
    #expect(features.entries.map(\.feature) == [.getTLVProperties, .ifdPINProperties, .ccidEscapeCommand])
    #expect(features.entries.map(\.controlCode.rawValue) == [0x4233_0012, 0x4233_000A, 0x4200_0001])
    let properties = try #require(try await reader.tlvProperties(features: features))
    #expect(properties[.firmwareID]?.value == Array("Tapwire".utf8))
    #expect(properties[.maxAPDUDataSize]?.integer == 261)
    #expect(properties[.vendorID]?.integer == 0x072F)
    #expect(properties[.productID]?.integer == 0x2223)
    #expect(properties[.minPINSize]?.integer == 4)
    let pinCode = try #require(features.controlCode(for: .ifdPINProperties))
    let pin = try PINProperties(parsing: try await reader.control(pinCode))
    #expect(pin == PINProperties(lcdLayout: 0, entryValidationCondition: 2, timeOut2: 0))

    let escape = try #require(features.controlCode(for: .ccidEscapeCommand))
    let firmware = try await reader.control(escape, ACSEscapeCommand.getFirmwareVersion)
    #expect(firmware == [0xE1, 0, 0, 0, 7] + Array("Tapwire".utf8))
    #expect(
      try await reader.control(escape, ACSEscapeCommand.ledControl(red: true, green: false)) == [
        0xE1, 0, 0, 0, 1, 1,
      ])
    #expect(
      try await reader.control(escape, ACSEscapeCommand.buzzer(milliseconds: 200)) == [0xE1, 0, 0, 0, 1, 20])

    let codes = NFCControlCodes.tapwireDefaults
    let start = try NFCStartMessages(waiting: "Wait", working: "Work").encodedBytes()
    #expect(try await reader.control(codes.startNFC, start) == [])
    #expect(try NFCStopReason(parsing: try await reader.control(codes.lastNFCStopReason)) == .noError)
    let stop = try NFCStopMessage("Bye").encodedBytes()
    #expect(try await reader.control(codes.stopNFC, stop) == [])
    #expect(try NFCStopReason(parsing: try await reader.control(codes.lastNFCStopReason)) == .finished)
    #expect(try await reader.control(codes.nfcCooldown) == [0])

    // A code the driver does not know, a malformed START buffer and an unknown escape: typed errors.
    await #expect {
      _ = try await reader.control(ControlCode.pcscLite(3999), [1, 2])
    } throws: { error in
      let error = error as? ReaderError
      return error?.code == .unsupportedFeature && error?.transportCodeName == "SCARD_E_UNSUPPORTED_FEATURE"
    }
    await #expect {
      _ = try await reader.control(codes.startNFC, Array("no terminator".utf8))
    } throws: { error in
      (error as? ReaderError)?.transportCodeName == "SCARD_E_NOT_TRANSACTED"
    }
    await #expect {
      _ = try await reader.control(escape, [0xE0, 0x00, 0x00, 0x77, 0x00])
    } throws: { error in
      (error as? ReaderError)?.transportCodeName == "SCARD_E_UNSUPPORTED_FEATURE"
    }
    try await reader.disconnect()

    #expect(
      stack.controlLog() == [
        Self.line(.getFeatureRequest, [], features.encodedBytes()),
        Self.line(.init(rawValue: 0x4233_0012), [], try properties.encodedBytes()),
        Self.line(pinCode, [], pin.encodedBytes()),
        Self.line(escape, ACSEscapeCommand.getFirmwareVersion, firmware),
        Self.line(escape, ACSEscapeCommand.ledControl(red: true, green: false), [0xE1, 0, 0, 0, 1, 1]),
        Self.line(escape, ACSEscapeCommand.buzzer(milliseconds: 200), [0xE1, 0, 0, 0, 1, 20]),
        Self.line(codes.startNFC, Array("Wait".utf8) + [0] + Array("Work".utf8) + [0, 0]),
        Self.line(codes.lastNFCStopReason, [], [4]),
        Self.line(codes.stopNFC, Array("Bye".utf8)),
        Self.line(codes.lastNFCStopReason, [], [0]),
        Self.line(codes.nfcCooldown, [], [0]),
        Self.line(.pcscLite(3999), [1, 2], rc: 614),
        Self.line(codes.startNFC, Array("no terminator".utf8), rc: 612),
        Self.line(escape, [0xE0, 0x00, 0x00, 0x77, 0x00], rc: 614),
      ])
  }

  @Test func uidAndHistoricalBytesPseudoAPDUs() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let context = try PCSCContext()
    try stack.insertGlobalPlatform()
    _ = try #require(try await context.waitForCard(in: PCSCStack.nfcReader, timeout: .seconds(60)))
    let card = try await context.connect(to: PCSCStack.nfcReader)
    #expect(try await card.atr() == Self.jcopATR)
    let uid: [UInt8] = [0x04, 0xA2, 0x2B, 0x92, 0xC1, 0x5E, 0x80]
    #expect(try await card.getData(.uid) == .complete(uid))
    #expect(try await card.getData(.uid, expectedLength: 10) == .shorterThanRequested(uid))
    #expect(try await card.getData(.uid, expectedLength: 4) == .wrongLength(available: 7))
    #expect(try await card.getData(.historicalBytes) == .complete(Array("JCOPv241".utf8)))
    #expect(try await card.getData(.init(rawValue: 0x05)) == .notSupported)
    // Ordinary APDUs still reach the card.
    #expect(
      try await card.transmit([0x00, 0xA4, 0x04, 0x00, 0x08, 0xA0, 0, 0, 0x01, 0x51, 0, 0, 0, 0x00]).first
        == 0x61)
    try await card.disconnect()

    // A Type 4 tag (ATR without historical bytes) with another UID.
    try stack.script("uid", "0801020304")
    #expect(try stack.send("remove") == "removed")
    _ = try #require(try await context.waitForRemoval(from: PCSCStack.nfcReader, timeout: .seconds(60)))
    try stack.insertType4(message: Self.ndefMessage)
    _ = try #require(try await context.waitForCard(in: PCSCStack.nfcReader, timeout: .seconds(60)))
    let tag = try await context.connect(to: PCSCStack.nfcReader)
    #expect(try await tag.getData(.uid) == .complete([0x08, 0x01, 0x02, 0x03, 0x04]))
    #expect(try await tag.getData(.historicalBytes) == .notSupported)
    #expect(try await tag.readNDEF()?.encodedBytes() == Self.ndefMessage)
    try await tag.disconnect()
  }

  /// A reader session over `PCSCReaderTransport` reading the NDEF message.
  typealias NDEFSession = ReaderSession<PCSCReaderTransport, [UInt8]>

  /// Runs a reader-driven session reading the NDEF message; returns its events.
  static func session(
    _ context: PCSCContext, timeout: Duration = .seconds(30),
    discovery: PCSCReaderTransport.Discovery = .automatic,
    reader: String = PCSCStack.nfcReader,
    whileWaiting: (NDEFSession) async throws -> Void = { _ in }
  ) async throws -> (NDEFSession, [SessionEvent<PCSCTag, [UInt8]>]) {
    let configuration = SessionConfiguration(timeout: timeout, messages: messages)
    let transport = PCSCReaderTransport(context: context, reader: reader, discovery: discovery)
    let session = NDEFSession(transport: transport, configuration: configuration) {
      (_, tag) throws(ReaderError) in
      guard let card = tag.card else { throw ReaderError(.sessionEnded, "no card") }
      do throws(PCSCNDEFError) {
        return try await card.readNDEFFile()
      } catch {
        throw ReaderError(.tagError, "\(error)")
      }
    }
    var events: [SessionEvent<PCSCTag, [UInt8]>] = []
    let stream = try session.begin()
    for await event in stream {
      events.append(event)
      if case .began = event { try await whileWaiting(session) }
    }
    return (session, events)
  }

  static func endMessage(_ events: [SessionEvent<PCSCTag, [UInt8]>]) -> String?? {
    if case .ended(_, let message) = events.last { return .some(message) }
    return nil
  }

  static var startLine: String {
    line(
      NFCControlCodes.tapwireDefaults.startNFC,
      Array("Hold your card".utf8) + [0] + Array("Reading…".utf8) + [0, 0])
  }

  @Test func readerDrivenSessionEndsWithTheFirstTagRead() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let context = try PCSCContext()
    let (session, events) = try await Self.session(context) { _ in
      try await Task.sleep(for: .milliseconds(600))
      try stack.insertType4(message: Self.ndefMessage)
    }
    #expect(session.ending == .firstTagRead)
    #expect(session.claimedReader?.isReaderDriven == true)
    guard case .began(let waiting) = events.first else { Issue.record("no began: \(events)"); return }
    #expect(waiting == "Hold your card")
    let detected = events.compactMap {
      if case .tagDetected(let tag, let message) = $0 { (tag, message) } else { nil }
    }
    #expect(detected.first?.0.uid == [0x04, 0xA2, 0x2B, 0x92, 0xC1, 0x5E, 0x80])
    #expect(detected.first?.1 == "Reading…")
    let reads = events.compactMap { if case .tagRead(_, let bytes) = $0 { bytes } else { nil } }
    #expect(reads.first?.suffix(Self.ndefMessage.count) == ArraySlice(Self.ndefMessage))
    #expect(Self.endMessage(events) == .some("Done"))
    let log = stack.controlLog()
    #expect(
      Self.withoutReasonQueries(log) == [
        Self.startLine, Self.line(NFCControlCodes.tapwireDefaults.stopNFC, Array("Done".utf8)),
      ])
    #expect(log.contains(Self.line(NFCControlCodes.tapwireDefaults.lastNFCStopReason, [], [4])))
  }

  @Test func readerDrivenSessionCancelledByTheUser() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    try stack.script("behaviour", "cancel 1")
    let context = try PCSCContext()
    let (session, events) = try await Self.session(context)
    #expect(session.ending == .cancelled)
    #expect(Self.endMessage(events) == .some("Done"))
    let log = stack.controlLog()
    // The reader stopped itself: no STOP buffer, the last reason query answered 03.
    #expect(Self.withoutReasonQueries(log) == [Self.startLine])
    #expect(log.last == Self.line(NFCControlCodes.tapwireDefaults.lastNFCStopReason, [], [3]))
  }

  @Test func readerDrivenSessionHitsThePlatformTimeout() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    try stack.script("behaviour", "timeout 1")
    let context = try PCSCContext()
    let (session, events) = try await Self.session(context)
    guard case .timedOut(let after) = session.ending else {
      Issue.record("ending \(String(describing: session.ending))"); return
    }
    #expect(after >= .seconds(1) && after < .seconds(30))
    #expect(Self.endMessage(events) == .some("Try again"))
    let log = stack.controlLog()
    #expect(Self.withoutReasonQueries(log) == [Self.startLine])
    #expect(log.last == Self.line(NFCControlCodes.tapwireDefaults.lastNFCStopReason, [], [2]))
  }

  @Test func readerDrivenSessionStopsWithAnErrorWhenTheReadFails() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    try stack.insertGlobalPlatform()
    let context = try PCSCContext()
    let (session, events) = try await Self.session(context)
    guard case .terminatedUnexpectedly(let error) = session.ending else {
      Issue.record("ending \(String(describing: session.ending))")
      return
    }
    #expect(error.code == .tagError)
    #expect(events.contains { if case .readFailed(_, _, "Try again") = $0 { true } else { false } })
    #expect(Self.endMessage(events) == .some("Try again"))
    #expect(
      Self.withoutReasonQueries(stack.controlLog()) == [
        Self.startLine, Self.line(NFCControlCodes.tapwireDefaults.stopNFCWithError, Array("Try again".utf8)),
      ])
  }

  @Test func readerDrivenSessionEndsWhenTheReaderGoesAway() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    try stack.script("behaviour", "unplug 1")
    let context = try PCSCContext()
    let (session, _) = try await Self.session(context)
    guard case .terminatedUnexpectedly = session.ending else {
      Issue.record("ending \(String(describing: session.ending))")
      return
    }
    #expect(Self.withoutReasonQueries(stack.controlLog()).first == Self.startLine)
    #expect(
      !stack.controlLog().contains {
        $0.contains(String(format: "%08x", NFCControlCodes.tapwireDefaults.stopNFC.rawValue))
      })
  }

  @Test func readerDrivenSessionCancelledByTheCallerAndTimedOut() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let context = try PCSCContext()
    let (cancelled, events) = try await Self.session(context) { session in
      try await Task.sleep(for: .milliseconds(500))
      session.cancel(message: "Stopped")
    }
    #expect(cancelled.ending == .cancelled)
    #expect(Self.endMessage(events) == .some("Stopped"))
    let (timedOut, _) = try await Self.session(context, timeout: .seconds(1))
    #expect(timedOut.ending == .timedOut(.seconds(1)))
    let codes = NFCControlCodes.tapwireDefaults
    #expect(
      Self.withoutReasonQueries(stack.controlLog()) == [
        Self.startLine, Self.line(codes.stopNFC, Array("Stopped".utf8)),
        Self.startLine, Self.line(codes.stopNFCWithError, Array("Try again".utf8)),
      ])
  }

  @Test func readersWithoutTheCodesGetTheSameSessionFromStatusChanges() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let (session, events) = try await Self.session(context, reader: PCSCStack.reader) { _ in
      try stack.insertType4(message: Self.ndefMessage)
    }
    #expect(session.ending == .firstTagRead)
    #expect(session.claimedReader?.isReaderDriven == false)
    #expect(events.contains { if case .tagRead = $0 { true } else { false } })
    let (timedOut, _) = try await Self.session(context, timeout: .seconds(1), reader: PCSCStack.secondReader)
    #expect(timedOut.ending == .timedOut(.seconds(1)))
    // A reader that cannot be claimed: system busy, with the PC/SC error.
    let (busy, busyEvents) = try await Self.session(context, reader: "No Such Reader 00 00")
    guard case .systemBusy(let error) = busy.ending else {
      Issue.record("ending \(String(describing: busy.ending))")
      return
    }
    #expect(error.transportCodeName == "SCARD_E_UNKNOWN_READER")
    #expect(busyEvents.count == 1)
    #expect(Self.endMessage(busyEvents) == .some("Try again"))
    #expect(throws: ReaderError.self) { _ = try busy.begin() }
  }

  /// Two sessions on one reader: the second waits in the device queue (one START_NFC at a
  /// time), and begins once the first has sent its STOP.
  @Test func twoSessionsOnOneReaderTakeTurns() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let context = try PCSCContext()
    let transport = PCSCReaderTransport(context: context, reader: PCSCStack.nfcReader)
    let configuration = SessionConfiguration(timeout: .seconds(1), messages: Self.messages)
    let first = NDEFSession(transport: transport, configuration: configuration) {
      (_, _) throws(ReaderError) in []
    }
    let second = NDEFSession(transport: transport, configuration: configuration) {
      (_, _) throws(ReaderError) in []
    }
    let firstEvents = try first.begin()
    // The first session holds the reader before the second asks for it.
    var firstIterator = firstEvents.makeAsyncIterator()
    guard case .began? = await firstIterator.next() else {
      Issue.record("the first session did not begin")
      return
    }
    var secondLog: [String] = []
    for await event in try second.begin() {
      switch event {
      case .queued(let position): secondLog.append("queued \(position)")
      case .began: secondLog.append(first.ending == nil ? "began while the first runs" : "began")
      case .ended(let ending, _): secondLog.append("ended \(ending.name)")
      default: break
      }
    }
    #expect(secondLog == ["queued 1", "began", "ended timedOut"])
    #expect(first.ending == .timedOut(.seconds(1)))
    let codes = NFCControlCodes.tapwireDefaults
    #expect(
      Self.withoutReasonQueries(stack.controlLog()) == [
        Self.startLine, Self.line(codes.stopNFCWithError, Array("Try again".utf8)),
        Self.startLine, Self.line(codes.stopNFCWithError, Array("Try again".utf8)),
      ])
  }
}
