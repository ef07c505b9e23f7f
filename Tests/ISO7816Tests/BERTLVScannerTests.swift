// SPDX-License-Identifier: Apache-2.0
import NFCWire
import Testing

@testable import ISO7816

/// One scanned level as plain values: framed objects (with their scanned children) and the
/// level's error, if any.
struct ScannedLevel: Equatable {
  var objects: [ScannedNode]
  var error: APDUError?
}

struct ScannedNode: Equatable {
  var tag: String
  var offset: Int
  var length: Int
  var value: String?
  var children: ScannedLevel?
}

func scan(_ scanner: consuming BERTLVScanner) -> ScannedLevel {
  var level = ScannedLevel(objects: [], error: nil)
  while let item = scanner.next() {
    switch item {
    case .malformed(let error):
      level.error = error
    case .object(let tlv):
      level.objects.append(
        ScannedNode(
          tag: tlv.tag.hexString, offset: tlv.offset, length: tlv.length,
          value: tlv.isConstructed ? nil : Hex.string(tlv.value),
          children: tlv.isConstructed ? scan(tlv.scannedChildren) : nil))
    }
  }
  return level
}

func scan(_ bytes: [UInt8], options: BERTLVDecodingOptions = .strict) -> ScannedLevel {
  scan(BERTLVScanner(bytes.span.bytes, options: options))
}

@Suite("BERTLV scanner: a bad object is reported where it is")
struct BERTLVScannerTests {
  /// 6F at 0 (length 9) holds 84 at 2 and A5 at 6 (length 3), whose only object 9F65 at 8
  /// has the length 05 at offset 10 with nothing left in A5; 88 at 11 follows 6F.
  static let nestedBad = hex("6F 09 84 02 A0 00 A5 03 9F 65 05 88 01 02")

  @Test func aBadNestedObjectKeepsItsParentsAndSiblings() {
    let level = scan(Self.nestedBad)
    #expect(level.error == nil)
    #expect(level.objects.map(\.tag) == ["6f", "88"])
    #expect(level.objects[1] == ScannedNode(tag: "88", offset: 11, length: 1, value: "02", children: nil))
    let fci = try! #require(level.objects[0].children)
    #expect(fci.error == nil)
    #expect(fci.objects.map(\.offset) == [2, 6])
    #expect(fci.objects[0].value == "a000")
    let proprietary = try! #require(fci.objects[1].children)
    #expect(proprietary.objects.isEmpty)
    #expect(proprietary.error == APDUError(.lengthExceedsInput, offset: 10))
    // Strict validation throws that same error, first in depth-first order.
    #expect(throws: APDUError(.lengthExceedsInput, offset: 10)) { _ = try decodeTLVs(Self.nestedBad) }
    #expect(
      BERTLVScanner.firstError(in: BERTLVScanner(Self.nestedBad.span.bytes))
        == APDUError(.lengthExceedsInput, offset: 10))
  }

  @Test func aTopLevelFramingErrorEndsTheLevelAfterTheObjectsBeforeIt() {
    // 84 at 0, then 85 at 3 whose length 05 (offset 4) claims more than the 1 byte left.
    let level = scan(hex("84 01 AA 85 05 01"))
    #expect(level.objects == [ScannedNode(tag: "84", offset: 0, length: 1, value: "aa", children: nil)])
    #expect(level.error == APDUError(.lengthExceedsInput, offset: 4))
  }

  @Test func everyHeaderErrorIsReportedAtItsByte() {
    #expect(scan(hex("84 01 AA 00")).error == APDUError(.invalidTag, offset: 3))
    #expect(scan(hex("84 01 AA 9F")).error == APDUError(.truncatedTag, offset: 4))
    #expect(scan(hex("84 01 AA 9F 80 01 00")).error == APDUError(.nonMinimalTag, offset: 4))
    #expect(scan(hex("84 01 AA 85")).error == APDUError(.truncatedLength, offset: 4))
    #expect(scan(hex("84 01 AA 85 80")).error == APDUError(.indefiniteLength, offset: 4))
    #expect(scan(hex("84 01 AA 85 85 00 00 00 00 01")).error == APDUError(.lengthTooLong, offset: 4))
    #expect(scan(hex("84 01 AA 85 81 01 00")).error == APDUError(.nonMinimalLength, offset: 4))
    #expect(scan(hex("84 01 AA 85 82 00")).error == APDUError(.truncatedLength, offset: 6))
    for bytes in [hex("84 01 AA 00"), hex("84 01 AA 9F 80 01 00"), hex("84 01 AA 85 81 01 00")] {
      #expect(scan(bytes).objects.count == 1)
    }
  }

  @Test func depthAndCountAreBounded() {
    let shallow = BERTLVDecodingOptions(maximumDepth: 1)
    // E1 at depth 1 may not hold objects: nestingTooDeep at its value (offset 2).
    let level = scan(hex("E1 03 84 01 AA 84 00"), options: shallow)
    #expect(level.objects.map(\.tag) == ["e1", "84"])
    #expect(
      level.objects[0].children == ScannedLevel(objects: [], error: APDUError(.nestingTooDeep, offset: 2)))
    #expect(throws: APDUError(.nestingTooDeep, offset: 2)) {
      _ = try decodeTLVs(hex("E1 03 84 01 AA"), options: shallow)
    }
    // An empty constructed object at the limit is fine.
    #expect(scan(hex("E1 00"), options: shallow).objects[0].children == ScannedLevel(objects: [], error: nil))
    let few = BERTLVDecodingOptions(maximumObjectCount: 2)
    let counted = scan(hex("84 00 84 00 84 00"), options: few)
    #expect(counted.objects.map(\.offset) == [0, 2])
    #expect(counted.error == APDUError(.tooManyObjects, offset: 4))
  }

  @Test func lenientPaddingIsSkippedAndStrictRejectsIt() {
    let bytes = hex("00 84 01 AA FF 85 80")
    let lenient = scan(bytes, options: .lenient)
    #expect(lenient.objects.map(\.offset) == [1])
    #expect(lenient.error == APDUError(.indefiniteLength, offset: 6))
    let strict = scan(bytes)
    #expect(strict.objects.isEmpty)
    #expect(strict.error == APDUError(.invalidTag, offset: 0))
  }

  @Test func validInputScansAsItValidates() throws {
    let bytes = BERTLVTests.fci + hex("88 01 02")
    let level = scan(bytes)
    #expect(level.error == nil)
    func plain(_ level: ScannedLevel) -> [TLVNode] {
      level.objects.map {
        TLVNode(
          tag: $0.tag, offset: $0.offset, length: $0.length, value: $0.value,
          children: $0.children.map(plain) ?? [])
      }
    }
    #expect(plain(level) == (try decodeTLVs(bytes)))
  }

  /// On many small random inputs, the first error of a depth-first scan is exactly the
  /// error strict (and lenient) validation throws, and there is none when validation passes.
  @Test func theFirstScanErrorIsTheValidationError() {
    var generator = SeededGenerator(seed: 0x7A9)
    let alphabet: [UInt8] = [
      0x00, 0x01, 0x02, 0x03, 0x04, 0x1F, 0x6F, 0x80, 0x81, 0x82, 0x84, 0x9F, 0xA5, 0xE1, 0xFF,
    ]
    for _ in 0..<3000 {
      let count = Int(generator.next() % 20)
      let bytes = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
      for options in [BERTLVDecodingOptions.strict, .lenient, BERTLVDecodingOptions(maximumDepth: 2)] {
        let scanned = BERTLVScanner.firstError(in: BERTLVScanner(bytes.span.bytes, options: options))
        var thrown: APDUError? = nil
        do throws(APDUError) {
          _ = try BERTLVSequenceView(validating: bytes.span.bytes, options: options)
        } catch {
          thrown = error
        }
        #expect(scanned == thrown, "\(Hex.string(bytes))")
      }
    }
  }
}

