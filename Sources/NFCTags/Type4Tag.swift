// SPDX-License-Identifier: Apache-2.0
/// Constants of the Type 4 tag NDEF mapping (T4T 3.0 §5).
public enum Type4Tag {
  /// D2760000850101: the NDEF Tag Application of mappings 2.0 and 3.0 (§5.3.1).
  public static let applicationIdentifier: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
  /// D2760000850100: the NDEF Tag Application of mapping 1.0.
  public static let version1ApplicationIdentifier: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x00]
  /// E103: the CC file identifier (§5.1).
  public static let ccFileIdentifier: UInt16 = 0xE103
  /// E104: the NDEF file identifier most tags use.
  public static let defaultNDEFFileIdentifier: UInt16 = 0xE104
  /// 0x7FFF: the largest offset P1-P2 of READ/UPDATE BINARY can carry; past it mapping
  /// 3.0 uses the odd instructions with an offset data object (§5.4.7).
  public static let largestShortOffset = 0x7FFF
  /// Tag 0x54: the offset data object of READ/UPDATE BINARY with odd INS (ISO/IEC 7816-4 §11.3.3).
  public static let offsetDataObjectTag: UInt8 = 0x54
  /// Tag 0x53: the discretionary data object carrying the bytes read or written.
  public static let discretionaryDataObjectTag: UInt8 = 0x53
}
