// SPDX-License-Identifier: Apache-2.0
/// The three privilege bytes of an application or security domain (GlobalPlatform Card
/// Specification 2.3 §11.1.2, Table 11-7), first byte in the high bits: `0x80_00_00` is
/// Security Domain.
public struct GlobalPlatformPrivileges: OptionSet, Sendable, Hashable {
  /// Byte 1 in bits 23-16, byte 2 in 15-8, byte 3 in 7-0.
  public let rawValue: UInt32
  /// Wraps privilege bits (only the low 24 bits are meaningful).
  public init(rawValue: UInt32) { self.rawValue = rawValue & 0xFF_FF_FF }

  /// Reads privileges of one byte (byte 1 only, as older cards and INSTALL allow) or three.
  ///
  /// - Returns: `nil` for any other length.
  public init?(bytes: [UInt8]) {
    switch bytes.count {
    case 1: self.init(rawValue: UInt32(bytes[0]) << 16)
    case 3: self.init(rawValue: UInt32(bytes[0]) << 16 | UInt32(bytes[1]) << 8 | UInt32(bytes[2]))
    default: return nil
    }
  }

  /// The three privilege bytes.
  public var bytes: [UInt8] {
    [
      UInt8(truncatingIfNeeded: rawValue >> 16), UInt8(truncatingIfNeeded: rawValue >> 8),
      UInt8(truncatingIfNeeded: rawValue),
    ]
  }

  /// Byte 1 b8: Security Domain.
  public static let securityDomain = GlobalPlatformPrivileges(rawValue: 0x80_00_00)
  /// Byte 1 b7 (with b8): DAP Verification.
  public static let dapVerification = GlobalPlatformPrivileges(rawValue: 0x40_00_00)
  /// Byte 1 b6 (with b8): Delegated Management.
  public static let delegatedManagement = GlobalPlatformPrivileges(rawValue: 0x20_00_00)
  /// Byte 1 b5: Card Lock.
  public static let cardLock = GlobalPlatformPrivileges(rawValue: 0x10_00_00)
  /// Byte 1 b4: Card Terminate.
  public static let cardTerminate = GlobalPlatformPrivileges(rawValue: 0x08_00_00)
  /// Byte 1 b3: Card Reset.
  public static let cardReset = GlobalPlatformPrivileges(rawValue: 0x04_00_00)
  /// Byte 1 b2: CVM Management.
  public static let cvmManagement = GlobalPlatformPrivileges(rawValue: 0x02_00_00)
  /// Byte 1 b1 (with b8 and b7): Mandated DAP Verification.
  public static let mandatedDAPVerification = GlobalPlatformPrivileges(rawValue: 0x01_00_00)
  /// Byte 2 b8: Trusted Path.
  public static let trustedPath = GlobalPlatformPrivileges(rawValue: 0x00_80_00)
  /// Byte 2 b7: Authorized Management.
  public static let authorizedManagement = GlobalPlatformPrivileges(rawValue: 0x00_40_00)
  /// Byte 2 b6: Token Verification.
  public static let tokenVerification = GlobalPlatformPrivileges(rawValue: 0x00_20_00)
  /// Byte 2 b5: Global Delete.
  public static let globalDelete = GlobalPlatformPrivileges(rawValue: 0x00_10_00)
  /// Byte 2 b4: Global Lock.
  public static let globalLock = GlobalPlatformPrivileges(rawValue: 0x00_08_00)
  /// Byte 2 b3: Global Registry.
  public static let globalRegistry = GlobalPlatformPrivileges(rawValue: 0x00_04_00)
  /// Byte 2 b2: Final Application.
  public static let finalApplication = GlobalPlatformPrivileges(rawValue: 0x00_02_00)
  /// Byte 2 b1: Global Service.
  public static let globalService = GlobalPlatformPrivileges(rawValue: 0x00_01_00)
  /// Byte 3 b8: Receipt Generation.
  public static let receiptGeneration = GlobalPlatformPrivileges(rawValue: 0x00_00_80)
  /// Byte 3 b7: Ciphered Load File Data Block.
  public static let cipheredLoadFileDataBlock = GlobalPlatformPrivileges(rawValue: 0x00_00_40)
  /// Byte 3 b6: Contactless Activation.
  public static let contactlessActivation = GlobalPlatformPrivileges(rawValue: 0x00_00_20)
  /// Byte 3 b5: Contactless Self-Activation.
  public static let contactlessSelfActivation = GlobalPlatformPrivileges(rawValue: 0x00_00_10)
}
