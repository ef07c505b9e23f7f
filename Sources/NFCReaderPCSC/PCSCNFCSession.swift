// SPDX-License-Identifier: Apache-2.0

import NFCReader
import PCSCControl
import Synchronization

/// A tag found by a ``PCSCNFCSession``: its UID (PC/SC Part 3 GET DATA) when the reader
/// gives one, and its ATR.
public struct PCSCTag: DetectedTag, Hashable {
  /// The UID, or the ATR when the reader answers no UID.
  public var identifier: [UInt8]
  /// The UID from `FF CA 00 00 00`, nil when the reader does not support it.
  public var uid: [UInt8]?
  /// The card's ATR (the one pcscd built for a contactless card).
  public var atr: [UInt8]

  /// Creates a tag.
  public init(uid: [UInt8]?, atr: [UInt8]) {
    self.uid = uid
    self.atr = atr
    self.identifier = uid ?? atr
  }
}

/// A single-use NFC reading session on one PC/SC reader, with the session model of
/// `ReaderSession`: the same events (`SessionEvent`), the same
/// endings (`SessionEnding`) and the same messages
/// (`SessionMessages`).
///
/// **Reader-driven discovery** (Rutoken-style NFC control codes, `NFCControlCodes`):
/// the session connects to the reader with `SCARD_SHARE_DIRECT` and sends START_NFC with
/// the waiting and working messages; the reader (a phone's NFC stack behind PC/SC) shows
/// them. While it waits, the session watches the reader (`SCardGetStatusChange`) and asks
/// LAST_NFC_STOP_REASON; when a card comes it connects, runs the operation and sends
/// STOP_NFC with the success message, or STOP_NFC_WITH_ERROR with the failure message.
/// The endings:
///
/// - a read: `SessionEnding.firstTagRead` (STOP_NFC, success message);
/// - ``cancel(message:)``: `SessionEnding.cancelled` (STOP_NFC with the cancel
///   message or the success message); the reader's stop reason "cancelled by user" too
///   (no STOP: the reader already stopped);
/// - the configured timeout: `SessionEnding.timedOut(_:)` (STOP_NFC_WITH_ERROR,
///   failure message); the reader's stop reason "timeout" (the platform's limit) too;
/// - the direct connection or START_NFC refused: `SessionEnding.systemBusy(_:)`;
/// - the reader gone, a failed read (STOP_NFC_WITH_ERROR with the failure message) or the
///   reader stopping for another reason: `SessionEnding.terminatedUnexpectedly(_:)`.
///
/// **Fallback**: a reader that answers START_NFC with `SCARD_E_UNSUPPORTED_FEATURE` gets
/// the same model from `SCardGetStatusChange` alone: a card present is a tag detected, the
/// reader's removal ends the session, the timeout is the configured one.
public final class PCSCNFCSession<Output: Sendable>: Sendable {
  /// What the session does with the card (connected shared, T=0 or T=1).
  public typealias Operation = @Sendable (PCSCCard, PCSCTag) async throws(ReaderError) -> Output
  /// The events of this session.
  public typealias Event = SessionEvent<PCSCTag, Output>

  /// How discovery runs.
  public enum Discovery: Sendable, Hashable {
    /// START_NFC when the reader supports it, else status changes.
    case automatic
    /// Status changes only (no control codes).
    case statusChange
  }

  /// The context.
  public let context: PCSCContext
  /// The reader's name.
  public let reader: String
  /// The configuration (timeout and messages; the mode is always end after the first read).
  public let configuration: SessionConfiguration
  /// The NFC control codes.
  public let codes: NFCControlCodes
  /// How discovery runs.
  public let discovery: Discovery
  /// The pause between two looks at the reader while waiting (status change wait and stop
  /// reason query).
  public let pollInterval: Duration
  private let operation: Operation
  private let state = Mutex<State>(State())

  private struct State {
    var started = false
    var cancelRequested = false
    var cancelMessage: String?
    var ending: SessionEnding?
    var readerDriven: Bool?
    var waiters: [CheckedContinuation<SessionEnding, Never>] = []
  }

