// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire
import Testing

@Suite("Type 3 tag images")
struct Type3TagTests {
  /// AIB 10 04 01 000D 00000000 00 01 000000 checksum 0023.
  @Test func decodesAttributeInformationBlock() throws {
    let image = try Type3Tag.formattedImage(blockCount: 14)
    #expect(Array(image[0..<16]) == hex("10 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 23"))
    let tag = try Type3TagView(validating: image.span.bytes)
    let aib = tag.attributeInformation
    #expect(aib.version == 0x10)
    #expect(aib.blocksPerRead == 4)
    #expect(aib.blocksPerWrite == 1)
    #expect(aib.maximumBlocks == 13)
    #expect(aib.writeFlag == 0)
    #expect(aib.accessFlag == 1)
    #expect(aib.ndefLength == 0)
    #expect(tag.checksum == 0x0023)
    #expect(tag.dataAreaSize == 208)
    #expect(tag.maximumNDEFSize == 208)
    #expect(tag.isReadOnly == false)
    #expect(try tag.messageView() == nil)
  }

  @Test(arguments: [2, 14, 64, 300]) func writeThenReadWithTearing(_ blocks: Int) throws {
    let image = try Type3Tag.formattedImage(blockCount: blocks)
    let capacity = (blocks - 1) * 16
    for size in [14, capacity / 2, capacity] where size >= 14 && size <= capacity {
      let message = sizedMessage(size)
      let plan = try Type3Tag.writePlan(message, into: image)
      #expect(plan.writes.first?.bytes[9] == 0x0F)
      #expect(plan.writes.last?.block == 0)
      var written = image
      plan.apply(to: &written)
      let tag = try Type3TagView(validating: written.span.bytes)
      #expect(tag.ndefBytes.copiedBytes() == message)
      let view = try tag.messageView()
      let count = view?.recordCount
      #expect(count == 1)
      for cut in 1..<plan.writes.count {
        var torn = image
        plan.apply(to: &torn, count: cut)
        let strict = tagError { () throws(NFCTagError) in _ = try Type3TagView(validating: torn.span.bytes) }
        #expect(strict?.code == .writeInProgress)
        #expect(strict?.offset == 9)
        let lenient = try Type3TagView(validating: torn.span.bytes, options: .lenient)
        #expect(lenient.ndefLength == 0)
        #expect(lenient.warnings == [NFCTagWarning(.writeInProgress, offset: 9)])
      }
    }
    let error = tagError { () throws(NFCTagError) in
      _ = try Type3Tag.writePlan(sizedMessage(capacity + 1), into: image)
    }
    #expect(error?.code == .messageTooLarge)
  }

  @Test func malformedBlocks() throws {
    var image = try Type3Tag.formattedImage(blockCount: 4)
    try Type3Tag.writePlan(uriMessage("felica.example"), into: image).apply(to: &image)
    func fix(_ bytes: inout [UInt8]) {
      let sum = Type3AttributeInformation.checksum(Array(bytes[0..<14]))
      bytes[14] = UInt8(sum >> 8)
      bytes[15] = UInt8(sum & 0xFF)
    }
    let cases: [(Int, UInt8, NFCTagError.Code, Int)] = [
      (0, 0x20, .unsupportedVersion, 0), (1, 0x00, .invalidAttributeInformation, 1),
      (2, 0x00, .invalidAttributeInformation, 2), (9, 0x01, .invalidAttributeInformation, 9),
      (10, 0x02, .invalidAttributeInformation, 10), (11, 0x01, .ndefLengthExceedsCapacity, 11),
    ]
    for (index, value, code, offset) in cases {
      var bad = image
      bad[index] = value
      fix(&bad)
      let error = tagError { () throws(NFCTagError) in _ = try Type3TagView(validating: bad.span.bytes) }
      #expect(error?.code == code, "byte \(index)")
      #expect(error?.offset == offset)
    }
    var badSum = image
    badSum[15] ^= 1
    let error = tagError { () throws(NFCTagError) in _ = try Type3TagView(validating: badSum.span.bytes) }
    #expect(error?.code == .checksumMismatch)
    #expect(error?.offset == 14)
    let lenient = try Type3TagView(validating: badSum.span.bytes, options: .lenient)
    #expect(lenient.warnings == [NFCTagWarning(.checksumMismatch, offset: 14)])
    var readOnly = image
    readOnly[10] = 0
    fix(&readOnly)
    let refused = tagError { () throws(NFCTagError) in
      _ = try Type3Tag.writePlan(uriMessage("x"), into: readOnly)
    }
    #expect(refused?.code == .readOnly)
    // Truncation at every offset.
    let length = try Type3TagView(validating: image.span.bytes).ndefLength
    for cut in 0..<(16 + length) {
      let e = tagError { () throws(NFCTagError) in
        _ = try Type3TagView(validating: Array(image[0..<cut]).span.bytes)
      }
      #expect(e?.code == .truncatedImage)
      #expect(e?.offset == cut)
    }
  }
}
