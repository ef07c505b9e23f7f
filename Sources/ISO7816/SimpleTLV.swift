// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// One SIMPLE-TLV data object inside validated input: a view (ISO/IEC 7816-4:2013 §5.2.1).
///
/// The tag is one byte 0x01...0xFE; the length is one byte 0x00...0xFE, or 0xFF followed by
/// two bytes (0...65535).
public struct SimpleTLVView: ~Escapable {
  /// The tag byte.
  public let tag: UInt8
  /// The value field.
  public let value: RawSpan
  /// Absolute offset of the tag byte.
  public let offset: Int
  /// Absolute offset of the value field.
  public let valueOffset: Int

  @_lifetime(copy value)
  init(tag: UInt8, value: RawSpan, offset: Int, valueOffset: Int) {
    self.tag = tag
    self.value = value
    self.offset = offset
    self.valueOffset = valueOffset
  }

  /// The value length.
  public var length: Int { value.byteCount }

  /// Reads one object's header; the reader then stands at the value.
  static func readHeader(_ reader: inout ByteReader) throws(APDUError) -> (tag: UInt8, length: Int) {
    let end = reader.baseOffset &+ reader.bytes.byteCount
    let tagOffset = reader.offset
    guard let tag = reader.readUInt8() else { throw APDUError(.truncatedTag, offset: end) }
    guard tag != 0x00, tag != 0xFF else { throw APDUError(.invalidTag, offset: tagOffset) }
    let lengthOffset = reader.offset
    guard let first = reader.readUInt8() else { throw APDUError(.truncatedLength, offset: end) }
    var length = Int(first)
    if first == 0xFF {
      guard let long = reader.readUInt16BE() else {
        throw APDUError(.truncatedLength, offset: end)
      }
      guard long >= 0xFF else { throw APDUError(.nonMinimalLength, offset: lengthOffset) }
      length = Int(long)
    }
    guard length <= reader.remaining else {
      throw APDUError(.lengthExceedsInput, offset: lengthOffset)
    }
    return (tag, length)
  }
}

/// A validated sequence of SIMPLE-TLV objects (ISO/IEC 7816-4:2013 §5.2.1).
public struct SimpleTLVSequenceView: ~Escapable {
  /// The bytes of the sequence.
  public let bytes: RawSpan
  /// Absolute offset of the first byte.
  public let baseOffset: Int
  /// The number of objects.
  public let objectCount: Int

  /// Validates `bytes` as zero or more SIMPLE-TLV objects.
  ///
  /// - Throws: ``APDUError/Code/truncatedTag``, ``APDUError/Code/invalidTag`` (0x00 or
  ///   0xFF), ``APDUError/Code/truncatedLength``, ``APDUError/Code/nonMinimalLength``
  ///   (`FF 00 xx` for a length below 255), ``APDUError/Code/lengthExceedsInput`` or
  ///   ``APDUError/Code/tooManyObjects``.
  @_lifetime(copy bytes)
  public init(
    validating bytes: RawSpan, baseOffset: Int = 0, maximumObjectCount: Int = 1 << 16
  ) throws(APDUError) {
    var reader = ByteReader(bytes, baseOffset: baseOffset)
    var count = 0
    while !reader.isAtEnd {
      let offset = reader.offset
      let header = try SimpleTLVView.readHeader(&reader)
      count &+= 1
      guard count <= maximumObjectCount else { throw APDUError(.tooManyObjects, offset: offset) }
      _ = reader.skip(header.length)
    }
    self.bytes = bytes
    self.baseOffset = baseOffset
    self.objectCount = count
  }

  /// The objects in order.
  public var objects: SimpleTLVIterator {
    @_lifetime(copy self)
    get { SimpleTLVIterator(reader: ByteReader(bytes, baseOffset: baseOffset)) }
  }
}

/// Iterates validated SIMPLE-TLV objects without allocating.
public struct SimpleTLVIterator: ~Escapable {
  var reader: ByteReader

  @_lifetime(copy reader)
  init(reader: consuming ByteReader) { self.reader = reader }

  /// The next object, or `nil` after the last one.
  @_lifetime(copy self)
  public mutating func next() -> SimpleTLVView? {
    let offset = reader.offset
    guard !reader.isAtEnd, let header = try? SimpleTLVView.readHeader(&reader) else {
      return nil
    }
    let valueOffset = reader.offset
    guard let value = reader.readSpan(count: header.length) else { return nil }
    return SimpleTLVView(tag: header.tag, value: value, offset: offset, valueOffset: valueOffset)
  }
}

/// An owned SIMPLE-TLV object (ISO/IEC 7816-4:2013 §5.2.1).
public struct SimpleTLV: Sendable, Hashable {
  /// The tag, 0x01...0xFE.
  public var tag: UInt8
  /// The value, at most 65535 bytes.
  public var value: [UInt8]

  /// Creates an object.
  public init(tag: UInt8, value: [UInt8]) {
    self.tag = tag
    self.value = value
  }

  /// Copies a view.
  public init(_ view: borrowing SimpleTLVView) {
    self.init(tag: view.tag, value: view.value.copiedBytes())
  }

  /// Parses a sequence of objects.
  ///
  /// - Throws: as ``SimpleTLVSequenceView/init(validating:baseOffset:maximumObjectCount:)``.
  public static func parseSequence(_ bytes: [UInt8]) throws(APDUError) -> [SimpleTLV] {
    let sequence = try SimpleTLVSequenceView(validating: bytes.span.bytes)
    var result: [SimpleTLV] = []
    var iterator = sequence.objects
    while let object = iterator.next() { result.append(SimpleTLV(object)) }
    return result
  }

  /// The exact number of bytes ``encode(into:)`` writes.
  public var encodedCount: Int { (value.count < 0xFF ? 2 : 4) &+ value.count }

  /// Writes the object into `output`.
  ///
  /// - Throws: ``APDUError/Code/invalidTag`` for tag 0x00 or 0xFF,
  ///   ``APDUError/Code/valueTooLong`` above 65535 bytes, ``APDUError/Code/bufferTooSmall``.
  public func encode(into output: inout OutputSpan<UInt8>) throws(APDUError) {
    guard tag != 0x00, tag != 0xFF else { throw APDUError(.invalidTag, offset: 0) }
    guard value.count <= 0xFFFF else { throw APDUError(.valueTooLong, offset: 0) }
    guard output.freeCapacity >= encodedCount else { throw APDUError(.bufferTooSmall, offset: 0) }
    output.appendByte(tag)
    if value.count < 0xFF {
      output.appendByte(UInt8(value.count))
    } else {
      output.appendByte(0xFF)
      output.appendBigEndian(UInt16(value.count))
    }
    output.appendBytes(value)
  }

  /// The encoded object as a new array.
  ///
  /// - Throws: as ``encode(into:)``.
  public func encodedBytes() throws(APDUError) -> [UInt8] {
    try encodeToArray(count: encodedCount) { (output: inout OutputSpan<UInt8>) throws(APDUError) in
      try encode(into: &output)
    }
  }
}
