// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire
import Testing

/// Runs a ``Type2NDEFRead`` over `memory` as a tag would answer (READ rolls over past the
/// last page), recording each read's pages.
func runType2Read(
  _ memory: [UInt8], maximumPages: Int, variant: Type2TagVariant? = nil, options: TagDecodingOptions = .strict
) throws(NFCTagError) -> (read: Type2NDEFRead, pages: [Range<Int>]) {
  var read = Type2NDEFRead(maximumPagesPerRead: maximumPages, variant: variant, options: options)
  var ranges: [Range<Int>] = []
  while let pages = read.nextPages, ranges.count < 300 {
    ranges.append(pages)
    let bytes = pages.flatMap { page in (0..<4).map { memory[(page * 4 + $0) % memory.count] } }
    try read.received(bytes)
  }
  return (read, ranges)
}

/// A tag image of `pageCount` pages with the CC for `dataAreaSize` bytes and `tlvs` from
/// page 4; other data bytes are `filler`.
func type2Image(pageCount: Int, dataAreaSize: Int, tlvs: [UInt8], filler: UInt8 = 0x00) -> [UInt8] {
  var image = [UInt8](repeating: 0, count: pageCount * 4)
  image[0] = 0x04
  image[12] = 0xE1
  image[13] = 0x10
  image[14] = UInt8(dataAreaSize / 8)
  for i in 16..<min(16 + dataAreaSize, image.count) { image[i] = filler }
  image.replaceSubrange(16..<(16 + tlvs.count), with: tlvs)
  return image
}

/// `count` bytes 0x80, 0x81, ... as an NDEF TLV value (its NDEF validity is not the point).
func valueBytes(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: 0x80 + $0) } }

/// NDEF TLV header for a value of `length` bytes (T2T 1.0 §2.3.4: 1- or 3-byte length).
func ndefHeader(_ length: Int) -> [UInt8] {
  length < 0xFF ? [0x03, UInt8(length)] : [0x03, 0xFF, UInt8(length >> 8), UInt8(length & 0xFF)]
}

@Suite("Type 2 NDEF read in the fewest reads")
struct Type2NDEFReadTests {
  struct Case: Sendable, CustomStringConvertible {
    var name: String
    var prefix: [UInt8]
    var length: Int
    var maximumPages: Int
    var pages: [Range<Int>]
    var description: String { "\(name), \(maximumPages) pages per read" }
  }

  /// 128 pages, data area 496 bytes (CC size 3Eh). Ranges worked by hand: the first read
  /// starts at page 3 and takes the most pages it may; once the NDEF length is known only
  /// the pages up to its last byte (byte b is in page b / 4).
  static let cases: [Case] = [
    // 03 00 FE at 16-18: all in page 4.
    Case(name: "empty NDEF", prefix: [], length: 0, maximumPages: 4, pages: [3..<7]),
    Case(name: "empty NDEF", prefix: [], length: 0, maximumPages: 16, pages: [3..<19]),
    // Value 18...27 ends with page 6: the first READ (pages 3-6) holds it all.
    Case(name: "ends at a page boundary", prefix: [], length: 10, maximumPages: 4, pages: [3..<7]),
    // One more byte (28) is in page 7: a second read of exactly that page.
    Case(name: "one byte past", prefix: [], length: 11, maximumPages: 4, pages: [3..<7, 7..<8]),
    Case(name: "one byte past", prefix: [], length: 11, maximumPages: 2, pages: [3..<5, 5..<7, 7..<8]),
    // 3-byte length 03 FF 01 2C at 16-19, value 20...319: pages 3-79 are 77 pages.
    Case(
      name: "300 bytes", prefix: [], length: 300, maximumPages: 4,
      pages: [3..<7] + stride(from: 7, to: 79, by: 4).map { $0..<$0 + 4 } + [79..<80]),
    Case(
      name: "300 bytes", prefix: [], length: 300, maximumPages: 16,
      pages: [3..<19, 19..<35, 35..<51, 51..<67, 67..<80]),
    Case(name: "300 bytes", prefix: [], length: 300, maximumPages: 63, pages: [3..<66, 66..<80]),
    // Ten NULL TLVs put 03 FF at 26-27 and the length bytes in page 7: a full read for
    // them, then the value 30...329 (page 82): 80 pages, still the minimum of 20 READs.
    Case(
      name: "length field across a read", prefix: [UInt8](repeating: 0, count: 10), length: 300,
      maximumPages: 4, pages: [3..<7, 7..<11] + stride(from: 11, to: 83, by: 4).map { $0..<$0 + 4 }),
    // A Proprietary TLV FD 40 <64 bytes> at 16-81: its value is skipped; the NDEF TLV at
    // 82-83 (page 20), value 84-88 (pages 21-22).
    Case(
      name: "proprietary TLV skipped", prefix: [0xFD, 0x40] + [UInt8](repeating: 0xEE, count: 64), length: 5,
      maximumPages: 4, pages: [3..<7, 20..<24]),
    Case(
      name: "proprietary TLV skipped", prefix: [0xFD, 0x40] + [UInt8](repeating: 0xEE, count: 64), length: 5,
      maximumPages: 8, pages: [3..<11, 20..<28]),
  ]

