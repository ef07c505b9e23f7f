// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire
import Testing

/// The bytes of `sector` (data blocks and trailer) in a whole image.
private func sectorBytes(_ image: [UInt8], _ sector: Int, _ kind: MifareClassicCardKind) -> [UInt8] {
  let first = kind.firstBlock(ofSector: sector)!
  let count = kind.blockCount(inSector: sector)!
  return Array(image[first * 16..<(first + count) * 16])
}

/// A sector image of `image`'s NDEF sectors, the first `count` (all by default) added.
private func sectorImage(_ image: [UInt8], _ kind: MifareClassicCardKind, count: Int? = nil) throws
  -> MifareClassicSectorImage
{
  let view = try MifareClassicTagView(validating: image.span.bytes)
  var sectors = MifareClassicSectorImage(kind: kind, ndefSectors: view.ndefSectors)
  for sector in view.ndefSectors.prefix(count ?? view.ndefSectors.count) {
    try sectors.append(sectorBytes(image, sector, kind))
  }
  return sectors
}

/// A text record message of `size` payload bytes, encoded.
private func messageBytes(_ size: Int) throws -> [UInt8] {
  let record = NDEFRecord(
    typeNameFormat: .media, type: Array("text/plain".utf8), payload: [UInt8](repeating: 0x61, count: size))
  return try NDEFMessage(records: [record]).encodedBytes()
}

