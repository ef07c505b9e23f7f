// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

@Suite("NDEFMessageView: valid messages")
struct NDEFMessageViewValidTests {
  /// Hand-checked vectors: (bytes, records).
  static let vectors: [(String, [RecordSummary])] = [
    // Empty message: one Empty record (NDEF 1.0 §3.2.6), MB|ME|SR, TNF 0.
    ("D0 00 00", [RecordSummary(tnf: 0, type: [], id: [], payload: [])]),
    // URI record "nfc.com" with prefix 0x01 (http://www.): MB|ME|SR|TNF 1, type "U".
    (
      "D1 01 08 55 01 6E 66 63 2E 63 6F 6D",
      [RecordSummary(tnf: 1, type: [0x55], id: [], payload: hex("01 6E 66 63 2E 63 6F 6D"))]
    ),
    // Text record "Hello" in "en", UTF-8: status 0x02 (language length 2).
    (
      "D1 01 08 54 02 65 6E 48 65 6C 6C 6F",
      [RecordSummary(tnf: 1, type: [0x54], id: [], payload: hex("02 65 6E 48 65 6C 6C 6F"))]
    ),
    // A record with an id: IL set (0x08), ID_LENGTH 1, id "i".
    (
      "D9 01 02 01 55 69 00 61",
      [RecordSummary(tnf: 1, type: [0x55], id: [0x69], payload: [0x00, 0x61])]
    ),
    // Two records: MB on the first, ME on the second; media type then external type.
    (
      "92 03 01 61 2F 62 58  54 05 00 61 3A 62 2E 63",
      [
        RecordSummary(tnf: 2, type: hex("61 2F 62"), id: [], payload: [0x58]),
        RecordSummary(tnf: 4, type: hex("61 3A 62 2E 63"), id: [], payload: [], offset: 7),
      ]
    ),
    // Long record (SR clear, 4-byte PAYLOAD_LENGTH = 1), TNF Unknown without type.
    ("C5 00 00 00 00 01 7A", [RecordSummary(tnf: 5, type: [], id: [], payload: [0x7A])]),
    // Absolute URI record: TNF 3, type "urn:x", empty payload.
    ("D3 05 00 75 72 6E 3A 78", [RecordSummary(tnf: 3, type: hex("75 72 6E 3A 78"), id: [], payload: [])]),
    // A chunked media record: initial chunk (MB|CF|SR, "text/plain", "abc"), a middle chunk
    // (CF|SR|TNF 6, "def"), the terminating chunk (ME|SR|TNF 6, "gh") (§2.3.3).
    (
      "B2 0A 03 74 65 78 74 2F 70 6C 61 69 6E 61 62 63  36 00 03 64 65 66  56 00 02 67 68",
      [
        RecordSummary(
          tnf: 2, type: Array("text/plain".utf8), id: [], payload: Array("abcdefgh".utf8), chunks: 3)
      ]
    ),
    // A chunked unknown record with an id on the initial chunk, then a plain record.
    (
      "BD 00 01 02 69 64 41  56 00 01 42",
      [RecordSummary(tnf: 5, type: [], id: hex("69 64"), payload: [0x41, 0x42], chunks: 2)]
    ),
    // Chunk sequence followed by another record.
    (
      "B5 00 01 41  16 00 01 42  51 01 00 54",
      [
        RecordSummary(tnf: 5, type: [], id: [], payload: [0x41, 0x42], chunks: 2),
        RecordSummary(tnf: 1, type: [0x54], id: [], payload: [], offset: 8),
      ]
    ),
  ]

  @Test(arguments: vectors)
  func decodes(_ vector: (String, [RecordSummary])) throws {
    let (records, warnings) = try summarize(hex(vector.0))
    #expect(records == vector.1)
    #expect(warnings.isEmpty)
    // Lenient decoding of a valid message gives the same records and no warnings.
    let lenient = try summarize(hex(vector.0), options: .lenient)
    #expect(lenient.records == vector.1)
    #expect(lenient.warnings.isEmpty)
  }