  /// Creates a session; nothing happens until ``begin()``.
  public init(
    context: PCSCContext, reader: String, configuration: SessionConfiguration = SessionConfiguration(),
    codes: NFCControlCodes = .tapwireDefaults, discovery: Discovery = .automatic,
    pollInterval: Duration = .milliseconds(200), operation: @escaping Operation
  ) {
    self.context = context
    self.reader = reader
    self.configuration = configuration
    self.codes = codes
    self.discovery = discovery
    self.pollInterval = pollInterval
    self.operation = operation
  }

  /// How the session ended; nil while it runs.
  public var ending: SessionEnding? { state.withLock { $0.ending } }

  /// Whether the reader drove discovery (START_NFC accepted); nil until known.
  public var isReaderDriven: Bool? { state.withLock { $0.readerDriven } }

  /// Waits for the session to end and returns how it ended.
  public func ended() async -> SessionEnding {
    await withCheckedContinuation { (continuation: CheckedContinuation<SessionEnding, Never>) in
      state.withLock {
        if let ending = $0.ending {
          continuation.resume(returning: ending)
        } else {
          $0.waiters.append(continuation)
        }
      }
    }
  }

  /// Cancels the session: it ends with `SessionEnding.cancelled` (unless it
  /// already ended) within one poll interval; `message` (or the success message) is STOP_NFC's.
  public func cancel(message: String? = nil) {
    state.withLock {
      if $0.ending == nil && !$0.cancelRequested {
        $0.cancelRequested = true
        $0.cancelMessage = message
      }
    }
  }

  /// Starts the session and returns its events; a second call throws
  /// `ReaderError.Code.sessionAlreadyStarted`. Dropping the stream cancels.
  public func begin() throws(ReaderError) -> AsyncStream<Event> {
    let fresh = state.withLock {
      let fresh = !$0.started
      $0.started = true
      return fresh
    }
    guard fresh else {
      throw ReaderError(.sessionAlreadyStarted, "a session can begin only once; create a new one")
    }
    let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
    continuation.onTermination = { [weak self] termination in
      if case .cancelled = termination { self?.cancel() }
    }
    Task { await self.run(continuation) }
    return stream
  }

  private var cancelRequested: Bool { state.withLock { $0.cancelRequested } }

  /// The stop messages of a session that has not stopped discovery itself yet.
  private enum Stop {
    case success(String?)
    case failure(String?)
    case none
  }

  private func run(_ events: AsyncStream<Event>.Continuation) async {
    let messages = configuration.messages
    // The direct connection: the reader itself, card or not.
    let direct: PCSCCard
    do {
      direct = try await context.connect(to: reader, share: .direct, protocols: [])
    } catch {
      finish(.systemBusy(error), message: messages.failure, events)
      return
    }
    var readerDriven = false
    if discovery == .automatic {
      do {
        let start = try NFCStartMessages(waiting: messages.waiting ?? "", working: messages.working ?? "")
          .encodedBytes()
        _ = try await direct.control(codes.startNFC, start)
        readerDriven = true
      } catch let error as PCSCControlError {
        try? await direct.disconnect()
        finish(
          .systemBusy(
            ReaderError(.invalidArgument, "START_NFC messages: \(error.code) at byte \(error.offset)")),
          message: messages.failure, events)
        return
      } catch let error as ReaderError where error.code == .unsupportedFeature {
        readerDriven = false
      } catch let error as ReaderError {
        try? await direct.disconnect()
        finish(.systemBusy(error), message: messages.failure, events)
        return
      } catch {
        readerDriven = false
      }
    }
    state.withLock { $0.readerDriven = readerDriven }
    events.yield(.began(message: messages.waiting))
    let (ending, stop) = await wait(direct, readerDriven: readerDriven, events)
    if readerDriven {
      switch stop {
      case .success(let message):
        _ = try? await direct.control(
          codes.stopNFC, (try? NFCStopMessage(message ?? "").encodedBytes()) ?? [])
      case .failure(let message):
        _ = try? await direct.control(
          codes.stopNFCWithError, (try? NFCStopMessage(message ?? "").encodedBytes()) ?? [])
      case .none: break
      }
    }
    try? await direct.disconnect()
    let final: String? =
      switch stop {
      case .success(let message), .failure(let message): message
      case .none:
        ending.isFailure ? messages.failure : (state.withLock { $0.cancelMessage } ?? messages.success)
      }
    finish(ending, message: final, events)
  }

