// SPDX-License-Identifier: Apache-2.0

/// The standard byte SS of a contactless storage-card ATR (PC/SC Part 3 §3.1.3.2.3,
/// as pcsc-tools lists it): which standard, and which part of it, the card was activated with.
///
/// Labels follow pcsc-tools 1.6.2 `smartcard_list.txt`. Unknown values are kept.
public struct StorageCardStandard: RawRepresentable, Sendable, Hashable {
  /// SS.
  public let rawValue: UInt8
  /// Creates a standard from SS.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 00: no information given.
  public static let none = StorageCardStandard(rawValue: 0x00)
  /// 01: ISO/IEC 14443 A, part 1.
  public static let iso14443APart1 = StorageCardStandard(rawValue: 0x01)
  /// 02: ISO/IEC 14443 A, part 2.
  public static let iso14443APart2 = StorageCardStandard(rawValue: 0x02)
  /// 03: ISO/IEC 14443 A, part 3 (MIFARE Classic, Ultralight, NTAG, Topaz on ACS readers).
  public static let iso14443APart3 = StorageCardStandard(rawValue: 0x03)
  /// 05: ISO/IEC 14443 B, part 1.
  public static let iso14443BPart1 = StorageCardStandard(rawValue: 0x05)
  /// 06: ISO/IEC 14443 B, part 2.
  public static let iso14443BPart2 = StorageCardStandard(rawValue: 0x06)
  /// 07: ISO/IEC 14443 B, part 3.
  public static let iso14443BPart3 = StorageCardStandard(rawValue: 0x07)
  /// 09: ISO/IEC 15693, part 1.
  public static let iso15693Part1 = StorageCardStandard(rawValue: 0x09)
  /// 0A: ISO/IEC 15693, part 2.
  public static let iso15693Part2 = StorageCardStandard(rawValue: 0x0A)
  /// 0B: ISO/IEC 15693, part 3 (ICODE SLI, Tag-it, ST LRI: NFC Forum Type 5).
  public static let iso15693Part3 = StorageCardStandard(rawValue: 0x0B)
  /// 0C: ISO/IEC 15693, part 4.
  public static let iso15693Part4 = StorageCardStandard(rawValue: 0x0C)
  /// 0D: contact card, I2C.
  public static let i2c = StorageCardStandard(rawValue: 0x0D)
  /// 0E: contact card, extended I2C.
  public static let extendedI2C = StorageCardStandard(rawValue: 0x0E)
  /// 0F: contact card, 2-wire bus protocol.
  public static let twoWireBusProtocol = StorageCardStandard(rawValue: 0x0F)
  /// 10: labelled "FeliCa compatible" in pcsc-tools' list; real FeliCa ATRs use 11, so this
  /// is probably the 3-wire bus protocol (unverified: the Part 3 table was not available).
  public static let threeWireBusProtocol = StorageCardStandard(rawValue: 0x10)
  /// 11: FeliCa (ACR1252U, the contactless-driver and pcsc-tools' Suica entry use it).
  public static let felica = StorageCardStandard(rawValue: 0x11)
  /// 40: low frequency contactless card.
  public static let lowFrequency = StorageCardStandard(rawValue: 0x40)

  /// A label for people, `nil` for a value without one.
  public var label: String? {
    switch rawValue {
    case 0x00: "no information"
    case 0x01: "ISO/IEC 14443 A part 1"
    case 0x02: "ISO/IEC 14443 A part 2"
    case 0x03: "ISO/IEC 14443 A part 3"
    case 0x05: "ISO/IEC 14443 B part 1"
    case 0x06: "ISO/IEC 14443 B part 2"
    case 0x07: "ISO/IEC 14443 B part 3"
    case 0x09: "ISO/IEC 15693 part 1"
    case 0x0A: "ISO/IEC 15693 part 2"
    case 0x0B: "ISO/IEC 15693 part 3"
    case 0x0C: "ISO/IEC 15693 part 4"
    case 0x0D: "contact I2C"
    case 0x0E: "contact extended I2C"
    case 0x0F: "contact 2WBP"
    case 0x10: "contact 3WBP"
    case 0x11: "FeliCa"
    case 0x40: "low frequency contactless"
    default: nil
    }
  }
}
