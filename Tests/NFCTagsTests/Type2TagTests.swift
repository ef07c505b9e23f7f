// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire
import Testing

@Suite("Type 2 tag images")
struct Type2TagTests {
  /// NTAG213 as shipped: CC E1 10 12 00, Lock Control TLV 01 03 A0 0C 34, empty NDEF, Terminator.
  /// An interrupted write (T2T §4.4.1 INITIALIZED state): the empty NDEF TLV is followed by
  /// the start of a message body, not by TLVs. Strict decoding reads an empty message there,
  /// and the body bytes are neither TLVs nor lock areas.
  @Test func tornWriteReadsEmptyInStrictMode() throws {
    var image = Type2Tag.formattedImage(.ntag213)
    // 03 00 at 21, then "D1 01 0B 55 01 ..." (a URI record) and a byte that would be a
    // Lock Control TLV (01 03 ...) with a second NDEF TLV (03 ..) further on.
    let body = hex("D1 01 0B 55 01 01 03 A0 0C 34 03 05")
    image.replaceSubrange(23..<(23 + body.count), with: body)
    let summary = try summarizeType2(image, options: .strict)
    #expect(summary.tlvs == ["lockControl@16:3", "ndef@21:0"])
    #expect(summary.message == [])
    #expect(summary.warnings == [])
    #expect(summary.maxNDEFSize == 144 - 5 - 2)
    let lenient = try summarizeType2(image, options: .lenient)
    #expect(lenient.tlvs == summary.tlvs && lenient.warnings == [])
    // A non-empty NDEF TLV followed by the same bytes is still an error in strict mode.
    image[22] = 0x01
    image[23] = 0x00
    let error = tagError { () throws(NFCTagError) in _ = try summarizeType2(image, options: .strict) }
    #expect(error?.code == .invalidControlTLV && error?.offset == 24, "\(String(describing: error))")
  }

  @Test func decodesFormattedNTAG213() throws {
    let image = Type2Tag.formattedImage(.ntag213)
    #expect(image.count == 180)
    #expect(Array(image[12..<24]) == hex("E1 10 12 00  01 03 A0 0C  34 03 00 FE"))
    let summary = try summarizeType2(image)
    #expect(summary.tlvs == ["lockControl@16:3", "ndef@21:0", "terminator@23:0"])
    #expect(summary.ndefOffset == 23)
    #expect(summary.ndefLength == 0)
    #expect(summary.dataAreaSize == 144)
    #expect(summary.maxNDEFSize == 144 - 5 - 2)
    #expect(summary.readOnly == false)
    let tag = try Type2TagView(validating: image.span.bytes)
    #expect(tag.variant == .ntag213)
    let lock = tag.dynamicLockArea
    #expect(lock?.offset == 160)
    #expect(lock?.bitCount == 12)
    #expect(lock?.bytesLockedPerBit == 8)
    #expect(try tag.tlvArea.message() == nil)
  }

  struct Shipped: Sendable, CustomStringConvertible {
    var variant: Type2TagVariant
    var tlvs: [String]
    var maxNDEF: Int
    var description: String { variant.name }
  }

  static let shipped: [Shipped] = [
    Shipped(variant: .ultralight, tlvs: ["ndef@16:0", "terminator@18:0"], maxNDEF: 46),
    Shipped(variant: .ultralightC, tlvs: ["lockControl@16:3", "ndef@21:0", "terminator@23:0"], maxNDEF: 137),
    Shipped(variant: .ultralightEV1MF0UL11, tlvs: ["ndef@16:0", "terminator@18:0"], maxNDEF: 46),
    Shipped(variant: .ultralightEV1MF0UL21, tlvs: ["ndef@16:0", "terminator@18:0"], maxNDEF: 126),
    Shipped(variant: .ntag210, tlvs: ["ndef@16:0", "terminator@18:0"], maxNDEF: 46),
    Shipped(variant: .ntag212, tlvs: ["lockControl@16:3", "ndef@21:0", "terminator@23:0"], maxNDEF: 121),
    Shipped(variant: .ntag213, tlvs: ["lockControl@16:3", "ndef@21:0", "terminator@23:0"], maxNDEF: 137),
    Shipped(variant: .ntag215, tlvs: ["ndef@16:0", "terminator@18:0"], maxNDEF: 492),
    Shipped(variant: .ntag216, tlvs: ["ndef@16:0", "terminator@18:0"], maxNDEF: 868),
  ]

