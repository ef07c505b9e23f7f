// SPDX-License-Identifier: Apache-2.0
/// A PHY as extended reports name it (Core Vol 4 Part E §7.7.65.13).
public struct LEPHY: RawRepresentable, Sendable, Hashable {
  /// The PHY octet.
  public let rawValue: UInt8
  /// Creates a PHY from its octet.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 0x00: no packets on the secondary advertising physical channel.
  public static let none = LEPHY(rawValue: 0x00)
  /// 0x01: LE 1M.
  public static let le1M = LEPHY(rawValue: 0x01)
  /// 0x02: LE 2M.
  public static let le2M = LEPHY(rawValue: 0x02)
  /// 0x03: LE Coded.
  public static let leCoded = LEPHY(rawValue: 0x03)

  /// `none`, `le1M`, `le2M`, `leCoded` or `reserved`.
  public var name: String {
    switch rawValue {
    case 0: return "none"
    case 1: return "le1M"
    case 2: return "le2M"
    case 3: return "leCoded"
    default: return "reserved"
    }
  }
}
