// SPDX-License-Identifier: Apache-2.0
/// MIFARE Classic constants shared by the layout, trailer and MAD types (NXP MF1S50yyX/V1
/// §8.6, MF1S70yyX/V1 §8.6, AN10787, AN1304/AN1305).
public enum MifareClassic {
  /// The size of one block in bytes (MF1S50 §8.6: 16 bytes).
  public static let blockSize = 16
  /// The size of key A and key B in bytes (MF1S50 §8.6.3).
  public static let keySize = 6
  /// Offset of key A in a sector trailer (MF1S50 §8.6.3: bytes 0-5).
  public static let trailerKeyAOffset = 0
  /// Offset of the three access-bit bytes in a sector trailer (bytes 6-8).
  public static let trailerAccessBitsOffset = 6
  /// Offset of the general purpose byte in a sector trailer (byte 9).
  public static let trailerGeneralPurposeByteOffset = 9
  /// Offset of key B in a sector trailer (bytes 10-15).
  public static let trailerKeyBOffset = 10
}
