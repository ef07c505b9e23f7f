// SPDX-License-Identifier: Apache-2.0
import NFCTags

/// The pieces of the MAD and NFC sector layout the procedure needs while it reads sector by
/// sector (AN10787 §3, AN1304 §6): the NDEF sectors of a MAD read so far, the first TLVs of
/// the part of the area read so far. The NFCTags views (`MifareClassicMAD`,
/// `MifareClassicTagView`) take whole images; these work on what has been read.
enum MifareClassicLayout {
  /// AID of an NFC sector as stored (application code, function cluster code): `03 E1`.
  static let ndefAID: [UInt8] = [0x03, 0xE1]
  /// The MAD1 sector and the MAD2 sector (4K).
  static let mad1Sector = 0
  static let mad2Sector = 16
  /// GPB bit DA: a MAD is there (AN10787 §3.7).
  static let gpbDA: UInt8 = 0x80
  /// GPB of an NFC sector made read-only: write access 11 (AN1304 §6.3.2).
  static let nfcGPBReadOnly: UInt8 = 0x43

  /// The sectors a MAD (`CRC info AIDs...`) assigns to NDEF, `first` being the sector of
  /// its first AID; nil when the CRC is wrong.
  static func ndefSectors(inMAD bytes: [UInt8], firstSector first: Int) -> [Int]? {
    guard bytes.count >= 2, MifareClassicMAD.crc(Array(bytes.dropFirst())) == bytes[0] else { return nil }
    var sectors: [Int] = []
    var index = 2
    var sector = first
    while index + 1 < bytes.count {
      if bytes[index] == ndefAID[0] && bytes[index + 1] == ndefAID[1] { sectors.append(sector) }
      index += 2
      sector += 1
    }
    return sectors
  }

  /// The NFC sectors of a card formatted by ``MifareClassicNDEFProcedure/format(keyB:)``.
  static func nfcSectors(of kind: MifareClassicCardKind) -> [Int] {
    (1..<kind.sectorCount).filter { $0 != mad2Sector }
  }

  /// Where the TLVs of an area stand: the first NDEF TLV (offset, header length, value
  /// length) once its header is read, `end` the bytes the area needs to hold it.
  enum Scan: Equatable {
    /// More bytes are needed to know.
    case needMore
    /// A terminator (or the area's end) before any NDEF TLV: no message; `insertion` is
    /// where an NDEF TLV goes.
    case noNDEF(insertion: Int)
    /// The NDEF TLV at `offset`, its header `headerCount` bytes, its value `length`.
    case ndef(offset: Int, headerCount: Int, length: Int)
  }

  /// Scans TLVs (NULL 00, NDEF 03, proprietary FD, terminator FE; lengths 1 byte or `FF hi
  /// lo`) from the start of `area`; `complete` says `area` is the whole TLV area.
  static func scan(_ area: [UInt8], complete: Bool) -> Scan {
    var offset = 0
    while offset < area.count {
      let type = area[offset]
      if type == 0x00 {
        offset += 1
        continue
      }
      if type == 0xFE { return .noNDEF(insertion: offset) }
      guard offset + 1 < area.count else { return complete ? .noNDEF(insertion: offset) : .needMore }
      var length = Int(area[offset + 1])
      var header = 2
      if length == 0xFF {
        guard offset + 3 < area.count else { return complete ? .noNDEF(insertion: offset) : .needMore }
        length = Int(area[offset + 2]) << 8 | Int(area[offset + 3])
        header = 4
      }
      if type == 0x03 { return .ndef(offset: offset, headerCount: header, length: length) }
      offset += header + length
    }
    return complete ? .noNDEF(insertion: min(offset, area.count)) : .needMore
  }
}
