// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// An owned NDEF message: an ordered list of records (NFC Forum NDEF 1.0, §2.3).
public struct NDEFMessage: Sendable, Hashable {
  /// The records in order; at least one for the message to encode.
  public var records: [NDEFRecord]

  /// Creates a message.
  public init(records: [NDEFRecord]) { self.records = records }

  /// Copies a validated message view into an owned model, assembling chunked payloads up
  /// to the view's ``NDEFDecodingOptions/maximumAssembledPayloadSize``.
  ///
  /// - Throws: ``NDEFError/Code/payloadExceedsLimit``.
  public init(_ view: borrowing NDEFMessageView) throws(NDEFError) {
    var records: [NDEFRecord] = []
    records.reserveCapacity(view.recordCount)
    var iterator = view.records
    let limit = view.options.maximumAssembledPayloadSize
    while let record = iterator.next() {
      records.append(try NDEFRecord(record, maximumPayloadSize: limit))
    }
    self.records = records
  }

  /// Decodes an owned message from bytes.
  ///
  /// - Throws: ``NDEFError`` as ``NDEFMessageView/init(validating:baseOffset:options:)-(RawSpan,_,_)``.
  public init(parsing bytes: RawSpan, options: NDEFDecodingOptions = .strict) throws(NDEFError) {
    let view = try NDEFMessageView(validating: bytes, options: options)
    try self.init(view)
  }

  /// Decodes an owned message from an array.
  public init(parsing bytes: [UInt8], options: NDEFDecodingOptions = .strict) throws(NDEFError) {
    try self.init(parsing: bytes.span.bytes, options: options)
  }

  // MARK: Encoding

  /// The exact number of bytes ``encode(into:options:)->()`` writes.
  ///
  /// - Throws: ``NDEFError`` when the model breaks a rule (see ``NDEFRecord/validate(index:)``),
  ///   ``NDEFError/Code/noRecords`` or ``NDEFError/Code/invalidChunkSize``.
  public func encodedCount(options: NDEFEncodingOptions = .canonical) throws(NDEFError) -> Int {
    guard !records.isEmpty else { throw NDEFError(.noRecords, offset: 0) }
    let chunkSize = try Self.chunkSize(options)
    var total = 0
    for (index, record) in records.enumerated() {
      try record.validate(index: index)
      let size = Self.encodedCount(of: record, chunkSize: chunkSize)
      guard let sum = Checked.add(total, size) else {
        throw NDEFError(.payloadTooLong, offset: 0, recordIndex: index)
      }
      total = sum
    }
    return total
  }

  /// Writes the message into `output` (the caller's buffer): MB on the first record, ME on
  /// the last, SR when a payload (chunk) is at most 255 bytes, IL only for a non-empty id,
  /// chunks when asked for. The result always passes strict decoding.
  ///
  /// - Throws: the errors of ``encodedCount(options:)``, and
  ///   ``NDEFError/Code/bufferTooSmall`` (nothing written) when `output` has less room.
  public func encode(
    into output: inout OutputSpan<UInt8>, options: NDEFEncodingOptions = .canonical
  ) throws(NDEFError) {
    let count = try encodedCount(options: options)
    guard output.freeCapacity >= count else {
      throw NDEFError(.bufferTooSmall, offset: output.count)
    }
    let chunkSize = try Self.chunkSize(options)
    for (index, record) in records.enumerated() {
      Self.write(
        record, first: index == 0, last: index == records.count - 1, chunkSize: chunkSize,
        into: &output)
    }
  }

  /// The encoded message as a new array.
  public func encodedBytes(options: NDEFEncodingOptions = .canonical) throws(NDEFError)
    -> [UInt8]
  {
    let count = try encodedCount(options: options)
    return try encodeToArray(count: count) { (output: inout OutputSpan<UInt8>) throws(NDEFError) in
      try encode(into: &output, options: options)
    }
  }

  /// Writes the message into a caller's raw buffer and returns the bytes written.
  ///
  /// - Throws: as ``encode(into:options:)``.
  public func encode(
    into buffer: UnsafeMutableRawBufferPointer, options: NDEFEncodingOptions = .canonical
  ) throws(NDEFError) -> Int {
    try unsafe encodeIntoBuffer(buffer) { (output: inout OutputSpan<UInt8>) throws(NDEFError) in
      try encode(into: &output, options: options)
    }
  }

  private static func chunkSize(_ options: NDEFEncodingOptions) throws(NDEFError) -> Int {
    guard let size = options.maximumChunkPayloadSize else { return Int.max }
    guard size >= 1 else { throw NDEFError(.invalidChunkSize, offset: 0) }
    return size
  }

  /// Header size of one record or chunk: flags, TYPE_LENGTH, PAYLOAD_LENGTH, ID_LENGTH.
  private static func headerCount(payload: Int, hasID: Bool) -> Int {
    2 + (payload <= 255 ? 1 : 4) + (hasID ? 1 : 0)
  }

  private static func encodedCount(of record: NDEFRecord, chunkSize: Int) -> Int {
    let payload = record.payload.count
    guard payload > chunkSize else {
      return headerCount(payload: payload, hasID: !record.id.isEmpty) + record.type.count
        + record.id.count + payload
    }
    // Initial chunk carries type and id; the rest carry only payload.
    var total =
      headerCount(payload: chunkSize, hasID: !record.id.isEmpty) + record.type.count
      + record.id.count + chunkSize
    var remaining = payload - chunkSize
    while remaining > 0 {
      let part = min(remaining, chunkSize)
      total += headerCount(payload: part, hasID: false) + part
      remaining -= part
    }
    return total
  }

  private static func writeHeader(
    _ header: NDEFRecordHeader, typeLength: Int, payloadLength: Int, idLength: Int?,
    into output: inout OutputSpan<UInt8>
  ) {
    output.appendByte(header.rawValue)
    output.appendByte(UInt8(truncatingIfNeeded: typeLength))
    if header.shortRecord {
      output.appendByte(UInt8(truncatingIfNeeded: payloadLength))
    } else {
      output.appendBigEndian(UInt32(truncatingIfNeeded: payloadLength))
    }
    if let idLength { output.appendByte(UInt8(truncatingIfNeeded: idLength)) }
  }

  private static func write(
    _ record: NDEFRecord, first: Bool, last: Bool, chunkSize: Int,
    into output: inout OutputSpan<UInt8>
  ) {
    let payload = record.payload
    let hasID = !record.id.isEmpty
    let firstPart = min(payload.count, chunkSize)
    let chunked = payload.count > chunkSize
    writeHeader(
      NDEFRecordHeader(
        messageBegin: first, messageEnd: last && !chunked, chunked: chunked,
        shortRecord: firstPart <= 255, idLengthPresent: hasID,
        typeNameFormat: record.typeNameFormat),
      typeLength: record.type.count, payloadLength: firstPart,
      idLength: hasID ? record.id.count : nil, into: &output)
    output.appendBytes(record.type)
    output.appendBytes(record.id)
    let payloadSpan = payload.span.bytes
    output.appendBytes(payloadSpan.extracting(0..<firstPart))
    var start = firstPart
    while start < payload.count {
      let part = min(payload.count - start, chunkSize)
      let final = start + part == payload.count
      writeHeader(
        NDEFRecordHeader(
          messageBegin: false, messageEnd: last && final, chunked: !final,
          shortRecord: part <= 255, idLengthPresent: false, typeNameFormat: .unchanged),
        typeLength: 0, payloadLength: part, idLength: nil, into: &output)
      output.appendBytes(payloadSpan.extracting(start..<(start + part)))
      start += part
    }
  }
}
