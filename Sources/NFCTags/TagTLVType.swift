// SPDX-License-Identifier: Apache-2.0
/// The T field of a TLV block in the data area of Type 1, 2 and 5 tags
/// (T1T 1.2 §2.3, T2T 1.0 §2.3, T5T 1.0 §4.3).
public struct TagTLVType: RawRepresentable, Sendable, Hashable {
  /// The T byte.
  public let rawValue: UInt8
  /// Wraps a T byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 0x00: NULL TLV, a single padding byte without length or value (T2T §2.3.1).
  public static let null = TagTLVType(rawValue: 0x00)
  /// 0x01: Lock Control TLV, where the dynamic lock bits are (T2T §2.3.2).
  public static let lockControl = TagTLVType(rawValue: 0x01)
  /// 0x02: Memory Control TLV, where reserved bytes are (T2T §2.3.3).
  public static let memoryControl = TagTLVType(rawValue: 0x02)
  /// 0x03: NDEF Message TLV (T2T §2.3.4).
  public static let ndef = TagTLVType(rawValue: 0x03)
  /// 0xFD: Proprietary TLV (T2T §2.3.5).
  public static let proprietary = TagTLVType(rawValue: 0xFD)
  /// 0xFE: Terminator TLV, the last TLV, a single byte (T2T §2.3.6).
  public static let terminator = TagTLVType(rawValue: 0xFE)

  /// Whether the specifications define this type (all others are reserved).
  public var isDefined: Bool {
    switch rawValue {
    case 0x00, 0x01, 0x02, 0x03, 0xFD, 0xFE: return true
    default: return false
    }
  }

  /// Whether the TLV is a single T byte (NULL and Terminator).
  public var isSingleByte: Bool { rawValue == 0x00 || rawValue == 0xFE }

  /// The JSON contract's `typeName`: `null`, `lockControl`, `memoryControl`, `ndef`,
  /// `proprietary`, `terminator`, or `reserved`.
  public var name: String {
    switch rawValue {
    case 0x00: return "null"
    case 0x01: return "lockControl"
    case 0x02: return "memoryControl"
    case 0x03: return "ndef"
    case 0xFD: return "proprietary"
    case 0xFE: return "terminator"
    default: return "reserved"
    }
  }
}
