// SPDX-License-Identifier: Apache-2.0
import CPCSCLite
import Dispatch
import MonotonicTime
import NFCReader

/// `SCARD_S_SUCCESS`.
let pcscSuccess: LONG = 0

/// A PC/SC resource-manager context (pcsc-lite `SCardEstablishContext`, PC/SC part 5
/// §3.1.1): lists readers, waits for cards to come and go, connects to them.
///
/// The client library finds pcscd at `/run/pcscd/pcscd.comm`, or at the socket named by the
/// `PCSCLITE_CSOCK_NAME` environment variable. Blocking calls run on the context's own
/// serial queue, off Swift's cooperative pool; cancelling the task that waits in
/// ``waitForChange(_:known:timeout:)`` calls `SCardCancel`.
///
/// Sendable by hand. Invariant: `handle` is written once in `init` and released in
/// `deinit`; pcsc-lite allows `SCardCancel` from any thread, every other call runs on `queue`.
@safe public final class PCSCContext: @unchecked Sendable {
  private let handle: SCARDCONTEXT
  private let queue = DispatchQueue(label: "tapwire.pcsc.context")

  /// Establishes a context (`SCARD_SCOPE_SYSTEM`).
  ///
  /// - Throws: `ReaderError` with `ReaderError.Code.noReader` and
  ///   `SCARD_E_NO_SERVICE` when pcscd is not running.
  public init() throws(ReaderError) {
    var context: SCARDCONTEXT = 0
    // unsafe: SCardEstablishContext writes the new context into a live local.
    let rc = unsafe SCardEstablishContext(UInt(SCARD_SCOPE_SYSTEM), nil, nil, &context)
    guard rc == pcscSuccess else { throw Self.code(rc).error("SCardEstablishContext") }
    handle = context
  }

  deinit {
    _ = SCardReleaseContext(handle)
  }

  /// The PC/SC code of a return value.
  static func code(_ rc: LONG) -> PCSCErrorCode {
    PCSCErrorCode(rawValue: UInt32(truncatingIfNeeded: rc))
  }

