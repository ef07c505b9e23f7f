// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire

/// Writing, formatting and locking MIFARE Classic cards for NDEF (NXP AN1304/AN1305,
/// AN10787). Every trailer these plans write is built from ``MifareClassicAccessBits``
/// conditions, so its inverted copies always agree: a plan never bricks a sector.
extension MifareClassic {
  /// The image of a card as shipped (transport configuration): block 0 from `uid` (4
  /// bytes, with its BCC, the kind's SAK and ATQA), zero data blocks, and every trailer
  /// `FF×6 FF 07 80 69 FF×6` (MF1S50 §8.6.3).
  public static func blankImage(_ kind: MifareClassicCardKind, uid: [UInt8] = [0x01, 0x02, 0x03, 0x04])
    -> [UInt8]
  {
    var image = [UInt8](repeating: 0, count: kind.memorySize)
    let id = Array((uid + [0, 0, 0, 0]).prefix(4))
    let block0 =
      id + [
        MifareClassicManufacturerBlock.bcc(of: id), kind.sak, UInt8(truncatingIfNeeded: kind.atqa),
        UInt8(truncatingIfNeeded: kind.atqa >> 8),
      ]
    for (i, byte) in block0.enumerated() { image[i] = byte }
    let transport = MifareClassicSectorTrailer(
      keyA: .transport, accessBits: .transport, generalPurposeByte: 0x69, keyB: .transport)
    for sector in 0..<kind.sectorCount {
      guard let block = kind.trailerBlock(ofSector: sector) else { continue }
      image.replaceSubrange(block &* blockSize..<(block &+ 1) &* blockSize, with: transport.bytes)
    }
    return image
  }

  /// The trailer of an NFC sector in READ/WRITE state: `D3F7D3F7D3F7 7F 07 88 40 keyB`
  /// (AN1304 §6.3.2: data 000, trailer 011).
  public static func nfcSectorTrailer(keyB: MifareClassicKey) -> MifareClassicSectorTrailer {
    MifareClassicSectorTrailer(
      keyA: .nfcForumKeyA, accessBits: .nfcSector,
      generalPurposeByte: MifareClassicNFCSectorGeneralPurposeByte.readWrite.rawValue, keyB: keyB)
  }

  /// The trailer of a MAD sector: `A0A1A2A3A4A5 78 77 88 gpb keyB` (AN10787 §3.7: data
  /// 100, read with key A or B and written with key B; trailer 011).
  public static func madSectorTrailer(
    generalPurposeByte: MifareClassicMADGeneralPurposeByte, keyB: MifareClassicKey
  ) -> MifareClassicSectorTrailer {
    MifareClassicSectorTrailer(
      keyA: .madKeyA, accessBits: .mad, generalPurposeByte: generalPurposeByte.rawValue, keyB: keyB)
  }

