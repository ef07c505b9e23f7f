// SPDX-License-Identifier: Apache-2.0

import ISO7816

/// PC/SC Part 3 §3.2.2.1.4 LOAD KEYS: `FF 82 P1 P2 Lc key`, which stores a key in the
/// reader for a later GENERAL AUTHENTICATE.
///
/// P1 is the key structure (``KeyStructure``), P2 the key number (a slot; on SCM/Identiv
/// legacy readers the key type 60/61, see ``StorageCardReaderProfile/identivSCM``). The key
/// is 6 bytes for MIFARE Classic. ``description`` never shows the key.
public struct LoadKeysPseudoAPDU: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
  /// LOAD KEYS' instruction byte.
  public static let instruction: UInt8 = 0x82
  /// A MIFARE Classic key's length.
  public static let mifareKeyLength = 6

  /// P1, the key structure (bits as WSCT `LoadKeysCommand.cs` cites Part 3 §3.2.2.1.4).
  public struct KeyStructure: RawRepresentable, Sendable, Hashable {
    /// P1.
    public let rawValue: UInt8
    /// Creates a structure from P1.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Creates a structure from its fields; `readerKeyNumber` is kept to its low nibble.
    public init(readerKey: Bool = false, secured: Bool = false, nonVolatile: Bool, readerKeyNumber: UInt8 = 0)
    {
      rawValue =
        (readerKey ? 0x80 : 0) | (secured ? 0x40 : 0) | (nonVolatile ? 0x20 : 0) | (readerKeyNumber & 0x0F)
    }
    /// 00: a card key, sent in plain, into volatile memory (ACS, Sony).
    public static let volatile = KeyStructure(rawValue: 0x00)
    /// 20: a card key, sent in plain, into non-volatile memory (HID OMNIKEY).
    public static let nonVolatile = KeyStructure(rawValue: 0x20)
    /// Bit 8: the key is a reader key (else a card key).
    public var isReaderKey: Bool { rawValue & 0x80 != 0 }
    /// Bit 7: the key is sent secured (else in plain).
    public var isSecured: Bool { rawValue & 0x40 != 0 }
    /// Bit 6: the key goes to non-volatile memory (else volatile).
    public var isNonVolatile: Bool { rawValue & 0x20 != 0 }
    /// Bits 4-1: the reader key that secures the transmission, when secured.
    public var readerKeyNumber: UInt8 { rawValue & 0x0F }
    /// The same structure in the other memory (the fallback on 6986/6987).
    public var otherMemory: KeyStructure { KeyStructure(rawValue: rawValue ^ 0x20) }
  }

  /// P1.
  public var keyStructure: KeyStructure
  /// P2: the key number (slot) or, on SCM/Identiv legacy readers, the key type.
  public var keyNumber: UInt8
  /// The key bytes (1 to 255; 6 for MIFARE Classic). Never shown in ``description``.
  public var key: [UInt8]

  /// Creates a command.
  public init(keyStructure: KeyStructure, keyNumber: UInt8, key: [UInt8]) {
    self.keyStructure = keyStructure
    self.keyNumber = keyNumber
    self.key = key
  }

  /// Parses `FF 82 P1 P2 Lc key`.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedCommand``, ``PCSCControlError/Code/wrongClass``
  ///   (offset 0), ``PCSCControlError/Code/wrongInstruction`` (offset 1),
  ///   ``PCSCControlError/Code/emptyValue`` and ``PCSCControlError/Code/lengthMismatch``
  ///   (offset 4).
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    let (p1, p2) = try StorageCardCommandParsing.header(bytes, instruction: Self.instruction)
    key = try StorageCardCommandParsing.data(bytes)
    keyStructure = KeyStructure(rawValue: p1)
    keyNumber = p2
  }

  /// The command bytes.
  ///
  /// - Throws: ``PCSCControlError/Code/emptyValue`` (no key),
  ///   ``PCSCControlError/Code/valueTooLong`` (a key over 255 bytes).
  public func encodedBytes() throws(PCSCControlError) -> [UInt8] {
    try StorageCardCommandParsing.command(
      instruction: Self.instruction, p1: keyStructure.rawValue, p2: keyNumber, data: key)
  }

  /// The command without the key: `FF 82 P1 P2 Lc, n-byte key`.
  public var description: String {
    "LOAD KEYS P1 \(StorageCardName.hex(keyStructure.rawValue)) key number \(StorageCardName.hex(keyNumber)), \(key.count)-byte key"
  }

  /// The same as ``description``: the key never appears in debug output either.
  public var debugDescription: String { description }

  /// The reader's answer (Part 3 §3.2.2.1.4 as WSCT and Identiv manuals quote it; the 63xx forms are PC/SC v1.07's,
  /// still sent by SCM/Identiv readers; ACS readers send 6300 for every failure).
  public enum Answer: Sendable, Hashable {
    /// 9000: the key is loaded.
    case loaded
    /// 6300: no information given (ACS readers' answer to every failure).
    case noInformation
    /// 6982 (6382): card keys are not supported.
    case cardKeyNotSupported
    /// 6983 (6383): reader keys are not supported.
    case readerKeyNotSupported
    /// 6984 (6384): plain transmission is not supported.
    case plainTransmissionNotSupported
    /// 6985 (6385): secured transmission is not supported.
    case securedTransmissionNotSupported
    /// 6986 (6386): volatile memory is not available (HID OMNIKEY).
    case volatileMemoryNotAvailable
    /// 6987 (6387): non-volatile memory is not available.
    case nonVolatileMemoryNotAvailable
    /// 6988 (6388): the key number is not valid.
    case keyNumberNotValid
    /// 6989 (6389): the key length is not correct.
    case keyLengthNotCorrect
    /// 6B00: wrong P1-P2 (Identiv).
    case wrongParameters
    /// Any other status word.
    case failed(StatusWord)
  }

  /// Interprets the reader's answer to LOAD KEYS (data, if any, is ignored).
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedResponse`` for fewer than 2 bytes.
  public static func answer(parsing response: [UInt8]) throws(PCSCControlError) -> Answer {
    let (_, sw) = try StorageCardCommandParsing.response(response)
    switch sw {
    case 0x90_00: return .loaded
    case 0x63_00: return .noInformation
    case 0x6B_00: return .wrongParameters
    default: break
    }
    guard sw >> 8 == 0x69 || sw >> 8 == 0x63 else { return .failed(StatusWord(rawValue: sw)) }
    switch sw & 0xFF {
    case 0x82: return .cardKeyNotSupported
    case 0x83: return .readerKeyNotSupported
    case 0x84: return .plainTransmissionNotSupported
    case 0x85: return .securedTransmissionNotSupported
    case 0x86: return .volatileMemoryNotAvailable
    case 0x87: return .nonVolatileMemoryNotAvailable
    case 0x88: return .keyNumberNotValid
    case 0x89: return .keyLengthNotCorrect
    default: return .failed(StatusWord(rawValue: sw))
    }
  }
}

#if !hasFeature(Embedded)
  extension LoadKeysPseudoAPDU: CustomReflectable {
    /// A mirror without the key, so `dump` does not show it (Embedded Swift has no
    /// reflection).
    public var customMirror: Mirror {
      Mirror(self, children: ["keyStructure": keyStructure, "keyNumber": keyNumber, "keyLength": key.count])
    }
  }
#endif
