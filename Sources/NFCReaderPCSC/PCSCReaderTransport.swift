// SPDX-License-Identifier: Apache-2.0
import NFCReader
import PCSCControl
import Synchronization

/// Reader sessions (`ReaderSession`) on one PC/SC reader: the same session model, events,
/// endings, messages and per-device queue as every other transport.
///
/// **Reader-driven discovery** (Rutoken-style NFC control codes, `NFCControlCodes`): the
/// claimed reader is a `SCARD_SHARE_DIRECT` connection that sends START_NFC with the
/// session's waiting and working messages; the reader (a phone's NFC stack behind PC/SC)
/// shows them. While it waits, each poll watches the reader (`SCardGetStatusChange`) and
/// asks LAST_NFC_STOP_REASON; a card is connected shared and handed to the operation as
/// ``PCSCTag/card``. Closing sends STOP_NFC with the final message, or STOP_NFC_WITH_ERROR
/// with it when the session failed; nothing when the reader stopped by itself or went away.
/// The endings:
///
/// - a read: `SessionEnding.firstTagRead` (STOP_NFC, success message);
/// - `ReaderSession.cancel(message:)`: `SessionEnding.cancelled` (STOP_NFC with the cancel
///   message or the success message); the reader's stop reason "cancelled by user" too
///   (no STOP: the reader already stopped);
/// - the session's timeout: `SessionEnding.timedOut(_:)` (STOP_NFC_WITH_ERROR, failure
///   message), also while a card is being read; the reader's stop reason "timeout" (the
///   platform's limit) too;
/// - the direct connection or START_NFC refused: `SessionEnding.systemBusy(_:)`;
/// - the reader gone, a failed read (the reader hands over one card per discovery, so the
///   session ends: STOP_NFC_WITH_ERROR with the failure message) or the reader stopping for
///   another reason: `SessionEnding.terminatedUnexpectedly(_:)`.
///
/// **Fallback**: a reader that answers START_NFC with `SCARD_E_UNSUPPORTED_FEATURE` gets the
/// same model from `SCardGetStatusChange` alone: a card present is a tag detected, the
/// reader's removal ends the session, the timeout is the session's.
public struct PCSCReaderTransport: ReaderTransport {
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
  /// The NFC control codes.
  public let codes: NFCControlCodes
  /// How discovery runs.
  public let discovery: Discovery
  /// The longest one poll waits for the reader's state to change (the session polls
  /// again at once after a poll that waited).
  public let statusWait: Duration

  /// Creates a transport for `reader`.
  public init(
    context: PCSCContext, reader: String, codes: NFCControlCodes = .tapwireDefaults,
    discovery: Discovery = .automatic, statusWait: Duration = .milliseconds(200)
  ) {
    self.context = context
    self.reader = reader
    self.codes = codes
    self.discovery = discovery
    self.statusWait = statusWait
  }

  /// `pcsc:<reader name>`: sessions on one reader wait for each other.
  public var deviceKey: String { "pcsc:" + reader }

  /// Checks that pcscd knows the reader: `ReaderError.Code.noReader` when it does not.
  public func checkAvailability() async throws(ReaderError) {
    let names = try await context.readers()
    guard names.contains(reader) else {
      throw ReaderError(.noReader, "\(reader) is not among pcscd's readers")
    }
  }

  /// Connects to the reader itself (`SCARD_SHARE_DIRECT`, card or not) for one session.
  public func claim() async throws(ReaderError) -> PCSCClaimedReader {
    let direct = try await context.connect(to: reader, share: .direct, protocols: [])
    return PCSCClaimedReader(transport: self, direct: direct)
  }
}

/// A PC/SC reader claimed by one session (see ``PCSCReaderTransport``).
public final class PCSCClaimedReader: ClaimedReader {
  /// The transport it was claimed through.
  public let transport: PCSCReaderTransport
  /// The direct connection to the reader.
  public let direct: PCSCCard
  private let state = Mutex<State>(State())

  private struct State {
    var readerDriven: Bool?
    var known: PCSCReaderState?
    var card: PCSCCard?
    var tag: PCSCTag?
    var endingByReader: SessionEnding?
    /// The reader went away or stopped discovery itself: no STOP is sent.
    var stoppedByReader = false
    var began: ContinuousClock.Instant?
    var closed = false
  }

  init(transport: PCSCReaderTransport, direct: PCSCCard) {
    self.transport = transport
    self.direct = direct
  }

  /// Whether the reader drives discovery (START_NFC accepted); nil until discovery starts.
  public var isReaderDriven: Bool? { state.withLock { $0.readerDriven } }

  /// How the reader ended discovery by itself (its cancel button, its timeout, another
  /// stop reason), once it has.
  public var endingByReader: SessionEnding? { state.withLock { $0.endingByReader } }

  /// A PC/SC NFC reader hands over one card per discovery: a failed read ends the session.
  public var endsDiscoveryWithFirstTag: Bool { true }