  @Test func recordFieldsAndOffsets() throws {
    let bytes = hex("D9 01 02 01 55 69 00 61")
    let message = try NDEFMessageView(validating: bytes.span, baseOffset: 100)
    guard let record = message.firstRecord else {
      Issue.record("no record")
      return
    }
    #expect(record.header.messageBegin && record.header.messageEnd)
    #expect(record.header.shortRecord && record.header.idLengthPresent)
    #expect(!record.header.chunked && !record.isChunked)
    #expect(record.typeNameFormat == .wellKnown)
    #expect(record.offset == 100)
    #expect(record.typeOffset == 104)
    #expect(record.idOffset == 105)
    #expect(record.payloadOffset == 106)
    #expect(record.payloadLength == 2)
    #expect(record.bytes.byteCount == 8)
    let isURI = record.hasType(.wellKnown, [0x55])
    let isText = record.hasType(.wellKnown, [0x54])
    #expect(isURI)
    #expect(!isText)
  }

  @Test func chunksAreIteratedWithoutCopying() throws {
    let bytes = hex("B2 0A 03 74 65 78 74 2F 70 6C 61 69 6E 61 62 63  36 00 03 64 65 66  56 00 02 67 68")
    let base = bytes.span.bytes.baseAddressForIdentity
    let message = try NDEFMessageView(validating: bytes.span)
    guard let record = message.firstRecord else {
      Issue.record("no record")
      return
    }
    #expect(record.payloadLength == 8)
    var offsets: [Int] = []
    var payloadAddresses: [UInt] = []
    var chunks = record.chunks
    while let chunk = chunks.next() {
      offsets.append(chunk.offset)
      payloadAddresses.append(chunk.payload.baseAddressForIdentity)
    }
    #expect(offsets == [0, 16, 22])
    #expect(payloadAddresses == [base + 13, base + 19, base + 25])
    #expect(throws: NDEFError(.payloadExceedsLimit, offset: 0)) {
      _ = try record.assembledPayload(maximumSize: 7)
    }
    #expect(try record.assembledPayload(maximumSize: 8) == Array("abcdefgh".utf8))
  }

  @Test func viewsPointIntoTheInput() throws {
    let bytes = hex("D1 01 08 55 01 6E 66 63 2E 63 6F 6D")
    let message = try NDEFMessageView(validating: bytes.span)
    guard let record = message.firstRecord else {
      Issue.record("no record")
      return
    }
    let base = bytes.span.bytes.baseAddressForIdentity
    #expect(message.bytes.baseAddressForIdentity == base)
    #expect(record.type.baseAddressForIdentity == base + 3)
    #expect(record.payload.baseAddressForIdentity == base + 4)
  }

  @Test func decodesFromEveryInputKind() throws {
    let array = hex("00 D1 01 01 54 41 FF")
    let slice = array[1..<6]
    let fromSlice = try NDEFMessageView(validating: slice.span)
    #expect(fromSlice.recordCount == 1)
    let fromBuffer = try array.withUnsafeBytes { buffer throws(NDEFError) in
      let message = try NDEFMessageView(
        validating: UnsafeRawBufferPointer(rebasing: buffer[1..<6]).bytes)
      return message.recordCount
    }
    #expect(fromBuffer == 1)
    let owned = try NDEFMessage(parsing: Array(slice))
    #expect(owned.records == [NDEFRecord(typeNameFormat: .wellKnown, type: [0x54], payload: [0x41])])
  }

  @Test func recordLimitIsEnforced() throws {
    // Three Unknown records: MB, -, ME.
    let three = hex("95 00 00 15 00 00 55 00 00")
    #expect(try NDEFMessageView(validating: three.span).recordCount == 3)
    let options = NDEFDecodingOptions(maximumRecordCount: 2)
    #expect(throws: NDEFError(.tooManyRecords, offset: 6)) {
      _ = try NDEFMessageView(validating: three.span, options: options)
    }
  }
}

@Suite("NDEFMessageView: strict rules and lenient results")
struct NDEFMessageViewRuleTests {
  struct Case: CustomStringConvertible, Sendable {
    var name: String
    var bytes: String
    var code: NDEFError.Code
    var offset: Int
    /// Lenient: the warning codes expected, or nil when lenient decoding also fails.
    var lenientWarnings: [NDEFError.Code]?
    var lenientRecords: Int = 1
    var description: String { name }
  }

