// SPDX-License-Identifier: Apache-2.0
/// The LE Role AD data (Core Specification Supplement Part A §1.17).
public struct LERole: RawRepresentable, Sendable, Hashable {
  /// The LE Role octet.
  public let rawValue: UInt8
  /// Creates a role from its octet.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 0x00 Only Peripheral Role supported.
  public static let peripheralOnly = LERole(rawValue: 0x00)
  /// 0x01 Only Central Role supported.
  public static let centralOnly = LERole(rawValue: 0x01)
  /// 0x02 Peripheral and Central Role supported, Peripheral preferred for connection.
  public static let peripheralPreferred = LERole(rawValue: 0x02)
  /// 0x03 Peripheral and Central Role supported, Central preferred for connection.
  public static let centralPreferred = LERole(rawValue: 0x03)

  /// `peripheralOnly`, `centralOnly`, `peripheralPreferred`, `centralPreferred` or
  /// `reserved`.
  public var name: String {
    switch rawValue {
    case 0: return "peripheralOnly"
    case 1: return "centralOnly"
    case 2: return "peripheralPreferred"
    case 3: return "centralPreferred"
    default: return "reserved"
    }
  }
}
