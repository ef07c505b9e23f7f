// SPDX-License-Identifier: Apache-2.0

import NFCWire

/// The control codes of a reader-driven NFC session in the style of Rutoken's iOS PC/SC
/// layer (`RtPcsc`): `RUTOKEN_CONTROL_CODE_START_NFC`, `..._STOP_NFC`,
/// `..._STOP_NFC_WITH_ERROR`, `..._LAST_NFC_STOP_REASON`, `..._NFC_COOLDOWN`, sent with
/// `SCardControl` on a `SCARD_SHARE_DIRECT` connection (the flow of Rutoken's public
/// `rt-pcsc-wrapper` / rutoken-demoshift-ios sources).
///
/// The numeric values live in the `RtPcsc` framework's header, which is not published
/// with those sources, so they are configurable here. ``tapwireDefaults`` are Tapwire's
/// own values (`SCARD_CTL_CODE(3600)`...`(3604)` on pcsc-lite), the ones Tapwire's virtual
/// reader driver answers; pass the framework's values to talk to a Rutoken stack.
public struct NFCControlCodes: Sendable, Hashable {
  /// Starts discovery; input ``NFCStartMessages`` (the waiting and working messages).
  public var startNFC: ControlCode
  /// Stops discovery after success; input ``NFCStopMessage`` (the final message).
  public var stopNFC: ControlCode
  /// Stops discovery with an error icon; input ``NFCStopMessage`` (the error message).
  public var stopNFCWithError: ControlCode
  /// Asks why discovery stopped; output one byte, an ``NFCStopReason``.
  public var lastNFCStopReason: ControlCode
  /// Asks how many seconds until discovery may start again; output one byte.
  public var nfcCooldown: ControlCode

  /// Creates a set of codes.
  public init(
    startNFC: ControlCode, stopNFC: ControlCode, stopNFCWithError: ControlCode,
    lastNFCStopReason: ControlCode,
    nfcCooldown: ControlCode
  ) {
    self.startNFC = startNFC
    self.stopNFC = stopNFC
    self.stopNFCWithError = stopNFCWithError
    self.lastNFCStopReason = lastNFCStopReason
    self.nfcCooldown = nfcCooldown
  }

  /// Tapwire's defaults: `SCARD_CTL_CODE(3600)` start, 3601 stop, 3602 stop with error,
  /// 3603 last stop reason, 3604 cooldown (not Rutoken's values, which are not public).
  public static let tapwireDefaults = NFCControlCodes(
    startNFC: .pcscLite(3600), stopNFC: .pcscLite(3601), stopNFCWithError: .pcscLite(3602),
    lastNFCStopReason: .pcscLite(3603), nfcCooldown: .pcscLite(3604))
}

/// The START_NFC input buffer: `"<waiting>\0<working>\0\0"` in UTF-8 (the waiting message
/// is shown until a card comes, the working message while the app works with it), exactly
/// `waiting.utf8.count + working.utf8.count + 3` bytes, as Rutoken's wrapper sends it.
public struct NFCStartMessages: Sendable, Hashable {
  /// Shown while waiting for a card.
  public var waiting: String
  /// Shown while working with the card.
  public var working: String

  /// Creates messages.
  public init(waiting: String, working: String) {
    self.waiting = waiting
    self.working = working
  }

  /// The buffer.
  ///
  /// - Throws: ``PCSCControlError/Code/messageContainsNUL`` when a message contains NUL
  ///   (offset: the NUL's position in the buffer that would result).
  public func encodedBytes() throws(PCSCControlError) -> [UInt8] {
    let wait = Array(waiting.utf8)
    let work = Array(working.utf8)
    if let nul = wait.firstIndex(of: 0) { throw PCSCControlError(.messageContainsNUL, offset: nul) }
    if let nul = work.firstIndex(of: 0) {
      throw PCSCControlError(.messageContainsNUL, offset: wait.count &+ 1 &+ nul)
    }
    return wait + [0] + work + [0, 0]
  }

  /// Parses a buffer.
  ///
  /// - Throws: ``PCSCControlError/Code/missingTerminator`` (offset: the input's end) when
  ///   a NUL is missing, ``PCSCControlError/Code/trailingData`` when bytes follow the final
  ///   NUL, ``PCSCControlError/Code/invalidUTF8`` at the first bad byte of a message.
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    guard let first = bytes.firstIndex(of: 0) else {
      throw PCSCControlError(.missingTerminator, offset: bytes.count)
    }
    guard let second = bytes[(first + 1)...].firstIndex(of: 0) else {
      throw PCSCControlError(.missingTerminator, offset: bytes.count)
    }
    guard second + 1 < bytes.count, bytes[second + 1] == 0 else {
      throw PCSCControlError(.missingTerminator, offset: second + 1)
    }
    guard second + 2 == bytes.count else { throw PCSCControlError(.trailingData, offset: second + 2) }
    waiting = try decodeUTF8(Array(bytes[..<first]), offset: 0)
    working = try decodeUTF8(Array(bytes[(first + 1)..<second]), offset: first + 1)
  }
}

