// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The layout of one record on the wire, as indices into the message span.
///
/// Escapable (it holds only integers), so validation and iteration can pass it around
/// freely and make spans from it on demand.
@usableFromInline
struct NDEFPhysicalRecord: BitwiseCopyable {
  /// The header octet.
  @usableFromInline var header: NDEFRecordHeader
  /// Index of the header octet.
  @usableFromInline var start: Int
  /// Index of the TYPE field.
  @usableFromInline var typeStart: Int
  @usableFromInline var typeLength: Int
  /// Index of the ID field.
  @usableFromInline var idStart: Int
  @usableFromInline var idLength: Int
  /// Index of the PAYLOAD field.
  @usableFromInline var payloadStart: Int
  @usableFromInline var payloadLength: Int
  /// Index one past the record's last byte.
  @inlinable var end: Int { payloadStart &+ payloadLength }

  @inlinable
  init(
    header: NDEFRecordHeader, start: Int, typeStart: Int, typeLength: Int, idStart: Int, idLength: Int,
    payloadStart: Int, payloadLength: Int
  ) {
    self.header = header
    self.start = start
    self.typeStart = typeStart
    self.typeLength = typeLength
    self.idStart = idStart
    self.idLength = idLength
    self.payloadStart = payloadStart
    self.payloadLength = payloadLength
  }

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
  @inlinable @inline(__always)
  static func scan(_ bytes: RawSpan, at start: Int) -> NDEFPhysicalRecord? {
    let count = bytes.byteCount
    // The header octet, TYPE_LENGTH and at least one PAYLOAD_LENGTH octet.
    guard start >= 0, count &- start >= 3 else { return nil }
    // Invariant: start + 2 < count.
    let headerByte = unsafe bytes.unsafeLoad(fromUncheckedByteOffset: start, as: UInt8.self)
    let typeLength = Int(unsafe bytes.unsafeLoad(fromUncheckedByteOffset: start &+ 1, as: UInt8.self))
    let header = NDEFRecordHeader(rawValue: headerByte)
    let short = header.shortRecord
    let hasID = header.idLengthPresent
    // The whole header: 2 octets, PAYLOAD_LENGTH (1 or 4), ID_LENGTH (0 or 1).
    let headerLength = (short ? 3 : 6) &+ (hasID ? 1 : 0)
    guard count &- start >= headerLength else { return nil }
    // Invariant from here: start + headerLength <= count.
    var index = start &+ 2
    let payloadLength: Int
    if short {
      payloadLength = Int(unsafe bytes.unsafeLoad(fromUncheckedByteOffset: index, as: UInt8.self))
      index &+= 1
    } else {
      let value = UInt32(
        bigEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: index, as: UInt32.self))
      guard let length = Int(exactly: value) else { return nil }
      payloadLength = length
      index &+= 4
    }
    var idLength = 0
    if hasID {
      idLength = Int(unsafe bytes.unsafeLoad(fromUncheckedByteOffset: index, as: UInt8.self))
      index &+= 1
    }
    let typeStart = index
    let idStart = typeStart &+ typeLength
    let payloadStart = idStart &+ idLength
    // payloadStart <= count + 510 here, so only the payload length can overflow.
    guard payloadStart <= count, payloadLength <= count &- payloadStart else { return nil }
    return NDEFPhysicalRecord(
      header: header, start: start, typeStart: typeStart, typeLength: typeLength, idStart: idStart,
      idLength: idLength, payloadStart: payloadStart, payloadLength: payloadLength)
  }
}
