// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

/// `NDEFMessageView.checkedRecords`: one pass that validates while it iterates, agreeing
/// with `init(validating:)` on every input.
@Suite struct CheckedRecordIteratorTests {
  /// Every record the iterator hands out, then its error (or nil).
  static func run(_ bytes: [UInt8], maximumRecordCount: Int = 1 << 20) -> (
    records: [RecordSummary], error: NDEFError?
  ) {
    var iterator = NDEFMessageView.checkedRecords(bytes.span.bytes, maximumRecordCount: maximumRecordCount)
    var records: [RecordSummary] = []
    do throws(NDEFError) {
      while let record = try iterator.next() {
        records.append(
          RecordSummary(
            tnf: record.typeNameFormat.rawValue, type: record.type.copiedBytes(), id: record.id.copiedBytes(),
            payload: try record.assembledPayload(), chunks: record.chunkCount, offset: record.offset))
      }
      return (records, nil)
    } catch {
      return (records, error)
    }
  }

  @Test func validMessagesYieldTheValidatedRecords() throws {
    // Two short records (Text "hi" en, URI https://a.b) and a message with one chunked
    // record (three chunks of a text/plain payload).
    let twoRecords = hex("91 01 05 54 02 65 6E 68 69  51 01 04 55 04 61 2E 62")
    let chunked = hex("B2 0A 02 74 65 78 74 2F 70 6C 61 69 6E 61 62  36 00 02 63 64  56 00 01 65")
    for bytes in [twoRecords, chunked] {
      let expected = try summarize(bytes).records
      let (records, error) = Self.run(bytes)
      #expect(error == nil)
      #expect(records == expected)
    }
    #expect(Self.run(chunked).records.first?.payload == Array("abcde".utf8))
    #expect(Self.run(chunked).records.first?.chunks == 3)
    #expect(Self.run(twoRecords).records.map(\.offset) == [0, 9])
  }

  @Test func errorsMatchStrictValidation() {
    let cases: [([UInt8], NDEFError.Code, Int)] = [
      ([], .emptyInput, 0),
      (hex("91 01 01 54 00"), .missingMessageEnd, 5),  // MB only, bytes end
      (hex("D1 01 01 54 00 00"), .dataAfterMessageEnd, 5),
      (hex("D1 01 09 54 00"), .payloadLengthExceedsInput, 2),
      (hex("D1 00 01 00"), .missingType, 0),
      (hex("91 01 01 54 00  91 01 01 54 00"), .unexpectedMessageBegin, 5),
      (hex("B2 01 01 74 61  52 01 01 74 62"), .chunkContinuationNotUnchanged, 5),
    ]
    for (bytes, code, offset) in cases {
      let (_, error) = Self.run(bytes)
      #expect(error == NDEFError(code, offset: offset), "\(bytes)")
      #expect(strictError(bytes) == NDEFError(code, offset: offset), "\(bytes)")
    }
    // The record count bound, at the first record over it.
    let three = hex("91 01 01 54 00  11 01 01 54 00  51 01 01 54 00")
    #expect(Self.run(three, maximumRecordCount: 2).error == NDEFError(.tooManyRecords, offset: 10))
    #expect(Self.run(three, maximumRecordCount: 2).records.count == 2)
  }

  @Test func stopsAfterAnError() {
    var iterator = NDEFMessageView.checkedRecords(hex("D1 01 09 54 00").span.bytes)
    #expect(throws: NDEFError.self) { _ = try iterator.next() }
    #expect((try? iterator.next()) == nil)
  }

  @Test func agreesWithValidationOnMutatedMessages() throws {
    var generator = SeededGenerator(seed: 0x5EED_C4EC)
    let seeds = [
      hex("91 01 05 54 02 65 6E 68 69  51 01 04 55 04 61 2E 62"),
      hex("B2 0A 02 74 65 78 74 2F 70 6C 61 69 6E 61 62  36 00 02 63 64  56 00 01 65"),
      hex("D9 01 01 02 55 69 64 04"),
    ]
    var failures = 0
    for round in 0..<3000 {
      var bytes = seeds[round % seeds.count]
      for _ in 0..<(1 + Int(generator.next() % 3)) {
        let index = Int(generator.next() % UInt64(bytes.count))
        switch generator.next() % 3 {
        case 0: bytes[index] = UInt8(truncatingIfNeeded: generator.next())
        case 1: bytes.removeSubrange(index...)
        default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: index)
        }
        if bytes.isEmpty { break }
      }
      let strict = strictError(bytes)
      let (records, error) = Self.run(bytes)
      #expect(error == strict, "\(Hex.string(bytes))")
      if strict == nil { #expect(records == (try summarize(bytes).records)) } else { failures += 1 }
    }
    // Mutations produce both valid and invalid messages.
    #expect(failures > 300 && failures < 2900)
  }

  /// The tight loop for chunked records (issue #35) against strict validation: chunk
  /// sequences in the middle of a message, with an ID, with a long (SR clear) chunk and at the
  /// end, mutated.
  @Test func agreesWithValidationOnMutatedChunkSequences() throws {
    var generator = SeededGenerator(seed: 0x35_C4_CE)
    let seeds = [
      // URI, then text/plain-like "T" with ID "i" in three chunks, then URI with ME.
      hex("91 01 01 55 00  3A 01 02 01 54 69 61 62  36 00 02 63 64  16 00 01 65  51 01 01 55 00"),
      // A chunked first record whose terminating chunk has a 4-octet length, then ME.
      hex("B2 01 01 54 61  06 00 00 00 00 02 66 67  51 01 01 55 00"),
      // A chunked last record (ME on its terminating chunk only).
      hex("91 01 01 55 00  32 01 01 54 61  36 00 01 62  56 00 01 63"),
    ]
    var failures = 0
    for round in 0..<3000 {
      var bytes = seeds[round % seeds.count]
      if round >= seeds.count {
        for _ in 0..<(1 + Int(generator.next() % 3)) {
          let index = Int(generator.next() % UInt64(bytes.count))
          switch generator.next() % 3 {
          case 0: bytes[index] = UInt8(truncatingIfNeeded: generator.next())
          case 1: bytes.removeSubrange(index...)
          default: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: index)
          }
          if bytes.isEmpty { break }
        }
      }
      let strict = strictError(bytes)
      let (records, error) = Self.run(bytes)
      #expect(error == strict, "\(Hex.string(bytes))")
      if strict == nil { #expect(records == (try summarize(bytes).records)) } else { failures += 1 }
      if round < seeds.count { #expect(strict == nil && records.count == [3, 2, 2][round], "seed \(round)") }
    }
    #expect(failures > 300 && failures < 2900)
  }
}
