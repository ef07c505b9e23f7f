// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// One logical NDEF record inside a validated message: a view, never a copy
/// (NFC Forum NDEF 1.0, §3.2).
///
/// For a chunked record (§2.3.3) the header, type and id are those of the initial chunk,
/// ``payload`` is the initial chunk's payload and ``payloadLength`` the total;
/// ``chunks`` iterates every chunk and ``assembledPayload(maximumSize:)`` concatenates them.
public struct NDEFRecordView: ~Escapable, BitwiseCopyable {
  // Six scalars: a view of more (Swift 6.3 counts each stored field) is destroyed through its
  // metadata at the end of every loop iteration that takes it, as non-escapable values
  // are not trivial to the optimizer, which costs a record handed out a dozen
  // instructions. So the header octet, the TNF, TYPE_LENGTH, ID_LENGTH and where PAYLOAD
  // starts (relative to `bytes`: a header is at most 7 octets, TYPE and ID at most 255
  // each, so before octet 517) share one word: bits 0-7, 8-15, 16-23, 24-31 and 32-47.
  @usableFromInline let fields: UInt64
  /// Every byte of the record on the wire, all chunks included.
  public let bytes: RawSpan
  /// Absolute offset of the (initial) header octet.
  public let offset: Int
  /// The number of chunks: 1 when the record is not chunked.
  public let chunkCount: Int
  /// The payload length, summed over all chunks.
  public let payloadLength: Int

  /// The header octet of the (initial) record.
  @inlinable public var header: NDEFRecordHeader {
    NDEFRecordHeader(rawValue: UInt8(truncatingIfNeeded: fields))
  }
  /// The record's TNF. In lenient mode TNF Reserved and a stray TNF Unchanged read as
  /// ``TypeNameFormat/unknown``; ``header`` keeps the bits as sent.
  @inlinable public var typeNameFormat: TypeNameFormat {
    TypeNameFormat(UInt8(truncatingIfNeeded: fields &>> 8) & NDEFRecordHeader.typeNameFormatMask)
  }

  // Field positions of the (initial) chunk, relative to `bytes`.
  @inlinable var typeLength: Int { Int(UInt8(truncatingIfNeeded: fields &>> 16)) }
  @inlinable var idLength: Int { Int(UInt8(truncatingIfNeeded: fields &>> 24)) }
  @inlinable var payloadStart: Int { Int(UInt16(truncatingIfNeeded: fields &>> 32)) }
  @inlinable var idStart: Int { payloadStart &- idLength }
  @inlinable var typeStart: Int { idStart &- typeLength }

  @_lifetime(copy bytes)
  @inlinable init(
    layout: NDEFPhysicalRecord, typeNameFormat: TypeNameFormat, bytes: RawSpan, offset: Int, chunkCount: Int,
    payloadLength: Int
  ) {
    // The layout's lengths are octets and its payload starts at most 517 octets in.
    let payloadStart = UInt64(truncatingIfNeeded: layout.payloadStart &- layout.start) & 0xFFFF
    self.fields =
      UInt64(layout.header.rawValue) | UInt64(typeNameFormat.rawValue) &<< 8
      | UInt64(UInt8(truncatingIfNeeded: layout.typeLength)) &<< 16
      | UInt64(UInt8(truncatingIfNeeded: layout.idLength)) &<< 24 | payloadStart &<< 32
    self.bytes = bytes
    self.offset = offset
    self.chunkCount = chunkCount
    self.payloadLength = payloadLength
  }

