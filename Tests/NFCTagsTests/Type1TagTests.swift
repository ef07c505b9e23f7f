// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire
import Testing

func summarizeType1(_ image: [UInt8], options: TagDecodingOptions = .strict) throws(NFCTagError)
  -> AreaSummary
{
  let tag = try Type1TagView(validating: image.span.bytes, options: options)
  return AreaSummary(
    tlvs: tlvSummary(tag.tlvArea.tlvList()), ndefOffset: tag.tlvArea.area.ndefMessageOffset,
    message: tag.tlvArea.area.ndefTLV == nil ? nil : tag.tlvArea.assembledNDEFBytes(),
    dataAreaSize: tag.dataAreaSize, maxNDEFSize: tag.maximumNDEFSize, readOnly: tag.isReadOnly,
    warnings: tag.warnings.map { "\($0.code.name)@\($0.offset)" })
}

@Suite("Type 1 tag images")
struct Type1TagTests {
  @Test func decodesStaticTopaz() throws {
    // Topaz 512's static cousin (Jewel/Topaz 96): CC E1 10 0E 00, a URI record.
    var image = try Type1Tag.formattedImage()
    let tlv = hex("03 0C D1 01 08 55 01 6E 66 63 2E 63 6F 6D FE")
    image.replaceSubrange(12..<(12 + tlv.count), with: tlv)
    let tag = try Type1TagView(validating: image.span.bytes)
    #expect(tag.capabilityContainer.isStatic)
    #expect(tag.capabilityContainer.memorySize == 120)
    let summary = try summarizeType1(image)
    #expect(summary.tlvs == ["ndef@12:12", "terminator@26:0"])
    #expect(summary.ndefOffset == 14)
    #expect(summary.dataAreaSize == 92)
    #expect(summary.maxNDEFSize == 90)
    #expect(summary.readOnly == false)
    let view = try tag.tlvArea.messageView()
    let address = view?.bytes.baseAddressForIdentity
    #expect(address == image.span.bytes.extracting(14..<15).baseAddressForIdentity)
  }

  @Test func decodesFormattedTopaz512() throws {
    let image = try Type1Tag.formattedImage(memorySize: 512)
    #expect(Array(image[8..<25]) == hex("E1 10 3F 00  01 03 F2 30 33  02 03 F0 02 03  03 00 FE"))
    let summary = try summarizeType1(image)
    #expect(summary.tlvs == ["lockControl@12:3", "memoryControl@17:3", "ndef@22:0", "terminator@24:0"])
    #expect(summary.dataAreaSize == 92 + 384)
    #expect(summary.maxNDEFSize == 476 - 10 - 4)
    let tag = try Type1TagView(validating: image.span.bytes)
    let areas = tag.tlvArea.area.map.areas.map { "\($0.kind.name)@\($0.offset):\($0.length)" }
    #expect(areas == ["reserved@104:8", "lock@112:2", "reserved@114:14", "lock@122:6", "reserved@120:2"])
  }

