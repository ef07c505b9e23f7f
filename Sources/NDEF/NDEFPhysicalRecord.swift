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