  /// The PAYLOAD_LENGTH of the (initial) chunk: the rest of `bytes` when the record is not
  /// chunked, else read again from the header (§3.2.4, one or four octets after TYPE_LENGTH).
  @inlinable var firstPayloadLength: Int {
    guard chunkCount > 1 else { return bytes.byteCount &- payloadStart }
    // Invariant: the header was read within `bytes` (at least 3 octets, 6 without SR).
    if header.shortRecord { return Int(unsafe bytes.unsafeLoad(fromUncheckedByteOffset: 2, as: UInt8.self)) }
    let value = UInt32(
      bigEndian: unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: 2, as: UInt32.self))
    return Int(truncatingIfNeeded: value)
  }

  /// The TYPE field (§3.2.10).
  public var type: RawSpan {
    @_lifetime(copy self)
    @inlinable get {
      // Invariant: the layout was read within `bytes` (every field fits).
      unsafe bytes.extracting(unchecked: Range(uncheckedBounds: (typeStart, typeStart &+ typeLength)))
    }
  }
  /// The ID field (§3.2.11); empty when IL is clear.
  public var id: RawSpan {
    @_lifetime(copy self)
    @inlinable get {
      // Invariant: the layout was read within `bytes` (every field fits).
      unsafe bytes.extracting(unchecked: Range(uncheckedBounds: (idStart, idStart &+ idLength)))
    }
  }
  /// The PAYLOAD field of the record, or of the initial chunk of a chunked record.
  public var payload: RawSpan {
    @_lifetime(copy self)
    @inlinable get {
      // Invariant: the layout was read within `bytes` (every field fits).
      unsafe bytes.extracting(
        unchecked: Range(uncheckedBounds: (payloadStart, payloadStart &+ firstPayloadLength)))
    }
  }
  /// Absolute offset of the TYPE field.
  @inlinable public var typeOffset: Int { offset &+ typeStart }
  /// Absolute offset of the ID field.
  @inlinable public var idOffset: Int { offset &+ idStart }
  /// Absolute offset of the (initial chunk's) PAYLOAD field.
  @inlinable public var payloadOffset: Int { offset &+ payloadStart }

  /// Whether the payload is split into chunks.
  @inlinable public var isChunked: Bool { chunkCount > 1 }

  /// Whether the record's type is `type` with the TNF `format` (bytes compared exactly,
  /// as NDEF 1.0 §3.2.10 asks for well-known and external types after case folding by the
  /// record type's rules; callers fold when their RTD says so).
  public func hasType(_ format: TypeNameFormat, _ type: [UInt8]) -> Bool {
    typeNameFormat == format && self.type.elementsEqual(type)
  }

  /// The chunks of the record, in order (a single chunk when not chunked).
  public var chunks: NDEFChunkIterator {
    @_lifetime(copy self)
    get { NDEFChunkIterator(bytes, baseOffset: offset) }
  }

  /// The whole payload as one owned array: chunks concatenated, at most `maximumSize`
  /// bytes.
  ///
  /// - Throws: ``NDEFError/Code/payloadExceedsLimit`` at the record's offset when the
  ///   payload is larger than `maximumSize`.
  public func assembledPayload(maximumSize: Int = 16 << 20) throws(NDEFError) -> [UInt8] {
    guard payloadLength <= maximumSize else {
      throw NDEFError(.payloadExceedsLimit, offset: offset)
    }
    if !isChunked { return payload.copiedBytes() }
    // One allocation of the summed length, one bulk copy per chunk.
    return encodeToArray(count: payloadLength) { (output: inout OutputSpan<UInt8>) in
      var iterator = chunks
      while let chunk = iterator.next() { output.appendBytes(chunk.payload) }
    }
  }
}

/// One record chunk on the wire (§2.3.3).
public struct NDEFChunkView: ~Escapable {
  /// The chunk's header octet.
  public let header: NDEFRecordHeader
  /// The chunk's TYPE field (empty on middle and terminating chunks).
  public let type: RawSpan
  /// The chunk's ID field (empty on middle and terminating chunks).
  public let id: RawSpan
  /// The chunk's part of the payload.
  public let payload: RawSpan
  /// Absolute offset of the chunk's header octet.
  public let offset: Int
  /// Absolute offset of the chunk's payload.
  public let payloadOffset: Int

  @_lifetime(copy type, copy id, copy payload)
  init(
    header: NDEFRecordHeader, type: RawSpan, id: RawSpan, payload: RawSpan, offset: Int,
    payloadOffset: Int
  ) {
    self.header = header
    self.type = type
    self.id = id
    self.payload = payload
    self.offset = offset
    self.payloadOffset = payloadOffset
  }
}

/// Iterates the chunks of one record without copying.
public struct NDEFChunkIterator: ~Escapable {
  let bytes: RawSpan
  let baseOffset: Int
  var index = 0

  @_lifetime(copy bytes)
  init(_ bytes: RawSpan, baseOffset: Int) {
    self.bytes = bytes
    self.baseOffset = baseOffset
  }

  /// The next chunk, or `nil` after the last.
  @_lifetime(copy self)
  public mutating func next() -> NDEFChunkView? {
    guard let chunk = NDEFPhysicalRecord.scan(bytes, at: index) else { return nil }
    index = chunk.end
    return NDEFChunkView(
      header: chunk.header,
      type: bytes.extracting(chunk.typeStart..<(chunk.typeStart &+ chunk.typeLength)),
      id: bytes.extracting(chunk.idStart..<(chunk.idStart &+ chunk.idLength)),
      payload: bytes.extracting(chunk.payloadStart..<chunk.end),
      offset: baseOffset &+ chunk.start,
      payloadOffset: baseOffset &+ chunk.payloadStart)
  }
}
