// SPDX-License-Identifier: Apache-2.0
import NFCReader
import Testing

/// A scripted transport: each poll takes the next scripted result (nil once it runs out).
struct FakeTag: DetectedTag, Hashable {
  var identifier: [UInt8]
}

final class FakeConnection: ReaderConnection {
  let script: Shared<[Result<FakeTag?, ReaderError>]>
  let closed = Shared(false)
  init(_ script: [Result<FakeTag?, ReaderError>]) { self.script = Shared(script) }

  func poll() async throws(ReaderError) -> FakeTag? {
    var next: Result<FakeTag?, ReaderError> = .success(nil)
    script.update { if !$0.isEmpty { next = $0.removeFirst() } }
    return try next.get()
  }

  func close() async { closed.update { $0 = true } }
}

struct FakeTransport: ReaderTransport {
  var deviceKey: String
  var connection: FakeConnection
  var connectError: ReaderError? = nil

  func checkAvailability() async throws(ReaderError) {
    if let connectError { throw connectError }
  }

  func connect() async throws(ReaderError) -> FakeConnection {
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
