// SPDX-License-Identifier: Apache-2.0
/// The Event_Type bits of an LE Extended Advertising Report (Core Vol 4 Part E
/// §7.7.65.13).
public struct HCIExtendedAdvertisingEventType: OptionSet, Sendable, Hashable {
  /// The 16-bit Event_Type field.
  public let rawValue: UInt16
  /// Creates an event type from its bits.
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// Bit 0: connectable advertising.
  public static let connectable = HCIExtendedAdvertisingEventType(rawValue: 0x0001)
  /// Bit 1: scannable advertising.
  public static let scannable = HCIExtendedAdvertisingEventType(rawValue: 0x0002)
  /// Bit 2: directed advertising.
  public static let directed = HCIExtendedAdvertisingEventType(rawValue: 0x0004)
  /// Bit 3: scan response.
  public static let scanResponse = HCIExtendedAdvertisingEventType(rawValue: 0x0008)
  /// Bit 4: legacy advertising PDUs used.
  public static let legacy = HCIExtendedAdvertisingEventType(rawValue: 0x0010)

  /// Bits 5-6: the data status.
  public var dataStatus: HCIDataStatus {
    HCIDataStatus(rawValue: UInt8(truncatingIfNeeded: (rawValue >> 5) & 0b11))
  }
}
