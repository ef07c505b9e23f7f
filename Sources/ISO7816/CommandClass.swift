// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The class byte CLA of a command APDU, decoded (ISO/IEC 7816-4:2013 §5.1.1, Tables 2 and 3).
///
/// Interindustry classes come in two codings: the *first* (`000x xxxx`: chaining bit b5,
/// secure messaging in b4-b3, logical channel 0...3 in b2-b1) and the *further*
/// (`01xx xxxx`: secure messaging bit b6, chaining bit b5, logical channel 4...19 as
/// 4 + b4-b1). `001x xxxx` is reserved for future use, `1xxx xxxx` is proprietary and 0xFF is
/// invalid. GlobalPlatform (Card Specification 2.3 §11.1.4) codes its proprietary classes
/// 0x80...0xFE with the same bit layout, which ``logicalChannel`` and ``isChaining`` follow.
public struct CommandClass: RawRepresentable, Sendable, Hashable {
  /// The CLA byte.
  public let rawValue: UInt8

  /// Wraps a CLA byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 0x00: first interindustry class, no chaining, no secure messaging, basic channel 0.
  public static let interindustry = CommandClass(rawValue: 0x00)
  /// 0x80: the GlobalPlatform proprietary class on the basic channel (GP 2.3 §11.1.4).
  public static let globalPlatform = CommandClass(rawValue: 0x80)
  /// 0x84: the GlobalPlatform class with secure messaging (GP 2.3 §11.1.4).
  public static let globalPlatformSecure = CommandClass(rawValue: 0x84)

  /// The kinds of class byte (§5.1.1).
  public struct Kind: RawRepresentable, Sendable, Hashable {
    /// 0 first interindustry, 1 further interindustry, 2 reserved, 3 proprietary, 4 invalid.
    public let rawValue: UInt8
    /// Creates a kind from its raw value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `000x xxxx`: first interindustry values (channels 0...3).
    public static let firstInterindustry = Kind(rawValue: 0)
    /// `01xx xxxx`: further interindustry values (channels 4...19).
    public static let furtherInterindustry = Kind(rawValue: 1)
    /// `001x xxxx`: reserved for future use.
    public static let reserved = Kind(rawValue: 2)
    /// `1xxx xxxx` except 0xFF: proprietary.
    public static let proprietary = Kind(rawValue: 3)
    /// 0xFF: invalid (PPS in ISO/IEC 7816-3).
    public static let invalid = Kind(rawValue: 4)

    /// `firstInterindustry`, `furtherInterindustry`, `reserved`, `proprietary` or `invalid`.
    public var name: String {
      switch rawValue {
      case 0: return "firstInterindustry"
      case 1: return "furtherInterindustry"
      case 2: return "reserved"
      case 3: return "proprietary"
      default: return "invalid"
      }
    }
  }

  /// The secure messaging indication of the class byte (§5.1.1, Tables 3 and 4).
  public struct SecureMessaging: RawRepresentable, Sendable, Hashable {
    /// 0 none, 1 proprietary, 2 header not authenticated, 3 header authenticated.
    public let rawValue: UInt8
    /// Creates an indication from its raw value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// No secure messaging, or no indication.
    public static let none = SecureMessaging(rawValue: 0)
    /// Proprietary secure messaging format (first interindustry b4-b3 = 01).
    public static let proprietary = SecureMessaging(rawValue: 1)
    /// Secure messaging according to §6, command header not processed (b4-b3 = 10, or b6 of
    /// a further interindustry class).
    public static let headerNotAuthenticated = SecureMessaging(rawValue: 2)
    /// Secure messaging according to §6, command header authenticated (b4-b3 = 11).
    public static let headerAuthenticated = SecureMessaging(rawValue: 3)

    /// `none`, `proprietary`, `headerNotAuthenticated` or `headerAuthenticated` (the JSON
    /// contract's `secureMessaging`).
    public var name: String {
      switch rawValue {
      case 0: return "none"
      case 1: return "proprietary"
      case 2: return "headerNotAuthenticated"
      default: return "headerAuthenticated"
      }
    }
  }

