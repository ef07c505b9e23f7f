// SPDX-License-Identifier: Apache-2.0
import NFCTags
import Testing

@Suite("MIFARE Classic sector trailers and access bits")
struct MifareClassicAccessBitsTests {
  /// The layouts of the data sheet and the application notes, decoded by hand from
  /// MF1S50 §8.7 figure 10 (byte 6 = ¬C2|¬C1, byte 7 = C1|¬C3, byte 8 = C3|C2):
  /// - `FF 07 80`: ¬C2 = F, ¬C1 = F, C1 = 0, ¬C3 = 7, C3 = 8, C2 = 0: data 000, trailer 001.
  /// - `78 77 88`: ¬C2 = 7 → C2 = 1000, ¬C1 = 8 → C1 = 0111, C3 = 1000: data 100, trailer 011.
  /// - `7F 07 88`: C2 = 1000, C1 = 0000, C3 = 1000: data 000, trailer 011.
  /// - `07 8F 0F`: C2 = 1111, C1 = 1000, C3 = 0000: data 010, trailer 110.
  /// - `79 67 88` (libfreefare's MAD): C1 = 0110: block 0 000, blocks 1-2 100, trailer 011.
  @Test(
    arguments: [
      ("FF 07 80", ["000", "000", "000", "001"]),
      ("78 77 88", ["100", "100", "100", "011"]),
      ("7F 07 88", ["000", "000", "000", "011"]),
      ("07 8F 0F", ["010", "010", "010", "110"]),
      ("79 67 88", ["000", "100", "100", "011"]),
    ] as [(String, [String])])
  func decodesKnownLayouts(bytes: String, conditions: [String]) throws {
    let b = hex(bytes)
    let bits = try MifareClassicAccessBits(validatingByte6: b[0], byte7: b[1], byte8: b[2])
    #expect((0..<4).map { bits.condition(forGroup: $0)?.description ?? "?" } == conditions)
    let c = (0..<4).compactMap { bits.condition(forGroup: $0) }
    let encoded = MifareClassicAccessBits(group0: c[0], group1: c[1], group2: c[2], trailer: c[3])
    #expect(encoded.bytes == b)
  }

  @Test func namedLayouts() {
    #expect(MifareClassicAccessBits.transport.bytes == hex("FF 07 80"))
    #expect(MifareClassicAccessBits.mad.bytes == hex("78 77 88"))
    #expect(MifareClassicAccessBits.nfcSector.bytes == hex("7F 07 88"))
    #expect(MifareClassicAccessBits.readOnly.bytes == hex("07 8F 0F"))
    let readOnly = MifareClassicAccessBits(
      data: MifareClassicAccessCondition(rawValue: 0b010)!,
      trailer: MifareClassicAccessCondition(rawValue: 0b110)!)
    #expect(readOnly == .readOnly)
    #expect(MifareClassicAccessBits.mad.description == "78 77 88")
  }

  /// Every one of the 4096 condition combinations encodes to consistent bytes that decode
  /// back to it; every one of the 2^24 byte triples that is consistent is one of them.
  @Test func encodingIsConsistentAndRoundTrips() {
    var seen = Set<[UInt8]>()
    for raw in 0..<4096 {
      let c = (0..<4).map { MifareClassicAccessCondition(rawValue: UInt8((raw >> (3 * $0)) & 7))! }
      let bits = MifareClassicAccessBits(group0: c[0], group1: c[1], group2: c[2], trailer: c[3])
      #expect(bits.isConsistent)
      #expect((0..<4).compactMap { bits.condition(forGroup: $0) } == c)
      seen.insert(bits.bytes)
    }
    #expect(seen.count == 4096)
  }

  /// Byte 6 holds ¬C1 and ¬C2; byte 7 holds ¬C3. Flipping any single bit breaks one copy;
  /// the error names the byte with the inverted copy.
  @Test func everySingleBitFlipIsReported() {
    let good = MifareClassicAccessBits.nfcSector.bytes
    for byte in 0..<3 {
      for bit in 0..<8 {
        var b = good
        b[byte] ^= 1 << UInt8(bit)
        let error = tagError { () throws(NFCTagError) in
          _ = try MifareClassicAccessBits(validatingByte6: b[0], byte7: b[1], byte8: b[2], offset: 6)
        }
        // C1: byte 6 low / byte 7 high; C2: byte 6 high / byte 8 low; C3: byte 7 low / byte 8 high.
        let expected: Int
        switch (byte, bit) {
        case (0, _): expected = 6
        case (1, 4...7): expected = 6
        case (1, _): expected = 7
        case (2, 0...3): expected = 6
        default: expected = 7
        }
        #expect(error == NFCTagError(.inconsistentAccessBits, offset: expected), "byte \(byte) bit \(bit)")
      }
    }
  }

