import NFCWire

/// A validated NDEF message over the caller's bytes (NFC Forum NDEF 1.0, §2 and §3).
///
/// `init(validating:)` checks the whole message once, without allocating and without
/// copying; the records are then iterated lazily as views into the same bytes:
///
/// ```swift
/// let message = try NDEFMessageView(validating: bytes.span.bytes)
/// var records = message.records
/// while let record = records.next() { print(record.typeNameFormat, record.payload.byteCount) }
/// ```
///
/// Throws ``NDEFError`` with the first rule broken (strict mode) or collects
/// ``NDEFWarning``s (lenient mode: see ``NDEFDecodingOptions/isLenient``).
public struct NDEFMessageView: ~Escapable {
  /// The message's bytes: up to and including the record with ME set (bytes after ME,
  /// accepted in lenient mode, are not part of it).
  public let bytes: RawSpan
  /// Absolute offset of `bytes`' first byte in the caller's input.
  public let baseOffset: Int
  /// The options the message was validated with.
  public let options: NDEFDecodingOptions
  /// The number of logical records (a chunk sequence counts once).
  public let recordCount: Int
  /// The number of records on the wire (every chunk counts).
  public let physicalRecordCount: Int
  /// The rules the input broke that lenient decoding accepted, in input order; always empty
  /// in strict mode. Empty arrays do not allocate.
  public let warnings: [NDEFWarning]

  /// Validates `bytes` as one NDEF message.
  ///
  /// - Parameters:
  ///   - bytes: the message; nothing else may follow it unless `options` is lenient.
  ///   - baseOffset: where `bytes` starts in a larger input, so offsets stay absolute
  ///     (e.g. an NDEF TLV inside a tag image).
  ///   - options: strict (default) or lenient validation and size bounds.
  /// - Throws: ``NDEFError`` naming the rule broken and its offset.
  @_lifetime(copy bytes)
  public init(
    validating bytes: RawSpan, baseOffset: Int = 0, options: NDEFDecodingOptions = .strict
  ) throws(NDEFError) {
    guard bytes.byteCount > 0 else { throw NDEFError(.emptyInput, offset: baseOffset) }
    let lenient = options.isLenient
    var warnings: [NDEFWarning] = []
    var reader = ByteReader(bytes, baseOffset: baseOffset)
    var inChunkSequence = false
    var logicalCount = 0
    var physicalCount = 0
    var sawMessageEnd = false
    var messageLength = bytes.byteCount

    while !reader.isAtEnd {
      let record: NDEFPhysicalRecord
      if let scanned = NDEFPhysicalRecord.scan(bytes, at: reader.index) {
        record = scanned
        _ = reader.move(to: scanned.end)
      } else {
        record = try NDEFPhysicalRecord.read(&reader)
      }
      let offset = baseOffset &+ record.start
      let header = record.header
      let first = physicalCount == 0
      let continuation = inChunkSequence
      if continuation {
        if !header.chunked { inChunkSequence = false }
      } else {
        logicalCount &+= 1
        guard logicalCount <= options.maximumRecordCount else {
          throw NDEFError(.tooManyRecords, offset: offset)
        }
        if header.chunked { inChunkSequence = true }
      }
      if header.messageEnd && header.chunked { inChunkSequence = false }
      physicalCount &+= 1
      // The common case costs one predicate; the list of broken rules is built only when
      // the predicate fails, and reported in the order the rules are checked.
      if !Self.isClean(record, first: first, continuation: continuation) {
        for code in Self.violations(record, first: first, continuation: continuation) {
          guard lenient else { throw NDEFError(code, offset: offset) }
          warnings.append(NDEFWarning(code, offset: offset))
        }
      }
      if header.messageEnd {
        sawMessageEnd = true
        if !reader.isAtEnd {
          guard lenient else { throw NDEFError(.dataAfterMessageEnd, offset: reader.offset) }
          warnings.append(NDEFWarning(.dataAfterMessageEnd, offset: reader.offset))
          messageLength = reader.index
        }
        break
      }
    }
    if !sawMessageEnd {
      let end = baseOffset &+ bytes.byteCount
      guard lenient else { throw NDEFError(.missingMessageEnd, offset: end) }
      warnings.append(NDEFWarning(.missingMessageEnd, offset: end))
    }
    self.bytes = bytes.extracting(0..<messageLength)
    self.baseOffset = baseOffset
    self.options = options
    self.recordCount = logicalCount
    self.physicalRecordCount = physicalCount
    self.warnings = warnings
  }