  /// The writes that format a card in transport configuration for NDEF (AN1304 §6.4.1):
  /// block 4 becomes an empty NDEF TLV and a Terminator (`03 00 FE`), every sector but 0
  /// and 16 an NFC sector (``nfcSectorTrailer(keyB:)``), the MAD (``MifareClassicMAD/ndef(for:)``,
  /// CRC computed) goes to sector 0 (and 16 on a 4K card) under ``madSectorTrailer(generalPurposeByte:keyB:)``
  /// with general purpose byte `C1` (`C2` with a MAD2).
  ///
  /// Order: the NFC sectors first, each sector's trailer after its data, then MAD2, then
  /// MAD1, whose trailer (setting DA) goes last: a card that leaves the field before the
  /// end has no MAD and reads as not formatted. Every write authenticates with the
  /// transport key A, still valid for its sector at that point.
  ///
  /// - Parameters:
  ///   - image: the card's current image (block 0 and every trailer as read).
  ///   - keyB: key B for every trailer written.
  /// - Throws: ``NFCTagError/Code/invalidImageSize`` (offset: the image size) for a size no
  ///   card has, ``NFCTagError/Code/readOnly`` (offset: the trailer) when a trailer's access
  ///   bits do not let key A rewrite the sector (the card is not in transport configuration).
  public static func formatPlan(_ image: [UInt8], keyB: MifareClassicKey = .transport) throws(NFCTagError)
    -> MifareClassicWritePlan
  {
    guard let kind = MifareClassicCardKind(memorySize: image.count) else {
      throw NFCTagError(.invalidImageSize, offset: image.count)
    }
    let mad = MifareClassicMAD.ndef(for: kind)
    let gpb: MifareClassicMADGeneralPurposeByte = mad.hasMAD2 ? .mad2 : .mad1
    var new = image
    var writes: [MifareClassicBlockWrite] = []
    func write(_ block: Int, _ bytes: [UInt8]) throws(NFCTagError) {
      guard let sector = kind.sector(ofBlock: block), let trailerBlock = kind.trailerBlock(ofSector: sector),
        let index = kind.blockIndexInSector(block), let count = kind.blockCount(inSector: sector)
      else { return }
      let current = try MifareClassicSectorTrailer(reading: new.span.bytes, at: trailerBlock &* blockSize)
      guard current.canWrite(blockIndex: index, blocksInSector: count, with: .a) else {
        throw NFCTagError(.readOnly, offset: trailerBlock &* blockSize)
      }
      let offset = block &* blockSize
      new.replaceSubrange(offset..<offset &+ blockSize, with: bytes)
      writes.append(
        MifareClassicBlockWrite(
          write: TagWrite(block: block, offset: offset, bytes: bytes), sector: sector, keySlot: .a,
          key: .transport))
    }
    let empty = [TagTLVType.ndef.rawValue, 0, TagTLVType.terminator.rawValue]
    let firstNDEFBlock = empty + [UInt8](repeating: 0, count: blockSize &- empty.count)
    for sector in 1..<kind.sectorCount where sector != MifareClassicMAD.mad2Sector {
      guard let trailer = kind.trailerBlock(ofSector: sector) else { continue }
      if sector == 1 { try write(4, firstNDEFBlock) }
      try write(trailer, nfcSectorTrailer(keyB: keyB).bytes)
    }
    if mad.hasMAD2 {
      let bytes = mad.mad2Bytes
      for i in 0..<3 { try write(64 &+ i, Array(bytes[i &* blockSize..<(i &+ 1) &* blockSize])) }
      try write(67, madSectorTrailer(generalPurposeByte: gpb, keyB: keyB).bytes)
    }
    let bytes = mad.mad1Bytes
    for i in 0..<2 { try write(1 &+ i, Array(bytes[i &* blockSize..<(i &+ 1) &* blockSize])) }
    try write(3, madSectorTrailer(generalPurposeByte: gpb, keyB: keyB).bytes)
    return MifareClassicWritePlan(kind: kind, writes: writes, finalImage: new)
  }

  /// The tearing-safe block writes that store `message` (encoded NDEF bytes; empty for an
  /// empty NDEF TLV) in the NDEF sectors of `image` (AN1304 §6.4.3): the NDEF TLV's length
  /// is set to 0 first, then the body is written, then the length, by 16-byte block,
  /// trailers untouched. Each write names its sector and the key the access bits let write
  /// it (key A, the NFC Forum public key, when they allow it).
  ///
  /// - Throws: the errors of ``MifareClassicTagView`` (lenient when `options` says so),
  ///   ``NFCTagError/Code/readOnly`` (offset: the first NDEF trailer's general purpose
  ///   byte; or a block to write that no key may write), ``NFCTagError/Code/messageTooLarge``.
  public static func writePlan(
    _ message: [UInt8], into image: [UInt8], options: TagDecodingOptions = .strict
  ) throws(NFCTagError) -> MifareClassicWritePlan {
    let tag = try MifareClassicTagView(validating: image.span.bytes, options: options)
    if tag.isReadOnly {
      let sector = tag.ndefSectors.first ?? 1
      let trailer = tag.kind.trailerBlock(ofSector: sector) ?? 3
      throw NFCTagError(.readOnly, offset: trailer &* blockSize &+ trailerGeneralPurposeByteOffset)
    }
    return try writePlan(message, into: image, kind: tag.kind, area: tag.tlvArea.area)
  }

