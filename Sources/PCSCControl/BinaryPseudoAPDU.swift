// SPDX-License-Identifier: Apache-2.0

import ISO7816

/// PC/SC Part 3 §3.2.2.1.8 READ BINARY: `FF B0 P1 P2 Le`, P1-P2 the address
/// (``StorageCardAddressing`` says how per card kind), Le the byte count (00: the reader's
/// default, often "to the end of the block" on Identiv readers, 256 elsewhere).
public struct ReadBinaryPseudoAPDU: Sendable, Hashable {
  /// READ BINARY's instruction byte.
  public static let instruction: UInt8 = 0xB0

  /// P1-P2.
  public var parameters: UInt16
  /// Le as sent (00 = the reader's default).
  public var expectedLength: UInt8

  /// Creates a command from raw P1-P2.
  public init(parameters: UInt16, expectedLength: UInt8) {
    self.parameters = parameters
    self.expectedLength = expectedLength
  }

  /// Creates a command that reads `block` under `addressing`; `nil` when the block does not
  /// fit (see ``StorageCardAddressing/parameters(forBlock:)``).
  public init?(block: Int, addressing: StorageCardAddressing, expectedLength: UInt8) {
    guard let parameters = addressing.parameters(forBlock: block) else { return nil }
    self.init(parameters: parameters, expectedLength: expectedLength)
  }

  /// Parses `FF B0 P1 P2 Le`.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedCommand``, ``PCSCControlError/Code/wrongClass``
  ///   (offset 0), ``PCSCControlError/Code/wrongInstruction`` (offset 1),
  ///   ``PCSCControlError/Code/trailingData`` (offset 5).
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    let (p1, p2) = try StorageCardCommandParsing.header(bytes, instruction: Self.instruction)
    guard bytes.count == 5 else { throw PCSCControlError(.trailingData, offset: 5) }
    parameters = UInt16(p1) << 8 | UInt16(p2)
    expectedLength = bytes[4]
  }

  /// The command bytes.
  public func encodedBytes() -> [UInt8] {
    [
      0xFF, Self.instruction, UInt8(truncatingIfNeeded: parameters >> 8),
      UInt8(truncatingIfNeeded: parameters),
      expectedLength,
    ]
  }

  /// Interprets the reader's answer.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedResponse`` for fewer than 2 bytes.
  public static func answer(parsing response: [UInt8]) throws(PCSCControlError) -> BinaryPseudoAPDUAnswer {
    try BinaryPseudoAPDUAnswer(parsing: response)
  }
}

/// PC/SC Part 3 §3.2.2.1 UPDATE BINARY (the section after READ BINARY's §3.2.2.1.8): `FF D6 P1 P2 Lc data` (Type 2: 4 bytes, one
/// page; MIFARE Classic: 16 bytes, one block).
public struct UpdateBinaryPseudoAPDU: Sendable, Hashable {
  /// UPDATE BINARY's instruction byte.
  public static let instruction: UInt8 = 0xD6

  /// P1-P2.
  public var parameters: UInt16
  /// The bytes to write (1 to 255).
  public var data: [UInt8]

  /// Creates a command from raw P1-P2.
  public init(parameters: UInt16, data: [UInt8]) {
    self.parameters = parameters
    self.data = data
  }

  /// Creates a command that writes `block` under `addressing`; `nil` when the block does
  /// not fit.
  public init?(block: Int, addressing: StorageCardAddressing, data: [UInt8]) {
    guard let parameters = addressing.parameters(forBlock: block) else { return nil }
    self.init(parameters: parameters, data: data)
  }

