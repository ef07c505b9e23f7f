// SPDX-License-Identifier: Apache-2.0
/// Unicode validation over borrowed bytes, reporting where the first bad byte stands.
///
/// The type is `public` only so that inlinable decoders in other modules can call its
/// `@usableFromInline` package members (as with ``ByteReader``); it has no public members.
public enum TextValidation {
  /// The index of the first byte that is not part of well-formed UTF-8 (Unicode 15, §3.9,
  /// table 3-7: no overlongs, no surrogates, nothing above U+10FFFF), or `nil` when all is.
  @usableFromInline
  package static func firstInvalidUTF8(_ bytes: RawSpan) -> Int? {
    var index = 0
    let count = bytes.byteCount
    let high: UInt64 = 0x8080_8080_8080_8080
    while index < count {
      // ASCII eight bytes at a time: no byte of the word has its top bit set. The last
      // word of the input may overlap bytes already checked.
      if count &- index >= 8 {
        // Invariant: index + 8 <= count.
        let word = unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: index, as: UInt64.self)
        if word & high == 0 {
          index &+= 8
          continue
        }
      } else if count >= 8 {
        // Invariant: 0 <= count - 8 < index.
        let word = unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: count &- 8, as: UInt64.self)
        if word & high == 0 { return nil }
      }
      // Invariant: index < count.
      let lead = unsafe bytes.unsafeLoad(fromUncheckedByteOffset: index, as: UInt8.self)
      if lead < 0x80 {
        index &+= 1
        continue
      }
      let (length, low, high) = leadByteRule(lead)
      guard length != 0 else { return index }
      guard index &+ length <= count else { return index }
      guard let second = bytes.byte(at: index &+ 1), second >= low, second <= high else {
        return index
      }
      var next = 2
      while next < length {
        guard let byte = bytes.byte(at: index &+ next), byte & 0xC0 == 0x80 else { return index }
        next &+= 1
      }
      index &+= length
    }
    return nil
  }

  /// The UTF-8 lead-byte table (Unicode 15, §3.9, table 3-7): for a lead byte of 0x80 or
  /// more, the length of the sequence it starts and the range its second byte must fall in
  /// (later bytes are 0x80...0xBF); length 0 for a byte that starts no sequence (a
  /// continuation byte, C0, C1, F5...FF). Validation and transcoding both read it. A length
  /// of 0 rather than an optional keeps ``firstInvalidUTF8(_:)``'s machine code what it was
  /// with the table written inline (an optional tuple cost it about 4% more instructions).
  @inline(__always)
  static func leadByteRule(_ lead: UInt8) -> (length: Int, low: UInt8, high: UInt8) {
    let length: Int
    var low: UInt8 = 0x80
    var high: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0: length = 3; low = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED: length = 3; high = 0x9F
    case 0xF0: length = 4; low = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4: length = 4; high = 0x8F
    default: length = 0
    }
    return (length, low, high)
  }

  /// The byte index of the first code unit that breaks UTF-16 (an odd byte count, or an
  /// unpaired surrogate), or `nil`.
  package static func firstInvalidUTF16(_ bytes: RawSpan, bigEndian: Bool) -> Int? {
    let count = bytes.byteCount
    var index = 0
    func unit(at i: Int) -> UInt16? {
      guard let a = bytes.byte(at: i), let b = bytes.byte(at: i &+ 1) else { return nil }
      return bigEndian ? UInt16(a) << 8 | UInt16(b) : UInt16(b) << 8 | UInt16(a)
    }
    while index < count {
      guard let u = unit(at: index) else { return index }
      switch u {
      case 0xD800...0xDBFF:
        guard let v = unit(at: index &+ 2), (0xDC00...0xDFFF).contains(v) else { return index }
        index &+= 4
      case 0xDC00...0xDFFF: return index
      default: index &+= 2
      }
    }
    return nil
  }

  /// The bytes as a `String`, decoding UTF-8 (ill-formed sequences become U+FFFD).
  package static func string(utf8 bytes: RawSpan) -> String {
    string(prefix: "", utf8: bytes)
  }

  /// `prefix` followed by the UTF-8 bytes, built with one allocation (ill-formed sequences
  /// become U+FFFD).
  package static func string(prefix: String, utf8 bytes: RawSpan) -> String {
    var prefix = prefix
    return prefix.withUTF8 { head in unsafe string(prefix: UnsafeRawBufferPointer(head), utf8: bytes) }
  }

  /// The UTF-8 bytes of `prefix` followed by `bytes`, as a `String` built with one
  /// allocation, none when the whole fits a small string (ill-formed sequences become
  /// U+FFFD).
  @unsafe
  package static func string(prefix: UnsafeRawBufferPointer, utf8 bytes: RawSpan) -> String {
    let prefixCount = prefix.count
    let count = prefixCount &+ bytes.byteCount
    // Invariant: the buffer holds `count` bytes: the prefix, then the span; the
    // initializer validates and repairs what it is given.
    return unsafe String(unsafeUninitializedCapacity: count) { buffer in
      let target = UnsafeMutableRawBufferPointer(buffer)
      unsafe target.copyMemory(from: prefix)
      unsafe bytes.withUnsafeBytes { source in
        unsafe UnsafeMutableRawBufferPointer(rebasing: target[prefixCount...]).copyMemory(from: source)
      }
      return count
    }
  }

  /// The bytes as a `String`, decoding UTF-16 in the given byte order (ill-formed units
  /// become U+FFFD; a trailing odd byte is dropped).
  package static func string(utf16 bytes: RawSpan, bigEndian: Bool) -> String {
    var units: [UInt16] = []
    units.reserveCapacity(bytes.byteCount / 2)
    var index = 0
    while index &+ 1 < bytes.byteCount {
      let a = UInt16(bytes.byte(at: index) ?? 0)
      let b = UInt16(bytes.byte(at: index &+ 1) ?? 0)
      units.append(bigEndian ? a << 8 | b : b << 8 | a)
      index &+= 2
    }
    return String(decoding: units, as: UTF16.self)
  }
}
