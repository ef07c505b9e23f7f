// SPDX-License-Identifier: Apache-2.0
import NFCWire
import Testing

@testable import ISO7816

/// A plain tree of a BER-TLV view, for #expect.
struct TLVNode: Equatable {
  var tag: String
  var offset: Int
  var length: Int
  var value: String?
  var children: [TLVNode]
}

func tree(_ view: borrowing BERTLVView) -> TLVNode {
  var children: [TLVNode] = []
  var iterator = view.children
  while let child = iterator.next() { children.append(tree(child)) }
  return TLVNode(
    tag: view.tag.hexString, offset: view.offset, length: view.length,
    value: view.isConstructed ? nil : Hex.string(view.value), children: children)
}

func decodeTLVs(_ bytes: [UInt8], options: BERTLVDecodingOptions = .strict) throws(APDUError)
  -> [TLVNode]
{
  let sequence = try BERTLVSequenceView(validating: bytes.span, options: options)
  var nodes: [TLVNode] = []
  var iterator = sequence.objects
  while let object = iterator.next() { nodes.append(tree(object)) }
  return nodes
}

@Suite("BERTLV")
struct BERTLVTests {
  /// An FCI as returned by SELECT of a GlobalPlatform ISD (GP 2.3 §11.9.3.1).
  static let fci = hex(
    "6F 10 84 08 A0 00 00 01 51 00 00 00 A5 04 9F 65 01 FF")

