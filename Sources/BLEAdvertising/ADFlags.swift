// SPDX-License-Identifier: Apache-2.0
/// The Flags AD data (Core Specification Supplement Part A §1.3).
public struct ADFlags: OptionSet, Sendable, Hashable {
  /// The Flags octet.
  public let rawValue: UInt8
  /// Creates flags from the octet.
  @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Bit 0: LE Limited Discoverable Mode.
  public static let leLimitedDiscoverable = ADFlags(rawValue: 0x01)
  /// Bit 1: LE General Discoverable Mode.
  public static let leGeneralDiscoverable = ADFlags(rawValue: 0x02)
  /// Bit 2: BR/EDR Not Supported.
  public static let brEDRNotSupported = ADFlags(rawValue: 0x04)
  /// Bit 3: Simultaneous LE and BR/EDR to Same Device Capable (Controller).
  public static let simultaneousLEAndBREDRController = ADFlags(rawValue: 0x08)
  /// Bit 4: Previously Used (Simultaneous LE and BR/EDR, Host); reserved since Core 5.3.
  public static let simultaneousLEAndBREDRHost = ADFlags(rawValue: 0x10)
}
