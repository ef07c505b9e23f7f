// SPDX-License-Identifier: Apache-2.0
import NFCTags
import Testing

@Suite("MIFARE Classic memory layout")
struct MifareClassicLayoutTests {
  @Test(
    arguments: [
      (MifareClassicCardKind.mini, 5, 20, 320),
      (MifareClassicCardKind.classic1K, 16, 64, 1024),
      (MifareClassicCardKind.classic4K, 40, 256, 4096),
    ] as [(MifareClassicCardKind, Int, Int, Int)])
  func sizes(kind: MifareClassicCardKind, sectors: Int, blocks: Int, bytes: Int) {
    #expect(kind.sectorCount == sectors)
    #expect(kind.blockCount == blocks)
    #expect(kind.memorySize == bytes)
    #expect(MifareClassicCardKind(memorySize: bytes) == kind)
  }

  /// MF1S70 §8.6: sectors 0-31 have 4 blocks from 4s; 32-39 have 16 from 128 + 16(s − 32).
  @Test(
    arguments: [
      (0, 0, 4, 3), (1, 4, 4, 7), (15, 60, 4, 63), (16, 64, 4, 67), (31, 124, 4, 127),
      (32, 128, 16, 143), (33, 144, 16, 159), (39, 240, 16, 255),
    ] as [(Int, Int, Int, Int)])
  func fourKSectors(sector: Int, first: Int, count: Int, trailer: Int) {
    let kind = MifareClassicCardKind.classic4K
    #expect(kind.firstBlock(ofSector: sector) == first)
    #expect(kind.blockCount(inSector: sector) == count)
    #expect(kind.trailerBlock(ofSector: sector) == trailer)
    #expect(kind.sector(ofBlock: first) == sector)
    #expect(kind.sector(ofBlock: trailer) == sector)
    #expect(kind.isTrailer(block: trailer))
    #expect(!kind.isTrailer(block: first))
    #expect(kind.blockIndexInSector(trailer) == count - 1)
  }

  @Test func everyBlockBelongsToExactlyOneSector() {
    for kind in MifareClassicCardKind.allKinds {
      var trailers = 0
      for block in 0..<kind.blockCount {
        guard let sector = kind.sector(ofBlock: block), let first = kind.firstBlock(ofSector: sector),
          let count = kind.blockCount(inSector: sector)
        else {
          Issue.record("block \(block) of \(kind)")
          continue
        }
        #expect(first <= block && block < first + count)
        if kind.isTrailer(block: block) { trailers += 1 }
      }
      #expect(trailers == kind.sectorCount)
    }
  }

  @Test func outOfRangeAnswersNil() {
    let k1 = MifareClassicCardKind.classic1K
    #expect(k1.firstBlock(ofSector: 16) == nil)
    #expect(k1.firstBlock(ofSector: -1) == nil)
    #expect(k1.sector(ofBlock: 64) == nil)
    #expect(k1.sector(ofBlock: -1) == nil)
    #expect(k1.trailerBlock(ofSector: Int.max) == nil)
    #expect(!k1.isTrailer(block: Int.min))
    #expect(MifareClassicCardKind.mini.sector(ofBlock: 20) == nil)
    #expect(MifareClassicCardKind.classic4K.sector(ofBlock: 256) == nil)
    #expect(MifareClassicCardKind(memorySize: 1023) == nil)
    #expect(MifareClassicCardKind.classic4K.offset(ofBlock: 255) == 4080)
    #expect(MifareClassicCardKind.classic4K.offset(ofBlock: 256) == nil)
  }

  @Test(
    arguments: [
      (UInt8(0x08), MifareClassicCardKind.classic1K), (0x88, .classic1K), (0x28, .classic1K),
      (0x18, .classic4K), (0x38, .classic4K), (0x09, .mini),
    ] as [(UInt8, MifareClassicCardKind)])
  func kindFromSAK(sak: UInt8, kind: MifareClassicCardKind) {
    #expect(MifareClassicCardKind(sak: sak) == kind)
  }

  @Test func unknownSAK() {
    #expect(MifareClassicCardKind(sak: 0x00) == nil)  // Ultralight / NTAG
    #expect(MifareClassicCardKind(sak: 0x20) == nil)  // ISO-DEP
  }

  /// A 1K card's block 0 as NXP ships it: UID 4B 25 1D 3E, BCC = 4B^25^1D^3E = 4D, SAK 08,
  /// ATQA 04 00, manufacturer data.
  @Test func manufacturerBlockFourByteUID() throws {
    let block = hex("4B 25 1D 3E 4D 08 04 00 62 63 64 65 66 67 68 69")
    let m = try MifareClassicManufacturerBlock(validating: block.span.bytes)
    #expect(m.uid == hex("4B 25 1D 3E"))
    #expect(m.bcc == 0x4D)
    #expect(MifareClassicManufacturerBlock.bcc(of: m.uid) == 0x4D)
    #expect(m.sak == 0x08)
    #expect(m.atqa == 0x0004)
    #expect(m.kind == .classic1K)
    #expect(m.manufacturerData == hex("62 63 64 65 66 67 68 69"))
  }

  @Test func manufacturerBlockSevenByteUID() throws {
    let block = hex("04 11 22 33 44 55 66 08 44 00 01 02 03 04 05 06")
    let m = try MifareClassicManufacturerBlock(validating: block.span.bytes, uidSize: .double)
    #expect(m.uid == hex("04 11 22 33 44 55 66"))
    #expect(m.bcc == nil)
    #expect(m.sak == 0x08)
    #expect(m.atqa == 0x0044)
    #expect(m.manufacturerData == hex("01 02 03 04 05 06"))
  }

  @Test func manufacturerBlockErrors() {
    let bad = hex("4B 25 1D 3E 4C 08 04 00 62 63 64 65 66 67 68 69")
    let bcc = tagError { () throws(NFCTagError) in
      _ = try MifareClassicManufacturerBlock(validating: bad.span.bytes)
    }
    #expect(bcc == NFCTagError(.bccMismatch, offset: 4))
    // At an offset inside a larger image, the error offset is absolute.
    let image = [UInt8](repeating: 0, count: 32) + bad
    let inside = tagError { () throws(NFCTagError) in
      _ = try MifareClassicManufacturerBlock(validating: image.span.bytes, at: 32)
    }
    #expect(inside == NFCTagError(.bccMismatch, offset: 36))
    let short = Array(bad.prefix(15))
    let truncated = tagError { () throws(NFCTagError) in
      _ = try MifareClassicManufacturerBlock(validating: short.span.bytes)
    }
    #expect(truncated == NFCTagError(.truncatedImage, offset: 15))
    let negative = tagError { () throws(NFCTagError) in
      _ = try MifareClassicManufacturerBlock(validating: bad.span.bytes, at: -1)
    }
    #expect(negative?.code == .truncatedImage)
  }
}
