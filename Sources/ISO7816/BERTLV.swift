// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// An owned BER-TLV data object, for building and encoding (ISO/IEC 7816-4:2013 §5.2.2).
///
/// A primitive object (``BERTag/isConstructed`` false) encodes ``value``; a constructed one
/// encodes ``children`` in order. Lengths are written in the shortest form.
public struct BERTLV: Sendable, Hashable {
  /// The tag.
  public var tag: BERTag
  /// The value of a primitive object (ignored when the tag is constructed).
  public var value: [UInt8]
  /// The nested objects of a constructed object (ignored when the tag is primitive).
  public var children: [BERTLV]

  /// A primitive object.
  public init(tag: BERTag, value: [UInt8]) {
    self.tag = tag
    self.value = value
    self.children = []
  }

  /// A constructed object.
  public init(tag: BERTag, children: [BERTLV]) {
    self.tag = tag
    self.value = []
    self.children = children
  }

  /// Copies a view and everything nested in it.
  public init(_ view: borrowing BERTLVView) {
    self.tag = view.tag
    if view.isConstructed {
      self.value = []
      var objects: [BERTLV] = []
      var iterator = view.children
      while let child = iterator.next() { objects.append(BERTLV(child)) }
      self.children = objects
    } else {
      self.value = view.value.copiedBytes()
      self.children = []
    }
  }

  /// Parses exactly one object.
  ///
  /// - Throws: the errors of ``BERTLVView/init(validating:baseOffset:options:)``.
  public init(parsing bytes: [UInt8], options: BERTLVDecodingOptions = .strict) throws(APDUError) {
    let view = try BERTLVView(validating: bytes.span.bytes, options: options)
    self.init(view)
  }

  /// Parses a sequence of objects.
  ///
  /// - Throws: the errors of ``BERTLVSequenceView/init(validating:baseOffset:options:)-(RawSpan,_,_)``.
  public static func parseSequence(
    _ bytes: [UInt8], options: BERTLVDecodingOptions = .strict
  ) throws(APDUError) -> [BERTLV] {
    let sequence = try BERTLVSequenceView(validating: bytes.span.bytes, options: options)
    var result: [BERTLV] = []
    var iterator = sequence.objects
    while let object = iterator.next() { result.append(BERTLV(object)) }
    return result
  }

  /// Whether the tag is constructed.
  public var isConstructed: Bool { tag.isConstructed }

  /// The number of value bytes.
  public var contentCount: Int {
    guard isConstructed else { return value.count }
    var total = 0
    for child in children { total &+= child.encodedCount }
    return total
  }

  /// The exact number of bytes ``encode(into:)`` writes.
  public var encodedCount: Int {
    let content = contentCount
    return tag.byteCount &+ BERLength.fieldCount(content) &+ content
  }

  /// The first direct child with tag `tag`, or `nil`.
  public func child(_ tag: BERTag) -> BERTLV? { children.first { $0.tag == tag } }

  /// Writes the object into `output`.
  ///
  /// - Throws: ``APDUError/Code/valueTooLong`` for content over 2^32-1 bytes, and
  ///   ``APDUError/Code/bufferTooSmall`` when `output` lacks room (nothing written).
  public func encode(into output: inout OutputSpan<UInt8>) throws(APDUError) {
    guard UInt64(contentCount) <= UInt64(UInt32.max) else {
      throw APDUError(.valueTooLong, offset: 0)
    }
    guard output.freeCapacity >= encodedCount else { throw APDUError(.bufferTooSmall, offset: 0) }
    write(into: &output)
  }

  private func write(into output: inout OutputSpan<UInt8>) {
    output.appendBytes(tag.bytes)
    BERLength.write(contentCount, into: &output)
    if isConstructed {
      for child in children { child.write(into: &output) }
    } else {
      output.appendBytes(value)
    }
  }

  /// The encoded object as a new array.
  ///
  /// - Throws: as ``encode(into:)``.
  public func encodedBytes() throws(APDUError) -> [UInt8] {
    try encodeToArray(count: encodedCount) { (output: inout OutputSpan<UInt8>) throws(APDUError) in
      try encode(into: &output)
    }
  }

  /// The encoding of a sequence of objects, concatenated.
  ///
  /// - Throws: as ``encode(into:)``.
  public static func encodedBytes(of objects: [BERTLV]) throws(APDUError) -> [UInt8] {
    var total = 0
    for object in objects { total &+= object.encodedCount }
    return try encodeToArray(count: total) { (output: inout OutputSpan<UInt8>) throws(APDUError) in
      for object in objects { try object.encode(into: &output) }
    }
  }
}
