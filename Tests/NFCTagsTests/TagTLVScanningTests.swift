// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire
import Testing

/// Issue 21: a TLV that strict mode rejects, where the NDEF TLV and the rest can still be
/// located, is kept in `TagTLVArea.errors` by the `scanning` initializers; the NDEF message
/// still decodes. T2T 1.0 §2.3 (TLV blocks), §4.4 (NDEF detection).
@Suite("Tag TLV areas scanned past a bad TLV")
struct TagTLVScanningTests {
  /// A URI record "http://www.nfc.com" (12 bytes).
  static let message = hex("D1 01 08 55 01 6E 66 63 2E 63 6F 6D")

  /// A 64-byte Type 2 image (48-byte data area at 16) holding `tlvs` from offset 16.
  static func type2(_ tlvs: [UInt8]) -> [UInt8] {
    var image = [UInt8](repeating: 0, count: 64)
    image.replaceSubrange(12..<16, with: [0xE1, 0x10, 0x06, 0x00])
    image.replaceSubrange(16..<(16 + tlvs.count), with: tlvs)
    return image
  }

  /// The NDEF TLV at 16 (value at 18, 12 bytes), the next TLV at 30.
  static let ndefTLV: [UInt8] = [0x03, 0x0C] + message

  /// What `init(validating:)` throws, or nil.
  static func validationError(_ image: [UInt8]) -> NFCTagError? {
    do throws(NFCTagError) {
      _ = try Type2TagView(validating: image.span.bytes)
      return nil
    } catch {
      return error
    }
  }

  @Test func anUnknownTLVAfterTheNDEFTLVKeepsTheMessage() throws {
    let image = Self.type2(Self.ndefTLV + [0x42, 0x02, 0xAA, 0xBB, 0xFE])
    let tag = try Type2TagView(scanning: image.span.bytes)
    #expect(tag.tlvArea.area.errors == [NFCTagError(.unknownTLVType, offset: 30)])
    #expect(tag.tlvArea.area.ndefMessageOffset == 18)
    #expect(try tag.tlvArea.message()?.records.first?.payload == hex("01 6E 66 63 2E 63 6F 6D"))
    // The unknown TLV is listed; the scan ends after it, as the lenient scan does.
    #expect(tag.tlvArea.tlvList().map(\.offset) == [16, 30])
    #expect(tag.warnings.isEmpty)
    #expect(Self.validationError(image) == NFCTagError(.unknownTLVType, offset: 30))
  }