  /// The writes of `message` at the NDEF TLV of `area`, each with the sector and key its
  /// trailer in `image` gives: the one plan behind the whole-image
  /// ``writePlan(_:into:options:)-([UInt8],_,_)`` and ``MifareClassicSectorImage/writePlan(_:options:)``.
  static func writePlan(
    _ message: [UInt8], into image: [UInt8], kind: MifareClassicCardKind, area: TagTLVArea
  ) throws(NFCTagError) -> MifareClassicWritePlan {
    let plan = try area.writePlan(image: image, message: message, blockSize: blockSize)
    var writes: [MifareClassicBlockWrite] = []
    for write in plan.writes {
      guard let sector = kind.sector(ofBlock: write.block),
        let slot = writingKey(forSector: sector, in: image.span.bytes, kind: kind),
        isSectorWritable(sector, in: image.span.bytes, kind: kind), !kind.isTrailer(block: write.block)
      else { throw NFCTagError(.readOnly, offset: write.offset) }
      writes.append(
        MifareClassicBlockWrite(
          write: write, sector: sector, keySlot: slot, key: slot == .a ? .nfcForumKeyA : nil))
    }
    return MifareClassicWritePlan(kind: kind, writes: writes, finalImage: plan.finalImage)
  }

  /// The trailer of `sector` in `image` (inconsistent access bits included); `nil` for a
  /// sector `kind` does not have or `image` does not hold.
  static func trailer(ofSector sector: Int, in image: RawSpan, kind: MifareClassicCardKind)
    -> MifareClassicSectorTrailer?
  {
    guard let block = kind.trailerBlock(ofSector: sector) else { return nil }
    return try? MifareClassicSectorTrailer(reading: image, at: block &* blockSize)
  }

  /// Whether the NDEF data of `sector` may be written: its NFC general purpose byte grants
  /// writing (AN1304 §6.3.1) and its access bits let key A or a usable key B write every
  /// data block (MF1S50 §8.7.2).
  static func isSectorWritable(_ sector: Int, in image: RawSpan, kind: MifareClassicCardKind) -> Bool {
    guard let trailer = trailer(ofSector: sector, in: image, kind: kind),
      let count = kind.blockCount(inSector: sector),
      MifareClassicNFCSectorGeneralPurposeByte(rawValue: trailer.generalPurposeByte).isWritable
    else { return false }
    for index in 0..<(count &- 1) {
      if !trailer.canWrite(blockIndex: index, blocksInSector: count, with: .a)
        && !trailer.canWrite(blockIndex: index, blocksInSector: count, with: .b)
      {
        return false
      }
    }
    return true
  }

  /// The key that writes the data blocks of `sector`: key A when the access bits allow it,
  /// else key B; `nil` when neither may (MF1S50 §8.7.2).
  static func writingKey(forSector sector: Int, in image: RawSpan, kind: MifareClassicCardKind)
    -> MifareClassicKeySlot?
  {
    guard let trailer = trailer(ofSector: sector, in: image, kind: kind),
      let count = kind.blockCount(inSector: sector)
    else { return nil }
    for key in [MifareClassicKeySlot.a, .b]
    where (0..<(count &- 1)).allSatisfy({ trailer.canWrite(blockIndex: $0, blocksInSector: count, with: key) }
    ) {
      return key
    }
    return nil
  }

  /// The tearing-safe block writes that store `message` in the NDEF sectors of `image`.
  ///
  /// - Throws: as ``writePlan(_:into:options:)-([UInt8],_,_)``, and
  ///   ``NFCTagError/Code/invalidNDEFMessage`` when the model cannot be encoded.
  public static func writePlan(
    _ message: NDEFMessage, into image: [UInt8], options: TagDecodingOptions = .strict
  ) throws(NFCTagError) -> MifareClassicWritePlan {
    try writePlan(try encode(message), into: image, options: options)
  }

