// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A single-use reader session, the one session model of every transport: it waits for
/// the device (one session per device, in a queue), claims it, starts discovery, looks for
/// tags, runs `operation` on each new tag, and ends exactly once with a ``SessionEnding``.
/// Events arrive as an `AsyncStream` from ``begin()``.
///
/// The timeout holds in every phase, a tag being read included; ``cancel(message:)`` aborts
/// a reader call in progress. When the ending is known, the claimed reader is closed with it
/// and the final message (a reader-driven PC/SC reader gets STOP with that message), so
/// tag handles from the session then fail with ``ReaderError/Code/sessionEnded``; make a
/// new session to read again.
public final class ReaderSession<Transport: ReaderTransport, Output: Sendable>: Sendable {
  /// The tag type of the transport.
  public typealias Tag = Transport.Reader.Tag
  /// What the session does with each detected tag (while the tag is in the field).
  public typealias Operation = @Sendable (Transport.Reader, Tag) async throws(ReaderError) -> Output
  /// The events of this session.
  public typealias Event = SessionEvent<Tag, Output>

  /// The transport.
  public let transport: Transport
  /// The configuration.
  public let configuration: SessionConfiguration
  private let operation: Operation
  private let id: UInt64
  private let state = Mutex<State>(State())

  private struct State {
    var started = false
    var cancelRequested = false
    var cancelMessage: String?
    var task: Task<Void, Never>?
    var reader: Transport.Reader?
    var ending: SessionEnding?
    var endingWaiters: [CheckedContinuation<SessionEnding, Never>] = []
  }

  /// Creates a session; nothing happens until ``begin()``.
  public init(
    transport: Transport, configuration: SessionConfiguration = SessionConfiguration(),
    operation: @escaping Operation
  ) {
    self.transport = transport
    self.configuration = configuration
    self.operation = operation
    self.id = sessionCounter.withLock {
      $0 += 1
      return $0
    }
  }

  /// How the session ended; nil while it runs.
  public var ending: SessionEnding? { state.withLock { $0.ending } }

  /// The reader the session claimed, from its ``SessionEvent/began(message:)`` event on
  /// (for what a transport tells about it, such as whether a PC/SC reader drives
  /// discovery); nil before, and when discovery could not start. After the session ends
  /// it is closed: its calls fail with ``ReaderError/Code/sessionEnded``.
  public var claimedReader: Transport.Reader? { state.withLock { $0.reader } }

  /// Waits for the session to end and returns how it ended.
  public func ended() async -> SessionEnding {
    await withCheckedContinuation { (continuation: CheckedContinuation<SessionEnding, Never>) in
      state.withLock {
        if let ending = $0.ending {
          continuation.resume(returning: ending)
        } else {
          $0.endingWaiters.append(continuation)
        }
      }
    }
  }

  /// Starts the session and returns its events. Sessions are single-use: a second call
  /// throws ``ReaderError/Code/sessionAlreadyStarted``. Dropping the stream (ending its
  /// iteration) cancels the session.
  public func begin() throws(ReaderError) -> AsyncStream<Event> {
    let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
    let fresh = state.withLock {
      let fresh = !$0.started
      $0.started = true
      return fresh
    }
    guard fresh else {
      throw ReaderError(.sessionAlreadyStarted, "a session can begin only once; create a new one")
    }
    continuation.onTermination = { [weak self] termination in
      if case .cancelled = termination { self?.cancel() }
    }
    let task = Task { await self.run(continuation) }
    state.withLock { $0.task = task }
    return stream
  }

  /// Cancels the session: it ends with ``SessionEnding/cancelled`` (unless it already
  /// ended), with `message` (or the configured success message) as its final message.
  /// A blocking reader call in progress is aborted.
  public func cancel(message: String? = nil) {
    let task = state.withLock {
      if $0.ending == nil && !$0.cancelRequested {
        $0.cancelRequested = true
        $0.cancelMessage = message
      }
      return $0.task
    }
    task?.cancel()
  }

  private var isCancelRequested: Bool { state.withLock { $0.cancelRequested } || Task.isCancelled }

  private func run(_ events: AsyncStream<Event>.Continuation) async {
    let key = transport.deviceKey
    let acquired = await DeviceQueue.shared.acquire(key, id: id) { events.yield(.queued(position: $0)) }
    guard acquired, !isCancelRequested else {
      finish(.cancelled, events)
      if acquired { DeviceQueue.shared.release(key) }
      return
    }
    let reader: Transport.Reader
    do {
      reader = try await transport.claim()
    } catch {
      let ending: SessionEnding = isCancelRequested ? .cancelled : .systemBusy(error)
      finish(ending, events)
      DeviceQueue.shared.release(key)
      return
    }
    let ending: SessionEnding
    do throws(ReaderError) {
      try await reader.startDiscovery(configuration.messages)
      state.withLock { $0.reader = reader }
      ending = await readTags(reader, events)
    } catch {
      ending = isCancelRequested ? .cancelled : .systemBusy(error)
    }
    // The device hears the ending even when the session was cancelled: closing runs in a
    // task of its own (not cancelled with this one), awaited here.
    let message = finalMessage(for: ending)
    await Task { await reader.close(ending: ending, message: message) }.value
    finish(ending, events)
    DeviceQueue.shared.release(key)
  }

