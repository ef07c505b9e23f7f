// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The tag and length fields of one BER-TLV object, read from a cursor
/// (ISO/IEC 7816-4:2013 §5.2.2).
struct BERTLVHeader {
  /// The tag.
  var tag: BERTag
  /// Index of the tag's first byte, relative to the reader's bytes.
  var start: Int
  /// Index of the first length byte, relative to the reader's bytes.
  var lengthStart: Int
  /// Index of the first value byte, relative to the reader's bytes.
  var valueStart: Int
  /// The value length.
  var length: Int

  /// Index one past the value.
  var end: Int { valueStart &+ length }

  /// Reads a tag and a length and checks that the value fits; on success the reader stands
  /// at the first value byte.
  ///
  /// - Throws: `truncatedTag`, `invalidTag`, `nonMinimalTag`, `tagTooLong`,
  ///   `truncatedLength`, `indefiniteLength`, `lengthTooLong`, `nonMinimalLength` or
  ///   `lengthExceedsInput`, each at the offending byte (truncations at the end of input).
  static func read(_ reader: inout ByteReader, options: BERTLVDecodingOptions) throws(APDUError)
    -> BERTLVHeader
  {
    let start = reader.index
    let tagOffset = reader.offset
    let end = reader.baseOffset &+ reader.bytes.byteCount
    guard let first = reader.readUInt8() else { throw APDUError(.truncatedTag, offset: end) }
    guard first != 0x00, first != 0xFF else { throw APDUError(.invalidTag, offset: tagOffset) }
    var tag = UInt32(first)
    if first & 0x1F == 0x1F {
      let maximum = min(max(options.maximumTagLength, 1), 4)
      var count = 1
      while true {
        let byteOffset = reader.offset
        guard let next = reader.readUInt8() else { throw APDUError(.truncatedTag, offset: end) }
        if count == 1 && next == 0x80 {
          throw APDUError(.nonMinimalTag, offset: byteOffset)
        }
        count &+= 1
        guard count <= maximum else { throw APDUError(.tagTooLong, offset: tagOffset) }
        tag = tag << 8 | UInt32(next)
        if next & 0x80 == 0 { break }
      }
    }
    let lengthStart = reader.index
    let lengthOffset = reader.offset
    guard let lengthByte = reader.readUInt8() else {
      throw APDUError(.truncatedLength, offset: end)
    }
    var length: Int
    if lengthByte < 0x80 {
      length = Int(lengthByte)
    } else if lengthByte == 0x80 {
      throw APDUError(.indefiniteLength, offset: lengthOffset)
    } else if lengthByte > 0x84 {
      throw APDUError(.lengthTooLong, offset: lengthOffset)
    } else {
      let count = Int(lengthByte & 0x7F)
      guard let value = reader.readBigEndian(UInt32.self, width: count) else {
        throw APDUError(.truncatedLength, offset: end)
      }
      let minimum: UInt32 = count == 1 ? 0x80 : 1 << UInt32((count &- 1) &* 8)
      if value < minimum && !options.allowsNonMinimalLength {
        throw APDUError(.nonMinimalLength, offset: lengthOffset)
      }
      guard let exact = Int(exactly: value) else {
        throw APDUError(.lengthExceedsInput, offset: lengthOffset)
      }
      length = exact
    }
    guard length <= reader.remaining else {
      throw APDUError(.lengthExceedsInput, offset: lengthOffset)
    }
    return BERTLVHeader(
      tag: BERTag(unchecked: tag), start: start, lengthStart: lengthStart,
      valueStart: reader.index, length: length)
  }

  /// Validates a sequence of objects and everything nested in them.
  ///
  /// - Parameters:
  ///   - depth: the depth of the objects in `reader` (1 at top level).
  ///   - count: objects seen so far, across the whole input.
  static func validateSequence(
    _ reader: inout ByteReader, depth: Int, count: inout Int, options: BERTLVDecodingOptions
  ) throws(APDUError) {
    while !reader.isAtEnd {
      if options.allowsPadding, let byte = reader.peekUInt8(), byte == 0x00 || byte == 0xFF {
        _ = reader.skip(1)
        continue
      }
      let objectOffset = reader.offset
      let header = try read(&reader, options: options)
      count &+= 1
      guard count <= options.maximumObjectCount else {
        throw APDUError(.tooManyObjects, offset: objectOffset)
      }
      let valueOffset = reader.offset
      guard var value = reader.readReader(count: header.length) else {
        throw APDUError(.lengthExceedsInput, offset: valueOffset)
      }
      if header.tag.isConstructed && header.length > 0 {
        guard depth < options.maximumDepth else {
          throw APDUError(.nestingTooDeep, offset: valueOffset)
        }
        try validateSequence(&value, depth: depth &+ 1, count: &count, options: options)
      }
    }
  }
}

/// The shortest BER length field (ISO/IEC 7816-4 §5.2.2.2).
enum BERLength {
  /// Bytes of the length field for `length`.
  static func fieldCount(_ length: Int) -> Int {
    switch length {
    case ..<0x80: return 1
    case ..<0x100: return 2
    case ..<0x1_0000: return 3
    case ..<0x100_0000: return 4
    default: return 5
    }
  }

  /// Appends the length field.
  static func write(_ length: Int, into output: inout OutputSpan<UInt8>) {
    let count = fieldCount(length)
    if count == 1 {
      output.appendByte(UInt8(truncatingIfNeeded: length))
    } else {
      output.appendByte(0x80 | UInt8(count &- 1))
      output.appendBigEndian(UInt32(truncatingIfNeeded: length), width: count &- 1)
    }
  }

  /// The length field as bytes.
  static func bytes(_ length: Int) -> [UInt8] {
    let count = fieldCount(length)
    if count == 1 { return [UInt8(truncatingIfNeeded: length)] }
    var bytes: [UInt8] = [0x80 | UInt8(count &- 1)]
    var shift = (count &- 2) &* 8
    while shift >= 0 {
      bytes.append(UInt8(truncatingIfNeeded: length >> shift))
      shift &-= 8
    }
    return bytes
  }
}