  @Test func conditionRawValues() {
    #expect(MifareClassicAccessCondition(rawValue: 8) == nil)
    let c = MifareClassicAccessCondition(c1: true, c2: false, c3: true)
    #expect(c.rawValue == 0b101 && c.description == "101")
  }

  /// MF1S50 §8.7.2 table 8, row by row (read, write, increment, decrement/transfer/restore).
  @Test(
    arguments: [
      (UInt8(0b000), ["keyAOrB", "keyAOrB", "keyAOrB", "keyAOrB"]),
      (0b010, ["keyAOrB", "never", "never", "never"]),
      (0b100, ["keyAOrB", "keyB", "never", "never"]),
      (0b110, ["keyAOrB", "keyB", "keyB", "keyAOrB"]),
      (0b001, ["keyAOrB", "never", "never", "keyAOrB"]),
      (0b011, ["keyB", "keyB", "never", "never"]),
      (0b101, ["keyB", "never", "never", "never"]),
      (0b111, ["never", "never", "never", "never"]),
    ] as [(UInt8, [String])])
  func dataBlockTable(raw: UInt8, row: [String]) {
    let a = MifareClassicAccessCondition(rawValue: raw)!.dataBlockAccess
    #expect([a.read.name, a.write.name, a.increment.name, a.decrementTransferRestore.name] == row)
  }

