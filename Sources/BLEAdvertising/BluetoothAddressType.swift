// SPDX-License-Identifier: Apache-2.0
/// The type of a device address as HCI reports it (Core Vol 4 Part E §7.7.65.2, .13).
public struct BluetoothAddressType: RawRepresentable, Sendable, Hashable {
  /// The Address_Type octet.
  public let rawValue: UInt8
  /// Creates an address type from its octet.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 0x00 Public Device Address.
  public static let publicDevice = BluetoothAddressType(rawValue: 0x00)
  /// 0x01 Random Device Address.
  public static let randomDevice = BluetoothAddressType(rawValue: 0x01)
  /// 0x02 Public Identity Address (resolved from a resolvable private address).
  public static let publicIdentity = BluetoothAddressType(rawValue: 0x02)
  /// 0x03 Random (static) Identity Address (resolved from a resolvable private address).
  public static let randomIdentity = BluetoothAddressType(rawValue: 0x03)
  /// 0xFF No address provided (anonymous advertisement, extended reports only).
  public static let anonymous = BluetoothAddressType(rawValue: 0xFF)

  /// `public`, `random`, `publicIdentity`, `randomIdentity`, `anonymous` or `unknown`.
  public var name: String {
    switch rawValue {
    case 0x00: return "public"
    case 0x01: return "random"
    case 0x02: return "publicIdentity"
    case 0x03: return "randomIdentity"
    case 0xFF: return "anonymous"
    default: return "unknown"
    }
  }

  /// Whether the address is a random one (types 0x01 and 0x03).
  public var isRandom: Bool { rawValue == 0x01 || rawValue == 0x03 }
}
