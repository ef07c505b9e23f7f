// SPDX-License-Identifier: Apache-2.0
import CPCSCLite
import Dispatch
import Glibc
import NFCReader

/// A connection to a card (or, in direct mode, to a reader) made by
/// ``PCSCContext/connect(to:share:protocols:)``: status and ATR, APDU exchange, reader
/// control codes, disconnect (PC/SC part 5 §3.1.4-§3.1.9).
///
/// Sendable by hand. Invariant: `handle` is used only by blocks on `queue`, and after
/// `disconnect` (which clears `isOpen` on the queue) never again.
@safe public final class PCSCCard: @unchecked Sendable {
  private let handle: SCARDHANDLE
  private let queue = DispatchQueue(label: "tapwire.pcsc.card")
  private var isOpen = true
  /// The reader the card is in.
  public let reader: String
  /// The protocol pcscd chose (`T=0`, `T=1`; none in direct mode without a card).
  public let activeProtocol: PCSCProtocols
  /// The context, kept alive as long as the card.
  public let context: PCSCContext
  /// The share mode the connection was made with (kept by ``reconnect(_:)``).
  let share: PCSCShareMode

  init(
    handle: SCARDHANDLE, reader: String, activeProtocol: PCSCProtocols, context: PCSCContext,
    share: PCSCShareMode = .shared
  ) {
    self.handle = handle
    self.reader = reader
    self.activeProtocol = activeProtocol
    self.context = context
    self.share = share
  }

  deinit {
    if isOpen { _ = SCardDisconnect(handle, PCSCDisposition.leave.rawValue) }
  }

  /// The largest response APDU: 65536 data bytes and SW1-SW2, plus room pcsc-lite's
  /// `MAX_BUFFER_SIZE_EXTENDED` keeps for the command header.
  static let maximumResponseSize = 4 + 3 + 65536 + 3 + 2

  private func perform<T: Sendable>(
    closing: Bool = false, _ body: @escaping @Sendable (SCARDHANDLE, String) -> Result<T, ReaderError>
  )
    async throws(ReaderError) -> T
  {
    // The block holds the card weakly and drops its strong reference before resuming: the
    // caller's reference keeps the card alive, and the last release (deinit, which calls
    // pcsc-lite) never runs on this queue after the caller went on (for example into exit()).
    let result = await withCheckedContinuation {
      (continuation: CheckedContinuation<Result<T, ReaderError>, Never>) in
      queue.async { [weak self] in
        let result: Result<T, ReaderError> = {
          guard let self, self.isOpen else {
            return .failure(ReaderError(.sessionEnded, "the card was disconnected"))
          }
          if closing { self.isOpen = false }
          return body(self.handle, self.reader)
        }()
        continuation.resume(returning: result)
      }
    }
    return try result.get()
  }

  /// The card's answer to reset, from `SCardStatus`.
  ///
  /// - Throws: `ReaderError` with the PC/SC code (`SCARD_W_REMOVED_CARD`, ...).
  public func atr() async throws(ReaderError) -> [UInt8] {
    try await perform { card, reader in
      var atr = [UInt8](repeating: 0, count: Int(MAX_ATR_SIZE))
      var atrLength = DWORD(atr.count)
      var state: DWORD = 0
      var active: DWORD = 0
      var nameLength: DWORD = 0
      // unsafe: no reader-name buffer (size query only); the ATR buffer holds atrLength bytes.
      let rc = unsafe atr.withUnsafeMutableBufferPointer {
        unsafe SCardStatus(card, nil, &nameLength, &state, &active, $0.baseAddress, &atrLength)
      }
      guard rc == pcscSuccess else {
        return .failure(PCSCContext.code(rc).error("SCardStatus", reader))
      }
      return .success(Array(atr.prefix(min(Int(atrLength), atr.count))))
    }
  }

  /// Sends one command APDU and returns the response APDU (`SCardTransmit`), up to
  /// 65538 bytes (extended length).
  ///
  /// - Throws: `ReaderError` with the PC/SC code: `SCARD_W_REMOVED_CARD` or
  ///   `SCARD_E_NO_SMARTCARD` (`ReaderError.Code.tagLost`) when the card left, also in the
  ///   middle of the exchange (the driver's `SCARD_E_NOT_TRANSACTED` is then checked against
  ///   the card's status for up to 1 s), `SCARD_E_NO_SERVICE` when pcscd went away,
  ///   `SCARD_E_NOT_TRANSACTED`, ...
  public func transmit(_ command: [UInt8]) async throws(ReaderError) -> [UInt8] {
    let proto = activeProtocol
    return try await perform { card, reader in
      var request = SCARD_IO_REQUEST(
        dwProtocol: proto.rawValue, cbPciLength: UInt(MemoryLayout<SCARD_IO_REQUEST>.size))
      var response = [UInt8](repeating: 0, count: Self.maximumResponseSize)
      var length = DWORD(response.count)
      // unsafe: the command buffer is read for its count; the response buffer holds `length` bytes.
      let rc = unsafe command.withUnsafeBufferPointer { input in
        unsafe response.withUnsafeMutableBufferPointer { output in
          unsafe SCardTransmit(
            card, &request, input.baseAddress, DWORD(input.count), nil, output.baseAddress, &length)
        }
      }
      guard rc == pcscSuccess else {
        // A card leaving mid-exchange fails it as SCARD_E_NOT_TRANSACTED or
        // SCARD_F_COMM_ERROR (the driver's own failure): name the removal once pcscd has seen it.
        let code = Self.failureCode(card, rc)
        if code == .notTransacted || code == .failureCommunicationError,
          let gone = Self.removal(card, polls: 10)
        {
          return .failure(PCSCContext.code(gone).error("SCardTransmit", "\(reader): the card left"))
        }
        return .failure(code.error("SCardTransmit", reader))
      }
      guard length >= 2 else {
        // Some drivers (vpcd among them) report success with no bytes when the card went
        // away mid-exchange: ask for the card's status to name what happened, for up to
        // 2 s (pcscd polls a reader's card presence every 400 ms).
        if let status = Self.removal(card, polls: 20) {
          return .failure(PCSCContext.code(status).error("SCardTransmit", "\(reader): no response"))
        }
        return .failure(
          ReaderError(.tagError, "SCardTransmit: \(reader) answered \(length) bytes, less than SW1-SW2"))
      }
      return .success(Array(response.prefix(min(Int(length), response.count))))
    }
  }