  @Test("nested FCI decodes as views with absolute offsets")
  func nested() throws {
    let nodes = try decodeTLVs(Self.fci)
    #expect(nodes.count == 1)
    let fci = nodes[0]
    #expect(fci.tag == "6f" && fci.offset == 0 && fci.length == 16)
    #expect(fci.children.map(\.tag) == ["84", "a5"])
    #expect(fci.children[0].value == "a000000151000000")
    #expect(
      fci.children[1].children[0] == TLVNode(tag: "9f65", offset: 14, length: 1, value: "ff", children: []))
    let view = try BERTLVView(validating: Self.fci.span.bytes)
    #expect(view.child(.dfName)?.length == 8)
    #expect(view.child(.proprietaryTemplate)?.child(.maximumCommandDataLength)?.valueOffset == 17)
    let absent = view.child(.applicationLabel) == nil
    #expect(absent)
  }

  @Test(
    "tags: class, constructed bit, number (ISO/IEC 8825-1 §8.1.2)",
    arguments: [
      (0x4F, "application", false, 15, 1),
      (0x6F, "application", true, 15, 1),
      (0x84, "contextSpecific", false, 4, 1),
      (0xA5, "contextSpecific", true, 5, 1),
      (0x9F7F, "contextSpecific", false, 127, 2),
      (0x5F2D, "application", false, 45, 2),
      (0xBF0C, "contextSpecific", true, 12, 2),
      (0xDF8101, "private", false, 129, 3),
      (0x1F8A01, "universal", false, 1281, 3),
    ] as [(UInt32, String, Bool, UInt32, Int)])
  func tags(raw: UInt32, tagClass: String, constructed: Bool, number: UInt32, count: Int) throws {
    let tag = try #require(BERTag(rawValue: raw))
    #expect(tag.tagClass.name == tagClass)
    #expect(tag.isConstructed == constructed)
    #expect(tag.number == number)
    #expect(tag.byteCount == count)
    let object =
      constructed
      ? BERTLV(tag: tag, children: [BERTLV(tag: .dfName, value: [1])])
      : BERTLV(tag: tag, value: [1])
    let bytes = try object.encodedBytes()
    #expect(try BERTLV(parsing: bytes) == object)
  }

  @Test(
    "malformed tag values are not tags",
    arguments: [0x00, 0x1F, 0x9F, 0x9F80_80, 0x9F80_01, 0x4F01] as [UInt32])
  func badTagValues(raw: UInt32) {
    #expect(BERTag(rawValue: raw) == nil)
  }

  @Test(
    "lengths: short and long forms",
    arguments: [(0, "00"), (127, "7f"), (128, "8180"), (255, "81ff"), (256, "820100"), (65536, "83010000")]
      as [(Int, String)])
  func lengths(length: Int, field: String) throws {
    #expect(Hex.string(BERLength.bytes(length)) == field)
    let object = BERTLV(tag: .applicationParameters, value: [UInt8](repeating: 7, count: length))
    let bytes = try object.encodedBytes()
    #expect(Hex.string(Array(bytes[1..<(1 + field.count / 2)])) == field)
    #expect(bytes.count == object.encodedCount)
    #expect(try BERTLV(parsing: bytes) == object)
  }

  @Test(
    "malformed input: code and offset",
    arguments: [
      ("9F", "truncatedTag", 1),
      ("9F 81", "truncatedTag", 2),
      ("00 01 00", "invalidTag", 0),
      ("84 00 FF 00", "invalidTag", 2),
      ("9F 80 01 01 00", "nonMinimalTag", 1),
      ("DF 81 81 01 01 00", "tagTooLong", 0),
      ("84", "truncatedLength", 1),
      ("84 82 01", "truncatedLength", 3),
      ("6F 80 84 00 00 00", "indefiniteLength", 1),
      ("84 85 00 00 00 00 01 00", "lengthTooLong", 1),
      ("84 81 05 01 02 03 04 05", "nonMinimalLength", 1),
      ("84 82 00 80", "nonMinimalLength", 1),
      ("84 05 01 02", "lengthExceedsInput", 1),
      ("6F 04 84 05 01 02", "lengthExceedsInput", 3),
      ("6F 02 84 81 00", "truncatedLength", 4),
    ] as [(String, String, Int)])
  func malformed(text: String, code: String, offset: Int) {
    do {
      _ = try decodeTLVs(hex(text))
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.code.name == code)
      #expect(error.offset == offset)
    }
  }

  @Test("lenient options accept non-minimal lengths, padding and four-byte tags")
  func lenient() throws {
    let nodes = try decodeTLVs(hex("00 84 81 02 01 02 FF FF DF 81 81 01 01 AA 00"), options: .lenient)
    #expect(nodes.map(\.tag) == ["84", "df818101"])
    #expect(nodes[0].value == "0102")
    #expect(nodes[1].offset == 8)
  }

  @Test("depth and count bounds")
  func bounds() throws {
    // 20 nested constructed objects: E0 xx E0 xx ... 84 00
    var bytes: [UInt8] = [0x84, 0x00]
    for _ in 0..<20 { bytes = [0xE0, UInt8(bytes.count)] + bytes }
    #expect(throws: APDUError(.nestingTooDeep, offset: 32)) { _ = try decodeTLVs(bytes) }
    let deep = BERTLVDecodingOptions(maximumDepth: 21)
    #expect(try decodeTLVs(bytes, options: deep).count == 1)
    let few = BERTLVDecodingOptions(maximumObjectCount: 2)
    #expect(throws: APDUError(.tooManyObjects, offset: 4)) {
      _ = try decodeTLVs(hex("84 00 84 00 84 00"), options: few)
    }
  }

  @Test("one object only: trailing bytes and empty input")
  func single() {
    #expect(throws: APDUError(.trailingData, offset: 2)) {
      _ = try BERTLV(parsing: hex("84 00 84 00"))
    }
    #expect(throws: APDUError(.truncatedTag, offset: 0)) { _ = try BERTLV(parsing: []) }
  }

  @Test("values are views into the input")
  func zeroCopy() throws {
    let bytes = Self.fci
    let view = try BERTLVView(validating: bytes.span.bytes)
    let address = view.child(.dfName)?.value.baseAddressForIdentity
    #expect(address == bytes.span.bytes.baseAddressForIdentity + 4)
  }

  @Test("every truncation of valid nested input is an error, never a trap")
  func truncation() {
    let vectors = [Self.fci, hex("E3 12 4F 07 A0 00 00 01 51 53 50 9F 70 01 07 C5 03 00 00 00")]
    for bytes in vectors {
      for cut in 1..<bytes.count {
        #expect(throws: APDUError.self) { _ = try decodeTLVs(Array(bytes[0..<cut])) }
      }
      #expect(throws: Never.self) { _ = try decodeTLVs(bytes) }
    }
  }

  @Test("owned model round trips both ways")
  func ownedRoundTrip() throws {
    let objects = try BERTLV.parseSequence(Self.fci + hex("9F 7F 02 12 34"))
    #expect(objects.count == 2)
    #expect(try BERTLV.encodedBytes(of: objects) == Self.fci + hex("9F 7F 02 12 34"))
    let built = BERTLV(
      tag: .fileControlInformation,
      children: [BERTLV(tag: .dfName, value: hex("A0 00 00 01 51 00 00 00"))])
    #expect(try built.encodedBytes() == hex("6F 0A 84 08 A0 00 00 01 51 00 00 00"))
  }

  @Test("seeded random trees round trip and random bytes never trap")
  func random() throws {
    var rng = SeededGenerator(seed: testSeed("BERTLV"))
    func randomObject(depth: Int) -> BERTLV {
      let tags: [UInt32] = [0x84, 0x4F, 0x9F70, 0xC5, 0xDF8101]
      let constructedTags: [UInt32] = [0x6F, 0xA5, 0xE3, 0xBF0C]
      if depth < 4 && Bool.random(using: &rng) {
        let tag = BERTag(rawValue: constructedTags.randomElement(using: &rng)!)!
        let count = Int.random(in: 0...3, using: &rng)
        return BERTLV(tag: tag, children: (0..<count).map { _ in randomObject(depth: depth + 1) })
      }
      let tag = BERTag(rawValue: tags.randomElement(using: &rng)!)!
      let length = [0, 1, 127, 128, 300].randomElement(using: &rng)!
      return BERTLV(tag: tag, value: (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }
    for _ in 0..<200 {
      let object = randomObject(depth: 0)
      let bytes = try object.encodedBytes()
      #expect(try BERTLV(parsing: bytes) == object)
    }
    for _ in 0..<3000 {
      let bytes =
        (0..<Int.random(in: 0...16, using: &rng)).map { _ in
          [0x00, 0x1F, 0x6F, 0x84, 0x81, 0x82, 0x80, 0x01, 0x02, 0x9F, 0xFF].randomElement(using: &rng)!
        } as [UInt8]
      if let objects = try? BERTLV.parseSequence(bytes) {
        #expect(try BERTLV.encodedBytes(of: objects) == bytes)
      }
    }
  }
}

@Suite("SimpleTLV")
struct SimpleTLVTests {
  @Test("short and three-byte lengths round trip", arguments: [0, 1, 254, 255, 256, 65535])
  func lengths(length: Int) throws {
    let object = SimpleTLV(tag: 0x01, value: [UInt8](repeating: 9, count: length))
    let bytes = try object.encodedBytes()
    #expect(bytes.count == object.encodedCount)
    #expect(bytes[1] == (length < 255 ? UInt8(length) : 0xFF))
    #expect(try SimpleTLV.parseSequence(bytes) == [object])
  }

  @Test(
    "malformed input: code and offset",
    arguments: [
      ("00 00", "invalidTag", 0),
      ("01 00 FF 00", "invalidTag", 2),
      ("01", "truncatedLength", 1),
      ("01 FF 00", "truncatedLength", 3),
      ("01 FF 00 05 00 00 00 00 00", "nonMinimalLength", 1),
      ("01 03 AA", "lengthExceedsInput", 1),
    ] as [(String, String, Int)])
  func malformed(text: String, code: String, offset: Int) {
    do {
      _ = try SimpleTLV.parseSequence(hex(text))
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.code.name == code)
      #expect(error.offset == offset)
    }
  }

  @Test("a sequence iterates with offsets")
  func sequence() throws {
    let bytes = hex("01 02 AA BB 7F 00 02 01 CC")
    let view = try SimpleTLVSequenceView(validating: bytes.span.bytes)
    #expect(view.objectCount == 3)
    var iterator = view.objects
    var offsets: [Int] = []
    while let object = iterator.next() { offsets.append(object.offset) }
    #expect(offsets == [0, 4, 6])
    #expect(throws: APDUError(.invalidTag, offset: 0)) {
      try SimpleTLV(tag: 0xFF, value: []).encodedBytes()
    }
  }
}

@Suite("SimpleTLV properties")
struct SimpleTLVPropertyTests {
  @Test("seeded random sequences round trip; random bytes never trap")
  func random() throws {
    var rng = SeededGenerator(seed: testSeed("SimpleTLV"))
    for _ in 0..<200 {
      let objects = (0..<Int.random(in: 0...5, using: &rng)).map { _ in
        SimpleTLV(
          tag: UInt8.random(in: 1...0xFE, using: &rng),
          value: (0..<[0, 1, 254, 255, 300].randomElement(using: &rng)!).map { _ in
            UInt8.random(in: 0...255, using: &rng)
          })
      }
      var bytes: [UInt8] = []
      for object in objects { bytes += try object.encodedBytes() }
      #expect(try SimpleTLV.parseSequence(bytes) == objects)
    }
    for _ in 0..<3000 {
      let bytes =
        (0..<Int.random(in: 0...10, using: &rng)).map { _ in
          [0x00, 0x01, 0x02, 0xFE, 0xFF].randomElement(using: &rng)!
        } as [UInt8]
      if let objects = try? SimpleTLV.parseSequence(bytes) {
        var again: [UInt8] = []
        for object in objects { again += try object.encodedBytes() }
        #expect(again == bytes)
      }
    }
  }
}
