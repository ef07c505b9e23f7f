// SPDX-License-Identifier: Apache-2.0
/// The state of a PC/SC reader as `SCardGetStatusChange` reports it (PC/SC part 5
/// §3.1.13; pcsc-lite `SCARD_STATE_...`): flags and, with a card present, its ATR.
public struct PCSCReaderState: Sendable, Hashable {
  /// `dwEventState` flags (`SCARD_STATE_...`).
  public struct Flags: OptionSet, Sendable, Hashable {
    /// The raw `SCARD_STATE_...` bits (the upper 16 bits hold the reader's event counter).
    public var rawValue: UInt
    /// Creates flags from raw bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// `SCARD_STATE_CHANGED`: the state differs from the one the caller gave.
    public static let changed = Flags(rawValue: 0x0002)
    /// `SCARD_STATE_UNKNOWN`: the reader name is not known to pcscd.
    public static let unknown = Flags(rawValue: 0x0004)
    /// `SCARD_STATE_UNAVAILABLE`: the reader's state cannot be read.
    public static let unavailable = Flags(rawValue: 0x0008)
    /// `SCARD_STATE_EMPTY`: no card in the reader.
    public static let empty = Flags(rawValue: 0x0010)
    /// `SCARD_STATE_PRESENT`: a card is in the reader.
    public static let present = Flags(rawValue: 0x0020)
    /// `SCARD_STATE_EXCLUSIVE`: a client holds the card exclusively.
    public static let exclusive = Flags(rawValue: 0x0080)
    /// `SCARD_STATE_INUSE`: a client holds the card shared.
    public static let inUse = Flags(rawValue: 0x0100)
    /// `SCARD_STATE_MUTE`: the card does not answer reset.
    public static let mute = Flags(rawValue: 0x0200)
    /// `SCARD_STATE_UNPOWERED`: the card is not powered.
    public static let unpowered = Flags(rawValue: 0x0400)

    /// The event counter pcsc-lite keeps in the upper 16 bits (it grows on every insertion
    /// and removal).
    public var eventCount: Int { Int((rawValue >> 16) & 0xFFFF) }
  }

  /// The reader's name.
  public var reader: String
  /// The flags.
  public var flags: Flags
  /// The card's answer to reset when a card is present (empty otherwise).
  public var atr: [UInt8]

  /// Creates a state.
  public init(reader: String, flags: Flags, atr: [UInt8]) {
    self.reader = reader
    self.flags = flags
    self.atr = atr
  }

  /// Whether a card is present.
  public var isCardPresent: Bool { flags.contains(.present) }
}

/// How `SCardConnect` shares the card (PC/SC part 5 §3.1.4; `SCARD_SHARE_...`).
public struct PCSCShareMode: RawRepresentable, Sendable, Hashable {
  /// The raw `SCARD_SHARE_...` value.
  public var rawValue: UInt
  /// Creates a mode from its raw value.
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// `SCARD_SHARE_EXCLUSIVE`: no other client may connect.
  public static let exclusive = PCSCShareMode(rawValue: 1)
  /// `SCARD_SHARE_SHARED`: other clients may connect too.
  public static let shared = PCSCShareMode(rawValue: 2)
  /// `SCARD_SHARE_DIRECT`: the reader itself, with or without a card (for control codes).
  public static let direct = PCSCShareMode(rawValue: 3)
}

/// The transmission protocols a connection accepts or uses (`SCARD_PROTOCOL_...`).
public struct PCSCProtocols: OptionSet, Sendable, Hashable {
  /// The raw `SCARD_PROTOCOL_...` bits.
  public var rawValue: UInt
  /// Creates protocols from raw bits.
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// `SCARD_PROTOCOL_T0`: ISO/IEC 7816-3 T=0.
  public static let t0 = PCSCProtocols(rawValue: 1)
  /// `SCARD_PROTOCOL_T1`: ISO/IEC 7816-3 T=1.
  public static let t1 = PCSCProtocols(rawValue: 2)
  /// `SCARD_PROTOCOL_RAW`: raw exchanges with the reader.
  public static let raw = PCSCProtocols(rawValue: 4)
  /// T=0 or T=1, the reader chooses (`SCARD_PROTOCOL_ANY`).
  public static let any: PCSCProtocols = [.t0, .t1]

  /// `T=0`, `T=1`, `raw` or `none`, joined by `|`.
  public var name: String {
    var names: [String] = []
    if contains(.t0) { names.append("T=0") }
    if contains(.t1) { names.append("T=1") }
    if contains(.raw) { names.append("raw") }
    return names.isEmpty ? "none" : names.joined(separator: "|")
  }
}

/// What `SCardDisconnect` does with the card (`SCARD_..._CARD`).
public struct PCSCDisposition: RawRepresentable, Sendable, Hashable {
  /// The raw value.
  public var rawValue: UInt
  /// Creates a disposition from its raw value.
  public init(rawValue: UInt) { self.rawValue = rawValue }
  /// `SCARD_LEAVE_CARD`: leave the card as it is.
  public static let leave = PCSCDisposition(rawValue: 0)
  /// `SCARD_RESET_CARD`: warm reset.
  public static let reset = PCSCDisposition(rawValue: 1)
  /// `SCARD_UNPOWER_CARD`: power the card down.
  public static let unpower = PCSCDisposition(rawValue: 2)
  /// `SCARD_EJECT_CARD`: eject (readers that can).
  public static let eject = PCSCDisposition(rawValue: 3)
}
