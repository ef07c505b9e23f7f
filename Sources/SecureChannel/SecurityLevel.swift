// SPDX-License-Identifier: Apache-2.0
/// The security level of a secure channel session: P1 of EXTERNAL AUTHENTICATE
/// (GPCS 2.3 Table E-8 for SCP02, Amendment D Table 7-3 for SCP03).
public struct SecurityLevel: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The P1 byte.
  public let rawValue: UInt8
  /// Wraps a P1 byte; ``isValid`` says whether it is one the specifications allow.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Bit b1: commands carry a C-MAC.
  public static let cMACBit: UInt8 = 0x01
  /// Bit b2: command data is encrypted (C-DECRYPTION, from the card's point of view).
  public static let cDecryptionBit: UInt8 = 0x02
  /// Bit b5: responses carry an R-MAC.
  public static let rMACBit: UInt8 = 0x10
  /// Bit b6: response data is encrypted (R-ENCRYPTION).
  public static let rEncryptionBit: UInt8 = 0x20

  /// 00: authenticated, then no secure messaging.
  public static let authenticatedOnly = SecurityLevel(rawValue: 0x00)
  /// 01: C-MAC.
  public static let cMAC = SecurityLevel(rawValue: 0x01)
  /// 03: C-MAC and C-DECRYPTION.
  public static let cMACAndDecryption = SecurityLevel(rawValue: 0x03)
  /// 11: C-MAC and R-MAC.
  public static let cMACAndRMAC = SecurityLevel(rawValue: 0x11)
  /// 13: C-MAC, C-DECRYPTION and R-MAC.
  public static let cMACDecryptionAndRMAC = SecurityLevel(rawValue: 0x13)
  /// 33: C-MAC, C-DECRYPTION, R-MAC and R-ENCRYPTION.
  public static let all = SecurityLevel(rawValue: 0x33)

  /// Whether commands carry a C-MAC.
  public var hasCommandMAC: Bool { rawValue & Self.cMACBit != 0 }
  /// Whether command data is encrypted.
  public var hasCommandEncryption: Bool { rawValue & Self.cDecryptionBit != 0 }
  /// Whether responses carry an R-MAC.
  public var hasResponseMAC: Bool { rawValue & Self.rMACBit != 0 }
  /// Whether response data is encrypted.
  public var hasResponseEncryption: Bool { rawValue & Self.rEncryptionBit != 0 }

  /// Whether the value is one of 00, 01, 03, 11, 13, 33 (Amendment D Table 7-3).
  public var isValid: Bool { [0x00, 0x01, 0x03, 0x11, 0x13, 0x33].contains(rawValue) }

  /// The level with what each requested bit needs added, as GlobalPlatformPro normalises:
  /// R-ENCRYPTION adds C-DECRYPTION and R-MAC, and either of those adds C-MAC.
  public var normalized: SecurityLevel {
    var bits = rawValue & 0x33
    if bits & Self.rEncryptionBit != 0 { bits |= Self.cDecryptionBit | Self.rMACBit }
    if bits & (Self.cDecryptionBit | Self.rMACBit) != 0 { bits |= Self.cMACBit }
    return SecurityLevel(rawValue: bits)
  }

  /// The names of the bits set, e.g. `C-MAC+C-DECRYPTION`, or `none`.
  public var description: String {
    var names: [String] = []
    if hasCommandMAC { names.append("C-MAC") }
    if hasCommandEncryption { names.append("C-DECRYPTION") }
    if hasResponseMAC { names.append("R-MAC") }
    if hasResponseEncryption { names.append("R-ENCRYPTION") }
    if names.isEmpty { return "none" }
    var text = names[0]
    for name in names.dropFirst() { text += "+" + name }
    return text
  }
}
