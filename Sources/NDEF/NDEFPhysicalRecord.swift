import NFCWire

/// The layout of one record on the wire, as indices into the message span.
///
/// Escapable (it holds only integers), so validation and iteration can pass it around
/// freely and make spans from it on demand.
struct NDEFPhysicalRecord {
  /// The header octet.
  var header: NDEFRecordHeader
  /// Index of the header octet.
  var start: Int
  /// Index of the TYPE field.
  var typeStart: Int
  var typeLength: Int
  /// Index of the ID field.
  var idStart: Int
  var idLength: Int
  /// Index of the PAYLOAD field.
  var payloadStart: Int
  var payloadLength: Int
  /// Index one past the record's last byte.
  var end: Int { payloadStart &+ payloadLength }

  /// Reads the record starting at the reader's position (§3.2). Length fields are checked
  /// against what remains; no NDEF rule beyond the layout is checked here.
  static func read(_ reader: inout ByteReader) throws(NDEFError) -> NDEFPhysicalRecord {
    let start = reader.index
    guard let headerByte = reader.readUInt8() else {
      throw NDEFError(.truncatedHeader, offset: reader.offset)
    }
    let header = NDEFRecordHeader(rawValue: headerByte)
    guard let typeLength = reader.readUInt8() else {
      throw NDEFError(.truncatedHeader, offset: reader.offset)
    }
    let payloadLengthOffset = reader.offset
    let payloadLength: Int
    if header.shortRecord {
      guard let length = reader.readUInt8() else {
        throw NDEFError(.truncatedHeader, offset: reader.offset)
      }
      payloadLength = Int(length)
    } else {
      guard let length = reader.readUInt32BE() else {
        throw NDEFError(.truncatedHeader, offset: reader.offset)
      }
      // On 32-bit targets a length above Int.max cannot fit what remains anyway.
      payloadLength = Int(exactly: length) ?? Int.max
    }
    var idLength = 0
    let idLengthOffset = reader.offset
    if header.idLengthPresent {
      guard let length = reader.readUInt8() else {
        throw NDEFError(.truncatedHeader, offset: reader.offset)
      }
      idLength = Int(length)
    }
    let typeStart = reader.index
    guard reader.skip(Int(typeLength)) else {
      // The TYPE_LENGTH octet is the second byte of the record.
      throw NDEFError(.typeLengthExceedsInput, offset: reader.baseOffset &+ start &+ 1)
    }
    let idStart = reader.index
    guard reader.skip(idLength) else {
      throw NDEFError(.idLengthExceedsInput, offset: idLengthOffset)
    }
    let payloadStart = reader.index
    guard reader.skip(payloadLength) else {
      throw NDEFError(.payloadLengthExceedsInput, offset: payloadLengthOffset)
    }
    return NDEFPhysicalRecord(
      header: header, start: start, typeStart: typeStart, typeLength: Int(typeLength),
      idStart: idStart, idLength: idLength, payloadStart: payloadStart,
      payloadLength: payloadLength)
  }
}

extension NDEFPhysicalRecord {
  /// The record starting at `start` in `bytes`, or `nil` when its fields do not fit:
  /// the non-throwing fast path behind validation and iteration (the throwing
  /// ``read(_:)`` then names the field that does not fit).
  @inline(__always)
  static func scan(_ bytes: RawSpan, at start: Int) -> NDEFPhysicalRecord? {
    let count = bytes.byteCount
    guard let headerByte = bytes.byte(at: start), let typeLength = bytes.byte(at: start &+ 1) else {
      return nil
    }
    let header = NDEFRecordHeader(rawValue: headerByte)
    var index = start &+ 2
    let payloadLength: Int
    if header.shortRecord {
      guard let length = bytes.byte(at: index) else { return nil }
      payloadLength = Int(length)
      index &+= 1
    } else {
      guard let b0 = bytes.byte(at: index), let b1 = bytes.byte(at: index &+ 1),
        let b2 = bytes.byte(at: index &+ 2),
        let b3 = bytes.byte(at: index &+ 3)
      else { return nil }
      let value = UInt32(b0) << 24 | UInt32(b1) << 16 | UInt32(b2) << 8 | UInt32(b3)
      guard let length = Int(exactly: value) else { return nil }
      payloadLength = length
      index &+= 4
    }
    var idLength = 0
    if header.idLengthPresent {
      guard let length = bytes.byte(at: index) else { return nil }
      idLength = Int(length)
      index &+= 1
    }
    let typeStart = index
    let idStart = typeStart &+ Int(typeLength)
    let payloadStart = idStart &+ idLength
    // payloadStart <= count + 510 here, so only the payload length can overflow.
    guard payloadStart <= count, payloadLength <= count &- payloadStart else { return nil }
    return NDEFPhysicalRecord(
      header: header, start: start, typeStart: typeStart, typeLength: Int(typeLength), idStart: idStart,
      idLength: idLength, payloadStart: payloadStart, payloadLength: payloadLength)
  }
}