  /// Sends START_NFC with the waiting and working messages, unless the transport's
  /// discovery is ``PCSCReaderTransport/Discovery/statusChange`` or the reader answers
  /// `SCARD_E_UNSUPPORTED_FEATURE` (then status changes alone drive the session).
  ///
  /// - Throws: `ReaderError.Code.invalidArgument` for messages START_NFC cannot carry
  ///   (a NUL inside), or the reader's refusal.
  public func startDiscovery(_ messages: SessionMessages) async throws(ReaderError) {
    var readerDriven = false
    if transport.discovery == .automatic {
      let start: [UInt8]
      do throws(PCSCControlError) {
        start = try NFCStartMessages(waiting: messages.waiting ?? "", working: messages.working ?? "")
          .encodedBytes()
      } catch {
        throw ReaderError(.invalidArgument, "START_NFC messages: \(error.code) at byte \(error.offset)")
      }
      do throws(ReaderError) {
        _ = try await direct.control(transport.codes.startNFC, start)
        readerDriven = true
      } catch  where error.code == .unsupportedFeature {
        readerDriven = false
      }
    }
    state.withLock {
      $0.readerDriven = readerDriven
      $0.began = ContinuousClock.now
    }
  }

  /// Waits up to the transport's status wait for the reader to change; returns the card
  /// present (connected shared, UID and ATR read), or nil. A reader-driven reader is also
  /// asked why it stopped (``endingByReader``).
  ///
  /// - Throws: `ReaderError.Code.deviceFailure` when the reader went away; the PC/SC
  ///   error of a failed status query or card connection.
  public func poll() async throws(ReaderError) -> PCSCTag? {
    let context = transport.context
    let reader = transport.reader
    let known = state.withLock { $0.known }
    let observed: PCSCReaderState?
    do {
      observed = try await context.waitForChange(reader, known: known, timeout: transport.statusWait)
    } catch {
      if error.code != .cancelled { state.withLock { $0.stoppedByReader = true } }
      throw error
    }
    if let observed {
      state.withLock { $0.known = observed }
      if observed.flags.contains(.unknown) || observed.flags.contains(.unavailable) {
        state.withLock { $0.stoppedByReader = true }
        throw ReaderError(.deviceFailure, "\(reader) went away")
      }
      if !observed.isCardPresent { await dropCard() }
    }
    let present = state.withLock { $0.known?.isCardPresent ?? false }
    if present {
      if let tag = state.withLock({ $0.tag }) { return tag }
      return try await connectCard()
    }
    if isReaderDriven == true { try await askStopReason() }
    return nil
  }

  /// Ends discovery: STOP_NFC with `message` after a success or a cancel,
  /// STOP_NFC_WITH_ERROR with it after a failure; nothing when discovery was not started
  /// by START_NFC or the reader already stopped. Then disconnects the card and the reader.
  public func close(ending: SessionEnding, message: String?) async {
    let (first, readerDriven, stopped) = state.withLock {
      let first = !$0.closed
      $0.closed = true
      return (first, $0.readerDriven == true, $0.stoppedByReader)
    }
    guard first else { return }
    await dropCard()
    if readerDriven && !stopped {
      let stop = (try? NFCStopMessage(message ?? "").encodedBytes()) ?? []
      let code = ending.isFailure ? transport.codes.stopNFCWithError : transport.codes.stopNFC
      _ = try? await direct.control(code, stop)
    }
    try? await direct.disconnect()
  }

  // MARK: Internals

  private func connectCard() async throws(ReaderError) -> PCSCTag {
    let card = try await transport.context.connect(to: transport.reader)
    let atr = (try? await card.atr()) ?? []
    let uid = (try? await card.getData(.uid))?.bytes
    let tag = PCSCTag(uid: uid, atr: atr, card: card)
    state.withLock {
      $0.card = card
      $0.tag = tag
    }
    return tag
  }

  private func dropCard() async {
    let card = state.withLock {
      let card = $0.card
      $0.card = nil
      $0.tag = nil
      return card
    }
    try? await card?.disconnect()
  }

  /// Asks LAST_NFC_STOP_REASON and records how the reader ended discovery, if it did.
  private func askStopReason() async throws(ReaderError) {
    let reason: NFCStopReason
    do throws(ReaderError) {
      let answer = try await direct.control(transport.codes.lastNFCStopReason)
      do throws(PCSCControlError) {
        reason = try NFCStopReason(parsing: answer)
      } catch {
        // A malformed reason answer: the reader is not in a known state.
        state.withLock { $0.stoppedByReader = true }
        throw ReaderError(.deviceFailure, "LAST_NFC_STOP_REASON: \(error.code) at byte \(error.offset)")
      }
    } catch  where error.code == .noReader || error.code == .deviceFailure {
      state.withLock { $0.stoppedByReader = true }
      throw error
    } catch  where error.code == .cancelled {
      throw error
    } catch {
      return  // a failed query: ask again at the next poll
    }
    let ending: SessionEnding?
    switch reason {
    case .noError: ending = nil
    case .cancelledByUser: ending = .cancelled
    case .timeout:
      let began = state.withLock { $0.began } ?? ContinuousClock.now
      ending = .timedOut(began.duration(to: ContinuousClock.now))
    default:
      ending = .terminatedUnexpectedly(
        ReaderError(.deviceFailure, "the reader stopped NFC discovery: \(reason.name)"))
    }
    guard let ending else { return }
    state.withLock {
      $0.endingByReader = ending
      $0.stoppedByReader = true
    }
  }
}
