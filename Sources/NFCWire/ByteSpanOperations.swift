// SPDX-License-Identifier: Apache-2.0
/// Small operations on borrowed bytes that every codec needs.
extension RawSpan {
  /// The byte at `offset`, or `nil` when `offset` is outside the span.
  @inlinable
  package func byte(at offset: Int) -> UInt8? {
    guard offset >= 0, offset < byteCount else { return nil }
    // Invariant: 0 <= offset < byteCount (checked above).
    return unsafe unsafeLoad(fromUncheckedByteOffset: offset, as: UInt8.self)
  }

  /// Whether the span holds exactly the bytes of `other`.
  @inlinable
  package func elementsEqual(_ other: RawSpan) -> Bool {
    guard byteCount == other.byteCount else { return false }
    for i in 0..<byteCount {
      // Invariant: i < byteCount == other.byteCount.
      let a = unsafe unsafeLoad(fromUncheckedByteOffset: i, as: UInt8.self)
      let b = unsafe other.unsafeLoad(fromUncheckedByteOffset: i, as: UInt8.self)
      if a != b { return false }
    }
    return true
  }

  /// Whether the span holds exactly `bytes`.
  @inlinable
  package func elementsEqual(_ bytes: [UInt8]) -> Bool {
    elementsEqual(bytes.span.bytes)
  }

  /// Whether the span starts with `prefix`.
  @inlinable
  package func starts(with prefix: RawSpan) -> Bool {
    guard prefix.byteCount <= byteCount else { return false }
    return extracting(0..<prefix.byteCount).elementsEqual(prefix)
  }

  /// A copy of the bytes, for owned models.
  @inlinable
  package func copiedBytes() -> [UInt8] {
    let count = byteCount
    return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      // Invariant: buffer has room for exactly `count` bytes, the size of the source.
      unsafe withUnsafeBytes { source in
        unsafe UnsafeMutableRawBufferPointer(buffer).copyMemory(from: source)
      }
      initialized = count
    }
  }

  /// The address of the first byte, to prove in tests that a view points into its input.
  @inlinable
  package var baseAddressForIdentity: UInt {
    unsafe withUnsafeBytes { buffer in UInt(bitPattern: buffer.baseAddress) }
  }

  /// Whether every byte is printable US-ASCII (0x20...0x7E).
  @inlinable
  package var isPrintableASCII: Bool {
    for i in 0..<byteCount {
      // Invariant: i < byteCount.
      let b = unsafe unsafeLoad(fromUncheckedByteOffset: i, as: UInt8.self)
      if b < 0x20 || b > 0x7E { return false }
    }
    return true
  }
}

/// Hexadecimal text for bytes (lowercase, no separators), as the JSON contract writes them.
package enum Hex {
  private static let digits: [UInt8] = Array("0123456789abcdef".utf8)
  private static let uppercaseDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

  /// Lowercase hex of `bytes`.
  package static func string(_ bytes: RawSpan) -> String { string(bytes, digits) }

  /// Lowercase hex of `bytes`.
  package static func string(_ bytes: [UInt8]) -> String {
    string(bytes.span.bytes)
  }

  /// Uppercase hex of `bytes`, as descriptions and spec tables write them (`SCP03`, `0x1F`).
  package static func uppercaseString(_ bytes: [UInt8]) -> String {
    string(bytes.span.bytes, uppercaseDigits)
  }

  private static func string(_ bytes: RawSpan, _ digits: [UInt8]) -> String {
    var utf8: [UInt8] = []
    utf8.reserveCapacity(bytes.byteCount * 2)
    for i in 0..<bytes.byteCount {
      let b = bytes.byte(at: i) ?? 0
      utf8.append(digits[Int(b >> 4)])
      utf8.append(digits[Int(b & 0x0F)])
    }
    return String(decoding: utf8, as: UTF8.self)
  }

  /// Bytes from hex digits; `nil` on an odd count or a non-hex character.
  package static func bytes(_ text: String) -> [UInt8]? {
    var result: [UInt8] = []
    var high: UInt8? = nil
    for c in text.utf8 {
      let v: UInt8
      switch c {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): v = c &- UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): v = c &- UInt8(ascii: "a") &+ 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): v = c &- UInt8(ascii: "A") &+ 10
      default: return nil
      }
      if let h = high {
        result.append(h << 4 | v)
        high = nil
      } else {
        high = v
      }
    }
    return high == nil ? result : nil
  }
}

/// Overflow-checked arithmetic for lengths taken from hostile input.
package enum Checked {
  /// `a + b`, or `nil` on overflow.
  @inlinable
  package static func add(_ a: Int, _ b: Int) -> Int? {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? nil : sum
  }

  /// `a * b`, or `nil` on overflow.
  @inlinable
  package static func multiply(_ a: Int, _ b: Int) -> Int? {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    return overflow ? nil : product
  }
}