/// The STOP_NFC / STOP_NFC_WITH_ERROR input buffer: the message's UTF-8 bytes, no
/// terminator (`message.utf8.count` bytes, as Rutoken's wrapper sends it).
public struct NFCStopMessage: Sendable, Hashable {
  /// The final message (or the error message).
  public var message: String

  /// Creates a message.
  public init(_ message: String) { self.message = message }

  /// The buffer.
  ///
  /// - Throws: ``PCSCControlError/Code/messageContainsNUL`` at the NUL's offset.
  public func encodedBytes() throws(PCSCControlError) -> [UInt8] {
    let bytes = Array(message.utf8)
    if let nul = bytes.firstIndex(of: 0) { throw PCSCControlError(.messageContainsNUL, offset: nul) }
    return bytes
  }

  /// Parses a buffer.
  ///
  /// - Throws: ``PCSCControlError/Code/messageContainsNUL`` at the first NUL,
  ///   ``PCSCControlError/Code/invalidUTF8`` at the first bad byte.
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    if let nul = bytes.firstIndex(of: 0) { throw PCSCControlError(.messageContainsNUL, offset: nul) }
    message = try decodeUTF8(bytes, offset: 0)
  }
}

/// Why the reader's NFC discovery stopped: the one byte LAST_NFC_STOP_REASON returns (the
/// values of Rutoken's public `RtNfcStopReason`).
public struct NFCStopReason: RawRepresentable, Sendable, Hashable {
  /// The byte.
  public let rawValue: UInt8
  /// Creates a reason.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 0: the app stopped discovery (STOP_NFC or STOP_NFC_WITH_ERROR).
  public static let finished = NFCStopReason(rawValue: 0x00)
  /// 1: stopped for an unknown reason.
  public static let unknown = NFCStopReason(rawValue: 0x01)
  /// 2: the platform's session limit passed (20 s per session on iOS).
  public static let timeout = NFCStopReason(rawValue: 0x02)
  /// 3: the user cancelled (the cancel button of the system's NFC sheet).
  public static let cancelledByUser = NFCStopReason(rawValue: 0x03)
  /// 4: no stop yet: discovery is still running.
  public static let noError = NFCStopReason(rawValue: 0x04)
  /// 5: the device cannot do NFC discovery.
  public static let unsupportedDevice = NFCStopReason(rawValue: 0x05)

  /// Whether the value is one of the documented reasons.
  public var isKnown: Bool { rawValue <= 0x05 }

  /// A stable name for logs and JSON (`unknown(0xNN)` style names are not used: unknown
  /// values are named `undefined`).
  public var name: String {
    switch rawValue {
    case 0: "finished"
    case 1: "unknown"
    case 2: "timeout"
    case 3: "cancelledByUser"
    case 4: "noError"
    case 5: "unsupportedDevice"
    default: "undefined"
    }
  }

  /// Parses the answer buffer: exactly one byte.
  ///
  /// - Parameters:
  ///   - bytes: the answer buffer of the stop control code.
  ///   - strict: when true, a byte with no documented meaning throws.
  /// - Throws: ``PCSCControlError/Code/truncatedStopReason`` (offset 0) for an empty
  ///   answer, ``PCSCControlError/Code/trailingData`` (offset 1) for more than one byte,
  ///   ``PCSCControlError/Code/unknownStopReason`` (offset 0) for an undefined value when strict.
  public init(parsing bytes: [UInt8], strict: Bool = false) throws(PCSCControlError) {
    guard let byte = bytes.first else { throw PCSCControlError(.truncatedStopReason, offset: 0) }
    guard bytes.count == 1 else { throw PCSCControlError(.trailingData, offset: 1) }
    self.init(rawValue: byte)
    if strict && !isKnown { throw PCSCControlError(.unknownStopReason, offset: 0) }
  }

  /// The answer buffer (one byte).
  public func encodedBytes() -> [UInt8] { [rawValue] }
}

/// The string of UTF-8 `bytes`, or ``PCSCControlError/Code/invalidUTF8`` at `offset` plus
/// the first bad byte.
func decodeUTF8(_ bytes: [UInt8], offset: Int) throws(PCSCControlError) -> String {
  if let bad = TextValidation.firstInvalidUTF8(bytes.span.bytes) {
    throw PCSCControlError(.invalidUTF8, offset: offset &+ bad)
  }
  return String(decoding: bytes, as: UTF8.self)
}