  /// Whether a record breaks none of the per-record rules of §2.3.3 and §3.2.
  @inline(__always)
  static func isClean(_ record: NDEFPhysicalRecord, first: Bool, continuation: Bool) -> Bool {
    let header = record.header.rawValue
    let tnf = header & NDEFRecordHeader.typeNameFormatMask
    let messageBegin = header & NDEFRecordHeader.messageBeginBit != 0
    let chunked = header & NDEFRecordHeader.chunkFlagBit != 0
    if messageBegin != first { return false }
    if chunked && header & NDEFRecordHeader.messageEndBit != 0 { return false }
    if continuation {
      return tnf == TypeNameFormat.unchanged.rawValue && record.typeLength == 0
        && header & NDEFRecordHeader.idLengthPresentBit == 0
    }
    switch tnf {
    case 1...4: return record.typeLength != 0
    case 5: return record.typeLength == 0
    case 0: return !chunked && record.typeLength == 0 && record.idLength == 0 && record.payloadLength == 0
    default: return false
    }
  }

  /// Every per-record rule a record breaks, in the order strict decoding reports them.
  static func violations(_ record: NDEFPhysicalRecord, first: Bool, continuation: Bool) -> [NDEFError.Code] {
    let header = record.header
    let tnf = header.typeNameFormat
    var broken: [NDEFError.Code] = []
    if first {
      if !header.messageBegin { broken.append(.missingMessageBegin) }
    } else if header.messageBegin {
      broken.append(.unexpectedMessageBegin)
    }
    if continuation {
      if tnf != .unchanged { broken.append(.chunkContinuationNotUnchanged) }
      if record.typeLength != 0 { broken.append(.chunkContinuationHasType) }
      if header.idLengthPresent { broken.append(.chunkContinuationHasID) }
    } else {
      switch tnf {
      case .empty:
        if record.typeLength != 0 || record.idLength != 0 || record.payloadLength != 0 {
          broken.append(.emptyRecordNotEmpty)
        }
        if header.chunked { broken.append(.chunkedEmptyRecord) }
      case .unknown:
        if record.typeLength != 0 { broken.append(.unexpectedType) }
      case .unchanged:
        broken.append(.unchangedOutsideChunk)
      case .reserved:
        broken.append(.reservedTypeNameFormat)
      default:
        if record.typeLength == 0 { broken.append(.missingType) }
      }
    }
    if header.messageEnd && header.chunked { broken.append(.messageEndInChunk) }
    return broken
  }

  /// Validates the bytes of a `Span<UInt8>` (from `[UInt8].span`, `ArraySlice.span`, ...).
  @_lifetime(copy bytes)
  public init(
    validating bytes: Span<UInt8>, baseOffset: Int = 0, options: NDEFDecodingOptions = .strict
  ) throws(NDEFError) {
    try self.init(validating: bytes.bytes, baseOffset: baseOffset, options: options)
  }

  /// The logical records, in order, as views (chunk sequences yield one record each).
  public var records: NDEFRecordIterator {
    @_lifetime(copy self)
    get { NDEFRecordIterator(bytes, baseOffset: baseOffset, lenient: options.isLenient) }
  }

  /// The first record (every valid message has one).
  public var firstRecord: NDEFRecordView? {
    @_lifetime(copy self)
    get {
      var iterator = records
      return iterator.next()
    }
  }
}

/// Iterates the logical records of a validated message, lazily and without allocating.
public struct NDEFRecordIterator: ~Escapable {
  let bytes: RawSpan
  let baseOffset: Int
  var index: Int
  let lenient: Bool

  @_lifetime(copy bytes)
  init(_ bytes: RawSpan, baseOffset: Int, lenient: Bool) {
    self.bytes = bytes
    self.baseOffset = baseOffset
    self.index = 0
    self.lenient = lenient
  }

  /// The next record, or `nil` after the last one.
  @_lifetime(copy self)
  public mutating func next() -> NDEFRecordView? {
    guard let first = NDEFPhysicalRecord.scan(bytes, at: index) else { return nil }
    index = first.end
    var end = first.end
    var chunkCount = 1
    var payloadLength = first.payloadLength
    if first.header.chunked && !first.header.messageEnd {
      // The message was validated: continuation chunks follow until CF is clear (or, in
      // lenient mode, ME is set or the message ends).
      while let chunk = NDEFPhysicalRecord.scan(bytes, at: index) {
        index = chunk.end
        end = chunk.end
        chunkCount &+= 1
        payloadLength = Checked.add(payloadLength, chunk.payloadLength) ?? Int.max
        if !chunk.header.chunked || chunk.header.messageEnd { break }
      }
    }
    var tnf = first.header.typeNameFormat
    if lenient && (tnf == .reserved || tnf == .unchanged) { tnf = .unknown }
    return NDEFRecordView(
      layout: first, typeNameFormat: tnf, bytes: bytes.extracting(first.start..<end),
      offset: baseOffset &+ first.start, chunkCount: chunkCount, payloadLength: payloadLength)
  }
}
