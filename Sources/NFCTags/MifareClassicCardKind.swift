// SPDX-License-Identifier: Apache-2.0
/// A MIFARE Classic product's memory layout: MIFARE Mini (5 sectors of 4 blocks, 320 bytes),
/// MIFARE Classic 1K (16 sectors of 4 blocks, 1024 bytes, MF1S50 §8.6) and 4K (32 sectors of
/// 4 blocks then 8 sectors of 16 blocks, 4096 bytes, MF1S70 §8.6).
///
/// Blocks are numbered from 0 across the card: sector `s` below 32 starts at block `4s`,
/// sector 32 and up at `128 + 16(s − 32)`; the last block of every sector is its trailer.
/// Every function here answers `nil` (or `false`) for a sector or block the card does not
/// have, never traps.
public struct MifareClassicCardKind: Sendable, Hashable, CustomStringConvertible {
  /// The number of sectors (5, 16 or 40).
  public let sectorCount: Int
  /// The product name, as the data sheets write it.
  public let name: String
  /// The SAK the card answers anticollision with (MF1S50 §9.4: 0x08; MF1S70: 0x18; Mini 0x09).
  public let sak: UInt8
  /// The ATQA of the 4-byte UID version as a value (MF1S50 §9.4: 0x0004; MF1S70: 0x0002);
  /// the 7-byte UID version adds 0x0040. On the card and in block 0 the low byte comes first.
  public let atqa: UInt16

  private init(sectorCount: Int, name: String, sak: UInt8, atqa: UInt16) {
    self.sectorCount = sectorCount
    self.name = name
    self.sak = sak
    self.atqa = atqa
  }

  /// MIFARE Mini (MF1ICS20): 5 sectors of 4 blocks, 320 bytes, SAK 0x09.
  public static let mini = MifareClassicCardKind(sectorCount: 5, name: "MIFARE Mini", sak: 0x09, atqa: 0x0004)
  /// MIFARE Classic 1K (MF1S50): 16 sectors of 4 blocks, 1024 bytes, SAK 0x08.
  public static let classic1K = MifareClassicCardKind(
    sectorCount: 16, name: "MIFARE Classic 1K", sak: 0x08, atqa: 0x0004)
  /// MIFARE Classic 4K (MF1S70): 32 sectors of 4 blocks and 8 of 16, 4096 bytes, SAK 0x18.
  public static let classic4K = MifareClassicCardKind(
    sectorCount: 40, name: "MIFARE Classic 4K", sak: 0x18, atqa: 0x0002)

  /// Every kind, smallest first.
  public static let allKinds: [MifareClassicCardKind] = [.mini, .classic1K, .classic4K]

  /// The sectors from 32 on hold 16 blocks (MF1S70 §8.6).
  public static let firstLargeSector = 32
  /// Blocks in a sector below 32.
  public static let smallSectorBlockCount = 4
  /// Blocks in a sector from 32 on.
  public static let largeSectorBlockCount = 16

  /// The kind whose memory is `memorySize` bytes (320, 1024, 4096), else `nil`.
  public init?(memorySize: Int) {
    guard let kind = Self.allKinds.first(where: { $0.memorySize == memorySize }) else { return nil }
    self = kind
  }

  /// The kind a SAK announces: 0x09 Mini; 0x08, 0x88 (Infineon) and 0x28 (emulated) 1K;
  /// 0x18 and 0x38 (emulated) 4K; else `nil` (AN10833 §3.2).
  public init?(sak: UInt8) {
    switch sak {
    case 0x09: self = .mini
    case 0x08, 0x88, 0x28: self = .classic1K
    case 0x18, 0x38: self = .classic4K
    default: return nil
    }
  }

  /// The total number of blocks (20, 64 or 256).
  public var blockCount: Int {
    guard sectorCount > Self.firstLargeSector else { return sectorCount &* Self.smallSectorBlockCount }
    return Self.firstLargeSector &* Self.smallSectorBlockCount
      &+ (sectorCount &- Self.firstLargeSector) &* Self.largeSectorBlockCount
  }

  /// The memory size in bytes (320, 1024 or 4096).
  public var memorySize: Int { blockCount &* MifareClassic.blockSize }

  /// The product name.
  public var description: String { name }

  /// Whether the card has `sector`.
  public func contains(sector: Int) -> Bool { sector >= 0 && sector < sectorCount }

  /// The first block of `sector`: `4s` below sector 32, `128 + 16(s − 32)` from there.
  public func firstBlock(ofSector sector: Int) -> Int? {
    guard contains(sector: sector) else { return nil }
    guard sector >= Self.firstLargeSector else { return sector &* Self.smallSectorBlockCount }
    return Self.firstLargeSector &* Self.smallSectorBlockCount
      &+ (sector &- Self.firstLargeSector) &* Self.largeSectorBlockCount
  }

  /// The number of blocks in `sector` (4, or 16 from sector 32 on), trailer included.
  public func blockCount(inSector sector: Int) -> Int? {
    guard contains(sector: sector) else { return nil }
    return sector >= Self.firstLargeSector ? Self.largeSectorBlockCount : Self.smallSectorBlockCount
  }

  /// The sector trailer of `sector`: its last block.
  public func trailerBlock(ofSector sector: Int) -> Int? {
    guard let first = firstBlock(ofSector: sector), let count = blockCount(inSector: sector) else {
      return nil
    }
    return first &+ count &- 1
  }

  /// The sector holding `block`.
  public func sector(ofBlock block: Int) -> Int? {
    guard block >= 0, block < blockCount else { return nil }
    let smallBlocks = Self.firstLargeSector &* Self.smallSectorBlockCount
    guard block >= smallBlocks else { return block / Self.smallSectorBlockCount }
    return Self.firstLargeSector &+ (block &- smallBlocks) / Self.largeSectorBlockCount
  }

  /// The index of `block` inside its sector (0 for the first block).
  public func blockIndexInSector(_ block: Int) -> Int? {
    guard let sector = sector(ofBlock: block), let first = firstBlock(ofSector: sector) else {
      return nil
    }
    return block &- first
  }

  /// Whether `block` is a sector trailer.
  public func isTrailer(block: Int) -> Bool {
    guard let sector = sector(ofBlock: block) else { return false }
    return trailerBlock(ofSector: sector) == block
  }

  /// The absolute byte offset of `block` in a dump of the whole card.
  public func offset(ofBlock block: Int) -> Int? {
    guard block >= 0, block < blockCount else { return nil }
    return block &* MifareClassic.blockSize
  }
}