  /// The waiting loop; returns the ending and what to send the reader.
  private func wait(_ direct: PCSCCard, readerDriven: Bool, _ events: AsyncStream<Event>.Continuation) async
    -> (SessionEnding, Stop)
  {
    let messages = configuration.messages
    let clock = ContinuousClock()
    let began = clock.now
    let deadline = began + configuration.timeout
    var known: PCSCReaderState? = nil
    while true {
      if cancelRequested {
        return (.cancelled, .success(state.withLock { $0.cancelMessage } ?? messages.success))
      }
      let left = deadline - clock.now
      if left <= .zero { return (.timedOut(configuration.timeout), .failure(messages.failure)) }
      let observed: PCSCReaderState?
      do {
        observed = try await context.waitForChange(reader, known: known, timeout: min(pollInterval, left))
      } catch {
        if error.code == .cancelled { return (.cancelled, .none) }
        return (.terminatedUnexpectedly(error), .none)
      }
      if let observed {
        known = observed
        if observed.flags.contains(.unknown) || observed.flags.contains(.unavailable) {
          return (.terminatedUnexpectedly(ReaderError(.deviceFailure, "\(reader) went away")), .none)
        }
        if observed.isCardPresent {
          return await read(events)
        }
      }
      guard readerDriven else { continue }
      let reason: NFCStopReason
      do {
        reason = try NFCStopReason(parsing: try await direct.control(codes.lastNFCStopReason))
      } catch let error as ReaderError {
        if error.code == .noReader || error.code == .deviceFailure {
          return (.terminatedUnexpectedly(error), .none)
        }
        continue
      } catch {
        // A malformed reason answer: the reader is not in a known state.
        return (.terminatedUnexpectedly(ReaderError(.tagError, "LAST_NFC_STOP_REASON: \(error)")), .none)
      }
      switch reason {
      case .noError: continue
      case .cancelledByUser: return (.cancelled, .none)
      case .timeout: return (.timedOut(clock.now - began), .none)
      default:
        return (
          .terminatedUnexpectedly(
            ReaderError(.deviceFailure, "the reader stopped NFC discovery: \(reason.name)")),
          .none
        )
      }
    }
  }

  /// Connects to the card, reads its UID, runs the operation.
  private func read(_ events: AsyncStream<Event>.Continuation) async -> (SessionEnding, Stop) {
    let messages = configuration.messages
    let card: PCSCCard
    do {
      card = try await context.connect(to: reader)
    } catch {
      return (.terminatedUnexpectedly(error), .failure(messages.failure))
    }
    let atr = (try? await card.atr()) ?? []
    let uid = (try? await card.getData(.uid))?.bytes
    let tag = PCSCTag(uid: uid, atr: atr)
    events.yield(.tagDetected(tag, message: messages.working))
    do throws(ReaderError) {
      let output = try await operation(card, tag)
      try? await card.disconnect()
      events.yield(.tagRead(tag, output))
      return (.firstTagRead, .success(messages.success))
    } catch {
      try? await card.disconnect()
      events.yield(.readFailed(tag, error, message: messages.failure))
      return (.terminatedUnexpectedly(error), .failure(messages.failure))
    }
  }

  private func finish(_ ending: SessionEnding, message: String?, _ events: AsyncStream<Event>.Continuation) {
    let waiters: [CheckedContinuation<SessionEnding, Never>]? = state.withLock {
      guard $0.ending == nil else { return nil }
      $0.ending = ending
      let waiters = $0.waiters
      $0.waiters = []
      return waiters
    }
    guard let waiters else { return }
    events.yield(.ended(ending, message: message))
    events.finish()
    for waiter in waiters { waiter.resume(returning: ending) }
  }
}

extension PCSCNFCSession where Output == PCSCTag {
  /// A session whose read is the detection itself.
  public convenience init(
    context: PCSCContext, reader: String, configuration: SessionConfiguration = SessionConfiguration(),
    codes: NFCControlCodes = .tapwireDefaults, discovery: Discovery = .automatic
  ) {
    self.init(
      context: context, reader: reader, configuration: configuration, codes: codes, discovery: discovery
    ) {
      (_, tag) throws(ReaderError) in tag
    }
  }
}
