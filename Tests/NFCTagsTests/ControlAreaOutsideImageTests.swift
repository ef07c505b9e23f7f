// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire
import Testing

/// A Type 2 image holding the header and data area only (a user-memory dump) with the
/// factory Lock Control TLV, whose dynamic lock bytes lie past the image.
///
/// NTAG213 (NXP NTAG213/215/216 data sheet, §8.5 memory organisation): 45 pages of 4 bytes;
/// page 3 is the CC `E1 10 12 00` (144-byte data area), user memory is pages 4-39 (bytes
/// 16-159), the dynamic lock bytes are page 40 (byte 160), CFG/PWD/PACK pages 41-44. The
/// factory pages 4-5 hold `01 03 A0 0C 34 03 00 FE`: a Lock Control TLV, an empty NDEF TLV,
/// a Terminator. By T2T 1.0 §2.3.2 its value `A0 0C 34` reads: PageAddr 0xA, ByteOffset 0,
/// 12 lock bits, 2^3 = 8 bytes locked per bit, 2^4 = 16 bytes per page: the lock bytes are
/// at 0xA × 16 + 0 = 160, ⌈12 / 8⌉ = 2 of them; bit n locks pages 16 + 2n and 17 + 2n.
@Suite("Control TLV areas outside the image")
struct ControlAreaOutsideImageTests {
  /// Header (UID 04 A1 B2 + BCC0 0x88^04^A1^B2 = 0x9F, UID C3 D4 E5 F6 + BCC1 0x04, internal
  /// 0x48, static lock 00 00, CC E1 10 12 00); the factory Lock Control TLV; a URI record
  /// "http://www.nfc.com" (prefix 0x01 = "http://www.", NFC Forum URI RTD §3.2.2).
  static let header = hex("04 A1 B2 9F  C3 D4 E5 F6  04 48 00 00  E1 10 12 00")
  static let lockControl = hex("01 03 A0 0C 34")
  static let uriMessage = hex("D1 01 08 55 01 6E 66 63 2E 63 6F 6D")

  /// 160 bytes: the header and the 144-byte data area.
  static func userMemoryDump(message: [UInt8] = uriMessage) -> [UInt8] {
    var data = lockControl + [0x03, UInt8(message.count)] + message + [0xFE]
    data += [UInt8](repeating: 0, count: 144 - data.count)
    return header + data
  }

  @Test func bccBytesAreHandChecked() {
    #expect(0x88 ^ 0x04 ^ 0xA1 ^ 0xB2 == 0x9F)
    #expect(0xC3 ^ 0xD4 ^ 0xE5 ^ 0xF6 == 0x04)
  }

  @Test func userMemoryDumpDecodesItsMessage() throws {
    let image = Self.userMemoryDump()
    #expect(image.count == 160)
    for options in [TagDecodingOptions.strict, .lenient] {
      let tag = try Type2TagView(validating: image.span.bytes, options: options)
      #expect(tag.warnings.isEmpty)
      let area = tag.tlvArea.area
      #expect(tag.tlvArea.notes == [NFCTagWarning(.controlAreaOutsideImage, offset: 16)])
      #expect(area.ndefMessageOffset == 23)
      #expect(area.ndefMessageLength == 12)
      // The lock area is kept where the TLV says, 2 bytes at 160 (past the 160-byte image).
      let dynamicLock = tag.dynamicLockArea
      let lock = try #require(dynamicLock)
      #expect(lock.offset == 160 && lock.length == 2 && lock.bitCount == 12 && lock.bytesLockedPerBit == 8)
      #expect(area.dataByteCount == 144)
      let message = try #require(try tag.tlvArea.message(options: .strict))
      #expect(message.records.count == 1)
      #expect(message.records.first?.payload == Array(Self.uriMessage[4...]))
    }
  }

  @Test func theFullImageHasNoNote() throws {
    var image = Self.userMemoryDump()
    image += [UInt8](repeating: 0, count: 20)  // pages 40-44: dynamic lock, CFG0/1, PWD, PACK.
    let tag = try Type2TagView(validating: image.span.bytes)
    #expect(tag.tlvArea.notes.isEmpty)
    #expect(tag.dynamicLockArea?.offset == 160)
  }

  @Test func aWriteWithinTheStaticLockPagesNeedsNoDynamicLockBits() throws {
    let image = Self.userMemoryDump()
    // 12 + 2 bytes of TLV from byte 21: ends on page 8, governed by the static lock bytes.
    let other = hex("D1 01 08 55 01 6E 66 63 2E 6F 72 67")  // http://www.nfc.org
    let plan = try Type2Tag.writePlan(other, into: image)
    #expect(!plan.writes.isEmpty && plan.writes.allSatisfy { $0.block < 16 })
    var written = image
    plan.apply(to: &written)
    #expect(Array(written[23..<35]) == other)
  }

  @Test func aWriteIntoPage16RefusesWithTheCode() throws {
    let image = Self.userMemoryDump()
    // A 60-byte record: the TLV from byte 21 runs to byte 83, page 20 (past page 16, bit 0).
    let long = NDEFMessage(records: [
      NDEFRecord(typeNameFormat: .unknown, type: [], payload: [UInt8](repeating: 0x61, count: 57))
    ])
    let error = tagError { () throws(NFCTagError) in _ = try Type2Tag.writePlan(long, into: image) }
    #expect(error == NFCTagError(.controlAreaOutsideImage, offset: 16))
    // With the lock page present and zero, the same write is planned.
    let full = image + [UInt8](repeating: 0, count: 20)
    #expect(tagError { () throws(NFCTagError) in _ = try Type2Tag.writePlan(long, into: full) } == nil)
  }

  /// An area that starts inside the data area and runs past the image is broken: strict
  /// refuses with the distinct code, lenient warns and ignores the area.
  @Test func anAreaInsideTheDataAreaRunningPastTheImageIsAnError() throws {
    var image = Self.userMemoryDump()
    // PageAddr 9, ByteOffset 0xE: byte 158, 16 bits = 2 bytes, 158..<160 fits; 0xF: 159..<161.
    image[18] = 0x9F
    image[19] = 0x10
    let error = tagError { () throws(NFCTagError) in _ = try Type2TagView(validating: image.span.bytes) }
    #expect(error == NFCTagError(.controlAreaOutsideImage, offset: 16))
    #expect(error?.code.message.contains("past the end of the image") == true)
    let lenient = try Type2TagView(validating: image.span.bytes, options: .lenient)
    #expect(lenient.warnings == [NFCTagWarning(.controlAreaOutsideImage, offset: 16)])
    #expect(lenient.tlvArea.notes.isEmpty)
  }

  @Test func aControlTLVWithoutThreeBytesSaysSo() throws {
    var image = Self.userMemoryDump()
    image[17] = 0x02
    let error = tagError { () throws(NFCTagError) in _ = try Type2TagView(validating: image.span.bytes) }
    #expect(error?.code == .invalidControlTLV)
    #expect(error?.code.message == "a Lock or Memory Control TLV value is not 3 bytes long")
  }
}