  static let cases: [Case] = [
    Case(name: "empty input", bytes: "", code: .emptyInput, offset: 0, lenientWarnings: nil),
    Case(name: "header only", bytes: "D1", code: .truncatedHeader, offset: 1, lenientWarnings: nil),
    Case(name: "no payload length", bytes: "D1 01", code: .truncatedHeader, offset: 2, lenientWarnings: nil),
    Case(
      name: "short 4-byte payload length", bytes: "C1 01 00 00", code: .truncatedHeader, offset: 2,
      lenientWarnings: nil),
    Case(name: "no id length", bytes: "D9 01 00", code: .truncatedHeader, offset: 3, lenientWarnings: nil),
    Case(
      name: "type past end", bytes: "D1 02 00 55", code: .typeLengthExceedsInput, offset: 1,
      lenientWarnings: nil),
    Case(
      name: "id past end", bytes: "D9 01 00 02 55 69", code: .idLengthExceedsInput, offset: 3,
      lenientWarnings: nil),
    Case(
      name: "payload past end", bytes: "D1 01 05 55 00 01", code: .payloadLengthExceedsInput, offset: 2,
      lenientWarnings: nil),
    Case(
      name: "huge long payload length", bytes: "C1 01 FF FF FF FF 55", code: .payloadLengthExceedsInput,
      offset: 2, lenientWarnings: nil),
    Case(
      name: "second record truncated", bytes: "91 01 00 54 51 01 03 54 00", code: .payloadLengthExceedsInput,
      offset: 6, lenientWarnings: nil),
    Case(
      name: "MB missing", bytes: "51 01 00 54", code: .missingMessageBegin, offset: 0,
      lenientWarnings: [.missingMessageBegin]),
    Case(
      name: "MB on second record", bytes: "91 01 00 54 D1 01 00 54", code: .unexpectedMessageBegin, offset: 4,
      lenientWarnings: [.unexpectedMessageBegin], lenientRecords: 2),
    Case(
      name: "ME missing", bytes: "91 01 00 54", code: .missingMessageEnd, offset: 4,
      lenientWarnings: [.missingMessageEnd]),
    Case(
      name: "ME missing after two", bytes: "91 01 00 54 11 01 00 54", code: .missingMessageEnd, offset: 8,
      lenientWarnings: [.missingMessageEnd], lenientRecords: 2),
    Case(
      name: "bytes after ME", bytes: "D1 01 00 54 00 00", code: .dataAfterMessageEnd, offset: 4,
      lenientWarnings: [.dataAfterMessageEnd]),
    Case(
      name: "record after ME", bytes: "D1 01 00 54 51 01 00 54", code: .dataAfterMessageEnd, offset: 4,
      lenientWarnings: [.dataAfterMessageEnd]),
    Case(
      name: "Empty with type", bytes: "D0 01 00 54", code: .emptyRecordNotEmpty, offset: 0,
      lenientWarnings: [.emptyRecordNotEmpty]),
    Case(
      name: "Empty with payload", bytes: "D0 00 01 00", code: .emptyRecordNotEmpty, offset: 0,
      lenientWarnings: [.emptyRecordNotEmpty]),
    Case(
      name: "Empty with id", bytes: "D8 00 00 01 69", code: .emptyRecordNotEmpty, offset: 0,
      lenientWarnings: [.emptyRecordNotEmpty]),
    Case(
      name: "Empty chunked", bytes: "B0 00 00 56 00 00", code: .chunkedEmptyRecord, offset: 0,
      lenientWarnings: [.chunkedEmptyRecord]),
    Case(
      name: "Unknown with type", bytes: "D5 01 00 54", code: .unexpectedType, offset: 0,
      lenientWarnings: [.unexpectedType]),
    Case(
      name: "Unchanged alone", bytes: "D6 00 00", code: .unchangedOutsideChunk, offset: 0,
      lenientWarnings: [.unchangedOutsideChunk]),
    Case(
      name: "Reserved TNF", bytes: "D7 00 00", code: .reservedTypeNameFormat, offset: 0,
      lenientWarnings: [.reservedTypeNameFormat]),
    Case(
      name: "well-known without type", bytes: "D1 00 00", code: .missingType, offset: 0,
      lenientWarnings: [.missingType]),
    Case(
      name: "media without type", bytes: "D2 00 00", code: .missingType, offset: 0,
      lenientWarnings: [.missingType]),
    Case(
      name: "absolute URI without type", bytes: "D3 00 00", code: .missingType, offset: 0,
      lenientWarnings: [.missingType]),
    Case(
      name: "external without type", bytes: "D4 00 00", code: .missingType, offset: 0,
      lenientWarnings: [.missingType]),
    Case(
      name: "chunk continuation not Unchanged", bytes: "B5 00 01 41 55 00 01 42",
      code: .chunkContinuationNotUnchanged, offset: 4, lenientWarnings: [.chunkContinuationNotUnchanged]),
    Case(
      name: "chunk continuation with type", bytes: "B5 00 01 41 56 01 01 54 42",
      code: .chunkContinuationHasType, offset: 4, lenientWarnings: [.chunkContinuationHasType]),
    Case(
      name: "chunk continuation with id", bytes: "B5 00 01 41 5E 00 01 01 69 42",
      code: .chunkContinuationHasID, offset: 4, lenientWarnings: [.chunkContinuationHasID]),
    Case(
      name: "chunk with ME", bytes: "F5 00 01 41", code: .messageEndInChunk, offset: 0,
      lenientWarnings: [.messageEndInChunk]),
    Case(
      name: "middle chunk with ME", bytes: "B5 00 01 41 76 00 01 42", code: .messageEndInChunk, offset: 4,
      lenientWarnings: [.messageEndInChunk]),
    Case(
      name: "chunk sequence never terminated", bytes: "B5 00 01 41 36 00 01 42", code: .missingMessageEnd,
      offset: 8, lenientWarnings: [.missingMessageEnd]),
    Case(
      name: "nested chunk start", bytes: "B5 00 01 41 35 00 01 42 56 00 00",
      code: .chunkContinuationNotUnchanged, offset: 4, lenientWarnings: [.chunkContinuationNotUnchanged]),
  ]

