// SPDX-License-Identifier: Apache-2.0
/// Hex text to bytes and back, for URLs and the key table (standard library only).
enum HexDigits {
  /// The bytes `text` spells, two hex digits a byte, both cases accepted.
  ///
  /// - Parameters:
  ///   - text: the digits (UTF-8 bytes).
  ///   - base: the absolute offset of `text`'s first byte in the whole input, for errors.
  /// - Throws: ``TagTrustError/Code/invalidHex`` at the first character that is not a hex
  ///   digit, or at `base` when the count of digits is odd.
  static func decode(_ text: some Collection<UInt8>, base: Int = 0) throws(TagTrustError) -> [UInt8] {
    guard text.count % 2 == 0 else { throw TagTrustError(.invalidHex, offset: base) }
    var out: [UInt8] = []
    out.reserveCapacity(text.count / 2)
    var high: UInt8 = 0
    var position = 0
    for character in text {
      guard let nibble = nibble(character) else { throw TagTrustError(.invalidHex, offset: base + position) }
      if position % 2 == 0 { high = nibble } else { out.append(high << 4 | nibble) }
      position += 1
    }
    return out
  }

  /// The bytes of a hex string literal from this module's own tables (checked by the tests);
  /// empty if it is not hex.
  static func literal(_ text: String) -> [UInt8] {
    (try? decode(Array(text.utf8))) ?? []
  }

  /// `bytes` as uppercase hex digits, two a byte.
  static func encode(_ bytes: some Sequence<UInt8>) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    for byte in bytes {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// Checks that `range` of `text` is an even count of hex digits.
  ///
  /// - Throws: ``TagTrustError/Code/invalidHex`` at the first character that is not a hex
  ///   digit, or at the range's start when the count of digits is odd.
  static func check(_ text: Span<UInt8>, _ range: Range<Int>) throws(TagTrustError) {
    guard range.count % 2 == 0 else { throw TagTrustError(.invalidHex, offset: range.lowerBound) }
    for index in range where nibble(text[index]) == nil { throw TagTrustError(.invalidHex, offset: index) }
  }

  /// The byte the two hex digits at `offset` of `text` spell (digits ``check(_:_:)`` passed;
  /// anything else reads as zero nibbles).
  static func byte(_ text: Span<UInt8>, at offset: Int) -> UInt8 {
    (nibble(text[offset]) ?? 0) << 4 | (nibble(text[offset + 1]) ?? 0)
  }

  private static func nibble(_ character: UInt8) -> UInt8? {
    switch character {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}

/// Whether two byte arrays are equal, comparing every byte whatever the first difference
/// (MACs are compared without an early exit).
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
  guard a.count == b.count else { return false }
  var difference: UInt8 = 0
  for index in 0..<a.count { difference |= a[index] ^ b[index] }
  return difference == 0
}
