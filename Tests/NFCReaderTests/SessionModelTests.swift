// SPDX-License-Identifier: Apache-2.0
import NFCReader
import Testing

/// A scripted transport: each poll takes the next scripted result (nil once it runs out).
struct FakeTag: DetectedTag, Hashable {
  var identifier: [UInt8]
}

/// A scripted claimed reader. Like a reader-driven PC/SC reader when asked: it can refuse
/// to start, end discovery by itself after a given poll, and hand over one tag per discovery.
final class FakeConnection: ClaimedReader {
  let script: Shared<[Result<FakeTag?, ReaderError>]>
  let closed = Shared(false)
  /// The ending and final message `close(ending:message:)` was given.
  let closedWith = Shared<(SessionEnding, String?)?>(nil)
  let startError: ReaderError?
  /// The reader's own ending, reported once `polls` reaches `afterPolls`.
  let stopByReader: (afterPolls: Int, ending: SessionEnding)?
  let polls = Shared(0)
  let endsDiscoveryWithFirstTag: Bool

  init(
    _ script: [Result<FakeTag?, ReaderError>], startError: ReaderError? = nil,
    stopByReader: (afterPolls: Int, ending: SessionEnding)? = nil, endsDiscoveryWithFirstTag: Bool = false
  ) {
    self.script = Shared(script)
    self.startError = startError
    self.stopByReader = stopByReader
    self.endsDiscoveryWithFirstTag = endsDiscoveryWithFirstTag
  }

  func startDiscovery(_ messages: SessionMessages) async throws(ReaderError) {
    if let startError { throw startError }
  }

  func poll() async throws(ReaderError) -> FakeTag? {
    polls.update { $0 += 1 }
    var next: Result<FakeTag?, ReaderError> = .success(nil)
    script.update { if !$0.isEmpty { next = $0.removeFirst() } }
    return try next.get()
  }

  var endingByReader: SessionEnding? {
    guard let stopByReader, polls.value >= stopByReader.afterPolls else { return nil }
    return stopByReader.ending
  }

  func close(ending: SessionEnding, message: String?) async {
    closed.update { $0 = true }
    closedWith.update { $0 = (ending, message) }
  }
}

struct FakeTransport: ReaderTransport {
  var deviceKey: String
  var connection: FakeConnection
  var connectError: ReaderError? = nil

  func checkAvailability() async throws(ReaderError) {
    if let connectError { throw connectError }
  }

  func claim() async throws(ReaderError) -> FakeConnection {
    if let connectError { throw connectError }
    return connection
  }
}