  @Test(arguments: cases)
  func readsOnlyWhatTheMessageNeeds(_ c: Case) throws {
    let value = valueBytes(c.length)
    let image = type2Image(
      pageCount: 128, dataAreaSize: 496, tlvs: c.prefix + ndefHeader(c.length) + value + [0xFE], filler: 0x55)
    let (read, pages) = try runType2Read(image, maximumPages: c.maximumPages)
    #expect(pages == c.pages)
    #expect(read.readCount == c.pages.count)
    #expect(read.isComplete)
    #expect(try read.messageBytes() == value)
    #expect(read.capabilityContainer == Type2CapabilityContainer(size: 0x3E))
    #expect(read.ndefTLV?.length == c.length)
  }

  /// The minimum: pages 3 through the last needed page, in runs of the largest read.
  @Test(arguments: [4, 16, 63])
  func ntag216FilledIsTheMinimum(maximumPages: Int) throws {
    // NTAG216: data area 872 bytes; 03 FF 03 64 + 868 bytes fill it (16...887, page 221).
    let value = valueBytes(868)
    var image = Type2Tag.formattedImage(.ntag216)
    image.replaceSubrange(16..<(16 + 872), with: ndefHeader(868) + value)
    let (read, pages) = try runType2Read(image, maximumPages: maximumPages, variant: .ntag216)
    let minimum = (221 - 3 + 1 + maximumPages - 1) / maximumPages
    #expect(pages.count == minimum)
    #expect([4: 55, 16: 14, 63: 4][maximumPages] == minimum)
    #expect(pages.last?.upperBound == 222)
    #expect(try read.messageBytes() == value)
  }

  /// With a known chip no read goes past its user memory (the configuration pages, which
  /// PROT may guard, are not read): NTAG213's user memory ends with page 39.
  @Test func neverReadsConfigurationPages() throws {
    let image = Type2Tag.formattedImage(.ntag213)
    let (read, pages) = try runType2Read(image, maximumPages: 63, variant: .ntag213)
    #expect(pages == [3..<40])
    #expect(try read.message() == nil)
    // Without the chip the CC bounds every read after the first: 160 bytes is page 39.
    var filled = image
    filled.replaceSubrange(16..<(16 + 144), with: [0x03, 0xFF, 0x00, 0x8C] + valueBytes(140))
    let (_, unbounded) = try runType2Read(filled, maximumPages: 8)
    #expect(unbounded.last?.upperBound == 40)
  }

