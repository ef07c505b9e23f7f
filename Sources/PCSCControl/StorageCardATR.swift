// SPDX-License-Identifier: Apache-2.0

/// The ATR a PC/SC reader builds for a contactless storage card (PC/SC Part 3
/// §3.1.3.2.3): `3B 8F 80 01 80 4F 0C A0 00 00 03 06 SS NN NN 00 00 00 00 TCK`.
///
/// T0 `8F` (TD1 present, 15 historical bytes), TD1 `80`, TD2 `01`; the historical bytes
/// are the category indicator `80`, the application identifier `4F 0C` with RID
/// `A0 00 00 03 06` (PC/SC Workgroup), the standard SS, the card name NN NN and 4 RFU
/// bytes. TCK is the XOR of T0 through the last historical byte (ISO/IEC 7816-3 §8.2.5).
///
/// ```swift
/// let atr = try StorageCardATR(parsing: bytes)  // ... 03 00 01 ... 6A
/// atr.cardName.name  // "MIFARE Classic 1K"
/// ```
public struct StorageCardATR: Sendable, Hashable {
  /// The fixed bytes before SS: TS, T0, TD1, TD2, the category indicator, the AID tag and
  /// length, and the PC/SC Workgroup RID `A0 00 00 03 06`.
  public static let prefix: [UInt8] = [
    0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06,
  ]
  /// The whole ATR's length: 12 fixed bytes, SS, NN NN, 4 RFU bytes, TCK.
  public static let length = 20
  /// The offset of SS.
  public static let standardOffset = 12
  /// The offset of TCK.
  public static let checkCharacterOffset = 19

  /// SS.
  public var standard: StorageCardStandard
  /// NN NN.
  public var cardName: StorageCardName
  /// The 4 RFU bytes (00 00 00 00 in Part 3), kept as read so the ATR re-encodes.
  public var reserved: UInt32

  /// Creates an ATR's fields.
  public init(standard: StorageCardStandard, cardName: StorageCardName, reserved: UInt32 = 0) {
    self.standard = standard
    self.cardName = cardName
    self.reserved = reserved
  }

  /// Parses a 20-byte storage-card ATR.
  ///
  /// - Throws: ``PCSCControlError/Code/notStorageCardATR`` (offset: the first byte that
  ///   differs from ``prefix``), ``PCSCControlError/Code/truncatedStorageCardATR`` (offset:
  ///   the input's end), ``PCSCControlError/Code/trailingData`` (offset 20),
  ///   ``PCSCControlError/Code/checkCharacterMismatch`` (offset 19).
  public init(parsing atr: [UInt8]) throws(PCSCControlError) {
    for (offset, byte) in Self.prefix.enumerated() {
      guard offset < atr.count else { throw PCSCControlError(.truncatedStorageCardATR, offset: atr.count) }
      guard atr[offset] == byte else { throw PCSCControlError(.notStorageCardATR, offset: offset) }
    }
    guard atr.count >= Self.length else {
      throw PCSCControlError(.truncatedStorageCardATR, offset: atr.count)
    }
    guard atr.count == Self.length else { throw PCSCControlError(.trailingData, offset: Self.length) }
    guard Self.checkCharacter(atr[1..<Self.checkCharacterOffset]) == atr[Self.checkCharacterOffset] else {
      throw PCSCControlError(.checkCharacterMismatch, offset: Self.checkCharacterOffset)
    }
    standard = StorageCardStandard(rawValue: atr[12])
    cardName = StorageCardName(rawValue: UInt16(atr[13]) << 8 | UInt16(atr[14]))
    reserved = UInt32(atr[15]) << 24 | UInt32(atr[16]) << 16 | UInt32(atr[17]) << 8 | UInt32(atr[18])
  }

  /// The 20 ATR bytes with their TCK.
  public func encodedBytes() -> [UInt8] {
    var bytes = Self.prefix
    bytes.append(standard.rawValue)
    bytes.append(UInt8(truncatingIfNeeded: cardName.rawValue >> 8))
    bytes.append(UInt8(truncatingIfNeeded: cardName.rawValue))
    for shift in stride(from: 24, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: reserved >> shift))
    }
    bytes.append(Self.checkCharacter(bytes[1...]))
    return bytes
  }

  /// TCK: the XOR of `bytes` (T0 through the last historical byte; TS excluded).
  public static func checkCharacter(_ bytes: ArraySlice<UInt8>) -> UInt8 {
    bytes.reduce(0, ^)
  }

  /// Whether `atr` starts with the storage-card ATR's fixed bytes (a cheap test before
  /// ``init(parsing:)``).
  public static func hasStorageCardPrefix(_ atr: [UInt8]) -> Bool {
    atr.count >= prefix.count && atr[0..<prefix.count].elementsEqual(prefix)
  }
}