  @Test(arguments: shipped) func formatsEveryVariant(_ item: Shipped) throws {
    let image = Type2Tag.formattedImage(item.variant)
    #expect(image.count == item.variant.pageCount * 4)
    let summary = try summarizeType2(image)
    #expect(summary.tlvs == item.tlvs)
    #expect(summary.maxNDEFSize == item.maxNDEF)
    #expect(summary.dataAreaSize == item.variant.dataAreaSize)
    #expect(summary.readOnly == false)
    // The dynamic lock bytes lie right after the data area on every product that has them.
    if let lockOffset = item.variant.dynamicLockOffset {
      #expect(lockOffset == 16 + item.variant.userMemorySize)
    }
    // Write a message of every size from 1 record up to capacity, read it back.
    for size in [14, 40, min(254, item.maxNDEF), min(255, item.maxNDEF), item.maxNDEF] where size >= 14 {
      let message = sizedMessage(size)
      #expect(message.count == size)
      let plan = try Type2Tag.writePlan(message, into: image)
      var written = image
      plan.apply(to: &written)
      #expect(written == plan.finalImage)
      let back = try summarizeType2(written)
      #expect(back.message == message, "size \(size)")
      #expect(back.ndefLength == size)
      // Nothing outside the data area moved (lock and configuration pages).
      #expect(
        Array(written[(16 + item.variant.dataAreaSize)...])
          == Array(image[(16 + item.variant.dataAreaSize)...]))
      #expect(Array(written[0..<16]) == Array(image[0..<16]))
    }
    let tooLarge = sizedMessage(item.maxNDEF + 1)
    let error = tagError { () throws(NFCTagError) in _ = try Type2Tag.writePlan(tooLarge, into: image) }
    #expect(error?.code == .messageTooLarge)
    #expect(error?.offset == (item.variant.lockControl == nil ? 16 : 21))
  }

  @Test func usesThreeByteLengthPast254() throws {
    let image = Type2Tag.formattedImage(.ntag215)
    let message = sizedMessage(300)
    var written = image
    try Type2Tag.writePlan(message, into: image).apply(to: &written)
    #expect(Array(written[16..<20]) == hex("03 FF 01 2C"))
    #expect(written[20 + 300] == 0xFE)
    let summary = try summarizeType2(written)
    #expect(summary.tlvs == ["ndef@16:300", "terminator@320:0"])
    #expect(summary.ndefOffset == 20)
    let tag = try Type2TagView(validating: written.span.bytes)
    let view = try tag.tlvArea.messageView()
    let count = view?.recordCount
    let address = view?.bytes.baseAddressForIdentity
    #expect(count == 1)
    #expect(address == written.span.bytes.extracting(20..<21).baseAddressForIdentity)
  }

  @Test func appliesIntoACallerBuffer() throws {
    let image = Type2Tag.formattedImage(.ntag213)
    let plan = try Type2Tag.writePlan(uriMessage("buffer.example"), into: image)
    var buffer = image
    var span = buffer.mutableSpan
    try plan.apply(to: &span)
    _ = consume span
    #expect(buffer == plan.finalImage)
    var short = [UInt8](repeating: 0, count: 100)
    var shortSpan = short.mutableSpan
    let error = tagError { () throws(NFCTagError) in try plan.apply(to: &shortSpan) }
    _ = consume shortSpan
    #expect(error?.code == .bufferTooSmall)
    #expect(error?.offset == 100)
    #expect(short == [UInt8](repeating: 0, count: 100))
  }

  @Test func fillsToCapacityWithoutTerminator() throws {
    let image = Type2Tag.formattedImage(.ultralight)
    let message = sizedMessage(46)
    var written = image
    try Type2Tag.writePlan(message, into: image).apply(to: &written)
    #expect(try summarizeType2(written).tlvs == ["ndef@16:46"])
  }

  /// The write list cut after every step reads back as the old message, an empty one, or
  /// the whole new one: never garbage.
  @Test(arguments: [Type2TagVariant.ntag213, .ntag215, .ultralight, .ntag216])
  func tearingAtEveryStep(_ variant: Type2TagVariant) throws {
    let formatted = Type2Tag.formattedImage(variant)
    let old = uriMessage("old.example/a")
    var image = formatted
    try Type2Tag.writePlan(old, into: formatted).apply(to: &image)
    let capacity = try Type2TagView(validating: image.span.bytes).maximumNDEFSize
    for size in [20, 200, 254, 255, 300, capacity] where size <= capacity {
      let new = sizedMessage(size, seed: 0x61)
      let plan = try Type2Tag.writePlan(new, into: image)
      #expect(plan.writes.count >= 2)
      for cut in 0...plan.writes.count {
        var torn = image
        plan.apply(to: &torn, count: cut)
        let summary = try summarizeType2(torn, options: .strict)
        let message = summary.message ?? []
        #expect(summary.warnings.isEmpty, "cut \(cut): \(summary.warnings)")
        let ok = message == old || message.isEmpty || message == new
        #expect(ok, "size \(size) cut \(cut): \(message.count) bytes")
        if cut == 0 { #expect(message == old) }
        if cut == 1 { #expect(message.isEmpty) }
        if cut == plan.writes.count { #expect(message == new) }
        if cut > 0 && cut < plan.writes.count { #expect(message.isEmpty, "cut \(cut)") }
      }
    }
  }

  @Test func truncationAtEveryOffsetIsATypedError() throws {
    let formatted = Type2Tag.formattedImage(.ntag213)
    var image = formatted
    try Type2Tag.writePlan(smartPosterMessage("nfc.example", title: "Tapwire"), into: formatted).apply(
      to: &image)
    _ = try summarizeType2(image)
    for cut in 0..<image.count {
      let prefix = Array(image[0..<cut])
      let error = tagError { () throws(NFCTagError) in _ = try summarizeType2(prefix) }
      // Past the data area end the image is complete enough: the lock pages are not needed
      // (at 160 and 161 the Lock Control TLV's bytes 160-161 are past the cut: a note).
      if cut >= 160 {
        #expect(error == nil, "cut \(cut)")
      } else {
        let code = try #require(error?.code, "cut \(cut)")
        #expect(code == .truncatedImage || code == .dataAreaExceedsImage)
        #expect(error?.offset == (cut < 16 ? cut : 14))
      }
    }
  }

  struct Malformed: Sendable, CustomStringConvertible {
    var name: String
    var cc: String
    var tlvs: String
    var code: NFCTagError.Code
    var offset: Int
    var lenient: [String]?
    var description: String { name }
  }

  static let malformed: [Malformed] = [
    Malformed(
      name: "bad magic", cc: "E2 10 06 00", tlvs: "03 00 FE", code: .invalidMagic, offset: 12, lenient: nil),
    Malformed(
      name: "major version 2", cc: "E1 20 06 00", tlvs: "03 00 FE", code: .unsupportedVersion, offset: 13,
      lenient: ["unsupportedVersion@13"]),
    Malformed(
      name: "CC size past image", cc: "E1 10 10 00", tlvs: "03 00 FE", code: .dataAreaExceedsImage,
      offset: 14,
      lenient: ["dataAreaExceedsImage@14"]),
    Malformed(
      name: "NDEF length past data area", cc: "E1 10 06 00", tlvs: "03 30 D0 00 00",
      code: .tlvLengthExceedsDataArea,
      offset: 17, lenient: ["tlvLengthExceedsDataArea@17"]),
    Malformed(
      name: "two NDEF TLVs", cc: "E1 10 06 00", tlvs: "03 03 D0 00 00 03 03 D0 00 00 FE",
      code: .multipleNDEFTLVs,
      offset: 21, lenient: ["multipleNDEFTLVs@21"]),
    Malformed(
      name: "no NDEF TLV", cc: "E1 10 06 00", tlvs: "FD 01 AA FE", code: .missingNDEFTLV, offset: 16,
      lenient: ["missingNDEFTLV@16"]),
    Malformed(
      name: "reserved TLV type", cc: "E1 10 06 00", tlvs: "05 01 00 03 00 FE", code: .unknownTLVType,
      offset: 16,
      lenient: ["unknownTLVType@16"]),
    Malformed(
      name: "Lock Control of 2 bytes", cc: "E1 10 06 00", tlvs: "01 02 A0 0C 03 00 FE",
      code: .invalidControlTLV,
      offset: 16, lenient: ["invalidControlTLV@16"]),
    Malformed(
      name: "Lock Control after NDEF", cc: "E1 10 06 00", tlvs: "03 03 D0 00 00 01 03 30 02 34 FE",
      code: .controlTLVAfterNDEF,
      offset: 21, lenient: ["controlTLVAfterNDEF@21"]),
    Malformed(
      name: "length field cut by data area end", cc: "E1 10 06 00",
      tlvs:
        "00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 03 FF",
      code: .truncatedTLV, offset: 62, lenient: ["truncatedTLV@62", "missingNDEFTLV@16"]),
  ]

  @Test(arguments: malformed) func rejectsMalformedImages(_ item: Malformed) throws {
    var image = [UInt8](repeating: 0, count: 64)
    let cc = hex(item.cc)
    let tlvs = hex(item.tlvs)
    image.replaceSubrange(12..<16, with: cc)
    image.replaceSubrange(16..<(16 + tlvs.count), with: tlvs)
    let error = tagError { () throws(NFCTagError) in _ = try summarizeType2(image) }
    #expect(error?.code == item.code)
    #expect(error?.offset == item.offset)
    if let lenient = item.lenient {
      let summary = try summarizeType2(image, options: .lenient)
      #expect(summary.warnings == lenient)
    }
  }

  @Test func lenientUsesFirstOfSeveralNDEFTLVs() throws {
    var image = Type2Tag.formattedImage(.ultralight)
    image.replaceSubrange(16..<27, with: hex("03 03 D0 00 00 03 03 D0 00 00 FE"))
    let summary = try summarizeType2(image, options: .lenient)
    #expect(summary.ndefOffset == 18)
    #expect(summary.message == hex("D0 00 00"))
  }

  @Test func lenientCutsNDEFLengthAtDataAreaEnd() throws {
    var image = Type2Tag.formattedImage(.ultralight)
    image.replaceSubrange(16..<21, with: hex("03 40 D0 00 00"))
    let summary = try summarizeType2(image, options: .lenient)
    #expect(summary.ndefLength == 46)
    #expect(summary.tlvs == ["ndef@16:46"])
  }

  @Test func readOnlyFromCCAndLockBits() throws {
    var image = Type2Tag.formattedImage(.ultralight)
    image[15] = 0x0F
    #expect(try summarizeType2(image).readOnly)
    let error = tagError { () throws(NFCTagError) in
      _ = try Type2Tag.writePlan(uriMessage("a.b"), into: image)
    }
    #expect(error?.code == .readOnly)
    #expect(error?.offset == 15)
    image[15] = 0x00
    image[10] = 0xF0
    image[11] = 0xFF
    #expect(try summarizeType2(image).readOnly)
    image[11] = 0x7F
    #expect(try summarizeType2(image).readOnly == false)
    // NTAG216: static bits alone leave the dynamic pages writable.
    var big = Type2Tag.formattedImage(.ntag216)
    big[10] = 0xF8
    big[11] = 0xFF
    #expect(try summarizeType2(big).readOnly == false)
    big[904] = 0xFF
    big[905] = 0x3F
    #expect(try summarizeType2(big).readOnly)
  }

  /// NTAG215 rewritten with CC size 0x3F (all 504 bytes): still an NTAG215, whose
  /// configuration page is not read as lock bits.
  @Test func recognisesTheProductDespiteAnotherCCSize() throws {
    var image = Type2Tag.formattedImage(.ntag215)
    image[14] = 0x3F
    let name = try { () throws(NFCTagError) in
      try Type2TagView(validating: image.span.bytes).variant?.name
    }()
    #expect(name == "NTAG215")
    let message = sizedMessage(500)
    var written = image
    try Type2Tag.writePlan(message, into: image).apply(to: &written)
    #expect(try summarizeType2(written).message == message)
    #expect(try summarizeType2(written).maxNDEFSize == 500)
  }

  /// Pages locked by static or dynamic lock bits are never in a write plan.
  @Test func refusesWritesToLockedPages() throws {
    var image = Type2Tag.formattedImage(.ntag213)
    image[11] = 0x01  // page 8 locked
    let locks = try { () throws(NFCTagError) in
      let short = try Type2TagView(validating: image.span.bytes)
      return [short.isPageLocked(8), short.isPageLocked(7), short.isReadOnly]
    }()
    #expect(locks == [true, false, false])
    // A message ending in page 7 still fits.
    #expect(
      tagError { () throws(NFCTagError) in _ = try Type2Tag.writePlan(hex("D0 00 00"), into: image) } == nil)
    let error = tagError { () throws(NFCTagError) in _ = try Type2Tag.writePlan(sizedMessage(40), into: image)
    }
    #expect(error?.code == .readOnly)
    #expect(error?.offset == 32)
    // NTAG213 dynamic bit 1 locks pages 18-19 (two pages a bit).
    image[11] = 0x00
    image[160] = 0x02
    let frozen = image
    let pages = try { () throws(NFCTagError) in
      let dynamic = try Type2TagView(validating: frozen.span.bytes)
      var pages: [Bool] = []
      for page in 16..<22 { pages.append(dynamic.isPageLocked(page)) }
      return pages
    }()
    #expect(pages == [false, false, true, true, false, false])
    #expect(
      tagError { () throws(NFCTagError) in _ = try Type2Tag.writePlan(sizedMessage(40), into: image) } == nil)
    let far = tagError { () throws(NFCTagError) in _ = try Type2Tag.writePlan(sizedMessage(60), into: image) }
    #expect(far?.offset == 72)
  }

  /// A Memory Control TLV reserving bytes inside the data area: the message is written
  /// around them and assembled only on request.
  @Test func memoryControlAreaInsideDataArea() throws {
    var image = Type2Tag.formattedImage(.ntag215)
    // Reserve 8 bytes at 0x40 (page 16): PageAddr 4 × 16 + 0.
    image.replaceSubrange(16..<24, with: hex("02 03 40 08 04 03 00 FE"))
    for i in 64..<72 { image[i] = 0xEE }
    let before = try summarizeType2(image)
    #expect(before.tlvs == ["memoryControl@16:3", "ndef@21:0", "terminator@23:0"])
    #expect(before.maxNDEFSize == 496 - 5 - 8 - 4)
    let message = sizedMessage(120)
    var written = image
    try Type2Tag.writePlan(message, into: image).apply(to: &written)
    #expect(Array(written[64..<72]) == [UInt8](repeating: 0xEE, count: 8))
    let tag = try Type2TagView(validating: written.span.bytes)
    #expect(tag.tlvArea.area.isNDEFContiguous == false)
    let noBytes = tag.tlvArea.ndefBytes == nil
    #expect(noBytes)
    let error = tagError { () throws(NFCTagError) in _ = try tag.tlvArea.messageView() }
    #expect(error?.code == .ndefNotContiguous)
    #expect(error?.offset == 23)
    #expect(tag.tlvArea.assembledNDEFBytes() == message)
    #expect(try tag.tlvArea.message() == NDEFMessage(parsing: message))
  }

  @Test func seededRandomRoundTrips() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    print("Type2 random round trips seed \(seed)")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<200 {
      let variant = Type2TagVariant.all.randomElement(using: &rng)!
      let image = Type2Tag.formattedImage(variant)
      let capacity = try Type2TagView(validating: image.span.bytes).maximumNDEFSize
      let size = Int.random(in: 14...capacity, using: &rng)
      let message = sizedMessage(size, seed: UInt8.random(in: 0x20...0x60, using: &rng))
      var written = image
      try Type2Tag.writePlan(message, into: image).apply(to: &written)
      let back = try summarizeType2(written)
      #expect(back.message == message, "seed \(seed) \(variant.name) size \(size)")
    }
  }
}
