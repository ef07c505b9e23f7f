// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire
import Testing

struct AreaSummary: Equatable {
  var tlvs: [String]
  var ndefOffset: Int?
  var message: [UInt8]?
  var dataAreaSize: Int
  var maxNDEFSize: Int
  var readOnly: Bool
  var warnings: [String]
}

func summarizeType5(_ image: [UInt8], options: TagDecodingOptions = .strict) throws(NFCTagError)
  -> AreaSummary
{
  let tag = try Type5TagView(validating: image.span.bytes, options: options)
  return AreaSummary(
    tlvs: tlvSummary(tag.tlvArea.tlvList()), ndefOffset: tag.tlvArea.area.ndefMessageOffset,
    message: tag.tlvArea.area.ndefTLV == nil ? nil : tag.tlvArea.assembledNDEFBytes(),
    dataAreaSize: tag.dataAreaSize, maxNDEFSize: tag.maximumNDEFSize, readOnly: tag.isReadOnly,
    warnings: tag.warnings.map { "\($0.code.name)@\($0.offset)" })
}

@Suite("Type 5 tag images")
struct Type5TagTests {
  @Test func decodesFourByteCC() throws {
    // ICODE SLIX style: E1 40 0E 01 counts the CC in MLEN (112 bytes of memory).
    var image = [UInt8](repeating: 0, count: 112)
    let body = hex("E1 40 0E 01  03 0B D1 01 07 55 04 61 2E 62 2F 63 64  FE")
    image.replaceSubrange(0..<body.count, with: body)
    let tag = try Type5TagView(validating: image.span.bytes)
    #expect(tag.capabilityContainer.magic == 0xE1)
    #expect(tag.capabilityContainer.majorVersion == 1)
    #expect(tag.capabilityContainer.mlen == 14)
    #expect(tag.capabilityContainer.supportsMultipleBlockRead)
    #expect(tag.capabilityContainer.isEightBytes == false)
    let summary = try summarizeType5(image)
    #expect(summary.tlvs == ["ndef@4:11", "terminator@17:0"])
    #expect(summary.ndefOffset == 6)
    #expect(summary.message == hex("D1 01 07 55 04 61 2E 62 2F 63 64"))
    #expect(summary.dataAreaSize == 112)
    #expect(summary.maxNDEFSize == 108 - 2)
    let record = try tag.tlvArea.message()?.records.first
    #expect(record?.payload == hex("04 61 2E 62 2F 63 64"))
  }

  @Test func decodesEightByteCC() throws {
    let image = try Type5Tag.formattedImage(memorySize: 8192)
    #expect(Array(image[0..<11]) == hex("E2 40 00 01 00 00 03 FF  03 00 FE"))
    let tag = try Type5TagView(validating: image.span.bytes)
    #expect(tag.capabilityContainer.isEightBytes)
    #expect(tag.capabilityContainer.mlen == 1023)
    #expect(tag.dataAreaSize == 8184)
    let summary = try summarizeType5(image)
    #expect(summary.tlvs == ["ndef@8:0", "terminator@10:0"])
    #expect(summary.maxNDEFSize == 8184 - 4)
  }

  static let sizes = [16, 64, 112, 256, 2048, 2052, 8192]

  @Test(arguments: sizes) func writeThenReadEverySize(_ memory: Int) throws {
    let image = try Type5Tag.formattedImage(memorySize: memory)
    let capacity = try Type5TagView(validating: image.span.bytes).maximumNDEFSize
    for size in [14, 100, 254, 255, 1000, capacity] where size <= capacity && size >= 14 {
      let message = sizedMessage(size)
      for blockSize in [4, 8, 32] where memory % blockSize == 0 {
        let plan = try Type5Tag.writePlan(message, into: image, blockSize: blockSize)
        for write in plan.writes {
          #expect(write.bytes.count == blockSize && write.offset == write.block * blockSize)
        }
        var written = image
        plan.apply(to: &written)
        #expect(try summarizeType5(written).message == message)
        // Tearing: every cut reads empty or complete.
        for cut in 1..<plan.writes.count {
          var torn = image
          plan.apply(to: &torn, count: cut)
          #expect(try summarizeType5(torn, options: .strict).message == [], "cut \(cut)")
        }
      }
    }
    let error = tagError { () throws(NFCTagError) in
      _ = try Type5Tag.writePlan(sizedMessage(max(14, capacity + 1)), into: image)
    }
    #expect(error?.code == .messageTooLarge)
  }

  @Test func readOnlyAccessRefusesWrites() throws {
    var image = try Type5Tag.formattedImage(memorySize: 64)
    image[1] = 0x43
    #expect(try summarizeType5(image).readOnly)
    let error = tagError { () throws(NFCTagError) in
      _ = try Type5Tag.writePlan(uriMessage("a.b"), into: image)
    }
    #expect(error?.code == .readOnly)
    #expect(error?.offset == 1)
  }

  @Test func malformedCCs() throws {
    let cases: [(String, NFCTagError.Code, Int)] = [
      ("E3 40 08 01 03 00 FE", .invalidMagic, 0),
      ("E1 80 08 01 03 00 FE", .unsupportedVersion, 1),
      ("E1 40 20 01 03 00 FE", .dataAreaExceedsImage, 2),
      ("E2 40 00 01 00 00 00 04 03 00 FE", .invalidCapabilityContainer, 6),
      ("E1 40 07 01 03 40 D0 00 00 FE", .tlvLengthExceedsDataArea, 5),
    ]
    for (text, code, offset) in cases {
      var image = [UInt8](repeating: 0, count: 64)
      let bytes = hex(text)
      image.replaceSubrange(0..<bytes.count, with: bytes)
      let error = tagError { () throws(NFCTagError) in _ = try summarizeType5(image) }
      #expect(error?.code == code, "\(text)")
      #expect(error?.offset == offset, "\(text)")
      if code != .invalidMagic {
        #expect(try summarizeType5(image, options: .lenient).warnings.first == "\(code.name)@\(offset)")
      }
    }
  }

  @Test func truncationAtEveryOffset() throws {
    let image = try Type5Tag.formattedImage(memorySize: 64)
    var written = image
    try Type5Tag.writePlan(uriMessage("example.com/t5t"), into: image).apply(to: &written)
    for cut in 0..<written.count {
      let error = tagError { () throws(NFCTagError) in _ = try summarizeType5(Array(written[0..<cut])) }
      // MLEN 7: the area ends at 60; an overrun up to the CC size (4) is the vendor convention.
      if cut >= 56 {
        #expect(error == nil, "cut \(cut)")
      } else {
        #expect(error?.code == (cut < 4 ? .truncatedImage : .dataAreaExceedsImage), "cut \(cut)")
        #expect(error?.offset == (cut < 4 ? cut : 2))
      }
    }
  }
}
