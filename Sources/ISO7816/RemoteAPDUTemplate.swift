// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// Reading and writing the scripting templates of ETSI TS 102 226 §5.2 (expanded format):
/// a definite-length template (`AA`, `AB`) or an indefinite-length one (`AE`, `AF`, length
/// `80`, ended by `00 00`), holding one-byte-tag TLVs whose values are not parsed further
/// (`22` and `23` carry the constructed bit but hold raw APDUs).
enum RemoteAPDUTemplate {
  /// One TLV inside a template.
  struct Item {
    var tag: UInt8
    var value: [UInt8]
    var offset: Int
    var valueOffset: Int
  }

  /// The items of a template with tag `definite` or `indefinite` that must fill `bytes`.
  static func items(
    _ bytes: RawSpan, baseOffset: Int, definite: UInt8, indefinite: UInt8
  ) throws(APDUError) -> [Item] {
    var reader = ByteReader(bytes, baseOffset: baseOffset)
    let end = baseOffset &+ bytes.byteCount
    guard let tag = reader.peekUInt8() else { throw APDUError(.truncatedTag, offset: end) }
    guard tag == definite || tag == indefinite else {
      throw APDUError(.unexpectedTag, offset: baseOffset)
    }
    var items: [Item] = []
    if tag == indefinite, reader.peekUInt8(at: 1) == 0x80 {
      _ = reader.skip(2)
      while true {
        if reader.peekUInt8() == 0x00 && reader.peekUInt8(at: 1) == 0x00 {
          _ = reader.skip(2)
          break
        }
        guard !reader.isAtEnd else { throw APDUError(.truncatedTag, offset: end) }
        items.append(try item(&reader))
      }
    } else {
      guard tag == definite else { throw APDUError(.invalidDataObject, offset: baseOffset &+ 1) }
      let header = try BERTLVHeader.read(&reader, options: .strict)
      guard var inner = reader.readReader(count: header.length) else {
        throw APDUError(.lengthExceedsInput, offset: baseOffset &+ header.lengthStart)
      }
      while !inner.isAtEnd { items.append(try item(&inner)) }
    }
    guard reader.isAtEnd else { throw APDUError(.trailingData, offset: reader.offset) }
    return items
  }

  private static func item(_ reader: inout ByteReader) throws(APDUError) -> Item {
    let offset = reader.offset
    let header = try BERTLVHeader.read(&reader, options: .strict)
    guard header.tag.byteCount == 1 else { throw APDUError(.unexpectedTag, offset: offset) }
    let valueOffset = reader.offset
    guard let value = reader.readSpan(count: header.length) else {
      throw APDUError(.lengthExceedsInput, offset: valueOffset)
    }
    return Item(
      tag: UInt8(truncatingIfNeeded: header.tag.rawValue), value: value.copiedBytes(),
      offset: offset, valueOffset: valueOffset)
  }

  /// A definite-length template `tag` around `items`.
  static func encode(tag: UInt8, items: [(UInt8, [UInt8])]) -> [UInt8] {
    var content: [UInt8] = []
    for (itemTag, value) in items {
      content.append(itemTag)
      content += BERLength.bytes(value.count)
      content += value
    }
    return [tag] + BERLength.bytes(content.count) + content
  }
}
