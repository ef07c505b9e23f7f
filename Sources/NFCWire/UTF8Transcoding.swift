// SPDX-License-Identifier: Apache-2.0

/// UTF-8 written into a caller's `OutputSpan`, with the same repairs as the `String`
/// initializers (so the bytes equal the `String`'s `utf8` view), and nothing allocated.
extension TextValidation {
  /// The UTF-8 of the replacement character U+FFFD.
  @usableFromInline static var replacementCharacter: (UInt8, UInt8, UInt8) { (0xEF, 0xBF, 0xBD) }

  /// At `index` (< `bytes.byteCount`): the length of the well-formed sequence that starts
  /// there (positive), or minus the length of its maximal ill-formed subpart (Unicode 15,
  /// §3.9, "U+FFFD substitution of maximal subparts", as `String(decoding:as:)` repairs).
  static func sequenceLength(_ bytes: RawSpan, at index: Int) -> Int {
    guard let lead = bytes.byte(at: index) else { return -1 }
    if lead < 0x80 { return 1 }
    let (length, low, high) = leadByteRule(lead)
    guard length != 0 else { return -1 }
    guard let second = bytes.byte(at: index &+ 1), second >= low, second <= high else { return -1 }
    var next = 2
    while next < length {
      guard let byte = bytes.byte(at: index &+ next), byte & 0xC0 == 0x80 else { return -next }
      next &+= 1
    }
    return length
  }

  /// The number of bytes ``appendRepairingUTF8(_:to:)`` writes for `bytes`: their count
  /// when they are well-formed UTF-8; otherwise each maximal ill-formed subpart counts 3
  /// bytes (its U+FFFD).
  package static func repairedUTF8Count(_ bytes: RawSpan) -> Int {
    guard let firstBad = firstInvalidUTF8(bytes) else { return bytes.byteCount }
    var count = firstBad
    var index = firstBad
    while index < bytes.byteCount {
      let length = sequenceLength(bytes, at: index)
      if length > 0 {
        count &+= length
        index &+= length
      } else {
        count &+= 3
        index &-= length
      }
    }
    return count
  }

  /// Appends `bytes` as UTF-8, each maximal ill-formed subpart replaced by U+FFFD (one bulk
  /// copy when they are well-formed); `false` (nothing written) when `output` has less room
  /// than ``repairedUTF8Count(_:)``.
  @discardableResult
  package static func appendRepairingUTF8(_ bytes: RawSpan, to output: inout OutputSpan<UInt8>) -> Bool {
    guard let firstBad = firstInvalidUTF8(bytes) else { return output.appendBytes(bytes) }
    guard output.freeCapacity >= repairedUTF8Count(bytes) else { return false }
    output.appendBytes(bytes.extracting(0..<firstBad))
    var index = firstBad
    while index < bytes.byteCount {
      let length = sequenceLength(bytes, at: index)
      if length > 0 {
        output.appendBytes(bytes.extracting(index..<(index &+ length)))
        index &+= length
      } else {
        let (a, b, c) = replacementCharacter
        output.append(a)
        output.append(b)
        output.append(c)
        index &-= length
      }
    }
    return true
  }

  /// The next scalar of UTF-16 `bytes` at byte `index`, advancing it; an unpaired surrogate
  /// reads as U+FFFD (as `String(decoding:as: UTF16.self)` repairs it). `nil` when fewer
  /// than two bytes remain (a trailing odd byte is dropped).
  static func nextScalar(utf16 bytes: RawSpan, bigEndian: Bool, at index: inout Int) -> UInt32? {
    func unit(at i: Int) -> UInt32? {
      guard let a = bytes.byte(at: i), let b = bytes.byte(at: i &+ 1) else { return nil }
      return bigEndian ? UInt32(a) << 8 | UInt32(b) : UInt32(b) << 8 | UInt32(a)
    }
    guard let u = unit(at: index) else { return nil }
    index &+= 2
    switch u {
    case 0xD800...0xDBFF:
      guard let v = unit(at: index), v >= 0xDC00, v <= 0xDFFF else { return 0xFFFD }
      index &+= 2
      return 0x1_0000 &+ ((u &- 0xD800) << 10 | (v &- 0xDC00))
    case 0xDC00...0xDFFF: return 0xFFFD
    default: return u
    }
  }

  /// The length in UTF-8 of one scalar value (RFC 3629 §3).
  static func utf8Length(_ scalar: UInt32) -> Int {
    scalar < 0x80 ? 1 : scalar < 0x800 ? 2 : scalar < 0x1_0000 ? 3 : 4
  }

  /// The number of UTF-8 bytes ``appendUTF8(utf16:bigEndian:to:)`` writes for `bytes`.
  package static func utf8Count(utf16 bytes: RawSpan, bigEndian: Bool) -> Int {
    var index = 0
    var count = 0
    while let scalar = nextScalar(utf16: bytes, bigEndian: bigEndian, at: &index) {
      count &+= utf8Length(scalar)
    }
    return count
  }

  /// Appends UTF-16 `bytes` in the given byte order transcoded to UTF-8 (unpaired
  /// surrogates become U+FFFD, a trailing odd byte is dropped); `false` (nothing written)
  /// when `output` has less room than ``utf8Count(utf16:bigEndian:)``.
  @discardableResult
  package static func appendUTF8(utf16 bytes: RawSpan, bigEndian: Bool, to output: inout OutputSpan<UInt8>)
    -> Bool
  {
    guard output.freeCapacity >= utf8Count(utf16: bytes, bigEndian: bigEndian) else { return false }
    var index = 0
    while let value = nextScalar(utf16: bytes, bigEndian: bigEndian, at: &index) {
      switch utf8Length(value) {
      case 1:
        output.append(UInt8(value))
      case 2:
        output.append(0xC0 | UInt8(value >> 6))
        output.append(0x80 | UInt8(value & 0x3F))
      case 3:
        output.append(0xE0 | UInt8(value >> 12))
        output.append(0x80 | UInt8((value >> 6) & 0x3F))
        output.append(0x80 | UInt8(value & 0x3F))
      default:
        output.append(0xF0 | UInt8(value >> 18))
        output.append(0x80 | UInt8((value >> 12) & 0x3F))
        output.append(0x80 | UInt8((value >> 6) & 0x3F))
        output.append(0x80 | UInt8(value & 0x3F))
      }
    }
    return true
  }
}
