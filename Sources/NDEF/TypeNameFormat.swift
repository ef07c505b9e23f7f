// SPDX-License-Identifier: Apache-2.0
/// The 3-bit Type Name Format of an NDEF record (NFC Forum NDEF 1.0, §3.2.6).
///
/// A `RawRepresentable` struct rather than an enum so that every 3-bit value can be
/// represented and a `switch` over it never traps.
public struct TypeNameFormat: RawRepresentable, Sendable, Hashable, BitwiseCopyable {
  /// The 3-bit value, 0...7.
  public let rawValue: UInt8

  /// Creates a TNF from its 3-bit value; `nil` when the value does not fit in 3 bits.
  @inlinable public init?(rawValue: UInt8) {
    guard rawValue <= 7 else { return nil }
    self.rawValue = rawValue
  }

  @inlinable init(_ value: UInt8) { self.rawValue = value }

  /// 0x00 Empty: no type, id or payload (§3.2.6).
  @inlinable public static var empty: TypeNameFormat { TypeNameFormat(0x00) }
  /// 0x01 NFC Forum well-known type [NFC RTD].
  @inlinable public static var wellKnown: TypeNameFormat { TypeNameFormat(0x01) }
  /// 0x02 Media type as defined in RFC 2046.
  @inlinable public static var media: TypeNameFormat { TypeNameFormat(0x02) }
  /// 0x03 Absolute URI as defined in RFC 3986.
  @inlinable public static var absoluteURI: TypeNameFormat { TypeNameFormat(0x03) }
  /// 0x04 NFC Forum external type [NFC RTD].
  @inlinable public static var external: TypeNameFormat { TypeNameFormat(0x04) }
  /// 0x05 Unknown: the payload type is unknown; no type field.
  @inlinable public static var unknown: TypeNameFormat { TypeNameFormat(0x05) }
  /// 0x06 Unchanged: used only in middle and terminating record chunks (§2.3.3).
  @inlinable public static var unchanged: TypeNameFormat { TypeNameFormat(0x06) }
  /// 0x07 Reserved.
  @inlinable public static var reserved: TypeNameFormat { TypeNameFormat(0x07) }

  /// The name used by the JSON contract (`tnfName`): `empty`, `wellKnown`, `media`,
  /// `absoluteURI`, `external`, `unknown`, `unchanged` or `reserved`.
  public var name: String {
    switch rawValue {
    case 0: return "empty"
    case 1: return "wellKnown"
    case 2: return "media"
    case 3: return "absoluteURI"
    case 4: return "external"
    case 5: return "unknown"
    case 6: return "unchanged"
    default: return "reserved"
    }
  }

  /// Whether records of this format must carry a non-empty TYPE field (TNF 0x01...0x04).
  public var requiresType: Bool { rawValue >= 0x01 && rawValue <= 0x04 }
}

extension TypeNameFormat: CustomStringConvertible {
  /// The contract name and the raw value, e.g. `wellKnown (0x01)`.
  public var description: String { "\(name) (0x0\(rawValue))" }
}