  /// Runs a blocking body on the queue.
  private func perform<T: Sendable>(_ body: @escaping @Sendable (SCARDCONTEXT) -> Result<T, ReaderError>)
    async throws(ReaderError) -> T
  {
    if Task.isCancelled { throw ReaderError(.cancelled, "the task was cancelled") }
    let context = handle
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, ReaderError>, Never>) in
        queue.async { continuation.resume(returning: body(context)) }
      }
    } onCancel: {
      _ = SCardCancel(context)
    }
    return try result.get()
  }

  /// The names of the readers pcscd knows (`SCardListReaders`); empty when there are none.
  ///
  /// - Throws: `ReaderError` with the PC/SC code (`SCARD_E_NO_SERVICE`, ...).
  public func readers() async throws(ReaderError) -> [String] {
    try await perform { context in Self.listReaders(context) }
  }

  private static func listReaders(_ context: SCARDCONTEXT) -> Result<[String], ReaderError> {
    var size: DWORD = 0
    // unsafe: a size query (nil buffer) writes only into the live local `size`.
    var rc = unsafe SCardListReaders(context, nil, nil, &size)
    if Self.code(rc) == .noReadersAvailable { return .success([]) }
    guard rc == pcscSuccess else { return .failure(Self.code(rc).error("SCardListReaders")) }
    var buffer = [CChar](repeating: 0, count: Int(size))
    // unsafe: the buffer holds `size` bytes, the size pcsc-lite asked for; it writes at most that.
    rc = unsafe buffer.withUnsafeMutableBufferPointer {
      unsafe SCardListReaders(context, nil, $0.baseAddress, &size)
    }
    if Self.code(rc) == .noReadersAvailable { return .success([]) }
    guard rc == pcscSuccess else { return .failure(Self.code(rc).error("SCardListReaders")) }
    // A multi-string: names separated by NUL, ended by an empty name.
    let bytes = buffer.prefix(Int(min(size, DWORD(buffer.count)))).map { UInt8(bitPattern: $0) }
    let names = bytes.split(separator: 0, omittingEmptySubsequences: true).map {
      String(decoding: $0, as: UTF8.self)
    }
    return .success(names)
  }

  /// Waits until the state of `reader` differs from `known` (`SCardGetStatusChange`), or
  /// `timeout` passes. Pass nil for `known` to get the current state at once.
  ///
  /// - Returns: the new state, or nil after `timeout` (`SCARD_E_TIMEOUT`).
  /// - Throws: `ReaderError` with the PC/SC code (`SCARD_E_UNKNOWN_READER`,
  ///   `SCARD_E_CANCELLED` when the task was cancelled, ...).
  public func waitForChange(_ reader: String, known: PCSCReaderState?, timeout: Duration)
    async throws(ReaderError) -> PCSCReaderState?
  {
    let milliseconds = Self.milliseconds(timeout)
    let current = known.map { $0.flags.rawValue & ~PCSCReaderState.Flags.changed.rawValue } ?? 0
    return try await perform { context in
      // unsafe: the struct holds a reader-name pointer, set only while the name is alive below.
      var state = unsafe SCARD_READERSTATE()
      unsafe state.dwCurrentState = current
      let rc = unsafe reader.withCString { name in
        // unsafe: `name` lives for this closure, which is as long as the call keeps the pointer.
        unsafe state.szReader = name
        // unsafe: one live SCARD_READERSTATE; pcsc-lite fills its event state and ATR.
        let rc = unsafe SCardGetStatusChange(context, milliseconds, &state, 1)
        unsafe state.szReader = nil
        return rc
      }
      if Self.code(rc) == .timeout { return .success(nil) }
      guard rc == pcscSuccess else {
        return .failure(Self.serviceGone(context, after: rc).error("SCardGetStatusChange", reader))
      }
      // unsafe: plain fields of the filled struct; the ATR tuple is read up to its own size.
      let count = unsafe min(Int(state.cbAtr), Int(MAX_ATR_SIZE))
      let atr = unsafe withUnsafeBytes(of: state.rgbAtr) { unsafe Array($0.prefix(count)) }
      let flags = unsafe PCSCReaderState.Flags(rawValue: state.dwEventState)
      return .success(PCSCReaderState(reader: reader, flags: flags, atr: flags.contains(.present) ? atr : []))
    }
  }

  /// The code to report for `rc`: a wait cut off by pcscd going away ends with whatever the
  /// client library makes of the closed socket (`SCARD_F_COMM_ERROR`,
  /// `SCARD_W_SECURITY_VIOLATION` and `SCARD_E_NO_SERVICE` were all seen); a size query then
  /// says `SCARD_E_NO_SERVICE` when pcscd is gone, which is what happened.
  static func serviceGone(_ context: SCARDCONTEXT, after rc: LONG) -> PCSCErrorCode {
    guard code(rc) != .cancelled, code(rc) != .noService else { return code(rc) }
    var size: DWORD = 0
    // unsafe: a size query (nil buffer) writes only into the live local `size`.
    let probe = unsafe SCardListReaders(context, nil, nil, &size)
    return code(probe) == .noService ? .noService : code(rc)
  }

  /// The current state of `reader`.
  ///
  /// - Throws: as ``waitForChange(_:known:timeout:)``.
  public func state(of reader: String) async throws(ReaderError) -> PCSCReaderState {
    guard let state = try await waitForChange(reader, known: nil, timeout: .zero) else {
      throw PCSCErrorCode.timeout.error("SCardGetStatusChange", reader)
    }
    return state
  }

  /// Waits until a card is in `reader` (at once when one is), or `timeout` passes.
  ///
  /// - Returns: the state with the card's ATR, or nil after `timeout`.
  /// - Throws: as ``waitForChange(_:known:timeout:)``; `ReaderError.Code.noReader` once the
  ///   reader is unavailable (unplugged), `SCARD_E_NO_SERVICE` when pcscd goes away.
  public func waitForCard(in reader: String, timeout: Duration) async throws(ReaderError) -> PCSCReaderState?
  {
    try await waitFor(reader, timeout: timeout) { $0.isCardPresent }
  }

  /// Waits until `reader` is empty (at once when it is), or `timeout` passes.
  ///
  /// - Returns: the state, or nil after `timeout`.
  /// - Throws: as ``waitForCard(in:timeout:)``.
  public func waitForRemoval(from reader: String, timeout: Duration) async throws(ReaderError)
    -> PCSCReaderState?
  {
    try await waitFor(reader, timeout: timeout) { $0.flags.contains(.empty) }
  }

  private func waitFor(_ reader: String, timeout: Duration, until done: (PCSCReaderState) -> Bool)
    async throws(ReaderError) -> PCSCReaderState?
  {
    let deadline = ContinuousClock.now + timeout
    var state = try await state(of: reader)
    while !done(state) {
      // The reader went away (unplugged, its driver answering IFD_NO_SUCH_DEVICE): no card
      // will come or go in it.
      if state.flags.contains(.unknown) || state.flags.contains(.unavailable) {
        throw ReaderError(.noReader, "\(reader) is unavailable (unplugged)")
      }
      let left = deadline - ContinuousClock.now
      guard left > .zero, let next = try await waitForChange(reader, known: state, timeout: left) else {
        return nil
      }
      state = next
    }
    return state
  }

  /// Connects to the card in `reader` (`SCardConnect`); with ``PCSCShareMode/direct`` to
  /// the reader itself, card or not.
  ///
  /// - Throws: `ReaderError` with the PC/SC code: `SCARD_E_NO_SMARTCARD`
  ///   (`ReaderError.Code.tagLost`), `SCARD_E_SHARING_VIOLATION`
  ///   (`ReaderError.Code.deviceBusy`), `SCARD_E_UNKNOWN_READER`, ...
  public func connect(
    to reader: String, share: PCSCShareMode = .shared, protocols: PCSCProtocols = .any
  ) async throws(ReaderError) -> PCSCCard {
    let (card, active) = try await perform { context -> Result<(SCARDHANDLE, DWORD), ReaderError> in
      var card: SCARDHANDLE = 0
      var active: DWORD = 0
      // unsafe: the reader name lives for the closure; card and protocol are live locals.
      let rc = unsafe reader.withCString {
        unsafe SCardConnect(context, $0, share.rawValue, protocols.rawValue, &card, &active)
      }
      guard rc == pcscSuccess else { return .failure(Self.code(rc).error("SCardConnect", reader)) }
      return .success((card, active))
    }
    return PCSCCard(
      handle: card, reader: reader, activeProtocol: PCSCProtocols(rawValue: active), context: self,
      share: share)
  }

  /// `timeout` in whole milliseconds for pcsc-lite (at most `INFINITE` - 1).
  static func milliseconds(_ timeout: Duration) -> DWORD {
    DWORD(timeout.milliseconds(clampedTo: 0...0xFFFF_FFFE))
  }
}