@Suite("GET STATUS: one bad registry entry never hides the others")
struct RegistryScanTests {
  /// E3 at 0 without 9F70; E3 at 6 with AID A001 and life cycle 07; a 4F at 16 outside any E3.
  static let response = hex("E3 04 4F 02 A0 00" + "E3 08 4F 02 A0 01 9F 70 01 07" + "4F 01 AA")

  @Test func eachEntryHasItsOwnResult() throws {
    let results = GlobalPlatformRegistryEntry.scanStatusResponse(Self.response)
    #expect(results.count == 3)
    #expect(results[0] == .failure(APDUError(.missingDataObject, offset: 0)))
    let entry = try results[1].get()
    #expect(entry.aid == [0xA0, 0x01])
    #expect(entry.lifeCycle.rawValue == 0x07)
    #expect(results[2] == .failure(APDUError(.unexpectedTag, offset: 16)))
    // The throwing reader stops at the first of them.
    #expect(throws: APDUError(.missingDataObject, offset: 0)) {
      _ = try GlobalPlatformRegistryEntry.parseStatusResponse(Self.response)
    }
  }

  @Test func aBadFieldOrNestedFramingFailsOnlyItsEntry() throws {
    // E3 at 0: a 9F70 of two bytes (at 6); E3 at 11: a constructed A5 at 17 whose inner
    // length 05 (offset 20) runs past it; E3 at 21 is valid.
    let bytes = hex(
      "E3 09 4F 02 A0 00 9F 70 02 07 07" + "E3 08 4F 02 A0 02 A5 02 84 05" + "E3 08 4F 02 A0 03 9F 70 01 0F")
    let results = GlobalPlatformRegistryEntry.scanStatusResponse(bytes)
    #expect(results.count == 3)
    #expect(results[0] == .failure(APDUError(.invalidDataObject, offset: 6)))
    #expect(results[1] == .failure(APDUError(.lengthExceedsInput, offset: 20)))
    #expect(try results[2].get().aid == [0xA0, 0x03])
    // A top-level framing error comes last, after the entries before it.
    let cut = GlobalPlatformRegistryEntry.scanStatusResponse(hex("E3 08 4F 02 A0 03 9F 70 01 0F E3 09 4F"))
    #expect(cut.count == 2)
    #expect(try cut[0].get().lifeCycle.rawValue == 0x0F)
    #expect(cut[1] == .failure(APDUError(.lengthExceedsInput, offset: 11)))
  }
}