  /// Which coding the class byte uses.
  public var kind: Kind {
    switch rawValue {
    case 0xFF: return .invalid
    case 0x80...0xFE: return .proprietary
    case 0x40...0x7F: return .furtherInterindustry
    case 0x20...0x3F: return .reserved
    default: return .firstInterindustry
    }
  }

  /// Whether the class is interindustry (first or further values).
  public var isInterindustry: Bool {
    kind == .firstInterindustry || kind == .furtherInterindustry
  }

  /// The low seven bits interpreted as an interindustry layout: the class itself, or for a
  /// GlobalPlatform-style proprietary class (0x80...0xFE) the same bits without b8.
  private var layout: UInt8? {
    switch kind {
    case .firstInterindustry, .furtherInterindustry: return rawValue
    case .proprietary:
      let low = rawValue & 0x7F
      return low & 0x60 == 0x20 ? nil : low
    default: return nil
    }
  }

  /// Bit b5: this command is not the last of a chain (§5.1.1.1). Read with the interindustry
  /// layout, and for proprietary classes with the GlobalPlatform one.
  public var isChaining: Bool {
    guard let layout else { return false }
    return layout & 0x10 != 0
  }

  /// The secure messaging indication; for proprietary classes, GlobalPlatform's b3 ("secure
  /// messaging, header authenticated", e.g. 0x84) or b6 for channels 4...19.
  public var secureMessaging: SecureMessaging {
    guard let layout else { return .none }
    if layout & 0x40 != 0 { return layout & 0x20 != 0 ? .headerNotAuthenticated : .none }
    if kind == .proprietary { return layout & 0x04 != 0 ? .headerAuthenticated : .none }
    return SecureMessaging(rawValue: (layout >> 2) & 0x03)
  }

  /// The logical channel number, 0...19 (§5.1.1); `nil` for reserved and invalid classes.
  /// Proprietary classes are read with the GlobalPlatform layout.
  public var logicalChannel: Int? {
    guard let layout else { return nil }
    if layout & 0x40 != 0 { return 4 + Int(layout & 0x0F) }
    return Int(layout & 0x03)
  }

  /// An interindustry class byte (§5.1.1): first values for channels 0...3, further values
  /// for 4...19. Header-authenticated and proprietary secure messaging exist only in the
  /// first values.
  ///
  /// - Throws: ``APDUError/Code/invalidClass`` for a channel outside 0...19 or a secure
  ///   messaging indication the coding cannot carry.
  public static func interindustry(
    channel: Int, chaining: Bool = false, secureMessaging: SecureMessaging = .none
  ) throws(APDUError) -> CommandClass {
    let chain: UInt8 = chaining ? 0x10 : 0
    switch channel {
    case 0...3:
      return CommandClass(rawValue: chain | secureMessaging.rawValue << 2 | UInt8(channel))
    case 4...19:
      let sm: UInt8
      switch secureMessaging {
      case .none: sm = 0
      case .headerNotAuthenticated: sm = 0x20
      default: throw APDUError(.invalidClass, offset: 0)
      }
      return CommandClass(rawValue: 0x40 | sm | chain | UInt8(channel - 4))
    default: throw APDUError(.invalidClass, offset: 0)
    }
  }

  /// The same class with the chaining bit b5 set or cleared; unchanged for classes that have
  /// no chaining bit (reserved, 0xFF).
  public func withChaining(_ chaining: Bool) -> CommandClass {
    guard layout != nil else { return self }
    let value = chaining ? rawValue | 0x10 : rawValue & ~0x10
    return CommandClass(rawValue: value)
  }

  /// The plain interindustry class of this class's logical channel (no chaining, no secure
  /// messaging), as GET RESPONSE and MANAGE CHANNEL use it (§5.1.1, §7.1.2, §7.6.1): 0x01 for
  /// GlobalPlatform's 0x81, never a proprietary class. `nil` when the channel is unknown.
  public var interindustryForChannel: CommandClass? {
    guard let channel = logicalChannel else { return nil }
    return try? CommandClass.interindustry(channel: channel)
  }
}

extension CommandClass: CustomStringConvertible {
  /// The byte in hex and its kind, e.g. `0x00 firstInterindustry`.
  public var description: String {
    "0x" + Hex.string([rawValue]) + " " + kind.name
  }
}