  /// Parses `FF D6 P1 P2 Lc data`.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedCommand``, ``PCSCControlError/Code/wrongClass``
  ///   (offset 0), ``PCSCControlError/Code/wrongInstruction`` (offset 1),
  ///   ``PCSCControlError/Code/emptyValue`` and ``PCSCControlError/Code/lengthMismatch``
  ///   (offset 4).
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    let (p1, p2) = try StorageCardCommandParsing.header(bytes, instruction: Self.instruction)
    data = try StorageCardCommandParsing.data(bytes)
    parameters = UInt16(p1) << 8 | UInt16(p2)
  }

  /// The command bytes.
  ///
  /// - Throws: ``PCSCControlError/Code/emptyValue`` (no data),
  ///   ``PCSCControlError/Code/valueTooLong`` (over 255 bytes).
  public func encodedBytes() throws(PCSCControlError) -> [UInt8] {
    try StorageCardCommandParsing.command(
      instruction: Self.instruction, p1: UInt8(truncatingIfNeeded: parameters >> 8),
      p2: UInt8(truncatingIfNeeded: parameters), data: data)
  }

  /// Interprets the reader's answer.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedResponse`` for fewer than 2 bytes.
  public static func answer(parsing response: [UInt8]) throws(PCSCControlError) -> BinaryPseudoAPDUAnswer {
    try BinaryPseudoAPDUAnswer(parsing: response)
  }
}

/// A reader's answer to READ BINARY or UPDATE BINARY (PC/SC Part 3 §3.2.2.1.8 and the
/// UPDATE BINARY section after it, as Microsoft's storage-card page and the Identiv
/// SCL3711/SDI011 manuals quote them; 6B00 and 6CXX are Identiv's; ACS readers send 6300
/// for every failure, ACR122T API v2.02 p.16).
public enum BinaryPseudoAPDUAnswer: Sendable, Hashable {
  /// 9000: the bytes read (empty for UPDATE BINARY).
  case complete([UInt8])
  /// 6281: part of the data may be corrupted; the bytes sent.
  case dataMayBeCorrupted([UInt8])
  /// 6282: the end was reached before Le bytes; the bytes sent.
  case endReached([UInt8])
  /// 6300: no information given (ACS readers' answer to every failure).
  case noInformation
  /// 6981: the command is incompatible with the card's structure.
  case commandIncompatible
  /// 6982: security status not satisfied (MIFARE Classic: not authenticated).
  case notAuthenticated
  /// 6986: command not allowed.
  case commandNotAllowed
  /// 6A81: function not supported (the card or reader cannot do this).
  case notSupported
  /// 6A82: the block or byte address does not exist.
  case addressDoesNotExist
  /// 6B00: wrong P1-P2 (Identiv).
  case wrongParameters
  /// 6CXX: wrong Le; XX is the length to send instead (Identiv).
  case wrongLength(available: UInt8)
  /// Any other status word, with any data.
  case failed(StatusWord, [UInt8])

  /// Interprets a response APDU.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedResponse`` for fewer than 2 bytes.
  public init(parsing response: [UInt8]) throws(PCSCControlError) {
    let (data, sw) = try StorageCardCommandParsing.response(response)
    switch sw {
    case 0x90_00: self = .complete(data)
    case 0x62_81: self = .dataMayBeCorrupted(data)
    case 0x62_82: self = .endReached(data)
    case 0x63_00: self = .noInformation
    case 0x69_81: self = .commandIncompatible
    case 0x69_82: self = .notAuthenticated
    case 0x69_86: self = .commandNotAllowed
    case 0x6A_81: self = .notSupported
    case 0x6A_82: self = .addressDoesNotExist
    case 0x6B_00: self = .wrongParameters
    case _ where sw >> 8 == 0x6C: self = .wrongLength(available: UInt8(truncatingIfNeeded: sw))
    default: self = .failed(StatusWord(rawValue: sw), data)
    }
  }

  /// The bytes, when the answer carries them (9000, 6281, 6282).
  public var bytes: [UInt8]? {
    switch self {
    case .complete(let bytes), .dataMayBeCorrupted(let bytes), .endReached(let bytes): bytes
    default: nil
    }
  }
}
