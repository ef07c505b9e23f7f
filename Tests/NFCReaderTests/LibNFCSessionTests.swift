// SPDX-License-Identifier: Apache-2.0
import NFCReader
import NFCReaderLibNFC
import PN532Simulator
import Synchronization
import Testing

/// Reader sessions over the real libnfc adapter and the simulator.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LibNFCSessionTests {
  typealias MemorySession = ReaderSession<LibNFCTransport, [UInt8]>

  static let messages = SessionMessages(
    waiting: "Hold a tag near the reader", working: "Reading…", success: "Done", failure: "Try again")

  static func memorySession(_ simulator: PN532Simulator, _ configuration: SessionConfiguration)
    -> MemorySession
  {
    MemorySession(transport: LibNFCTransport(connstring: simulator.connstring), configuration: configuration)
    {
      (reader, tag) throws(ReaderError) in try await reader.readMemory(of: tag)
    }
  }

  @Test func endsAfterTheFirstReadWithMessages() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let escaped = Shared<LibNFCReader?>(nil)
    let session = MemorySession(
      transport: LibNFCTransport(connstring: simulator.connstring),
      configuration: SessionConfiguration(timeout: .seconds(10), messages: Self.messages)
    ) { (reader, tag) throws(ReaderError) in
      escaped.update { $0 = reader }
      return try await reader.readMemory(of: tag)
    }
    let events = await collect(try session.begin())
    #expect(names(events) == ["began", "tagDetected", "tagRead", "ended:firstTagRead"])
    guard case .began(let waiting) = events[0], case .tagDetected(let tag, let working) = events[1],
      case .tagRead(_, let memory) = events[2], case .ended(_, let final) = events[3]
    else {
      Issue.record("unexpected events \(names(events))")
      return
    }
    #expect(waiting == "Hold a tag near the reader")
    #expect(working == "Reading…")
    #expect(final == "Done")
    #expect(tag.uid == Fixture.uid)
    #expect(memory == Fixture.memory(simulator))
    #expect(session.ending == .firstTagRead)
    #expect(await session.ended() == .firstTagRead)
    #expect(ReaderSessions.lastEnding(deviceKey: "libnfc:" + simulator.connstring) == .firstTagRead)
    // Nothing from the ended session stays usable.
    let reader = try #require(escaped.value)
    let stale = await #expect(throws: ReaderError.self) { try await reader.readPages(startingAt: 0, of: tag) }
    #expect(stale?.code == .sessionEnded)
    // Single use.
    let again = #expect(throws: ReaderError.self) { _ = try session.begin() }
    #expect(again?.code == .sessionAlreadyStarted)
  }

  @Test func cancelEndsWithCancelledAndTheCallerMessage() async throws {
    let simulator = try PN532Simulator()
    defer { simulator.close() }
    let session = Self.memorySession(
      simulator, SessionConfiguration(timeout: .seconds(20), messages: Self.messages))
    let clock = ContinuousClock()
    let start = clock.now
    var seen: [String] = []
    var final: String?? = nil
    for await event in try session.begin() {
      switch event {
      case .began: session.cancel(message: "Stopped by you")
      case .ended(_, let message): final = message
      default: break
      }
      seen.append(names([event])[0])
    }
    #expect(seen == ["began", "ended:cancelled"])
    #expect(final == "Stopped by you")
    #expect(clock.now - start < .seconds(5))
    #expect(session.ending == .cancelled)
  }

  @Test func cancellingAbortsABlockingCall() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let exchangesBeforeRead = Shared<Int?>(nil)
    let session = MemorySession(
      transport: LibNFCTransport(connstring: simulator.connstring, exchangeTimeout: .seconds(8)),
      configuration: SessionConfiguration(timeout: .seconds(20))
    ) { (reader, tag) throws(ReaderError) in
      simulator.inject(.noAnswer(count: 1))
      // The READ below is the next InDataExchange (40): the one the tag will not answer.
      exchangesBeforeRead.update { $0 = simulator.receivedCount(of: 0x40) }
      return try await reader.readPages(startingAt: 4, of: tag)
    }
    let clock = ContinuousClock()
    var start = clock.now
    for await event in try session.begin() {
      if case .tagDetected = event {
        start = clock.now
        // Cancel once that READ has arrived: the reader is then inside its 8-second wait.
        Task {
          #expect(await waitUntil { exchangesBeforeRead.value != nil })
          let before = exchangesBeforeRead.value ?? 0
          #expect(await simulator.waitUntilReceived(0x40, count: before + 1))
          session.cancel()
        }
      }
    }
    // nfc_abort_command ended the 8-second wait early.
    #expect(session.ending == .cancelled)
    #expect(clock.now - start < .seconds(3))
    #expect(simulator.receivedCommands.last != 0x40)  // the reader went on (closing) after the abort
  }

  @Test func timesOutWithTheConfiguredTimeout() async throws {
    let simulator = try PN532Simulator()
    defer { simulator.close() }
    let session = Self.memorySession(
      simulator, SessionConfiguration(timeout: .milliseconds(300), messages: Self.messages))
    let clock = ContinuousClock()
    let start = clock.now
    let events = await collect(try session.begin())
    let elapsed = clock.now - start
    #expect(names(events) == ["began", "ended:timedOut"])
    #expect(endingOf(events) == .timedOut(.milliseconds(300)))
    if case .ended(_, let message)? = events.last { #expect(message == "Try again") }
    #expect(elapsed >= .milliseconds(300))
    #expect(elapsed < .seconds(5))
    #expect(SessionConfiguration().timeout == .seconds(60))
    #expect(SessionConfiguration.defaultTimeout == .seconds(60))
  }

  @Test func theTimeoutEndsTheSessionEvenDuringABlockingCall() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let session = MemorySession(
      transport: LibNFCTransport(connstring: simulator.connstring, exchangeTimeout: .seconds(8)),
      configuration: SessionConfiguration(timeout: .milliseconds(500))
    ) { (reader, tag) throws(ReaderError) in
      simulator.inject(.noAnswer(count: 1))
      return try await reader.readPages(startingAt: 4, of: tag)
    }
    let clock = ContinuousClock()
    let start = clock.now
    let events = await collect(try session.begin())
    #expect(names(events) == ["began", "tagDetected", "ended:timedOut"])
    #expect(endingOf(events) == .timedOut(.milliseconds(500)))
    #expect(clock.now - start < .seconds(4))
  }

  @Test func simulatorClosingTerminatesTheSessionUnexpectedly() async throws {
    let simulator = try PN532Simulator()
    let session = Self.memorySession(simulator, SessionConfiguration(timeout: .seconds(20)))
    var ending: SessionEnding?
    for await event in try session.begin() {
      if case .began = event { simulator.close() }
      if case .ended(let e, _) = event { ending = e }
    }
    guard case .terminatedUnexpectedly(let error)? = ending else {
      Issue.record("ended with \(String(describing: ending))")
      return
    }
    #expect(error.code == .deviceFailure)
    #expect(error.transportCodeName == "NFC_EIO")
  }

  @Test func aDeviceInUseEndsWithSystemBusy() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2())
    defer { simulator.close() }
    let holder = try await LibNFCReader.open(connstring: simulator.connstring)
    // Present (held by this process), so available; but a session cannot claim it.
    try await LibNFCTransport(connstring: simulator.connstring).checkAvailability()
    #expect(LibNFCReader.isOpenInThisProcess(connstring: simulator.connstring))
    let session = Self.memorySession(
      simulator, SessionConfiguration(timeout: .seconds(5), messages: Self.messages))
    let events = await collect(try session.begin())
    await holder.close()
    #expect(names(events) == ["ended:systemBusy"])
    guard case .systemBusy(let error)? = endingOf(events) else {
      Issue.record("ended with \(names(events))")
      return
    }
    #expect(error.code == .deviceBusy)
    if case .ended(_, let message)? = events.last { #expect(message == "Try again") }
  }

  @Test func aSecondSessionWaitsInTheQueue() async throws {
    let simulator = try PN532Simulator()
    defer { simulator.close() }
    let log = Shared<[String]>([])
    let first = Self.memorySession(simulator, SessionConfiguration(timeout: .seconds(10)))
    let second = Self.memorySession(simulator, SessionConfiguration(timeout: .seconds(10)))
    let firstEvents = try first.begin()
    let firstLog = Task {
      for await event in firstEvents { log.update { $0.append("first:" + names([event])[0]) } }
    }
    #expect(await waitUntil { log.value.contains("first:began") })
    // Only now start the second session: it must queue; a tag arrives once it is queued.
    let secondEvents = try second.begin()
    let tag = try Fixture.type2()
    let secondLog = Task {
      for await event in secondEvents {
        log.update { $0.append("second:" + names([event])[0]) }
        if case .queued = event { simulator.present(tag) }
      }
    }
    await firstLog.value
    await secondLog.value
    #expect(await second.ended() == .firstTagRead)
    let entries = log.value
    #expect(entries.contains("second:queued"))
    let firstEnded = try #require(entries.firstIndex(of: "first:ended:firstTagRead"))
    let secondBegan = try #require(entries.firstIndex(of: "second:began"))
    #expect(firstEnded < secondBegan)
    #expect(
      entries.filter { $0.hasPrefix("second:") } == [
        "second:queued", "second:began", "second:tagDetected", "second:tagRead", "second:ended:firstTagRead",
      ])
  }

  @Test func keepReadingReportsEachTagOnce() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let session = ReaderSession(
      transport: LibNFCTransport(connstring: simulator.connstring),
      configuration: SessionConfiguration(
        timeout: .seconds(10), mode: .keepReading, pollInterval: .milliseconds(20)))
    var read: [[UInt8]] = []
    for await event in try session.begin() {
      guard case .tagRead(let tag, _) = event else { continue }
      read.append(tag.uid)
      // Three more polls (InListPassiveTarget, 4A) with the same tag in the field, each of
      // which must not report it again; then the next tag, then three more polls.
      #expect(await simulator.waitUntilReceived(0x4A, count: simulator.receivedCount(of: 0x4A) + 3))
      if read.count == 1 {
        simulator.present(try Fixture.type2(.ntag215, uid: Fixture.otherUID))
      } else {
        session.cancel()
      }
    }
    #expect(read == [Fixture.uid, Fixture.otherUID])
    #expect(session.ending == .cancelled)
  }

  @Test func aTagLeavingMidReadIsReportedAndReadWhenItComesBack() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag216))
    defer { simulator.close() }
    // Poll + GET_VERSION are two exchanges... the tag leaves after 3 READs.
    simulator.inject(.tagLeaves(afterExchanges: 4))
    let session = Self.memorySession(
      simulator, SessionConfiguration(timeout: .seconds(10), pollInterval: .milliseconds(20)))
    var failures: [ReaderError.Code] = []
    var image: [UInt8] = []
    for await event in try session.begin() {
      switch event {
      case .readFailed(_, let error, _):
        failures.append(error.code)
        simulator.representTag()
      case .tagRead(_, let memory): image = memory
      default: break
      }
    }
    #expect(failures == [.tagLost])
    #expect(image.count == 231 * 4)
    #expect(session.ending == .firstTagRead)
  }

  @Test func droppingTheEventStreamCancelsTheSession() async throws {
    let simulator = try PN532Simulator()
    defer { simulator.close() }
    let session = Self.memorySession(simulator, SessionConfiguration(timeout: .seconds(20)))
    for await event in try session.begin() {
      if case .began = event { break }
    }
    #expect(await session.ended() == .cancelled)
  }

  @Test func writesAnNDEFMessageInOneSessionAndReadsItInTheNext() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag215))
    defer { simulator.close() }
    let transport = LibNFCTransport(connstring: simulator.connstring)
    let initial = await collect(
      try Self.memorySession(simulator, SessionConfiguration(timeout: .seconds(5))).begin())
    guard
      case .tagRead(_, let before)? = initial.first(where: { if case .tagRead = $0 { true } else { false } })
    else {
      Issue.record("no read: \(names(initial))")
      return
    }
    #expect(ndefMessage(inType2Memory: before) == Fixture.textMessage)
    // A URI record "https://example.org" (NDEF 1.0, RTD URI prefix 0x04).
    let uri: [UInt8] = [0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.org".utf8)
    let tlv: [UInt8] = [0x03, UInt8(uri.count)] + uri + [0xFE]
    let padded = tlv + [UInt8](repeating: 0, count: (4 - tlv.count % 4) % 4)
    let writer = ReaderSession<LibNFCTransport, Int>(
      transport: transport, configuration: SessionConfiguration(timeout: .seconds(5))
    ) {
      (reader, tag) throws(ReaderError) in
      var page = 4
      while (page - 4) * 4 < padded.count {
        try await reader.writePage(page, Array(padded[((page - 4) * 4)..<((page - 3) * 4)]), to: tag)
        page += 1
      }
      return page - 4
    }
    let written = await collect(try writer.begin())
    #expect(endingOf(written) == .firstTagRead)
    let reread = await collect(
      try Self.memorySession(simulator, SessionConfiguration(timeout: .seconds(5))).begin())
    guard
      case .tagRead(_, let after)? = reread.first(where: { if case .tagRead = $0 { true } else { false } })
    else {
      Issue.record("no read: \(names(reread))")
      return
    }
    #expect(ndefMessage(inType2Memory: after) == uri)
    #expect(after == Fixture.memory(simulator))
  }

  @Test func availabilityOfTheSimulator() async throws {
    let simulator = try PN532Simulator()
    defer { simulator.close() }
    try await LibNFCTransport(connstring: simulator.connstring).checkAvailability()
    #expect(LibNFCTransport(connstring: simulator.connstring).deviceKey == "libnfc:" + simulator.connstring)
  }
}
