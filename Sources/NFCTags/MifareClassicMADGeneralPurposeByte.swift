// SPDX-License-Identifier: Apache-2.0
/// The general purpose byte of the MAD sector's trailer (sector 0, byte 9; AN10787 §3.7):
/// DA (bit 7) says a MAD is present, MA (bit 6) that the card holds several applications,
/// ADV (bits 1-0) the MAD version: 1 for MAD1, 2 for MAD1 and MAD2.
public struct MifareClassicMADGeneralPurposeByte: RawRepresentable, Sendable, Hashable {
  /// The byte.
  public let rawValue: UInt8
  /// Wraps a byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// `C1`: MAD present, multi-application card, MAD1 (a 1K card's canonical value).
  public static let mad1 = MifareClassicMADGeneralPurposeByte(rawValue: 0xC1)
  /// `C2`: MAD present, multi-application card, MAD1 and MAD2 (a 4K card's canonical value).
  public static let mad2 = MifareClassicMADGeneralPurposeByte(rawValue: 0xC2)

  /// DA, bit 7: the card has a MAD.
  public var isMADAvailable: Bool { rawValue & 0x80 != 0 }
  /// MA, bit 6: the card is a multi-application card.
  public var isMultiApplication: Bool { rawValue & 0x40 != 0 }
  /// ADV, bits 1-0: the MAD version (1 MAD1, 2 MAD2; 0 and 3 are RFU).
  public var madVersion: Int { Int(rawValue & 0b11) }
}
