// SPDX-License-Identifier: Apache-2.0
import NFCTags

/// The sector numbers and bytes the procedure names (AN10787 §3, AN1304 §6); the MAD, the
/// TLV area and the write plan come from NFCTags (`MifareClassicDirectory`,
/// `MifareClassicSectorImage`).
enum MifareClassicLayout {
  /// The MAD1 sector and the MAD2 sector (4K).
  static let mad1Sector = 0
  static let mad2Sector = 16
  /// GPB bit DA: a MAD is there (AN10787 §3.7).
  static let gpbDA: UInt8 = 0x80
  /// GPB of an NFC sector made read-only: write access 11 (AN1304 §6.3.2).
  static let nfcGPBReadOnly: UInt8 = 0x43

  /// The NFC sectors of a card formatted by ``MifareClassicNDEFProcedure/format(keyB:)``.
  static func nfcSectors(of kind: MifareClassicCardKind) -> [Int] {
    (1..<kind.sectorCount).filter { $0 != mad2Sector }
  }
}