  @Test(arguments: cases)
  func strictRejectsAndLenientReports(_ testCase: Case) throws {
    let bytes = hex(testCase.bytes)
    let error = strictError(bytes)
    #expect(error?.code == testCase.code, "\(testCase.name)")
    #expect(error?.offset == testCase.offset, "\(testCase.name)")
    if let expected = testCase.lenientWarnings {
      let result = try summarize(bytes, options: .lenient)
      #expect(result.warnings.map(\.code) == expected)
      #expect(result.records.count == testCase.lenientRecords)
      if let first = result.warnings.first {
        #expect(first.offset == testCase.offset)
      }
    } else {
      #expect(throws: NDEFError.self) { _ = try summarize(bytes, options: .lenient) }
    }
  }

  @Test func lenientReadsReservedAndStrayUnchangedAsUnknown() throws {
    let reserved = try summarize(hex("D7 00 01 41"), options: .lenient)
    #expect(reserved.records.map(\.tnf) == [5])
    let unchanged = try summarize(hex("D6 00 01 41"), options: .lenient)
    #expect(unchanged.records.map(\.tnf) == [5])
  }

  @Test func lenientIgnoresTrailingBytesInTheMessageView() throws {
    let bytes = hex("D1 01 00 54 00 00 00")
    let message = try NDEFMessageView(validating: bytes.span, options: .lenient)
    #expect(message.bytes.byteCount == 4)
    #expect(message.recordCount == 1)
  }

  @Test func errorsDescribeThemselves() {
    let error = NDEFError(.missingMessageBegin, offset: 7)
    #expect(error.description == "missingMessageBegin at offset 7: the first record does not have MB set")
    let encoding = NDEFError(.typeTooLong, offset: 0, recordIndex: 2)
    #expect(encoding.description == "typeTooLong in record 2: the type is longer than 255 bytes")
  }
}

@Suite("NDEFMessageView: truncation")
struct NDEFTruncationTests {
  static let messages = NDEFMessageViewValidTests.vectors.map(\.0)

  /// Every proper prefix of a valid message is rejected with an error whose offset lies
  /// within the prefix (or at its end); none traps.
  @Test(arguments: messages)
  func everyPrefixFails(_ text: String) {
    let bytes = hex(text)
    for length in 0..<bytes.count {
      let prefix = Array(bytes[0..<length])
      let error = strictError(prefix)
      #expect(error != nil, "prefix \(length) of \(text)")
      if let error { #expect(error.offset <= length) }
    }
  }
}