  /// The writes that make an NDEF card read-only for good (AN1304 §6.4.4, READ-ONLY state):
  /// every NDEF sector's trailer becomes `D3F7D3F7D3F7 07 8F 0F 43 keyB` and every MAD
  /// sector's `A0A1A2A3A4A5 07 8F 0F gpb keyB` (its general purpose byte kept).
  ///
  /// `07 8F 0F`, decoded by hand from MF1S50 §8.7 figure 10: byte 6 = 07 gives ¬C2 = 0000
  /// and ¬C1 = 0111, so C2 = 1111 and C1 = 1000; byte 7 = 8F repeats C1 = 1000 and gives
  /// ¬C3 = 1111, so C3 = 0000; byte 8 = 0F repeats C3 = 0000 and C2 = 1111. Data blocks
  /// (groups 0-2) are C1C2C3 = 010: read with key A or B, never written, incremented or
  /// decremented. The trailer (group 3) is 110: key A and key B never written, access bits
  /// read with A or B and never written: nothing in the sector can change again.
  ///
  /// NDEF sectors are locked first (the first one last among them, as it decides the
  /// read-only state), then MAD2, then MAD1. Each trailer is written with the key its
  /// current access bits allow to rewrite it: key B (`keyB`) under the NFC and MAD layout
  /// (trailer 011), key A under transport configuration.
  ///
  /// - Throws: the errors of ``MifareClassicTagView``, ``NFCTagError/Code/readOnly``
  ///   (offset: the trailer) when no usable key may rewrite a trailer (already locked).
  public static func readOnlyPlan(
    _ image: [UInt8], keyB: MifareClassicKey, options: TagDecodingOptions = .strict
  ) throws(NFCTagError) -> MifareClassicWritePlan {
    let tag = try MifareClassicTagView(validating: image.span.bytes, options: options)
    let kind = tag.kind
    var new = image
    var writes: [MifareClassicBlockWrite] = []
    func lock(_ sector: Int, keyA: MifareClassicKey, gpb: UInt8) throws(NFCTagError) {
      guard let block = kind.trailerBlock(ofSector: sector), let count = kind.blockCount(inSector: sector)
      else { return }
      let offset = block &* blockSize
      let current = try MifareClassicSectorTrailer(reading: new.span.bytes, at: offset)
      let slot: MifareClassicKeySlot
      if current.canWrite(blockIndex: count &- 1, blocksInSector: count, with: .b) {
        slot = .b
      } else if current.canWrite(blockIndex: count &- 1, blocksInSector: count, with: .a) {
        slot = .a
      } else {
        throw NFCTagError(.readOnly, offset: offset)
      }
      let trailer = MifareClassicSectorTrailer(
        keyA: keyA, accessBits: .readOnly, generalPurposeByte: gpb, keyB: keyB)
      let bytes = trailer.bytes
      new.replaceSubrange(offset..<offset &+ blockSize, with: bytes)
      writes.append(
        MifareClassicBlockWrite(
          write: TagWrite(block: block, offset: offset, bytes: bytes), sector: sector, keySlot: slot,
          key: slot == .b ? keyB : keyA))
    }
    for sector in tag.ndefSectors.reversed() {
      try lock(sector, keyA: .nfcForumKeyA, gpb: MifareClassicNFCSectorGeneralPurposeByte.readOnly.rawValue)
    }
    if tag.mad.hasMAD2 {
      try lock(MifareClassicMAD.mad2Sector, keyA: .madKeyA, gpb: tag.madGeneralPurposeByte.rawValue)
    }
    try lock(0, keyA: .madKeyA, gpb: tag.madGeneralPurposeByte.rawValue)
    return MifareClassicWritePlan(kind: kind, writes: writes, finalImage: new)
  }
}
