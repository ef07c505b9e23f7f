// SPDX-License-Identifier: Apache-2.0

import ISO7816

/// The MIFARE Classic key a storage-card authentication uses (PC/SC Part 3 §3.2.2.1.6:
/// the MIFARE command codes 60 and 61).
public struct StorageCardKeyType: RawRepresentable, Sendable, Hashable {
  /// The key type byte.
  public let rawValue: UInt8
  /// Creates a key type from its byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// 60: key A.
  public static let keyA = StorageCardKeyType(rawValue: 0x60)
  /// 61: key B.
  public static let keyB = StorageCardKeyType(rawValue: 0x61)
}

/// PC/SC Part 3 §3.2.2.1.6 GENERAL AUTHENTICATE:
/// `FF 86 00 00 05 01 addrMSB addrLSB keyType keyNumber`, which authenticates a block with
/// a key loaded by LOAD KEYS. (Microsoft's storage-card page prints Lc 01; that is a
/// documentation error, the data block is 5 bytes.)
public struct GeneralAuthenticatePseudoAPDU: Sendable, Hashable {
  /// GENERAL AUTHENTICATE's instruction byte.
  public static let instruction: UInt8 = 0x86
  /// The data block's version byte.
  public static let version: UInt8 = 0x01

  /// The block address (MIFARE Classic: the absolute block).
  public var block: UInt16
  /// The key type.
  public var keyType: StorageCardKeyType
  /// The key number LOAD KEYS used.
  public var keyNumber: UInt8

  /// Creates a command.
  public init(block: UInt16, keyType: StorageCardKeyType, keyNumber: UInt8) {
    self.block = block
    self.keyType = keyType
    self.keyNumber = keyNumber
  }

  /// Parses the command.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedCommand``, ``PCSCControlError/Code/wrongClass``
  ///   (offset 0), ``PCSCControlError/Code/wrongInstruction`` (offset 1),
  ///   ``PCSCControlError/Code/invalidParameters`` (offset 2 or 3: P1 P2 not 00 00),
  ///   ``PCSCControlError/Code/lengthMismatch`` (offset 4: Lc not 05 or the data not 5
  ///   bytes), ``PCSCControlError/Code/unsupportedVersion`` (offset 5).
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    let (p1, p2) = try StorageCardCommandParsing.header(bytes, instruction: Self.instruction)
    guard p1 == 0 else { throw PCSCControlError(.invalidParameters, offset: 2) }
    guard p2 == 0 else { throw PCSCControlError(.invalidParameters, offset: 3) }
    let data = try StorageCardCommandParsing.data(bytes)
    guard data.count == 5 else { throw PCSCControlError(.lengthMismatch, offset: 4) }
    guard data[0] == Self.version else { throw PCSCControlError(.unsupportedVersion, offset: 5) }
    block = UInt16(data[1]) << 8 | UInt16(data[2])
    keyType = StorageCardKeyType(rawValue: data[3])
    keyNumber = data[4]
  }

  /// The command bytes.
  public func encodedBytes() -> [UInt8] {
    [
      0xFF, Self.instruction, 0x00, 0x00, 0x05, Self.version, UInt8(truncatingIfNeeded: block >> 8),
      UInt8(truncatingIfNeeded: block), keyType.rawValue, keyNumber,
    ]
  }

  /// The reader's answer (Part 3 §3.2.2.1.6; ACS readers send 6300 for every
  /// failure).
  public enum Answer: Sendable, Hashable {
    /// 9000: authenticated; the sector is open.
    case authenticated
    /// 6300: no information given (ACS readers' answer to every failure, a wrong key
    /// included).
    case noInformation
    /// 6581: the address does not exist.
    case addressDoesNotExist
    /// 6982: security status not satisfied (the key did not authenticate).
    case securityStatusNotSatisfied
    /// 6983: authentication cannot be done.
    case authenticationCannotBeDone
    /// 6984: the reference key is not usable.
    case referenceKeyNotUsable
    /// 6986: the key type is not known.
    case keyTypeNotKnown
    /// 6988: the key number is not valid.
    case keyNumberNotValid
    /// Any other status word.
    case failed(StatusWord)
  }

  /// Interprets the reader's answer to GENERAL AUTHENTICATE or the obsolete AUTHENTICATE.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedResponse`` for fewer than 2 bytes.
  public static func answer(parsing response: [UInt8]) throws(PCSCControlError) -> Answer {
    let (_, sw) = try StorageCardCommandParsing.response(response)
    switch sw {
    case 0x90_00: return .authenticated
    case 0x63_00: return .noInformation
    case 0x65_81: return .addressDoesNotExist
    case 0x69_82: return .securityStatusNotSatisfied
    case 0x69_83: return .authenticationCannotBeDone
    case 0x69_84: return .referenceKeyNotUsable
    case 0x69_86: return .keyTypeNotKnown
    case 0x69_88: return .keyNumberNotValid
    default: return .failed(StatusWord(rawValue: sw))
    }
  }
}

/// The obsolete AUTHENTICATE of PC/SC Part 3 v2.01: `FF 88 00 block keyType keyNumber`
/// (P3 carries the key type, then one data byte: the key number). Kept as a fallback for
/// readers that refuse GENERAL AUTHENTICATE; ACR122U accepts both, py-acr122u sends only
/// this one. Its answers are read with ``GeneralAuthenticatePseudoAPDU/answer(parsing:)``.
public struct LegacyAuthenticatePseudoAPDU: Sendable, Hashable {
  /// AUTHENTICATE's instruction byte.
  public static let instruction: UInt8 = 0x88

  /// The block (P2).
  public var block: UInt8
  /// The key type (P3).
  public var keyType: StorageCardKeyType
  /// The key number (the one data byte).
  public var keyNumber: UInt8

  /// Creates a command.
  public init(block: UInt8, keyType: StorageCardKeyType, keyNumber: UInt8) {
    self.block = block
    self.keyType = keyType
    self.keyNumber = keyNumber
  }

  /// Parses `FF 88 00 block keyType keyNumber`.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedCommand``, ``PCSCControlError/Code/wrongClass``
  ///   (offset 0), ``PCSCControlError/Code/wrongInstruction`` (offset 1),
  ///   ``PCSCControlError/Code/invalidParameters`` (offset 2: P1 not 00),
  ///   ``PCSCControlError/Code/trailingData`` (offset 6).
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    let (p1, p2) = try StorageCardCommandParsing.header(bytes, instruction: Self.instruction, minimumCount: 6)
    guard p1 == 0 else { throw PCSCControlError(.invalidParameters, offset: 2) }
    guard bytes.count == 6 else { throw PCSCControlError(.trailingData, offset: 6) }
    block = p2
    keyType = StorageCardKeyType(rawValue: bytes[4])
    keyNumber = bytes[5]
  }

  /// The command bytes.
  public func encodedBytes() -> [UInt8] {
    [0xFF, Self.instruction, 0x00, block, keyType.rawValue, keyNumber]
  }
}
