// SPDX-License-Identifier: Apache-2.0
/// Which keys an access condition grants an operation: never, key A, key B, or either, as
/// the MF1S50/MF1S70 access condition tables write them (MF1S50 §8.7.2 tables 7 and 8).
public struct MifareClassicKeyAccess: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// Bit 0: key A; bit 1: key B.
  public let rawValue: UInt8
  /// Wraps the bits (only bits 0 and 1 are kept).
  public init(rawValue: UInt8) { self.rawValue = rawValue & 0b11 }

  /// No key (`never`).
  public static let never = MifareClassicKeyAccess(rawValue: 0b00)
  /// Key A only.
  public static let keyA = MifareClassicKeyAccess(rawValue: 0b01)
  /// Key B only.
  public static let keyB = MifareClassicKeyAccess(rawValue: 0b10)
  /// Key A or key B (`key A|B`).
  public static let keyAOrB = MifareClassicKeyAccess(rawValue: 0b11)

  /// Whether `key` is granted.
  public func allows(_ key: MifareClassicKeySlot) -> Bool {
    rawValue & (key == .a ? 0b01 : 0b10) != 0
  }

  /// The same access without key B: what is left when key B is readable and so cannot
  /// authenticate (MF1S50 §8.7.2 note 1).
  public var withoutKeyB: MifareClassicKeyAccess { MifareClassicKeyAccess(rawValue: rawValue & 0b01) }

  /// `never`, `keyA`, `keyB` or `keyAOrB`, the names the JSON contract uses.
  public var name: String {
    switch rawValue {
    case 0b01: return "keyA"
    case 0b10: return "keyB"
    case 0b11: return "keyAOrB"
    default: return "never"
    }
  }

  /// `never`, `key A`, `key B` or `key A|B`, as the data sheets write it.
  public var description: String {
    switch rawValue {
    case 0b01: return "key A"
    case 0b10: return "key B"
    case 0b11: return "key A|B"
    default: return "never"
    }
  }
}
