// SPDX-License-Identifier: Apache-2.0
import NFCWire
import Testing

/// `TextValidation.firstInvalidUTF8` (with its eight-bytes-at-a-time ASCII path) against a
/// byte-at-a-time reference of Unicode §3.9 table 3-7 and against the standard library.
@Suite("TextValidation")
struct TextValidationTests {
  /// Table 3-7, one byte at a time: the index of the first byte not in a well-formed sequence.
  static func reference(_ bytes: [UInt8]) -> Int? {
    var index = 0
    while index < bytes.count {
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let ranges: [ClosedRange<UInt8>]
      switch lead {
      case 0xC2...0xDF: ranges = [0x80...0xBF]
      case 0xE0: ranges = [0xA0...0xBF, 0x80...0xBF]
      case 0xE1...0xEC, 0xEE...0xEF: ranges = [0x80...0xBF, 0x80...0xBF]
      case 0xED: ranges = [0x80...0x9F, 0x80...0xBF]
      case 0xF0: ranges = [0x90...0xBF, 0x80...0xBF, 0x80...0xBF]
      case 0xF1...0xF3: ranges = [0x80...0xBF, 0x80...0xBF, 0x80...0xBF]
      case 0xF4: ranges = [0x80...0x8F, 0x80...0xBF, 0x80...0xBF]
      default: return index
      }
      guard index + ranges.count < bytes.count else { return index }
      for (k, range) in ranges.enumerated() where !range.contains(bytes[index + 1 + k]) { return index }
      index += 1 + ranges.count
    }
    return nil
  }

  @Test func handCheckedVectors() {
    let cases: [([UInt8], Int?)] = [
      (Array("https://example.com/a".utf8), nil),
      (Array("exactly8".utf8) + [0xFF], 8),
      (Array("sixteen bytes ok".utf8) + [0xC3, 0xA9], nil),  // é after two ASCII words
      (Array("0123456".utf8) + [0xC3, 0xA9] + Array("abcdefgh".utf8), nil),
      (Array("01234567".utf8) + [0xE0, 0x80, 0x80], 8),  // overlong three-byte form
      (Array("ab".utf8) + [0xED, 0xA0, 0x80], 2),  // a surrogate
      (Array("abcdefghij".utf8) + [0xF4, 0x90, 0x80, 0x80], 10),  // above U+10FFFF
      (Array("abcdefgh".utf8) + [0xF0, 0x9F, 0x98], 8),  // truncated at the end
      ([0x80] + Array("abcdefgh".utf8), 0),
    ]
    for (bytes, expected) in cases {
      #expect(TextValidation.firstInvalidUTF8(bytes.span.bytes) == expected, "\(bytes)")
      #expect(Self.reference(bytes) == expected, "\(bytes)")
    }
  }

  @Test func agreesWithReferenceAndStandardLibrary() {
    // Mostly ASCII runs of every length around the 8-byte word, with multi-byte and bad
    // bytes dropped in at every alignment.
    var state: UInt64 = 0x7461_7077_6972_6555
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    let pieces: [[UInt8]] = [
      [0xC3, 0xA9], [0xE2, 0x82, 0xAC], [0xF0, 0x9F, 0x98, 0x80], [0xFF], [0xC0, 0x80], [0xED, 0xBF, 0xBF],
      [0xE0, 0x9F, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0x80], [0xE1],
    ]
    var invalid = 0
    for _ in 0..<5000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int(next() % 4) {
        bytes += (0..<Int(next() % 20)).map { _ in UInt8(0x20 + next() % 0x5F) }
        if next() % 3 == 0 { bytes += pieces[Int(next() % UInt64(pieces.count))] }
      }
      let found = TextValidation.firstInvalidUTF8(bytes.span.bytes)
      #expect(found == Self.reference(bytes), "\(bytes)")
      #expect((found == nil) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
      if found != nil { invalid += 1 }
    }
    #expect(invalid > 100 && invalid < 4900)
  }
}