  @Test func aSecondNDEFTLVAndALateControlTLVAreEachReported() throws {
    // NDEF at 16, a second NDEF TLV at 30 (03 00), a Lock Control TLV at 32, terminator at 37.
    let image = Self.type2(Self.ndefTLV + [0x03, 0x00, 0x01, 0x03, 0xA0, 0x10, 0x44, 0xFE])
    let tag = try Type2TagView(scanning: image.span.bytes)
    #expect(
      tag.tlvArea.area.errors == [
        NFCTagError(.multipleNDEFTLVs, offset: 30), NFCTagError(.controlTLVAfterNDEF, offset: 32),
      ])
    #expect(tag.tlvArea.tlvList().map(\.offset) == [16, 30, 32, 37])
    #expect(tag.tlvArea.area.ndefMessageOffset == 18)
    #expect(Self.validationError(image) == NFCTagError(.multipleNDEFTLVs, offset: 30))
  }

  @Test func aTLVRunningPastTheDataAreaEndsTheScanAfterTheMessage() throws {
    // A proprietary TLV at 30 whose length 0x40 (at 31) runs past the data area end (64).
    let image = Self.type2(Self.ndefTLV + [0xFD, 0x40, 0x00])
    let tag = try Type2TagView(scanning: image.span.bytes)
    #expect(tag.tlvArea.area.errors == [NFCTagError(.tlvLengthExceedsDataArea, offset: 31)])
    #expect(tag.tlvArea.tlvList().map(\.offset) == [16])
    #expect(try tag.tlvArea.message()?.records.count == 1)
    #expect(Self.validationError(image) == NFCTagError(.tlvLengthExceedsDataArea, offset: 31))
  }

  @Test func anUnknownTLVBeforeTheNDEFTLVIsSkippedByItsLength() throws {
    // An unknown TLV at 16 (43 01 00), the NDEF TLV at 19.
    let image = Self.type2([0x43, 0x01, 0x00] + Self.ndefTLV + [0xFE])
    let tag = try Type2TagView(scanning: image.span.bytes)
    #expect(tag.tlvArea.area.errors == [NFCTagError(.unknownTLVType, offset: 16)])
    #expect(tag.tlvArea.area.ndefMessageOffset == 21)
    #expect(tag.tlvArea.tlvList().map(\.offset) == [16, 19, 33])
    #expect(Self.validationError(image) == NFCTagError(.unknownTLVType, offset: 16))
  }

  @Test func whatLeavesTheNDEFTLVUnlocatedStillThrows() {
    // A TLV at 16 whose length runs past the data area: nothing after it can be found.
    let pastEnd = Self.type2([0xFD, 0x40] + Self.ndefTLV)
    #expect(throws: NFCTagError(.tlvLengthExceedsDataArea, offset: 17)) {
      _ = try Type2TagView(scanning: pastEnd.span.bytes)
    }
    // No NDEF TLV at all.
    let none = Self.type2([0xFE])
    #expect(throws: NFCTagError(.missingNDEFTLV, offset: 16)) {
      _ = try Type2TagView(scanning: none.span.bytes)
    }
    // A CC error comes before any TLV.
    var badMagic = Self.type2(Self.ndefTLV)
    badMagic[12] = 0xE0
    #expect(throws: NFCTagError(.invalidMagic, offset: 12)) {
      _ = try Type2TagView(scanning: badMagic.span.bytes)
    }
  }

  @Test func lenientModeIsUnchanged() throws {
    let image = Self.type2(Self.ndefTLV + [0x42, 0x02, 0xAA, 0xBB, 0xFE])
    let scanned = try Type2TagView(scanning: image.span.bytes, options: .lenient)
    let validated = try Type2TagView(validating: image.span.bytes, options: .lenient)
    #expect(scanned.tlvArea.area.errors.isEmpty)
    #expect(scanned.warnings == validated.warnings)
    #expect(scanned.warnings == [NFCTagWarning(.unknownTLVType, offset: 30)])
  }

  @Test func aValidImageScansAsItValidates() throws {
    let image = Self.type2(Self.ndefTLV + [0xFE])
    let scanned = try Type2TagView(scanning: image.span.bytes)
    let validated = try Type2TagView(validating: image.span.bytes)
    #expect(scanned.tlvArea.area.errors.isEmpty)
    #expect(validated.tlvArea.area.errors.isEmpty)
    #expect(scanned.tlvArea.tlvList() == validated.tlvArea.tlvList())
    #expect(scanned.tlvArea.area.ndefInsertionOffset == validated.tlvArea.area.ndefInsertionOffset)
  }

  @Test func typeOneAndTypeFiveImagesScanTheSameWay() throws {
    var type1 = try Type1Tag.formattedImage()
    let tlvs1 = [0x03, 0x0C] + Self.message + [0x42, 0x00, 0xFE]
    type1.replaceSubrange(12..<(12 + tlvs1.count), with: tlvs1)
    let tag1 = try Type1TagView(scanning: type1.span.bytes)
    #expect(tag1.tlvArea.area.errors == [NFCTagError(.unknownTLVType, offset: 26)])
    #expect(tag1.tlvArea.area.ndefMessageOffset == 14)
    #expect(throws: NFCTagError(.unknownTLVType, offset: 26)) {
      _ = try Type1TagView(validating: type1.span.bytes)
    }

    var type5 = [UInt8](repeating: 0, count: 112)
    let body = hex("E1 40 0E 01") + [0x03, 0x0C] + Self.message + [0x03, 0x00, 0xFE]
    type5.replaceSubrange(0..<body.count, with: body)
    let tag5 = try Type5TagView(scanning: type5.span.bytes)
    #expect(tag5.tlvArea.area.errors == [NFCTagError(.multipleNDEFTLVs, offset: 18)])
    #expect(tag5.tlvArea.area.ndefMessageOffset == 6)
    #expect(throws: NFCTagError(.multipleNDEFTLVs, offset: 18)) {
      _ = try Type5TagView(validating: type5.span.bytes)
    }
  }

  /// Random one- and two-byte changes to the TLV area: the scan's first error is exactly
  /// what validation throws, and when the scan throws, validation throws the same.
  @Test func theFirstScanErrorIsTheValidationError() {
    var generator = SeededGenerator(seed: 0x2024_1205)
    func next() -> Int { Int(generator.next() >> 33) }
    let base = Self.type2(Self.ndefTLV + [0xFD, 0x02, 0x00, 0x00, 0x01, 0x03, 0xA0, 0x10, 0x44, 0xFE])
    var disagreements = 0
    var kept = 0
    for _ in 0..<3000 {
      var image = base
      for _ in 0...(next() % 2) {
        image[16 + next() % 32] = UInt8(truncatingIfNeeded: next())
      }
      let validation = Self.validationError(image)
      do throws(NFCTagError) {
        let scanned = try Type2TagView(scanning: image.span.bytes)
        if scanned.tlvArea.area.errors.first != validation { disagreements += 1 }
        if !scanned.tlvArea.area.errors.isEmpty { kept += 1 }
      } catch {
        if error != validation { disagreements += 1 }
      }
    }
    #expect(disagreements == 0)
    // The mutations do reach the kept-error path (not only clean or thrown images).
    #expect(kept > 100)
  }
}