@Suite(.timeLimit(.minutes(1))) struct SessionModelTests {
  static let a = FakeTag(identifier: [0xAA])
  static let b = FakeTag(identifier: [0xBB])
  /// For sessions that end by a read, a cancel or a failure: the timeout only has to be longer
  /// than the few polls they make, also when parallel tests keep the cooperative pool busy for
  /// seconds (seen in CI-like runs: 5 s was not enough for three 5 ms polls).
  static let fast = SessionConfiguration(timeout: .seconds(30), pollInterval: .milliseconds(5))

  func key(_ name: String = #function) -> String { "fake:\(name):\(UInt64.random(in: 0...UInt64.max))" }

  @Test func queueIsFirstInFirstOut() async throws {
    let key = key()
    let log = Shared<[String]>([])
    var sessions: [ReaderSession<FakeTransport, FakeTag>] = []
    for _ in 0..<3 {
      let configuration = SessionConfiguration(timeout: .milliseconds(150), pollInterval: .milliseconds(5))
      sessions.append(
        ReaderSession(
          transport: FakeTransport(deviceKey: key, connection: FakeConnection([])),
          configuration: configuration))
    }
    var tasks: [Task<Void, Never>] = []
    for (index, session) in sessions.enumerated() {
      let events = try session.begin()
      tasks.append(
        Task { for await event in events { log.update { $0.append("\(index):" + names([event])[0]) } } })
      _ = await waitUntil { log.value.contains { $0.hasPrefix("\(index):") } }
    }
    for task in tasks { await task.value }
    let entries = log.value
    #expect(entries.contains("1:queued"))
    #expect(entries.contains("2:queued"))
    let order = entries.filter { $0.hasSuffix(":began") || $0.hasSuffix(":ended:timedOut") }
    #expect(
      order == ["0:began", "0:ended:timedOut", "1:began", "1:ended:timedOut", "2:began", "2:ended:timedOut"])
    #expect(ReaderSessions.lastEnding(deviceKey: key) == .timedOut(.milliseconds(150)))
  }

  @Test func queuePositionsCountWaitingSessions() async throws {
    let key = key()
    let holder = ReaderSession(
      transport: FakeTransport(deviceKey: key, connection: FakeConnection([])), configuration: Self.fast)
    let holderEvents = try holder.begin()
    var iterator = holderEvents.makeAsyncIterator()
    _ = await iterator.next()  // began
    var positions: [Int] = []
    var waiting: [ReaderSession<FakeTransport, FakeTag>] = []
    // Kept alive: dropping a stream cancels its session.
    var streams: [AsyncStream<SessionEvent<FakeTag, FakeTag>>] = []
    for _ in 0..<2 {
      let session = ReaderSession(
        transport: FakeTransport(deviceKey: key, connection: FakeConnection([])), configuration: Self.fast)
      waiting.append(session)
      let stream = try session.begin()
      streams.append(stream)
      var events = stream.makeAsyncIterator()
      if case .queued(let position)? = await events.next() { positions.append(position) }
    }
    #expect(positions == [1, 2])
    // Cancelling a queued session ends it without it ever beginning; the others go on.
    waiting[0].cancel()
    #expect(await waiting[0].ended() == .cancelled)
    holder.cancel()
    #expect(await holder.ended() == .cancelled)
    waiting[1].cancel()
    #expect(await waiting[1].ended() == .cancelled)
    #expect(streams.count == 2)
  }

  @Test func differentDevicesDoNotQueue() async throws {
    let first = ReaderSession(
      transport: FakeTransport(deviceKey: key() + "1", connection: FakeConnection([.success(Self.a)])),
      configuration: Self.fast)
    let second = ReaderSession(
      transport: FakeTransport(deviceKey: key() + "2", connection: FakeConnection([.success(Self.b)])),
      configuration: Self.fast)
    let e1 = try first.begin()
    let e2 = try second.begin()
    #expect(names(await collect(e1)) == ["began", "tagDetected", "tagRead", "ended:firstTagRead"])
    #expect(names(await collect(e2)) == ["began", "tagDetected", "tagRead", "ended:firstTagRead"])
  }

  @Test func transientPollErrorsAreSkipped() async throws {
    let connection = FakeConnection([
      .failure(ReaderError(.timeout, "t")), .failure(ReaderError(.tagLost, "l")), .success(Self.a),
    ])
    let session = ReaderSession(
      transport: FakeTransport(deviceKey: key(), connection: connection), configuration: Self.fast)
    let events = await collect(try session.begin())
    #expect(names(events) == ["began", "tagDetected", "tagRead", "ended:firstTagRead"])
    #expect(connection.closed.value)
  }

  @Test func deviceFailureTerminatesUnexpectedly() async throws {
    let failure = ReaderError(.deviceFailure, "unplugged", transportCode: -1, transportCodeName: "NFC_EIO")
    let session = ReaderSession(
      transport: FakeTransport(
        deviceKey: key(), connection: FakeConnection([.success(nil), .failure(failure)])),
      configuration: SessionConfiguration(
        timeout: .seconds(5), pollInterval: .milliseconds(5),
        messages: SessionMessages(failure: "Reader lost")))
    let events = await collect(try session.begin())
    #expect(endingOf(events) == .terminatedUnexpectedly(failure))
    if case .ended(_, let message)? = events.last { #expect(message == "Reader lost") }
  }

  @Test func connectFailureIsSystemBusy() async throws {
    let busy = ReaderError(.deviceBusy, "claimed")
    let session = ReaderSession(
      transport: FakeTransport(deviceKey: key(), connection: FakeConnection([]), connectError: busy),
      configuration: Self.fast)
    let events = await collect(try session.begin())
    #expect(names(events) == ["ended:systemBusy"])
    #expect(endingOf(events) == .systemBusy(busy))
  }

  @Test func failedReadIsReportedOnceAndTheSessionGoesOn() async throws {
    let attempts = Shared(0)
    let connection = FakeConnection([
      .success(Self.a), .success(Self.a), .success(Self.a), .success(nil), .success(Self.a),
    ])
    let session = ReaderSession<FakeTransport, Int>(
      transport: FakeTransport(deviceKey: key(), connection: connection), configuration: Self.fast
    ) {
      (_, _) throws(ReaderError) in
      var count = 0
      attempts.update {
        $0 += 1
        count = $0
      }
      if count == 1 { throw ReaderError(.tagError, "NAK") }
      return count
    }
    let events = await collect(try session.begin())
    // Reported once while it stays; read again after it left and came back.
    #expect(
      names(events) == ["began", "tagDetected", "readFailed", "tagDetected", "tagRead", "ended:firstTagRead"])
    if case .tagRead(_, let count) = events[4] { #expect(count == 2) }
  }

  @Test func deviceFailureDuringAReadTerminates() async throws {
    let session = ReaderSession<FakeTransport, Int>(
      transport: FakeTransport(deviceKey: key(), connection: FakeConnection([.success(Self.a)])),
      configuration: Self.fast
    ) { (_, _) throws(ReaderError) in throw ReaderError(.deviceFailure, "gone") }
    let events = await collect(try session.begin())
    #expect(names(events) == ["began", "tagDetected", "ended:terminatedUnexpectedly"])
  }

  @Test func keepReadingReportsEachTagOnceUntilCancelled() async throws {
    let script: [Result<FakeTag?, ReaderError>] = [
      .success(Self.a), .success(Self.a), .success(Self.b), .success(Self.b), .success(nil), .success(Self.b),
    ]
    let session = ReaderSession(
      transport: FakeTransport(deviceKey: key(), connection: FakeConnection(script)),
      configuration: SessionConfiguration(
        timeout: .seconds(30), mode: .keepReading, pollInterval: .milliseconds(5)))
    // The third read comes from the script's last poll: cancel then, so the outcome does not
    // depend on how many polls fit into a timeout on a busy machine.
    var events: [SessionEvent<FakeTag, FakeTag>] = []
    for await event in try session.begin() {
      events.append(event)
      if events.filter({ if case .tagRead = $0 { true } else { false } }).count == 3 { session.cancel() }
    }
    let read: [[UInt8]] = events.compactMap {
      if case .tagRead(let tag, _) = $0 { tag.identifier } else { nil }
    }
    #expect(read == [[0xAA], [0xBB], [0xBB]])
    #expect(endingOf(events) == .cancelled)
  }

  @Test func keepReadingEndsAtTheTimeout() async throws {
    let session = ReaderSession(
      transport: FakeTransport(deviceKey: key(), connection: FakeConnection([.success(Self.a)])),
      configuration: SessionConfiguration(
        timeout: .milliseconds(200), mode: .keepReading, pollInterval: .milliseconds(5)))
    let events = await collect(try session.begin())
    #expect(names(events).filter { $0 == "tagRead" }.count <= 1)
    #expect(endingOf(events) == .timedOut(.milliseconds(200)))
  }

  @Test func cancelBeforeTheDeviceIsClaimed() async throws {
    let session = ReaderSession(
      transport: FakeTransport(deviceKey: key(), connection: FakeConnection([])), configuration: Self.fast)
    session.cancel()
    let events = await collect(try session.begin())
    #expect(names(events) == ["ended:cancelled"])
  }

  static let messages = SessionMessages(
    waiting: "Hold", working: "Reading", success: "Done", failure: "Failed")

  /// The claimed reader hears the ending and the final message before the session reports
  /// them: success after a read, failure at the timeout, the cancel message after a cancel.
  @Test func theReaderIsClosedWithTheEndingAndItsFinalMessage() async throws {
    let read = FakeConnection([.success(nil), .success(Self.a)])
    var configuration = Self.fast
    configuration.messages = Self.messages
    var events = await collect(
      try ReaderSession(
        transport: FakeTransport(deviceKey: key(), connection: read), configuration: configuration
      )
      .begin())
    #expect(endingOf(events) == .firstTagRead)
    #expect(read.closedWith.value?.0 == .firstTagRead)
    #expect(read.closedWith.value?.1 == "Done")

    let empty = FakeConnection([])
    configuration.timeout = .milliseconds(100)
    events = await collect(
      try ReaderSession(
        transport: FakeTransport(deviceKey: key(), connection: empty), configuration: configuration
      )
      .begin())
    #expect(endingOf(events) == .timedOut(.milliseconds(100)))
    #expect(empty.closedWith.value?.0 == .timedOut(.milliseconds(100)))
    #expect(empty.closedWith.value?.1 == "Failed")

    let cancelled = FakeConnection([])
    configuration.timeout = .seconds(30)
    let session = ReaderSession(
      transport: FakeTransport(deviceKey: key(), connection: cancelled), configuration: configuration)
    var seen: [SessionEvent<FakeTag, FakeTag>] = []
    for await event in try session.begin() {
      seen.append(event)
      if case .began = event { session.cancel(message: "Stopped by you") }
    }
    #expect(endingOf(seen) == .cancelled)
    // Closing ran although the session's task was cancelled.
    #expect(cancelled.closedWith.value?.0 == .cancelled)
    #expect(cancelled.closedWith.value?.1 == "Stopped by you")
    if case .ended(_, let message)? = seen.last { #expect(message == "Stopped by you") }
  }

  /// A reader that refuses to start discovery: systemBusy, and it is still closed.
  @Test func aRefusedStartIsSystemBusy() async throws {
    let refused = ReaderError(.deviceFailure, "START refused")
    let reader = FakeConnection([.success(Self.a)], startError: refused)
    let events = await collect(
      try ReaderSession(
        transport: FakeTransport(deviceKey: key(), connection: reader), configuration: Self.fast
      )
      .begin())
    #expect(names(events) == ["ended:systemBusy"])
    #expect(reader.closedWith.value?.0 == .systemBusy(refused))
  }

  /// A reader that ends discovery by itself (its own timeout or cancel button) ends the
  /// session with that ending.
  @Test(arguments: [SessionEnding.cancelled, .timedOut(.seconds(12))])
  func theReaderEndsDiscoveryItself(ending: SessionEnding) async throws {
    let reader = FakeConnection([], stopByReader: (afterPolls: 3, ending: ending))
    let events = await collect(
      try ReaderSession(
        transport: FakeTransport(deviceKey: key(), connection: reader), configuration: Self.fast
      )
      .begin())
    #expect(endingOf(events) == ending)
    #expect(reader.polls.value == 3)
  }

  /// A reader that hands over one tag per discovery: a failed read ends the session, and a
  /// read ends it even in keep-reading mode.
  @Test func oneTagPerDiscovery() async throws {
    let failing = FakeConnection([.success(Self.a), .success(Self.b)], endsDiscoveryWithFirstTag: true)
    let session = ReaderSession<FakeTransport, Int>(
      transport: FakeTransport(deviceKey: key(), connection: failing), configuration: Self.fast
    ) { (_, _) throws(ReaderError) in throw ReaderError(.tagError, "NAK") }
    let events = await collect(try session.begin())
    #expect(names(events) == ["began", "tagDetected", "readFailed", "ended:terminatedUnexpectedly"])
    #expect(endingOf(events) == .terminatedUnexpectedly(ReaderError(.tagError, "NAK")))

    let reading = FakeConnection([.success(Self.a), .success(Self.b)], endsDiscoveryWithFirstTag: true)
    var keepReading = Self.fast
    keepReading.mode = .keepReading
    let read = await collect(
      try ReaderSession(
        transport: FakeTransport(deviceKey: key(), connection: reading), configuration: keepReading
      )
      .begin())
    #expect(names(read) == ["began", "tagDetected", "tagRead", "ended:firstTagRead"])
  }

  /// The timeout holds while a tag is being read: an operation that never returns does not
  /// keep the session open.
  @Test func theTimeoutHoldsDuringARead() async throws {
    let reader = FakeConnection([.success(Self.a)])
    let session = ReaderSession<FakeTransport, Int>(
      transport: FakeTransport(deviceKey: key(), connection: reader),
      configuration: SessionConfiguration(timeout: .milliseconds(300), pollInterval: .milliseconds(5))
    ) { (_, _) throws(ReaderError) in
      try? await Task.sleep(for: .seconds(3600))
      throw ReaderError(.cancelled, "the read was cancelled")
    }
    let events = await collect(try session.begin())
    #expect(endingOf(events) == .timedOut(.milliseconds(300)))
    #expect(reader.closedWith.value?.0 == .timedOut(.milliseconds(300)))
  }

  /// A reader that is gone (no reader any more) ends the session at once.
  @Test func aVanishedReaderTerminates() async throws {
    let gone = ReaderError(.noReader, "unplugged")
    let reader = FakeConnection([.success(nil), .failure(gone)])
    let events = await collect(
      try ReaderSession(
        transport: FakeTransport(deviceKey: key(), connection: reader), configuration: Self.fast
      )
      .begin())
    #expect(endingOf(events) == .terminatedUnexpectedly(gone))
  }

  @Test func endingNamesAndErrorDescriptions() {
    #expect(SessionEnding.firstTagRead.name == "firstTagRead")
    #expect(SessionEnding.timedOut(.seconds(1)).name == "timedOut")
    #expect(SessionEnding.systemBusy(ReaderError(.deviceBusy, "x")).isFailure)
    #expect(!SessionEnding.cancelled.isFailure)
    let error = ReaderError(.timeout, "READ failed", transportCode: -6, transportCodeName: "NFC_ETIMEOUT")
    #expect(error.description == "timeout: READ failed (NFC_ETIMEOUT -6)")
    #expect(ReaderError.Code.noReader != ReaderError.Code.unsupportedFeature)
    #expect(ReaderError.Code.noReader.name == "noReader")
    #expect(ReaderError.Code.unsupportedFeature.name == "unsupportedFeature")
  }
}
