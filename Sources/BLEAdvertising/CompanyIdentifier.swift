// SPDX-License-Identifier: Apache-2.0
/// A company identifier (Bluetooth Assigned Numbers §7.1), as carried by Manufacturer
/// Specific Data.
public struct CompanyIdentifier: RawRepresentable, Sendable, Hashable, Comparable {
  /// The 16-bit identifier.
  public let rawValue: UInt16
  /// Creates an identifier.
  @inlinable public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// 0x004C Apple, Inc. (iBeacon layout).
  public static let apple = CompanyIdentifier(rawValue: 0x004C)
  /// 0x00E0 Google.
  public static let google = CompanyIdentifier(rawValue: 0x00E0)
  /// 0xFFFF: reserved by the Bluetooth SIG for internal use and testing, never assigned.
  public static let testing = CompanyIdentifier(rawValue: 0xFFFF)

  /// Orders by the identifier value.
  public static func < (a: CompanyIdentifier, b: CompanyIdentifier) -> Bool {
    a.rawValue < b.rawValue
  }
}