  /// Resets (or powers down and up) the card and keeps the connection (`SCardReconnect`,
  /// PC/SC part 5 §3.1.4.3) with the same share mode and protocol: what a storage card
  /// needs after a refused MIFARE Classic key, since the card is then halted until the
  /// reader activates it again.
  ///
  /// - Parameter initialization: ``PCSCDisposition/reset`` (warm reset) or
  ///   ``PCSCDisposition/unpower`` (cold reset).
  /// - Throws: `ReaderError` with the PC/SC code (`SCARD_W_REMOVED_CARD`,
  ///   `SCARD_E_NO_SMARTCARD`: `ReaderError.Code.tagLost`).
  public func reconnect(_ initialization: PCSCDisposition = .reset) async throws(ReaderError) {
    let share = share
    let protocols = activeProtocol.isEmpty ? PCSCProtocols.any : activeProtocol
    try await perform { card, reader -> Result<Void, ReaderError> in
      var active: DWORD = 0
      // unsafe: `active` is a live local the call writes once.
      let rc = unsafe SCardReconnect(
        card, share.rawValue, protocols.rawValue, initialization.rawValue, &active)
      guard rc == pcscSuccess else {
        return .failure(Self.failureCode(card, rc).error("SCardReconnect", reader))
      }
      return .success(())
    }
  }

  /// `rc`'s code, or `SCARD_E_NO_SERVICE` when the card's status says pcscd went away: the
  /// client library reports the closed socket as `SCARD_F_COMM_ERROR`,
  /// `SCARD_W_SECURITY_VIOLATION` or `SCARD_E_NO_SERVICE`, depending on when it closed.
  private static func failureCode(_ card: SCARDHANDLE, _ rc: LONG) -> PCSCErrorCode {
    let code = PCSCContext.code(rc)
    guard code != .noService else { return code }
    return PCSCContext.code(status(card)) == .noService ? .noService : code
  }

  /// `SCardStatus`'s failure once the card's status says it is gone, asked every 100 ms up to
  /// `polls` times (pcscd polls a reader's card presence every 400 ms); nil while it answers.
  private static func removal(_ card: SCARDHANDLE, polls: Int) -> LONG? {
    var status = Self.status(card)
    for _ in 0..<polls where status == pcscSuccess {
      usleep(100_000)
      status = Self.status(card)
    }
    return status == pcscSuccess ? nil : status
  }

  /// `SCardStatus`'s return code alone (no buffers).
  private static func status(_ card: SCARDHANDLE) -> LONG {
    var state: DWORD = 0
    var active: DWORD = 0
    var nameLength: DWORD = 0
    var atrLength: DWORD = 0
    // unsafe: size queries only (nil buffers); every pointer is a live local.
    return unsafe SCardStatus(card, nil, &nameLength, &state, &active, nil, &atrLength)
  }

  /// The control code of reader function `function` (`SCARD_CTL_CODE`, pcsc-lite `reader.h`:
  /// 0x42000000 + function).
  public static func controlCode(_ function: UInt32) -> UInt {
    UInt(0x4200_0000) &+ UInt(function)
  }

  /// Sends a control code to the reader (`SCardControl`), such as a vendor command that
  /// starts or stops the NFC field; returns the reader's answer (at most 65536 bytes).
  ///
  /// - Throws: `ReaderError` with the PC/SC code (`SCARD_E_UNSUPPORTED_FEATURE`
  ///   for a code the driver does not know, `SCARD_E_NO_SERVICE` when pcscd went away, ...).
  public func control(_ code: UInt, _ input: [UInt8] = []) async throws(ReaderError) -> [UInt8] {
    try await perform { card, reader in
      var output = [UInt8](repeating: 0, count: 65536)
      var length: DWORD = 0
      // unsafe: input is read for its count, output holds `output.count` bytes.
      let rc = unsafe input.withUnsafeBufferPointer { source in
        unsafe output.withUnsafeMutableBufferPointer { target in
          unsafe SCardControl(
            card, code, source.baseAddress, DWORD(source.count), target.baseAddress, DWORD(target.count),
            &length)
        }
      }
      guard rc == pcscSuccess else {
        return .failure(Self.failureCode(card, rc).error("SCardControl", reader))
      }
      return .success(Array(output.prefix(min(Int(length), output.count))))
    }
  }

  /// Ends the connection (`SCardDisconnect`) with `disposition`; later calls throw
  /// `ReaderError.Code.sessionEnded`.
  ///
  /// - Throws: `ReaderError` with the PC/SC code (a removed card is not an error:
  ///   the connection ends either way).
  public func disconnect(_ disposition: PCSCDisposition = .leave) async throws(ReaderError) {
    try await perform(closing: true) { card, reader -> Result<Void, ReaderError> in
      let rc = SCardDisconnect(card, disposition.rawValue)
      let code = PCSCContext.code(rc)
      guard rc == pcscSuccess || code == .warningRemovedCard || code == .noSmartCard
      else {
        return .failure(code.error("SCardDisconnect", reader))
      }
      return .success(())
    }
  }
}
