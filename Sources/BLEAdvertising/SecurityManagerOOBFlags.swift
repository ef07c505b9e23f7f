// SPDX-License-Identifier: Apache-2.0
/// The Security Manager Out of Band Flags AD data (Core Specification Supplement Part A
/// §1.7).
public struct SecurityManagerOOBFlags: OptionSet, Sendable, Hashable {
  /// The flags octet.
  public let rawValue: UInt8
  /// Creates flags from the octet.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Bit 0: OOB data present.
  public static let oobDataPresent = SecurityManagerOOBFlags(rawValue: 0x01)
  /// Bit 1: LE supported (Host).
  public static let leSupportedHost = SecurityManagerOOBFlags(rawValue: 0x02)
  /// Bit 2: Simultaneous LE and BR/EDR to Same Device Capable (Host).
  public static let simultaneousLEAndBREDRHost = SecurityManagerOOBFlags(rawValue: 0x04)
  /// Bit 3: Address type (0 public, 1 random).
  public static let randomAddress = SecurityManagerOOBFlags(rawValue: 0x08)
}
