// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A single-use reader session: it waits for the device (one session per device, in a
/// queue), looks for tags, runs `operation` on each new tag, and ends exactly once with a
/// ``SessionEnding``. Events arrive as an `AsyncStream` from ``begin()``.
///
/// After the session ends, its connection is closed and tag handles from it fail with
/// ``ReaderError/Code/sessionEnded``; make a new session to read again.
public final class ReaderSession<Transport: ReaderTransport, Output: Sendable>: Sendable {
  /// The tag type of the transport.
  public typealias Tag = Transport.Connection.Tag
  /// What the session does with each detected tag (while the tag is in the field).
  public typealias Operation = @Sendable (Transport.Connection, Tag) async throws(ReaderError) -> Output
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
    let connection: Transport.Connection
    do {
      connection = try await transport.connect()
    } catch {
      let ending: SessionEnding = isCancelRequested ? .cancelled : .systemBusy(error)
      finish(ending, events)
      DeviceQueue.shared.release(key)
      return
    }
    let ending = await readTags(connection, events)
    await connection.close()
    finish(ending, events)
    DeviceQueue.shared.release(key)
  }

  /// Runs the polling loop against a timer: when the timeout passes first, the loop is
  /// cancelled (aborting any reader call in progress) and the session times out even in
  /// the middle of an operation.
  private func readTags(_ connection: Transport.Connection, _ events: AsyncStream<Event>.Continuation) async
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

  private func pollLoop(_ connection: Transport.Connection, _ events: AsyncStream<Event>.Continuation) async
    -> SessionEnding
  {
    let messages = configuration.messages
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: configuration.timeout)
    var reported: [UInt8]? = nil
    while true {
      if isCancelRequested { return .cancelled }
      if clock.now >= deadline { return .timedOut(configuration.timeout) }
      do throws(ReaderError) {
        if let tag = try await connection.poll() {
          if tag.identifier != reported {
            reported = tag.identifier
            events.yield(.tagDetected(tag, message: messages.working))
            do throws(ReaderError) {
              let output = try await operation(connection, tag)
              events.yield(.tagRead(tag, output))
              if configuration.mode == .endAfterFirstRead { return .firstTagRead }
            } catch {
              if isCancelRequested || error.code == .cancelled { return .cancelled }
              if error.isDeviceFailure { return .terminatedUnexpectedly(error) }
              events.yield(.readFailed(tag, error, message: messages.failure))
              if error.code == .tagLost { reported = nil }
            }
          }
        } else {
          reported = nil
        }
      } catch {
        if isCancelRequested || error.code == .cancelled { return .cancelled }
        if error.isDeviceFailure { return .terminatedUnexpectedly(error) }
        reported = nil
      }
      let remaining = clock.now.duration(to: deadline)
      if remaining > .zero {
        try? await Task.sleep(for: min(configuration.pollInterval, remaining))
      }
    }
  }

  private func finish(_ ending: SessionEnding, _ events: AsyncStream<Event>.Continuation) {
    let configured = configuration.messages
    let outcome: (message: String?, waiters: [CheckedContinuation<SessionEnding, Never>])? = state.withLock {
      guard $0.ending == nil else { return nil }
      $0.ending = ending
      let waiters = $0.endingWaiters
      $0.endingWaiters = []
      let message =
        ending == .cancelled
        ? ($0.cancelMessage ?? configured.success)
        : ending.isFailure ? configured.failure : configured.success
      return (message, waiters)
    }
    guard let outcome else { return }
    DeviceQueue.shared.record(transport.deviceKey, ending: ending)
    events.yield(.ended(ending, message: outcome.message))
    events.finish()
    for waiter in outcome.waiters { waiter.resume(returning: ending) }
  }
}

extension ReaderSession where Output == Transport.Connection.Tag {
  /// A session whose read is the detection itself: each read reports the tag.
  public convenience init(transport: Transport, configuration: SessionConfiguration = SessionConfiguration())
  {
    self.init(transport: transport, configuration: configuration) { (_, tag) throws(ReaderError) in tag }
  }
}

private let sessionCounter = Mutex<UInt64>(0)
