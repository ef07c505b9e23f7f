// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// One BER-TLV data object inside validated input: a view, never a copy
/// (ISO/IEC 7816-4:2013 §5.2.2).
///
/// A constructed object's ``children`` iterate its nested objects; a primitive object's
/// ``value`` holds its bytes.
public struct BERTLVView: ~Escapable {
  /// The tag.
  public let tag: BERTag
  /// The whole object: tag, length and value.
  public let bytes: RawSpan
  /// The value field.
  public let value: RawSpan
  /// Absolute offset of the tag's first byte.
  public let offset: Int
  /// Absolute offset of the length field.
  public let lengthOffset: Int
  /// Absolute offset of the value field.
  public let valueOffset: Int
  /// The nesting depth: 1 for top-level objects.
  public let depth: Int
  let options: BERTLVDecodingOptions

  @_lifetime(copy bytes, copy value)
  init(
    tag: BERTag, bytes: RawSpan, value: RawSpan, offset: Int, lengthOffset: Int,
    valueOffset: Int, depth: Int, options: BERTLVDecodingOptions
  ) {
    self.tag = tag
    self.bytes = bytes
    self.value = value
    self.offset = offset
    self.lengthOffset = lengthOffset
    self.valueOffset = valueOffset
    self.depth = depth
    self.options = options
  }

  /// Validates `bytes` as exactly one BER-TLV object (and everything nested in it).
  ///
  /// - Throws: the codes of ``BERTLVSequenceView/init(validating:baseOffset:options:)-(RawSpan,_,_)``,
  ///   and ``APDUError/Code/trailingData`` at the first byte after the object when
  ///   more follow (``APDUError/Code/truncatedTag`` for empty input).
  @_lifetime(copy bytes)
  public init(
    validating bytes: RawSpan, baseOffset: Int = 0, options: BERTLVDecodingOptions = .strict
  ) throws(APDUError) {
    let sequence = try BERTLVSequenceView(
      validating: bytes, baseOffset: baseOffset, options: options)
    var objects = sequence.objects
    guard let first = objects.next() else {
      throw APDUError(.truncatedTag, offset: baseOffset &+ bytes.byteCount)
    }
    let end = first.offset &+ first.bytes.byteCount
    if objects.next() != nil { throw APDUError(.trailingData, offset: end) }
    self = first
  }

  /// The value length.
  public var length: Int { value.byteCount }

  /// Whether the value is a sequence of BER-TLV objects (bit b6 of the first tag byte).
  public var isConstructed: Bool { tag.isConstructed }

  /// The nested objects of a constructed object, in order; nothing for a primitive one.
  public var children: BERTLVIterator {
    @_lifetime(copy self)
    get {
      let inner = isConstructed ? value : value.extracting(0..<0)
      return BERTLVIterator(inner, baseOffset: valueOffset, depth: depth &+ 1, options: options)
    }
  }

  /// The first direct child with tag `tag`, or `nil`.
  @_lifetime(copy self)
  public func child(_ tag: BERTag) -> BERTLVView? {
    var iterator = children
    while let object = iterator.next() {
      if object.tag == tag { return object }
    }
    return nil
  }
}

/// Iterates the objects of a validated sequence lazily, without allocating.
public struct BERTLVIterator: ~Escapable {
  var reader: ByteReader
  let depth: Int
  let options: BERTLVDecodingOptions

  @_lifetime(copy bytes)
  init(_ bytes: RawSpan, baseOffset: Int, depth: Int, options: BERTLVDecodingOptions) {
    self.reader = ByteReader(bytes, baseOffset: baseOffset)
    self.depth = depth
    self.options = options
  }

  /// The next object, or `nil` after the last one.
  @_lifetime(copy self)
  public mutating func next() -> BERTLVView? {
    if options.allowsPadding {
      while let byte = reader.peekUInt8(), byte == 0x00 || byte == 0xFF { _ = reader.skip(1) }
    }
    guard !reader.isAtEnd, let header = try? BERTLVHeader.read(&reader, options: options),
      reader.skip(header.length)
    else { return nil }
    let all = reader.bytes
    let base = reader.baseOffset
    return BERTLVView(
      tag: header.tag, bytes: all.extracting(header.start..<header.end),
      value: all.extracting(header.valueStart..<header.end), offset: base &+ header.start,
      lengthOffset: base &+ header.lengthStart, valueOffset: base &+ header.valueStart,
      depth: depth, options: options)
  }
}

/// A validated sequence of BER-TLV objects over the caller's bytes (ISO/IEC 7816-4:2013
/// §5.2.2), e.g. a response data field.
///
/// `init(validating:)` checks every object at every depth once, without allocating; the
/// objects are then iterated as views:
///
/// ```swift
/// let tlvs = try BERTLVSequenceView(validating: response.data)
/// var objects = tlvs.objects
/// while let object = objects.next() { print(object.tag, object.length) }
/// ```
public struct BERTLVSequenceView: ~Escapable {
  /// The bytes of the sequence.
  public let bytes: RawSpan
  /// Absolute offset of the first byte.
  public let baseOffset: Int
  /// The options the sequence was validated with.
  public let options: BERTLVDecodingOptions
  /// The number of objects at all depths.
  public let objectCount: Int

  /// Validates `bytes` as zero or more BER-TLV objects.
  ///
  /// - Throws: ``APDUError`` with ``APDUError/Code/truncatedTag``,
  ///   ``APDUError/Code/invalidTag``, ``APDUError/Code/nonMinimalTag``,
  ///   ``APDUError/Code/tagTooLong``, ``APDUError/Code/truncatedLength``,
  ///   ``APDUError/Code/indefiniteLength``, ``APDUError/Code/lengthTooLong``,
  ///   ``APDUError/Code/nonMinimalLength``, ``APDUError/Code/lengthExceedsInput`` (a value
  ///   running past its enclosing object), ``APDUError/Code/nestingTooDeep`` or
  ///   ``APDUError/Code/tooManyObjects``.
  @_lifetime(copy bytes)
  public init(
    validating bytes: RawSpan, baseOffset: Int = 0, options: BERTLVDecodingOptions = .strict
  ) throws(APDUError) {
    var reader = ByteReader(bytes, baseOffset: baseOffset)
    var count = 0
    try BERTLVHeader.validateSequence(&reader, depth: 1, count: &count, options: options)
    self.bytes = bytes
    self.baseOffset = baseOffset
    self.options = options
    self.objectCount = count
  }

  /// Validates the bytes of a `Span<UInt8>`.
  @_lifetime(copy bytes)
  public init(
    validating bytes: Span<UInt8>, baseOffset: Int = 0, options: BERTLVDecodingOptions = .strict
  ) throws(APDUError) {
    try self.init(validating: bytes.bytes, baseOffset: baseOffset, options: options)
  }

  /// The top-level objects in order.
  public var objects: BERTLVIterator {
    @_lifetime(copy self)
    get { BERTLVIterator(bytes, baseOffset: baseOffset, depth: 1, options: options) }
  }

  /// The first top-level object with tag `tag`, or `nil`.
  @_lifetime(copy self)
  public func first(_ tag: BERTag) -> BERTLVView? {
    var iterator = objects
    while let object = iterator.next() {
      if object.tag == tag { return object }
    }
    return nil
  }
}
