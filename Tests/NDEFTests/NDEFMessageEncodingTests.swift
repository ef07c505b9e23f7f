// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

@Suite("NDEFMessage: encoding")
struct NDEFMessageEncodingTests {
  @Test func encodesCanonicalForms() throws {
    let uri = NDEFRecord(typeNameFormat: .wellKnown, type: [0x55], payload: hex("01 6E 66 63 2E 63 6F 6D"))
    #expect(try NDEFMessage(records: [uri]).encodedBytes() == hex("D1 01 08 55 01 6E 66 63 2E 63 6F 6D"))
    #expect(try NDEFMessage(records: [.empty]).encodedBytes() == hex("D0 00 00"))
    let withID = NDEFRecord(typeNameFormat: .wellKnown, type: [0x55], id: [0x69], payload: [0x00, 0x61])
    #expect(try NDEFMessage(records: [withID]).encodedBytes() == hex("D9 01 02 01 55 69 00 61"))
    let two = NDEFMessage(records: [
      NDEFRecord(typeNameFormat: .media, type: hex("61 2F 62"), payload: [0x58]),
      NDEFRecord(typeNameFormat: .external, type: hex("61 3A 62 2E 63")),
    ])
    #expect(try two.encodedBytes() == hex("92 03 01 61 2F 62 58  54 05 00 61 3A 62 2E 63"))
  }

  @Test func choosesShortRecordUpTo255Bytes() throws {
    for (length, header, headerCount) in [(255, 0xD5 as UInt8, 3), (256, 0xC5 as UInt8, 6)] {
      let record = NDEFRecord(typeNameFormat: .unknown, payload: [UInt8](repeating: 0xAB, count: length))
      let bytes = try NDEFMessage(records: [record]).encodedBytes()
      #expect(bytes.count == length + headerCount)
      #expect(bytes[0] == header)
      #expect(try NDEFMessage(records: [record]).encodedCount() == bytes.count)
    }
    let long = try NDEFMessage(records: [
      NDEFRecord(typeNameFormat: .unknown, payload: [UInt8](repeating: 0, count: 256))
    ]).encodedBytes()
    #expect(Array(long[0..<6]) == hex("C5 00 00 00 01 00"))
  }

  @Test func splitsIntoChunks() throws {
    let record = NDEFRecord(
      typeNameFormat: .media, type: Array("text/plain".utf8), payload: Array("abcdefgh".utf8))
    let bytes = try NDEFMessage(records: [record]).encodedBytes(
      options: NDEFEncodingOptions(maximumChunkPayloadSize: 3))
    #expect(
      bytes == hex("B2 0A 03 74 65 78 74 2F 70 6C 61 69 6E 61 62 63  36 00 03 64 65 66  56 00 02 67 68"))
    // Chunked with an id and a following record: ME only on the very last chunk.
    let message = NDEFMessage(records: [
      NDEFRecord(typeNameFormat: .unknown, id: hex("69 64"), payload: [0x41, 0x42]),
      NDEFRecord(typeNameFormat: .wellKnown, type: [0x54]),
    ])
    let chunked = try message.encodedBytes(options: NDEFEncodingOptions(maximumChunkPayloadSize: 1))
    #expect(chunked == hex("BD 00 01 02 69 64 41  16 00 01 42  51 01 00 54"))
    #expect(try NDEFMessage(parsing: chunked) == message)
  }

  struct Refusal: Sendable, CustomStringConvertible {
    var name: String
    var records: [NDEFRecord]
    var code: NDEFError.Code
    var index: Int?
    var description: String { name }
  }

  static let refusals: [Refusal] = [
    Refusal(name: "no records", records: [], code: .noRecords, index: nil),
    Refusal(
      name: "Empty with payload", records: [NDEFRecord(typeNameFormat: .empty, payload: [1])],
      code: .emptyRecordNotEmpty, index: 0),
    Refusal(
      name: "Empty with type", records: [.empty, NDEFRecord(typeNameFormat: .empty, type: [1])],
      code: .emptyRecordNotEmpty, index: 1),
    Refusal(
      name: "Empty with id", records: [NDEFRecord(typeNameFormat: .empty, id: [1])],
      code: .emptyRecordNotEmpty, index: 0),
    Refusal(
      name: "Unknown with type", records: [NDEFRecord(typeNameFormat: .unknown, type: [1])],
      code: .unexpectedType, index: 0),
    Refusal(
      name: "Unchanged", records: [NDEFRecord(typeNameFormat: .unchanged)], code: .unchangedOutsideChunk,
      index: 0),
    Refusal(
      name: "Reserved", records: [NDEFRecord(typeNameFormat: .reserved)], code: .reservedTypeNameFormat,
      index: 0),
    Refusal(
      name: "well-known without type", records: [NDEFRecord(typeNameFormat: .wellKnown)], code: .missingType,
      index: 0),
    Refusal(
      name: "type over 255",
      records: [NDEFRecord(typeNameFormat: .media, type: [UInt8](repeating: 0x61, count: 256))],
      code: .typeTooLong, index: 0),
    Refusal(
      name: "id over 255",
      records: [NDEFRecord(typeNameFormat: .unknown, id: [UInt8](repeating: 0x61, count: 256))],
      code: .idTooLong, index: 0),
  ]

  @Test(arguments: refusals)
  func refusesInvalidModels(_ refusal: Refusal) {
    #expect(throws: NDEFError(refusal.code, offset: 0, recordIndex: refusal.index)) {
      _ = try NDEFMessage(records: refusal.records).encodedBytes()
    }
  }

  @Test func refusesBadChunkSizeAndSmallBuffers() throws {
    let message = NDEFMessage(records: [NDEFRecord(typeNameFormat: .unknown, payload: [1, 2, 3])])
    #expect(throws: NDEFError(.invalidChunkSize, offset: 0)) {
      _ = try message.encodedBytes(options: NDEFEncodingOptions(maximumChunkPayloadSize: 0))
    }
    var storage = [UInt8](repeating: 0xEE, count: 6)
    let written = try storage.withUnsafeMutableBytes { buffer throws(NDEFError) in
      try message.encode(into: buffer)
    }
    #expect(written == 6)
    #expect(storage == hex("D5 00 03 01 02 03"))
    var small = [UInt8](repeating: 0xEE, count: 5)
    #expect(throws: NDEFError(.bufferTooSmall, offset: 0)) {
      _ = try small.withUnsafeMutableBytes { buffer throws(NDEFError) in try message.encode(into: buffer) }
    }
    #expect(small == [UInt8](repeating: 0xEE, count: 5))
  }
}

