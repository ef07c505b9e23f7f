// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

/// Runs `write` over an output span of `capacity` bytes; returns what it wrote, or the error.
func written(capacity: Int, prefill: Int = 0, _ write: (inout OutputSpan<UInt8>) throws(NDEFError) -> Void)
  -> Result<[UInt8], NDEFError>
{
  var failure: NDEFError?
  let bytes = [UInt8](capacity: capacity) { (output: inout OutputSpan<UInt8>) in
    for _ in 0..<prefill { output.append(0xAA) }
    do throws(NDEFError) {
      try write(&output)
    } catch {
      failure = error
    }
  }
  if let failure { return .failure(failure) }
  return .success(Array(bytes.dropFirst(prefill)))
}

/// A Text payload: status byte (bit 7 for UTF-16), language `en`, then `text`.
func textPayload(_ text: [UInt8], utf16: Bool = false) -> [UInt8] {
  [utf16 ? 0x82 : 0x02, 0x65, 0x6E] + text
}

@Suite("URI and Text records written into a caller's buffer")
struct RecordUTF8WritingTests {
  @Test func everyIdentifierCodeWritesItsPrefix() throws {
    for code in 0..<0x24 {
      let payload: [UInt8] = [UInt8(code), 0x78, 0xC3, 0xA9]
      let view = try URIRecordView(validating: payload.span.bytes)
      let expected = Array(view.uri.utf8)
      #expect(view.uriUTF8Count == expected.count)
      #expect(
        try written(capacity: expected.count) { (o: inout OutputSpan<UInt8>) throws(NDEFError) in
          try view.writeURI(into: &o)
        }.get() == expected)
    }
  }

  @Test func uriTooSmallBufferWritesNothing() throws {
    let payload: [UInt8] = [0x04, 0x61, 0x62]
    let view = try URIRecordView(validating: payload.span.bytes)
    #expect(view.uriUTF8Count == 10)  // "https://ab"
    let result = written(capacity: 9) { (o: inout OutputSpan<UInt8>) throws(NDEFError) in
      try view.writeURI(into: &o)
      Issue.record("wrote into a buffer one byte short")
    }
    #expect(result == .failure(NDEFError(.bufferTooSmall, offset: 0)))
    // Room for the URI only after what the span already holds: the offset counts those.
    let after = written(capacity: 12, prefill: 3) { (o: inout OutputSpan<UInt8>) throws(NDEFError) in
      try view.writeURI(into: &o)
    }
    #expect(after == .failure(NDEFError(.bufferTooSmall, offset: 3)))
    // Exactly enough room, after bytes already written.
    let exact = written(capacity: 13, prefill: 3) { (o: inout OutputSpan<UInt8>) throws(NDEFError) in
      try view.writeURI(into: &o)
    }
    #expect(exact == .success(Array("https://ab".utf8)))
  }

  @Test func uriRawBufferReturnsCount() throws {
    let payload: [UInt8] = [0x01, 0x6E, 0x66, 0x63]
    var buffer = [UInt8](repeating: 0, count: 32)
    let count = try buffer.withUnsafeMutableBytes { raw throws(NDEFError) in
      try URIRecordView(validating: payload.span.bytes).writeURI(into: raw)
    }
    #expect(Array(buffer[..<count]) == Array("http://www.nfc".utf8))
    var small = [UInt8](repeating: 0, count: 13)
    #expect(throws: NDEFError(.bufferTooSmall, offset: 0)) {
      _ = try small.withUnsafeMutableBytes { raw throws(NDEFError) in
        try URIRecordView(validating: payload.span.bytes).writeURI(into: raw)
      }
    }
  }

  @Test func lenientURIRepairsAsTheString() throws {
    for rest in [hex("61 FF 62"), hex("E2 82"), hex("F0 9F 98"), hex("ED A0 80 61"), hex("C0 AF")] {
      let payload = ([0x03] + rest)
      let view = try URIRecordView(validating: payload.span.bytes, options: .lenient)
      let expected = Array(view.uri.utf8)
      #expect(view.uriUTF8Count == expected.count)
      #expect(
        try written(capacity: 64) { (o: inout OutputSpan<UInt8>) throws(NDEFError) in
          try view.writeURI(into: &o)
        }.get() == expected)
    }
  }

  @Test func uriRoundTripsThroughTheOwnedModel() throws {
    for uri in ["https://www.example.com/ä?q=1", "tel:+358", "geo:1,2", "urn:nfc:sn:😀", ""] {
      let payload = URIRecord(uri).payload
      let view = try URIRecordView(validating: payload.span.bytes)
      #expect(
        try written(capacity: view.uriUTF8Count) { (o: inout OutputSpan<UInt8>) throws(NDEFError) in
          try view.writeURI(into: &o)
        }.get() == Array(uri.utf8))
    }
  }

  @Test func textInEveryEncodingWritesItsUTF8() throws {
    let cases: [([UInt8], Bool)] = [
      (Array("Hello, wörld".utf8), false),
      (hex("FE FF 00 48 00 E9 D8 3D DE 00"), true),  // big-endian, byte-order mark, a pair
      (hex("FF FE 48 00 E9 00 3D D8 00 DE"), true),  // little-endian, byte-order mark
      (hex("00 48 00 69"), true),  // no mark: big-endian
      ([], false), ([], true),
    ]
    for (text, utf16) in cases {
      let payload = textPayload(text, utf16: utf16)
      let view = try TextRecordView(validating: payload.span.bytes)
      let expected = Array(view.string.utf8)
      #expect(view.utf8Count == expected.count)
      #expect(
        try written(capacity: expected.count) { (o: inout OutputSpan<UInt8>) throws(NDEFError) in
          try view.writeUTF8(into: &o)
        }.get() == expected)
    }
  }

  @Test func textTooSmallBufferWritesNothing() throws {
    for (text, utf16) in [(Array("abc".utf8), false), (hex("00 61 00 62 00 63"), true)] {
      let payload = textPayload(text, utf16: utf16)
      let view = try TextRecordView(validating: payload.span.bytes)
      #expect(view.utf8Count == 3)
      let result = written(capacity: 2) { (o: inout OutputSpan<UInt8>) throws(NDEFError) in
        try view.writeUTF8(into: &o)
        Issue.record("wrote into a buffer one byte short")
      }
      #expect(result == .failure(NDEFError(.bufferTooSmall, offset: 0)))
      var buffer = [UInt8](repeating: 0, count: 2)
      #expect(throws: NDEFError(.bufferTooSmall, offset: 0)) {
        _ = try buffer.withUnsafeMutableBytes { raw throws(NDEFError) in
          try TextRecordView(validating: payload.span.bytes).writeUTF8(into: raw)
        }
      }
      #expect(buffer == [0, 0])
    }
  }

  @Test func textRoundTripsThroughTheOwnedModel() throws {
    var rng = SeededGenerator(seed: 0x21B)
    let alphabet: [Character] = ["a", "Z", " ", "é", "ß", "€", "中", "😀", "\u{10FFFF}", "\u{0}"]
    for round in 0..<200 {
      let text = String(
        (0..<Int.random(in: 0...24, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! })
      let encoding: TextEncoding = round % 2 == 0 ? .utf8 : .utf16
      let payload = try TextRecord(language: "en", text: text, encoding: encoding).payload()
      let view = try TextRecordView(validating: payload.span.bytes)
      var buffer = [UInt8](repeating: 0, count: view.utf8Count)
      let count = try buffer.withUnsafeMutableBytes { raw throws(NDEFError) in
        try TextRecordView(validating: payload.span.bytes).writeUTF8(into: raw)
      }
      #expect(count == text.utf8.count, "seed 0x21B round \(round)")
      #expect(buffer == Array(text.utf8), "seed 0x21B round \(round)")
    }
  }

  /// Random bytes accepted in lenient mode: the written UTF-8 equals the repaired `String`'s.
  @Test func lenientTextRepairsAsTheString() throws {
    var rng = SeededGenerator(seed: 0x21C)
    // Bytes that make ill-formed sequences likely: leads, continuations, surrogate halves.
    let pool: [UInt8] = [
      0x41, 0x80, 0xBF, 0xC2, 0xC0, 0xE0, 0xA0, 0xED, 0x9F, 0xF0, 0x90, 0xF4, 0x8F, 0xF5, 0xFF,
    ]
    for round in 0..<500 {
      let text = (0..<Int.random(in: 0...16, using: &rng)).map { _ in pool.randomElement(using: &rng)! }
      let utf16 = round % 3 == 0
      let payload = textPayload(text, utf16: utf16)
      let view = try TextRecordView(validating: payload.span.bytes, options: .lenient)
      let expected = Array(view.string.utf8)
      #expect(view.utf8Count == expected.count, "seed 0x21C round \(round)")
      #expect(
        try written(capacity: expected.count) { (o: inout OutputSpan<UInt8>) throws(NDEFError) in
          try view.writeUTF8(into: &o)
        }.get() == expected, "seed 0x21C round \(round)")
    }
  }
}
