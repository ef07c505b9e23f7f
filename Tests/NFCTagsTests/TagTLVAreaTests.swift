// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire
import Testing

@Suite("TLV area and memory map")
struct TagTLVAreaTests {
  @Test func tlvTypeNames() {
    let names = [0x00, 0x01, 0x02, 0x03, 0xFD, 0xFE, 0x04].map { TagTLVType(rawValue: UInt8($0)).name }
    #expect(
      names == ["null", "lockControl", "memoryControl", "ndef", "proprietary", "terminator", "reserved"])
    #expect(TagTLV.lengthFieldSize(forValueLength: 254) == 1)
    #expect(TagTLV.lengthFieldSize(forValueLength: 255) == 3)
  }

  /// T2T §2.3.2 example values: NTAG213's 01 03 A0 0C 34.
  @Test func lockAndMemoryControlFields() {
    let lock = TagLockControl(position: 0xA0, size: 0x0C, pageControl: 0x34)
    #expect(lock.pageAddress == 10)
    #expect(lock.byteOffset == 0)
    #expect(lock.bytesPerPage == 16)
    #expect(lock.bytesLockedPerBit == 8)
    #expect(lock.byteAddress == 160)
    #expect(lock.bitCount == 12)
    #expect(lock.byteCount == 2)
    #expect(TagLockControl(position: 0xF2, size: 0x30, pageControl: 0x33).byteAddress == 0x7A)
    #expect(TagLockControl(position: 0, size: 0, pageControl: 0).bitCount == 256)
    let memory = TagMemoryControl(position: 0xF0, size: 0x02, pageControl: 0x03)
    #expect(memory.byteAddress == 0x78)
    #expect(memory.byteCount == 2)
  }

  @Test func memoryMapSkipsAreas() {
    var map = TagMemoryMap(dataAreaStart: 10, dataAreaEnd: 40)
    map.add(TagMemoryArea(kind: .reserved, offset: 20, length: 5))
    map.add(TagMemoryArea(kind: .lock, offset: 23, length: 4))  // overlapping
    map.add(TagMemoryArea(kind: .lock, offset: 100, length: 4))  // outside the data area
    #expect(map.dataByteCount == 30 - 7)
    #expect(map.advance(10, by: 10) == 27)
    #expect(map.advance(19, by: 1) == 27)
    #expect(map.advance(10, by: 23) == 40)
    #expect(map.advance(10, by: 24) == nil)
    #expect(map.remaining(from: 21) == 13)
    #expect(map.positions(from: 18, count: 4) == [18, 19, 27, 28])
    #expect(map.intersectsArea(15, 21))
    #expect(!map.intersectsArea(27, 40))
  }

  @Test func memoryMapCapacityIsANamedLimit() throws {
    // Nine Memory Control TLVs: the ninth does not fit a map of eight.
    var image = [UInt8](repeating: 0, count: 400)
    image.replaceSubrange(12..<16, with: hex("E1 10 30 00"))
    var tlvs: [UInt8] = []
    for i in 0..<9 { tlvs += [0x02, 0x03, UInt8(0x10 + i), 0x01, 0x04] }
    tlvs += [0x03, 0x00, 0xFE]
    image.replaceSubrange(16..<(16 + tlvs.count), with: tlvs)
    // The areas sit at 16 + i (PageAddr 1 × 16 + i): inside the TLVs already read, harmless.
    let error = tagError { () throws(NFCTagError) in _ = try Type2TagView(validating: image.span.bytes) }
    #expect(error?.code == .tooManyMemoryAreas)
    #expect(error?.offset == 16 + 8 * 5)
    let limited = tagError { () throws(NFCTagError) in
      _ = try Type2TagView(validating: image.span.bytes, options: TagDecodingOptions(maximumMemoryAreas: 2))
    }
    #expect(limited?.offset == 16 + 2 * 5)
  }

  @Test func tooManyTLVs() throws {
    var image = [UInt8](repeating: 0, count: 16 + 2040)
    image.replaceSubrange(12..<16, with: hex("E1 10 FF 00"))
    for i in 0..<600 { image.replaceSubrange((16 + i * 3)..<(19 + i * 3), with: [0xFD, 0x01, 0xAA]) }
    image.replaceSubrange(1816..<1819, with: [0x03, 0x00, 0xFE])
    #expect(try summarizeType2(image).ndefOffset == 1818)
    let error = tagError { () throws(NFCTagError) in
      _ = try Type2TagView(validating: image.span.bytes, options: TagDecodingOptions(maximumTLVCount: 100))
    }
    #expect(error?.code == .tooManyTLVs)
    #expect(error?.offset == 16 + 100 * 3)
    // A blank tag of NULL bytes is not "too many TLVs": it has no NDEF TLV.
    var blank = [UInt8](repeating: 0, count: 16 + 2040)
    blank.replaceSubrange(12..<16, with: hex("E1 10 FF 00"))
    #expect(tagError { () throws(NFCTagError) in _ = try summarizeType2(blank) }?.code == .missingNDEFTLV)
    // Writing into it puts the NDEF TLV at the start of the data area.
    var written = blank
    try Type2Tag.writePlan(uriMessage("blank.example"), into: blank, options: .lenient).apply(to: &written)
    #expect(try summarizeType2(written).tlvs == ["ndef@16:18", "terminator@36:0"])
  }

  @Test func everyErrorCodeHasANameAndMessage() {
    let codes = NFCTagError.Code.allCodes
    #expect(codes.count == Set(codes.map(\.name)).count)
    for code in codes {
      #expect(!code.message.isEmpty)
      #expect(code.description == code.name)
    }
    let error = NFCTagError(.unexpectedStatusWord, offset: 0, step: .readCCFile, statusWord: .fileNotFound)
    #expect(
      error.description
        == "unexpectedStatusWord at offset 0: the tag answered an unexpected status word (step readCCFile) (SW 6a82)"
    )
  }

  @Test func seededRandomRoundTripsOtherTypes() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    print("Type 1/3/5 random round trips seed \(seed)")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<60 {
      let memory = 120 + 8 * Int.random(in: 2...200, using: &rng)
      let t1 = try Type1Tag.formattedImage(memorySize: memory)
      let t1Capacity = try Type1TagView(validating: t1.span.bytes).maximumNDEFSize
      let m1 = sizedMessage(Int.random(in: 14...t1Capacity, using: &rng))
      var w1 = t1
      try Type1Tag.writePlan(m1, into: t1).apply(to: &w1)
      #expect(try Type1TagView(validating: w1.span.bytes).tlvArea.assembledNDEFBytes() == m1, "seed \(seed)")

      let t5 = try Type5Tag.formattedImage(memorySize: memory + 8)
      let t5Capacity = try Type5TagView(validating: t5.span.bytes).maximumNDEFSize
      let m5 = sizedMessage(Int.random(in: 14...t5Capacity, using: &rng))
      var w5 = t5
      try Type5Tag.writePlan(m5, into: t5).apply(to: &w5)
      #expect(try Type5TagView(validating: w5.span.bytes).tlvArea.assembledNDEFBytes() == m5, "seed \(seed)")

      let t3 = try Type3Tag.formattedImage(blockCount: memory / 16)
      let m3 = sizedMessage(Int.random(in: 14...((memory / 16 - 1) * 16), using: &rng))
      var w3 = t3
      try Type3Tag.writePlan(m3, into: t3).apply(to: &w3)
      #expect(
        try Type3TagView(validating: w3.span.bytes).message() == NDEFMessage(parsing: m3), "seed \(seed)")
    }
  }
}