@Suite("NDEF round trips")
struct NDEFRoundTripTests {
  static func randomBytes(_ count: Int, _ rng: inout SeededGenerator) -> [UInt8] {
    (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
  }

  /// A random valid record: every encodable TNF, short and long payloads, ids.
  static func randomRecord(_ rng: inout SeededGenerator) -> NDEFRecord {
    let formats: [TypeNameFormat] = [.empty, .wellKnown, .media, .absoluteURI, .external, .unknown]
    let tnf = formats.randomElement(using: &rng)!
    if tnf == .empty { return .empty }
    let type = tnf == .unknown ? [] : randomBytes(Int.random(in: 1...12, using: &rng), &rng)
    let id = Bool.random(using: &rng) ? randomBytes(Int.random(in: 1...6, using: &rng), &rng) : []
    let payloadSize = [0, 1, 10, 255, 256, 300, 1000].randomElement(using: &rng)!
    return NDEFRecord(typeNameFormat: tnf, type: type, id: id, payload: randomBytes(payloadSize, &rng))
  }

  /// decode(encode(m)) == m over 10,000 generated messages, chunked and not; canonical
  /// encodings re-encode byte for byte.
  @Test func generatedMessagesRoundTrip() throws {
    let seed: UInt64 = 0x7A9_1DE5
    print("NDEF round trip seed: \(seed)")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<10_000 {
      let count = Int.random(in: 1...5, using: &rng)
      let message = NDEFMessage(records: (0..<count).map { _ in Self.randomRecord(&rng) })
      let canonical = try message.encodedBytes()
      #expect(try message.encodedCount() == canonical.count)
      let decoded = try NDEFMessage(parsing: canonical)
      #expect(decoded == message)
      #expect(try decoded.encodedBytes() == canonical)

      let chunkSize = Int.random(in: 1...400, using: &rng)
      let chunkOptions = NDEFEncodingOptions(maximumChunkPayloadSize: chunkSize)
      let chunked = try message.encodedBytes(options: chunkOptions)
      #expect(try message.encodedCount(options: chunkOptions) == chunked.count)
      let view = try NDEFMessageView(validating: chunked.span)
      #expect(view.recordCount == count)
      #expect(try NDEFMessage(view) == message)
    }
  }

  /// encode(decode(x)) == x for canonical inputs from the vectors.
  @Test(arguments: [
    "D0 00 00", "D1 01 08 55 01 6E 66 63 2E 63 6F 6D", "D9 01 02 01 55 69 00 61",
    "92 03 01 61 2F 62 58  54 05 00 61 3A 62 2E 63", "D3 05 00 75 72 6E 3A 78",
  ])
  func canonicalBytesRoundTrip(_ text: String) throws {
    let bytes = hex(text)
    #expect(try NDEFMessage(parsing: bytes).encodedBytes() == bytes)
  }
}