  /// A CC declaring more than READ can address (size FFh: 2,040 bytes past page FF) on an
  /// unknown chip: strict stops at the CC (offset 14); lenient warns and reads no page past
  /// FF, filling it with a value that runs to the end (found by FuzzTagImages, which saw a
  /// read of page 256).
  @Test func aDataAreaPastPageFFIsBoundedWithoutAVariant() throws {
    let image = type2Image(pageCount: 256, dataAreaSize: 2040, tlvs: ndefHeader(1_500) + valueBytes(1_000))
    #expect(throws: NFCTagError(.dataAreaExceedsImage, offset: 14)) {
      try runType2Read(image, maximumPages: 4)
    }
    let (read, pages) = try runType2Read(image, maximumPages: 62, options: .lenient)
    #expect(pages.allSatisfy { $0.upperBound <= 256 }, "\(pages)")
    #expect(pages.last?.upperBound == 256)
    #expect(read.warnings.contains(NFCTagWarning(.dataAreaExceedsImage, offset: 14)))
    #expect(read.isComplete)
  }

  /// A Memory Control TLV reserving bytes 48-55 inside the data area (position 30h,
  /// 16 bytes per page): the NDEF value skips them and is read through them.
  @Test func reservedAreaInsideTheValue() throws {
    #expect(TagMemoryControl(position: 0x30, size: 0x08, pageControl: 0x04).byteAddress == 48)
    let value = valueBytes(40)
    var image = type2Image(
      pageCount: 64, dataAreaSize: 240, tlvs: [0x02, 0x03, 0x30, 0x08, 0x04] + ndefHeader(40))
    // Value: 23...47 (25 bytes), reserved 48...55 (garbage), 56...70 (15 bytes), then FE.
    image.replaceSubrange(23..<48, with: value[0..<25])
    image.replaceSubrange(48..<56, with: [UInt8](repeating: 0xEE, count: 8))
    image.replaceSubrange(56..<71, with: value[25..<40])
    image[71] = 0xFE
    let (read, pages) = try runType2Read(image, maximumPages: 4)
    #expect(pages == [3..<7, 7..<11, 11..<15, 15..<18])
    #expect(try read.messageBytes() == value)
  }

  /// A real message through `message()`; an Ultralight (no GET_VERSION) reads with READ.
  @Test func ultralightTextRecordInOneRead() throws {
    let text: [UInt8] = [0xD1, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x69]
    let image = type2Image(pageCount: 16, dataAreaSize: 48, tlvs: ndefHeader(9) + text + [0xFE])
    let (read, pages) = try runType2Read(image, maximumPages: 4)
    #expect(pages == [3..<7])
    let message = try read.message()
    #expect(try message?.encodedBytes() == text)
  }

  /// Bytes after the NDEF TLV do not change the result, however many of them a read took.
  @Test func bytesAfterTheMessageAreNotDecoded() throws {
    let text: [UInt8] = [0xD1, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x69]
    // 05 is not a defined TLV type: a full strict decode refuses it.
    let image = type2Image(pageCount: 64, dataAreaSize: 240, tlvs: ndefHeader(9) + text + [0x05, 0x01])
    #expect(throws: NFCTagError.self) { try Type2TagView(validating: image.span.bytes).tlvArea.message() }
    for size in [4, 63] {
      let (read, _) = try runType2Read(image, maximumPages: size)
      #expect(try read.message()?.encodedBytes() == text)
      #expect(read.decodableImage[27] == 0)
    }
  }

  /// A data area of NULL TLVs without Terminator is read to its end (13 pages, 4 READs);
  /// a Terminator first ends the read at once. No NDEF TLV: strict throws, lenient is nil.
  @Test func noNDEFTLV() throws {
    let blank = type2Image(pageCount: 16, dataAreaSize: 48, tlvs: [])
    let (read, pages) = try runType2Read(blank, maximumPages: 4)
    #expect(pages == [3..<7, 7..<11, 11..<15, 15..<16])
    let error = tagError { () throws(NFCTagError) in _ = try read.message() }
    #expect(error?.code == .missingNDEFTLV)
    let (lenient, _) = try runType2Read(blank, maximumPages: 4, options: .lenient)
    #expect(try lenient.message() == nil)
    let terminated = type2Image(pageCount: 64, dataAreaSize: 240, tlvs: [0xFE])
    #expect(try runType2Read(terminated, maximumPages: 4).pages == [3..<7])
  }

  struct Malformed: Sendable, CustomStringConvertible {
    var name: String
    var image: [UInt8]
    var variant: Type2TagVariant?
    var maximumTLVCount = 4096
    var code: NFCTagError.Code
    var offset: Int
    var description: String { name }
  }

  static let malformed: [Malformed] = {
    var magic = type2Image(pageCount: 16, dataAreaSize: 48, tlvs: [0x03, 0x00, 0xFE])
    magic[12] = 0xE2
    var version = magic
    version[12] = 0xE1
    version[13] = 0x20
    var size = Type2Tag.formattedImage(.ntag213)
    size[14] = 0x13  // 152 bytes, NTAG213 has 144
    return [
      Malformed(name: "CC magic", image: magic, code: .invalidMagic, offset: 12),
      Malformed(name: "CC major version 2", image: version, code: .unsupportedVersion, offset: 13),
      Malformed(
        name: "CC larger than the chip", image: size, variant: .ntag213, code: .dataAreaExceedsImage,
        offset: 14),
      Malformed(
        name: "NDEF length past the data area",
        image: type2Image(pageCount: 64, dataAreaSize: 240, tlvs: [0x03, 0xFF, 0x10, 0x00]),
        code: .tlvLengthExceedsDataArea, offset: 17),
      Malformed(
        name: "2-byte Lock Control",
        image: type2Image(pageCount: 64, dataAreaSize: 240, tlvs: [0x01, 0x02, 0xA0, 0x0C]),
        code: .invalidControlTLV, offset: 16),
      Malformed(
        name: "TLV cut by the data area end",
        image: type2Image(pageCount: 16, dataAreaSize: 8, tlvs: [0, 0, 0, 0, 0, 0, 0, 0x03]),
        code: .truncatedTLV, offset: 23),
      Malformed(
        name: "too many TLVs", image: type2Image(pageCount: 16, dataAreaSize: 48, tlvs: []),
        maximumTLVCount: 4,
        code: .tooManyTLVs, offset: 20),
    ]
  }()

  @Test(arguments: malformed)
  func malformedTagsThrowAtTheirOffset(_ m: Malformed) {
    let options = TagDecodingOptions(maximumTLVCount: m.maximumTLVCount)
    let error = tagError { () throws(NFCTagError) in
      _ = try runType2Read(m.image, maximumPages: 4, variant: m.variant, options: options)
    }
    #expect(error?.code == m.code, "\(String(describing: error))")
    #expect(error?.offset == m.offset)
  }

  @Test func lenientAcceptsVersionAndOversizedCC() throws {
    var image = Type2Tag.formattedImage(.ntag213)
    image[13] = 0x20
    image[14] = 0x13
    let (read, pages) = try runType2Read(image, maximumPages: 63, variant: .ntag213, options: .lenient)
    #expect(pages == [3..<40])
    #expect(read.warnings.map(\.offset) == [13, 14])
    #expect(try read.message() == nil)
  }

  @Test func answersOfTheWrongSizeAndReadsAfterTheEnd() throws {
    var read = Type2NDEFRead(maximumPagesPerRead: 4)
    #expect(read.nextPages == 3..<7)
    var error = tagError { () throws(NFCTagError) in try read.received([UInt8](repeating: 0, count: 15)) }
    #expect(error?.code == .responseTooShort && error?.offset == 15)
    error = tagError { () throws(NFCTagError) in try read.received([UInt8](repeating: 0, count: 17)) }
    #expect(error?.code == .unexpectedResponse && error?.offset == 16)
    #expect(read.readCount == 0 && read.nextPages == 3..<7)
    try read.received(hex("E1 10 06 00  03 00 FE 00  00 00 00 00  00 00 00 00"))
    #expect(read.isComplete && read.readCount == 1)
    error = tagError { () throws(NFCTagError) in try read.received([]) }
    #expect(error?.code == .procedureFinished)
    // Before the read is complete there is no message.
    let fresh = Type2NDEFRead(maximumPagesPerRead: 0)
    #expect(fresh.maximumPagesPerRead == 1 && fresh.nextPages == 3..<4)
    error = tagError { () throws(NFCTagError) in _ = try fresh.message() }
    #expect(error?.code == .procedureFinished)
  }

  /// Random TLV areas: the read's message equals the full image's, in any read size.
  @Test func agreesWithTheFullImageDecoder() throws {
    var generator = SeededGenerator(seed: 0x7432)
    print("Type2NDEFReadTests seed 0x7432")
    for _ in 0..<200 {
      let length = Int.random(in: 0...400, using: &generator)
      let nulls = Int.random(in: 0...9, using: &generator)
      let tlvs = [UInt8](repeating: 0, count: nulls) + ndefHeader(length) + valueBytes(length) + [0xFE]
      let image = type2Image(pageCount: 128, dataAreaSize: 496, tlvs: tlvs)
      let full = try Type2TagView(validating: image.span.bytes).tlvArea.assembledNDEFBytes()
      let maximum = [1, 4, 16, 63][Int.random(in: 0...3, using: &generator)]
      let (read, pages) = try runType2Read(image, maximumPages: maximum)
      #expect(try read.messageBytes() == full)
      let valueEnd = 16 + nulls + (length < 0xFF ? 2 : 4) + length
      let lastPage = max(valueEnd - 1, 16 + nulls + 1) / 4
      #expect(
        pages.count == (lastPage - 3 + maximum) / maximum, "length \(length), nulls \(nulls), \(maximum)")
    }
  }
}