  /// MF1S50 §8.7.1 table 7, row by row (key A read/write, access bits read/write, key B
  /// read/write).
  @Test(
    arguments: [
      (UInt8(0b000), ["never", "keyA", "keyA", "never", "keyA", "keyA"], true),
      (0b010, ["never", "never", "keyA", "never", "keyA", "never"], true),
      (0b100, ["never", "keyB", "keyAOrB", "never", "never", "keyB"], false),
      (0b110, ["never", "never", "keyAOrB", "never", "never", "never"], false),
      (0b001, ["never", "keyA", "keyA", "keyA", "keyA", "keyA"], true),
      (0b011, ["never", "keyB", "keyAOrB", "keyB", "never", "keyB"], false),
      (0b101, ["never", "never", "keyAOrB", "keyB", "never", "never"], false),
      (0b111, ["never", "never", "keyAOrB", "never", "never", "never"], false),
    ] as [(UInt8, [String], Bool)])
  func trailerTable(raw: UInt8, row: [String], keyBReadable: Bool) {
    let a = MifareClassicAccessCondition(rawValue: raw)!.trailerAccess
    #expect(
      [a.keyARead, a.keyAWrite, a.accessBitsRead, a.accessBitsWrite, a.keyBRead, a.keyBWrite].map(\.name)
        == row)
    #expect(a.isKeyBReadable == keyBReadable)
  }

  @Test func trailerReadsAndWrites() throws {
    let block = hex("D3 F7 D3 F7 D3 F7 7F 07 88 40 01 02 03 04 05 06")
    let trailer = try MifareClassicSectorTrailer(validating: block.span.bytes)
    #expect(trailer.keyA == .nfcForumKeyA)
    #expect(trailer.accessBits == .nfcSector)
    #expect(trailer.generalPurposeByte == 0x40)
    #expect(trailer.keyB.bytes == hex("01 02 03 04 05 06"))
    #expect(trailer.bytes == block)
    #expect(trailer.isKeyBUsable)
    // NFC sector: data 000 (A|B read and write), trailer 011 (only key B rewrites it).
    for index in 0..<3 {
      #expect(trailer.canRead(blockIndex: index, blocksInSector: 4, with: .a))
      #expect(trailer.canWrite(blockIndex: index, blocksInSector: 4, with: .a))
      #expect(trailer.canWrite(blockIndex: index, blocksInSector: 4, with: .b))
    }
    #expect(trailer.canRead(blockIndex: 3, blocksInSector: 4, with: .a))
    #expect(!trailer.canWrite(blockIndex: 3, blocksInSector: 4, with: .a))
    #expect(trailer.canWrite(blockIndex: 3, blocksInSector: 4, with: .b))
    #expect(!trailer.canRead(blockIndex: 4, blocksInSector: 4, with: .a))
    #expect(!trailer.canRead(blockIndex: -1, blocksInSector: 4, with: .a))
    #expect(!trailer.canRead(blockIndex: 0, blocksInSector: 5, with: .a))
  }

  /// MAD sector `78 77 88`: data read A|B, write B only.
  @Test func madTrailerRights() {
    let trailer = MifareClassicSectorTrailer(
      keyA: .madKeyA, accessBits: .mad, generalPurposeByte: 0xC1, keyB: .transport)
    #expect(trailer.canRead(block: 1, of: .classic1K, with: .a))
    #expect(!trailer.canWrite(block: 1, of: .classic1K, with: .a))
    #expect(trailer.canWrite(block: 2, of: .classic1K, with: .b))
    #expect(trailer.canWrite(block: 3, of: .classic1K, with: .b))
    #expect(!trailer.canWrite(block: 64, of: .classic1K, with: .b))
  }

  /// Transport configuration (trailer 001) makes key B readable: key B cannot
  /// authenticate, so it has no rights at all, though table 8 lists A|B for data 000.
  @Test func readableKeyBIsNotAKey() {
    let trailer = MifareClassicSectorTrailer(
      keyA: .transport, accessBits: .transport, generalPurposeByte: 0x69, keyB: .transport)
    #expect(!trailer.isKeyBUsable)
    #expect(trailer.dataBlockAccess(group: 0)?.write == .keyA)
    #expect(trailer.canWrite(blockIndex: 0, blocksInSector: 4, with: .a))
    #expect(!trailer.canWrite(blockIndex: 0, blocksInSector: 4, with: .b))
    #expect(!trailer.canRead(blockIndex: 0, blocksInSector: 4, with: .b))
    #expect(trailer.canWrite(blockIndex: 3, blocksInSector: 4, with: .a))
    #expect(trailer.dataBlockAccess(group: 3) == nil)
  }

  /// Read-only (AN1304): data 010, trailer 110: nothing is ever writable again.
  @Test func readOnlyTrailer() {
    let trailer = MifareClassicSectorTrailer(
      keyA: .nfcForumKeyA, accessBits: .readOnly, generalPurposeByte: 0x43, keyB: .transport)
    for key in [MifareClassicKeySlot.a, .b] {
      for index in 0..<4 { #expect(!trailer.canWrite(blockIndex: index, blocksInSector: 4, with: key)) }
      #expect(trailer.canRead(blockIndex: 0, blocksInSector: 4, with: key))
    }
  }

  /// 16-block sectors group blocks 0-4, 5-9, 10-14; block 15 is the trailer.
  @Test func largeSectorGroups() {
    #expect(
      (0..<16).map { MifareClassicAccessBits.group(forBlockIndex: $0, blocksInSector: 16) ?? -1 }
        == [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3])
    let c = { (raw: UInt8) in MifareClassicAccessCondition(rawValue: raw)! }
    // Group 1 read-only, group 2 never: block 144+7 (sector 33) is not writable.
    let trailer = MifareClassicSectorTrailer(
      keyA: .nfcForumKeyA,
      accessBits: MifareClassicAccessBits(
        group0: c(0b000), group1: c(0b010), group2: c(0b111), trailer: c(0b011)),
      generalPurposeByte: 0x40, keyB: .transport)
    #expect(trailer.canWrite(block: 144 + 4, of: .classic4K, with: .a))
    #expect(!trailer.canWrite(block: 144 + 5, of: .classic4K, with: .a))
    #expect(trailer.canRead(block: 144 + 9, of: .classic4K, with: .a))
    #expect(!trailer.canRead(block: 144 + 10, of: .classic4K, with: .b))
  }

  @Test func inconsistentTrailer() throws {
    var block = hex("D3 F7 D3 F7 D3 F7 7F 07 88 40 FF FF FF FF FF FF")
    block[7] = 0x17  // C1 of block 0 set, its inverted copy in byte 6 not cleared
    let error = tagError { () throws(NFCTagError) in
      _ = try MifareClassicSectorTrailer(validating: block.span.bytes)
    }
    #expect(error == NFCTagError(.inconsistentAccessBits, offset: 6))
    let read = try MifareClassicSectorTrailer(reading: block.span.bytes)
    #expect(!read.accessBits.isConsistent)
    #expect(!read.canRead(blockIndex: 0, blocksInSector: 4, with: .a))
    let image = [UInt8](repeating: 0, count: 48) + block
    let absolute = tagError { () throws(NFCTagError) in
      _ = try MifareClassicSectorTrailer(validating: image.span.bytes, at: 48)
    }
    #expect(absolute == NFCTagError(.inconsistentAccessBits, offset: 54))
    let short = tagError { () throws(NFCTagError) in
      _ = try MifareClassicSectorTrailer(reading: image.span.bytes, at: 49)
    }
    #expect(short == NFCTagError(.truncatedImage, offset: 64))
  }
}