  /// A message longer than the first 80 data bytes runs through blocks 0x0D-0x0F, which
  /// stay untouched; the contiguous bytes come only from the explicit assembly.
  @Test(arguments: [20, 81, 82, 200, 254, 255, 300, 462]) func dynamicMessageSkipsReservedAndLockBlocks(
    _ size: Int
  ) throws {
    var image = try Type1Tag.formattedImage(memorySize: 512)
    for i in 0x68..<0x80 { image[i] = UInt8(i) }
    let message = sizedMessage(size)
    let plan = try Type1Tag.writePlan(message, into: image)
    var written = image
    plan.apply(to: &written)
    #expect(Array(written[0x68..<0x80]) == Array(image[0x68..<0x80]))
    let tag = try Type1TagView(validating: written.span.bytes)
    #expect(tag.tlvArea.assembledNDEFBytes() == message)
    let contiguous = tag.tlvArea.area.isNDEFContiguous
    // The value starts at 24 (or 26 with a 3-byte length): up to 0x68 it is contiguous.
    #expect(contiguous == ((size < 255 ? 24 : 26) + size <= 0x68))
    #expect(try tag.tlvArea.message() == NDEFMessage(parsing: message))
    for write in plan.writes { #expect(write.bytes.count == 8) }
    for cut in 1..<plan.writes.count {
      var torn = image
      plan.apply(to: &torn, count: cut)
      #expect(try summarizeType1(torn, options: .strict).message == [], "cut \(cut)")
    }
  }

  @Test(arguments: [120, 136, 256, 512, 2048]) func writeThenReadEverySize(_ memory: Int) throws {
    let image = try Type1Tag.formattedImage(memorySize: memory)
    let capacity = try Type1TagView(validating: image.span.bytes).maximumNDEFSize
    for size in [14, 60, capacity] where size <= capacity {
      let message = sizedMessage(size)
      let plan = try Type1Tag.writePlan(message, into: image)
      var written = image
      plan.apply(to: &written)
      #expect(try summarizeType1(written).message == message, "size \(size)")
      // Static tags write byte by byte (WRITE-E); every cut reads empty or complete.
      #expect(plan.blockSize == (memory == 120 ? 1 : 8))
      for cut in 1..<plan.writes.count {
        var torn = image
        plan.apply(to: &torn, count: cut)
        #expect(try summarizeType1(torn, options: .strict).message == [], "size \(size) cut \(cut)")
      }
    }
    let error = tagError { () throws(NFCTagError) in
      _ = try Type1Tag.writePlan(sizedMessage(capacity + 1), into: image)
    }
    #expect(error?.code == .messageTooLarge)
  }

  /// A dynamic image whose TLV area holds no Lock or Memory Control TLV: CC, an empty NDEF
  /// TLV and a Terminator TLV; blocks 0x0D-0x0F hold a pattern so that any write into them
  /// shows.
  static func dynamicImageWithoutControlTLVs(memorySize: Int = 512) -> [UInt8] {
    var image = [UInt8](repeating: 0, count: memorySize)
    image.replaceSubrange(0..<7, with: hex("01 5A 3C 11 22 33 44"))
    image.replaceSubrange(8..<15, with: [0xE1, 0x10, UInt8(memorySize / 8 - 1), 0x00, 0x03, 0x00, 0xFE])
    for i in 0x68..<0x80 { image[i] = UInt8(i) }
    return image
  }

  /// Without a Lock Control TLV no default dynamic lock area is assumed beyond blocks
  /// 0x0D-0x0F: the Broadcom stack (rw_t1t_ndef.c), NXP's reader library
  /// (phalTop_Sw_Int_T1T.c), nfcpy (tt1.py) and neard (nfctype1.c) all take lock and
  /// reserved bytes past block 0x0F only from control TLVs, and T1T 1.1/1.2 §2.3.3 text
  /// stating a default was not reachable.
  @Test func dynamicWithoutLockControlSkipsOnlyFixedBlocks() throws {
    let image = Self.dynamicImageWithoutControlTLVs()
    let tag = try Type1TagView(validating: image.span.bytes)
    let areas = tag.tlvArea.area.map.areas.map { "\($0.kind.name)@\($0.offset):\($0.length)" }
    #expect(areas == ["reserved@104:8", "lock@112:2", "reserved@114:14"])
    let summary = try summarizeType1(image)
    #expect(summary.tlvs == ["ndef@12:0", "terminator@14:0"])
    #expect(summary.dataAreaSize == 512 - 12 - 24)
    #expect(summary.maxNDEFSize == 476 - 4)
    #expect(summary.readOnly == false)
  }

  /// Messages that run through blocks 0x0D-0x0F and on to the last byte of a Topaz-512-like
  /// image without control TLVs: the round trip leaves the fixed blocks as they were, and
  /// every cut of the plan reads as the empty message.
  @Test(arguments: [90, 91, 200, 254, 255, 300, 472]) func dynamicWithoutLockControlRoundTrip(_ size: Int)
    throws
  {
    let image = Self.dynamicImageWithoutControlTLVs()
    let message = sizedMessage(size)
    let plan = try Type1Tag.writePlan(message, into: image)
    var written = image
    plan.apply(to: &written)
    #expect(Array(written[0x68..<0x80]) == Array(image[0x68..<0x80]))
    let tag = try Type1TagView(validating: written.span.bytes)
    #expect(tag.tlvArea.assembledNDEFBytes() == message)
    // The value starts at 14 (16 with a 3-byte length) and reaches block 0x0D past 0x67.
    #expect(tag.tlvArea.area.isNDEFContiguous == ((size < 255 ? 14 : 16) + size <= 0x68))
    #expect(try tag.tlvArea.message() == NDEFMessage(parsing: message))
    if size == 472 { #expect(written[511] == message.last) }
    for write in plan.writes { #expect(write.bytes.count == 8) }
    for cut in 1..<plan.writes.count {
      var torn = image
      plan.apply(to: &torn, count: cut)
      #expect(try summarizeType1(torn, options: .strict).message == [], "cut \(cut)")
    }
    let error = tagError { () throws(NFCTagError) in
      _ = try Type1Tag.writePlan(sizedMessage(473), into: image)
    }
    #expect(error?.code == .messageTooLarge)
  }

  /// Without a Lock Control TLV, set bytes where Topaz 512 keeps its dynamic lock bits
  /// (0x7A-0x7F, inside block 0x0F) do not make the tag read-only; the CC and the static
  /// lock bits still do. A Lock Control TLV declaring those bytes makes them count.
  @Test func dynamicWithoutLockControlReadOnlyState() throws {
    var image = Self.dynamicImageWithoutControlTLVs()
    for i in 0x7A..<0x80 { image[i] = 0xFF }
    #expect(try summarizeType1(image).readOnly == false)
    var denied = image
    denied[11] = 0x0F
    #expect(try summarizeType1(denied).readOnly)
    var locked = image
    locked[0x70] = 0xFF
    locked[0x71] = 0x7F
    #expect(try summarizeType1(locked).readOnly)
    // The same lock bytes declared by Topaz 512's Lock Control TLV (48 bits at 0x7A).
    var declared = locked
    declared.replaceSubrange(12..<19, with: hex("01 03 F2 30 33 03 00"))
    declared[19] = 0xFE
    #expect(try summarizeType1(declared).readOnly)
    declared[0x7F] = 0x7F
    #expect(try summarizeType1(declared).readOnly == false)
  }

  @Test func readOnlyFromCCOrLockBytes() throws {
    var image = try Type1Tag.formattedImage()
    image[11] = 0x0F
    #expect(try summarizeType1(image).readOnly)
    image[11] = 0x00
    image[0x70] = 0xFF
    image[0x71] = 0x7F
    #expect(try summarizeType1(image).readOnly)
    let error = tagError { () throws(NFCTagError) in _ = try Type1Tag.writePlan(uriMessage("a"), into: image)
    }
    #expect(error?.code == .readOnly)
    #expect(error?.offset == 11)
  }

  @Test func truncationAndMalformed() throws {
    var image = try Type1Tag.formattedImage(memorySize: 256)
    try Type1Tag.writePlan(sizedMessage(150), into: image).apply(to: &image)
    for cut in 0..<image.count {
      let error = tagError { () throws(NFCTagError) in _ = try summarizeType1(Array(image[0..<cut])) }
      #expect(error?.code == (cut < 12 ? .truncatedImage : .dataAreaExceedsImage), "cut \(cut)")
      #expect(error?.offset == (cut < 12 ? cut : 10))
    }
    var bad = image
    bad[8] = 0xE2
    #expect(tagError { () throws(NFCTagError) in _ = try summarizeType1(bad) }?.code == .invalidMagic)
    bad = image
    bad[9] = 0x20
    #expect(tagError { () throws(NFCTagError) in _ = try summarizeType1(bad) }?.offset == 9)
    #expect(try summarizeType1(bad, options: .lenient).warnings == ["unsupportedVersion@9"])
    // The header ROM must agree with TMS: HR0 0x11 is static, the image is dynamic.
    let hr = tagError { () throws(NFCTagError) in
      _ = try Type1TagView(validating: image.span.bytes, headerROM: Type1HeaderROM(hr0: 0x11))
    }
    #expect(hr?.code == .invalidCapabilityContainer)
    #expect(hr?.offset == 10)
    let dynamic = try Type1TagView(validating: image.span.bytes, headerROM: Type1HeaderROM(hr0: 0x12))
    #expect(dynamic.headerROM?.isNDEFCapable == true)
    #expect(dynamic.warnings.isEmpty)
  }
}