@Suite("MIFARE Classic MAD from its blocks, TLV area and write plan sector by sector")
struct MifareClassicSectorImageTests {
  /// AN10787 §3.9: a 1K card all NDEF has MAD1 `14 01 03E1×15`; a 4K card's MAD2 with
  /// info 01 and 23 NDEF AIDs has CRC E8.
  @Test func directoryFromHandBlocks() throws {
    let mad1 = hex("14 01" + String(repeating: " 03 E1", count: 15))
    let one = try MifareClassicDirectory(generalPurposeByte: 0xC1, mad1: mad1, mad2: nil, kind: .classic1K)
    #expect(one.ndefSectors == Array(1...15))
    #expect(one.mad.hasMAD2 == false)
    #expect(one.warnings.isEmpty)
    let mad2 = hex("E8 01" + String(repeating: " 03 E1", count: 23))
    let four = try MifareClassicDirectory(generalPurposeByte: 0xC2, mad1: mad1, mad2: mad2, kind: .classic4K)
    #expect(four.ndefSectors == Array(1...15) + Array(17...39))
    #expect(four.mad.mad2CRC == 0xE8)
    // MAD1 with one bit changed: the CRC no longer matches (offset 16); lenient reads on.
    var bad = mad1
    bad[3] = 0xE0
    #expect(throws: NFCTagError(.madCRCMismatch, offset: 16)) {
      try MifareClassicDirectory(generalPurposeByte: 0xC1, mad1: bad, mad2: nil, kind: .classic1K)
    }
    let lenient = try MifareClassicDirectory(
      generalPurposeByte: 0xC1, mad1: bad, mad2: nil, kind: .classic1K, options: .lenient)
    #expect(lenient.warnings == [NFCTagWarning(.madCRCMismatch, offset: 16)])
    #expect(lenient.ndefSectors == Array(2...15))
    // DA clear: no MAD (offset 57); version 2 without its blocks: offset 1024.
    #expect(throws: NFCTagError(.missingMAD, offset: 57)) {
      try MifareClassicDirectory(generalPurposeByte: 0x41, mad1: mad1, mad2: nil, kind: .classic1K)
    }
    #expect(throws: NFCTagError(.truncatedImage, offset: 1024)) {
      try MifareClassicDirectory(generalPurposeByte: 0xC2, mad1: mad1, mad2: nil, kind: .classic4K)
    }
    // Android's C1 on a 4K card with a MAD2: strict refuses, lenient reads the MAD2.
    #expect(throws: NFCTagError(.undeclaredMAD2, offset: 57)) {
      try MifareClassicDirectory(generalPurposeByte: 0xC1, mad1: mad1, mad2: mad2, kind: .classic4K)
    }
  }

  /// Every MAD1 and MAD2 length but the right one is refused with its offset.
  @Test func directoryMalformedLengths() throws {
    let mad1 = MifareClassicMAD.ndef(for: .classic4K).mad1Bytes
    let mad2 = MifareClassicMAD.ndef(for: .classic4K).mad2Bytes
    for count in 0...64 where count != 32 {
      #expect(throws: NFCTagError(.invalidImageSize, offset: 16 + count)) {
        try MifareClassicDirectory(
          generalPurposeByte: 0xC2, mad1: Array((mad1 + mad1 + mad1).prefix(count)), mad2: mad2,
          kind: .classic4K)
      }
    }
    for count in 0...96 where count != 48 {
      #expect(throws: NFCTagError(.invalidImageSize, offset: 1024 + count)) {
        try MifareClassicDirectory(
          generalPurposeByte: 0xC2, mad1: mad1, mad2: Array((mad2 + mad2).prefix(count)), kind: .classic4K)
      }
    }
  }

  /// The directory from the blocks equals the whole-image view's MAD on formatted cards.
  @Test(arguments: [MifareClassicCardKind.mini, .classic1K, .classic4K])
  func directoryEqualsWholeImage(kind: MifareClassicCardKind) throws {
    let image = try formattedMifareClassic(kind)
    let view = try MifareClassicTagView(validating: image.span.bytes)
    let directory = try MifareClassicDirectory(
      generalPurposeByte: image[57], mad1: Array(image[16..<48]),
      mad2: kind == .classic4K ? Array(image[1024..<1072]) : nil, kind: kind)
    #expect(directory.mad == view.mad)
    #expect(directory.ndefSectors == view.ndefSectors)
    #expect(directory.generalPurposeByte == view.madGeneralPurposeByte)
  }

  /// Sector by sector: the area is known once the NDEF TLV is whole (46 bytes: sector 1 of
  /// 48), the message and read-only state are the whole image's, and the write plan over
  /// the sectors read is the whole image's plan, write for write.
  @Test(arguments: [
    (MifareClassicCardKind.classic1K, 30), (.classic1K, 300), (.classic4K, 800), (.mini, 100),
  ])
  func partialEqualsWhole(kind: MifareClassicCardKind, size: Int) throws {
    var image = try formattedMifareClassic(kind)
    let old = try messageBytes(size)
    try MifareClassic.writePlan(old, into: image).apply(to: &image)
    let view = try MifareClassicTagView(validating: image.span.bytes)
    var sectors = MifareClassicSectorImage(kind: kind, ndefSectors: view.ndefSectors)
    #expect(sectors.isReadOnly == nil)
    #expect(try sectors.tlvArea() == nil)
    var area: TagTLVArea? = nil
    while area == nil, let sector = sectors.nextSector {
      try sectors.append(sectorBytes(image, sector, kind))
      area = try sectors.tlvArea()
    }
    let found = try #require(area)
    // 1K: 2 + 30+15 bytes fit sector 1; 300+15 bytes need 7 sectors of 48.
    let needed = (found.ndefTLV!.valueOffset + found.ndefTLV!.length - 64) / 48 + 1
    #expect(sectors.readCount <= max(needed, 1) + (kind == .classic4K ? 1 : 0))
    #expect(found.ndefTLV == view.tlvArea.area.ndefTLV)
    #expect(TagTLVAreaView(image: sectors.image.span.bytes, area: found).assembledNDEFBytes() == old)
    #expect(sectors.isReadOnly == view.isReadOnly)
    // The write plan: the same writes as the whole image's, from the sectors it needs.
    for newSize in [0, 20, size + 40] {
      let new = try messageBytes(newSize)
      let whole = try MifareClassic.writePlan(new, into: image)
      var partial = MifareClassicSectorImage(kind: kind, ndefSectors: view.ndefSectors)
      var plan: MifareClassicWritePlan? = nil
      while plan == nil, let sector = partial.nextSector {
        try partial.append(sectorBytes(image, sector, kind))
        plan = try partial.writePlan(new)
      }
      #expect(try #require(plan).writes == whole.writes, "\(kind) \(size) -> \(newSize)")
    }
  }

  /// Too large and read-only: the whole image's errors, from the first sector.
  @Test func writePlanErrors() throws {
    let image = try formattedMifareClassic(.mini)
    var sectors = try sectorImage(image, .mini, count: 1)
    #expect(throws: NFCTagError(.messageTooLarge, offset: 64)) {
      try sectors.writePlan([UInt8](repeating: 0, count: 4 * 48))
    }
    var locked = image
    try MifareClassic.readOnlyPlan(image, keyB: .transport).apply(to: &locked)
    sectors = try sectorImage(locked, .mini, count: 1)
    #expect(sectors.isReadOnly == true)
    #expect(throws: NFCTagError(.readOnly, offset: 7 * 16 + 9)) { try sectors.writePlan([]) }
    #expect(throws: NFCTagError(.readOnly, offset: 7 * 16 + 9)) {
      try MifareClassic.writePlan([], into: locked)
    }
  }

  /// A sector of every wrong length is refused with the count given; a sector past the
  /// last is `procedureFinished`.
  @Test func appendMalformedLengths() throws {
    let image = try formattedMifareClassic(.classic4K)
    var sectors = MifareClassicSectorImage(kind: .classic4K, ndefSectors: [1, 16, 32, 0, 41])
    #expect(sectors.ndefSectors == [1, 32])
    for count in 0...300 where count != 64 {
      #expect(throws: NFCTagError(.invalidImageSize, offset: count)) {
        try sectors.append([UInt8](repeating: 0, count: count))
      }
    }
    try sectors.append(sectorBytes(image, 1, .classic4K))
    for count in [0, 64, 255, 257] {
      #expect(throws: NFCTagError(.invalidImageSize, offset: count)) {
        try sectors.append([UInt8](repeating: 0, count: count))
      }
    }
    try sectors.append(sectorBytes(image, 32, .classic4K))
    #expect(sectors.isComplete)
    #expect(throws: NFCTagError(.procedureFinished, offset: 0)) { try sectors.append([]) }
    // No NDEF sector: read-only, and the area has no NDEF TLV.
    let none = MifareClassicSectorImage(kind: .classic1K, ndefSectors: [])
    #expect(none.isReadOnly == true)
    #expect(throws: NFCTagError(.missingNDEFTLV, offset: 64)) { try none.tlvArea() }
  }

  /// The NDEF TLV's 3-byte length across two blocks (T2T 1.0 §6.4.2, as Type 2): the
  /// block holding the first length byte is written last, the other header block before
  /// it while the length is still 0, so a tear leaves the old, an empty or the new message.
  @Test func aHeaderAcrossTwoBlocksCommitsInOneWrite() throws {
    var image = try formattedMifareClassic(.classic1K)
    // 14 NULL TLVs, then the NDEF TLV at offset 78: `03` at 78, `FF` at 79, length at 80-81 (block 5).
    for i in 0..<14 { image[64 + i] = 0 }
    image[78] = 0x03
    image[79] = 0x00
    image[80] = 0xFE
    let new = try messageBytes(300)
    let plan = try MifareClassic.writePlan(new, into: image)
    let blocks = plan.writes.map { $0.block }
    #expect(blocks.last == 4)  // the block with `03 FF` last
    #expect(blocks.filter { $0 == 4 }.count == 1)
    for cut in 0...plan.writes.count {
      var torn = image
      plan.apply(to: &torn, count: cut)
      let message = try mifareClassicMessage(torn, options: .lenient)
      #expect(message == [] || message == new, "cut after \(cut) writes")
    }
  }
}
