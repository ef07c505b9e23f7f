// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A sector trailer, the last block of every sector: key A (bytes 0-5), the access bits
/// (6-8), the general purpose byte (9) and key B (10-15) (MF1S50 §8.6.3, §8.7).
///
/// A card returns key A as zeros when the trailer is read, and key B as zeros unless the
/// access conditions let it be read; a dump holds what the reader saw.
public struct MifareClassicSectorTrailer: Sendable, Hashable {
  /// Key A.
  public var keyA: MifareClassicKey
  /// The access bits.
  public var accessBits: MifareClassicAccessBits
  /// The general purpose byte (byte 9): free for applications, except in the MAD sector
  /// (AN10787 §3.7) and NFC sectors (AN1304 §6.3: the mapping version and access).
  public var generalPurposeByte: UInt8
  /// Key B (data, not a key, when the access conditions let it be read).
  public var keyB: MifareClassicKey

  /// Creates a trailer.
  public init(
    keyA: MifareClassicKey, accessBits: MifareClassicAccessBits, generalPurposeByte: UInt8,
    keyB: MifareClassicKey
  ) {
    self.keyA = keyA
    self.accessBits = accessBits
    self.generalPurposeByte = generalPurposeByte
    self.keyB = keyB
  }

  /// Reads the 16 bytes at `offset` of `image` and checks the access bits.
  ///
  /// - Throws: ``NFCTagError/Code/truncatedImage`` (offset: the image end) when fewer than
  ///   16 bytes remain, ``NFCTagError/Code/inconsistentAccessBits`` (offset: `offset + 6`
  ///   for C1 or C2, `offset + 7` for C3).
  public init(validating image: RawSpan, at offset: Int = 0) throws(NFCTagError) {
    try self.init(reading: image, at: offset)
    if let bad = accessBits.inconsistentByte {
      throw NFCTagError(
        .inconsistentAccessBits, offset: offset &+ MifareClassic.trailerAccessBitsOffset &+ bad)
    }
  }

  /// Reads the 16 bytes at `offset` of `image` as they are, inconsistent access bits
  /// included (see ``MifareClassicAccessBits/isConsistent``).
  ///
  /// - Throws: ``NFCTagError/Code/truncatedImage`` (offset: the image end) when fewer than
  ///   16 bytes remain.
  public init(reading image: RawSpan, at offset: Int = 0) throws(NFCTagError) {
    guard offset >= 0, offset <= image.byteCount &- MifareClassic.blockSize,
      let keyA = MifareClassicKey(image, at: offset &+ MifareClassic.trailerKeyAOffset),
      let keyB = MifareClassicKey(image, at: offset &+ MifareClassic.trailerKeyBOffset)
    else { throw NFCTagError(.truncatedImage, offset: image.byteCount) }
    let access = offset &+ MifareClassic.trailerAccessBitsOffset
    self.keyA = keyA
    self.accessBits = MifareClassicAccessBits(
      byte6: image.byte(at: access) ?? 0, byte7: image.byte(at: access &+ 1) ?? 0,
      byte8: image.byte(at: access &+ 2) ?? 0)
    self.generalPurposeByte = image.byte(at: offset &+ MifareClassic.trailerGeneralPurposeByteOffset) ?? 0
    self.keyB = keyB
  }

  /// The 16 bytes of the block.
  public var bytes: [UInt8] {
    keyA.bytes + accessBits.bytes + [generalPurposeByte] + keyB.bytes
  }

  /// The trailer's own access row (MF1S50 §8.7.1 table 7).
  public var trailerAccess: MifareClassicTrailerAccess { accessBits.trailerCondition.trailerAccess }

  /// Whether key B can authenticate: not when the trailer conditions let it be read
  /// (000, 010, 001; MF1S50 §8.7.1 note 1).
  public var isKeyBUsable: Bool { !trailerAccess.isKeyBReadable }

  /// The data block row of group `group` (0-2), key B removed when key B is readable
  /// (MF1S50 §8.7.2 table 8 and note 1); `nil` for another group.
  public func dataBlockAccess(group: Int) -> MifareClassicDataBlockAccess? {
    guard group >= 0, group < MifareClassicAccessBits.trailerGroup,
      let condition = accessBits.condition(forGroup: group)
    else { return nil }
    let access = condition.dataBlockAccess
    return isKeyBUsable ? access : access.withoutKeyB
  }

  /// Whether `key` may read block `index` of a sector of `blocksInSector` blocks (4 or 16)
  /// under this trailer: the data block's read right, or for the trailer itself the right
  /// to read its access bits. `false` when the access bits are inconsistent (the card
  /// blocks the sector), when key B is readable and `key` is B, or outside the sector.
  public func canRead(blockIndex index: Int, blocksInSector: Int, with key: MifareClassicKeySlot) -> Bool {
    guard accessBits.isConsistent, key == .a || isKeyBUsable,
      let group = MifareClassicAccessBits.group(forBlockIndex: index, blocksInSector: blocksInSector)
    else { return false }
    guard let data = dataBlockAccess(group: group) else {
      return trailerAccess.accessBitsRead.allows(key)
    }
    return data.read.allows(key)
  }

  /// Whether `key` may write block `index` of a sector of `blocksInSector` blocks (4 or
  /// 16) under this trailer: the data block's write right, or for the trailer itself the
  /// right to rewrite all of it (key A, access bits, key B). `false` as for ``canRead(blockIndex:blocksInSector:with:)``.
  public func canWrite(blockIndex index: Int, blocksInSector: Int, with key: MifareClassicKeySlot) -> Bool {
    guard accessBits.isConsistent, key == .a || isKeyBUsable,
      let group = MifareClassicAccessBits.group(forBlockIndex: index, blocksInSector: blocksInSector)
    else { return false }
    guard let data = dataBlockAccess(group: group) else {
      return trailerAccess.allowsFullWrite(key)
    }
    return data.write.allows(key)
  }

  /// Whether `key` may read absolute block `block` of a `kind` card, this being the trailer
  /// of its sector.
  public func canRead(block: Int, of kind: MifareClassicCardKind, with key: MifareClassicKeySlot) -> Bool {
    guard let sector = kind.sector(ofBlock: block), let count = kind.blockCount(inSector: sector),
      let index = kind.blockIndexInSector(block)
    else { return false }
    return canRead(blockIndex: index, blocksInSector: count, with: key)
  }

  /// Whether `key` may write absolute block `block` of a `kind` card, this being the
  /// trailer of its sector.
  public func canWrite(block: Int, of kind: MifareClassicCardKind, with key: MifareClassicKeySlot) -> Bool {
    guard let sector = kind.sector(ofBlock: block), let count = kind.blockCount(inSector: sector),
      let index = kind.blockIndexInSector(block)
    else { return false }
    return canWrite(blockIndex: index, blocksInSector: count, with: key)
  }
}