  /// Runs the polling loop against a timer: when the timeout passes first, the loop is
  /// cancelled (aborting any reader call in progress) and the session times out even in
  /// the middle of an operation.
  private func readTags(_ connection: Transport.Reader, _ events: AsyncStream<Event>.Continuation) async
    -> SessionEnding
  {
    events.yield(.began(message: configuration.messages.waiting))
    let timeout = configuration.timeout
    return await withTaskGroup(of: Child.self) { group in
      group.addTask { .loop(await self.pollLoop(connection, events)) }
      group.addTask {
        do {
          try await Task.sleep(for: timeout)
          return .timerFired
        } catch {
          return .timerCancelled
        }
      }
      var timerFired = false
      for await child in group {
        switch child {
        case .timerCancelled:
          continue
        case .timerFired:
          // Stop the loop (aborting a reader call in progress) and wait for its result.
          timerFired = true
          group.cancelAll()
        case .loop(let ending):
          group.cancelAll()
          let callerCancelled = state.withLock { $0.cancelRequested }
          if timerFired && ending == .cancelled && !callerCancelled { return .timedOut(timeout) }
          return ending
        }
      }
      return .timedOut(timeout)
    }
  }

  private enum Child: Sendable {
    case loop(SessionEnding)
    case timerFired
    case timerCancelled
  }

  private func pollLoop(_ connection: Transport.Reader, _ events: AsyncStream<Event>.Continuation) async
    -> SessionEnding
  {
    let messages = configuration.messages
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: configuration.timeout)
    var reported: [UInt8]? = nil
    while true {
      if isCancelRequested { return .cancelled }
      if clock.now >= deadline { return .timedOut(configuration.timeout) }
      let polled = clock.now
      do throws(ReaderError) {
        let found = try await connection.poll()
        if let ending = connection.endingByReader { return ending }
        if let tag = found {
          if tag.identifier != reported {
            reported = tag.identifier
            events.yield(.tagDetected(tag, message: messages.working))
            do throws(ReaderError) {
              let output = try await operation(connection, tag)
              events.yield(.tagRead(tag, output))
              if configuration.mode == .endAfterFirstRead || connection.endsDiscoveryWithFirstTag {
                return .firstTagRead
              }
            } catch {
              if isCancelRequested || error.code == .cancelled { return .cancelled }
              if Self.reportsReaderGone(error) { return .terminatedUnexpectedly(error) }
              events.yield(.readFailed(tag, error, message: messages.failure))
              if connection.endsDiscoveryWithFirstTag { return .terminatedUnexpectedly(error) }
              if error.code == .tagLost { reported = nil }
            }
          }
        } else {
          reported = nil
        }
      } catch {
        if isCancelRequested || error.code == .cancelled { return .cancelled }
        if let ending = connection.endingByReader { return ending }
        if Self.reportsReaderGone(error) { return .terminatedUnexpectedly(error) }
        reported = nil
      }
      // At most one poll per interval: a poll that waited itself (PC/SC status changes)
      // is not followed by a pause.
      let pause = min(
        configuration.pollInterval - polled.duration(to: clock.now), clock.now.duration(to: deadline))
      if pause > .zero {
        try? await Task.sleep(for: pause)
      }
    }
  }

  /// The final message for `ending`: the cancel message (or the success message) when
  /// cancelled, the failure message for a failure, the success message otherwise.
  private func finalMessage(for ending: SessionEnding) -> String? {
    let configured = configuration.messages
    if ending == .cancelled { return state.withLock { $0.cancelMessage } ?? configured.success }
    return ending.isFailure ? configured.failure : configured.success
  }

  /// Whether `error` means the device failed or went away (then the session ends): a
  /// device failure, or no reader any more (unplugged, or the PC/SC service gone).
  static func reportsReaderGone(_ error: ReaderError) -> Bool {
    error.isDeviceFailure || error.code == .noReader
  }

  private func finish(_ ending: SessionEnding, _ events: AsyncStream<Event>.Continuation) {
    let message = finalMessage(for: ending)
    let outcome: (message: String?, waiters: [CheckedContinuation<SessionEnding, Never>])? = state.withLock {
      guard $0.ending == nil else { return nil }
      $0.ending = ending
      let waiters = $0.endingWaiters
      $0.endingWaiters = []
      return (message, waiters)
    }
    guard let outcome else { return }
    DeviceQueue.shared.record(transport.deviceKey, ending: ending)
    events.yield(.ended(ending, message: outcome.message))
    events.finish()
    for waiter in outcome.waiters { waiter.resume(returning: ending) }
  }
}

extension ReaderSession where Output == Transport.Reader.Tag {
  /// A session whose read is the detection itself: each read reports the tag.
  public convenience init(transport: Transport, configuration: SessionConfiguration = SessionConfiguration())
  {
    self.init(transport: transport, configuration: configuration) { (_, tag) throws(ReaderError) in tag }
  }
}

private let sessionCounter = Mutex<UInt64>(0)
