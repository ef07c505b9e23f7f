// SPDX-License-Identifier: Apache-2.0
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
    let total = bytes.byteCount
    var index = 0
    var checker = NDEFRecordSequenceChecker(maximumRecordCount: options.maximumRecordCount)
    var sawMessageEnd = false
    var messageLength = total

    // Runs of records that fit and break no rule go through `walkClean`, whose loop keeps
    // its few variables in registers; each record it stops at goes through the general
    // path below (which throws, warns, or takes a record `walkClean` leaves to it).
    walk: while index < total {
      switch Self.walkClean(bytes, from: &index, checker: &checker) {
      case .end: break walk
      case .messageEnd:
        sawMessageEnd = true
      case .stopped:
        let start = index
        let (record, continuation, clean) = try checker.check(bytes, at: start, baseOffset: baseOffset)
        index = record.end
        if !clean {
          try Self.reportViolations(
            bytes, at: start, baseOffset: baseOffset, first: start == 0, continuation: continuation,
            lenient: lenient, warnings: &warnings)
        }
        sawMessageEnd = record.header.messageEnd
      }
      if sawMessageEnd {
        if index < total {
          guard lenient else { throw NDEFError(.dataAfterMessageEnd, offset: baseOffset &+ index) }
          warnings.append(NDEFWarning(.dataAfterMessageEnd, offset: baseOffset &+ index))
          messageLength = index
        }
        break
      }
    }
    if !sawMessageEnd {
      let end = baseOffset &+ total
      guard lenient else { throw NDEFError(.missingMessageEnd, offset: end) }
      warnings.append(NDEFWarning(.missingMessageEnd, offset: end))
    }
    self.bytes = bytes.extracting(0..<messageLength)
    self.baseOffset = baseOffset
    self.options = options
    self.recordCount = checker.logicalCount
    self.physicalRecordCount = checker.physicalCount
    self.warnings = warnings
  }

  /// Whether a record breaks none of the per-record rules of §2.3.3 and §3.2: exactly when
  /// ``violations(_:first:continuation:)`` is empty (a test checks every header octet).
  /// Branch-free, so a corpus mixing TNFs costs no mispredicted branches: MB, and CF with
  /// ME, are two comparisons; every other rule depends on six bits (the TNF, TYPE present,
  /// ID or PAYLOAD present, CF), and for a continuation chunk on IL, so a 64-bit table per
  /// case holds them, bit `key` set when the combination `key` breaks no rule.
  @inlinable @inline(__always)
  static func isClean(
    header h: UInt8, typeLength: Int, idLength: Int, payloadLength: Int, first: Bool, continuation: Bool
  ) -> Bool {
    // MB on the first record only (§3.2.1); ME never on a chunk that is not the last (§2.3.3).
    let messageBeginRight = (h >> 7 != 0) == first
    let messageEndInChunk = h & 0x60 == 0x60
    let hasType: UInt8 = typeLength != 0 ? 0b1000 : 0
    let content: UInt8 = (idLength | payloadLength) != 0 ? 0b1_0000 : 0
    // Bits 0-2 TNF, 3 TYPE present, 4 ID or PAYLOAD present, 5 CF.
    let key = (h & (NDEFRecordHeader.typeNameFormatMask | NDEFRecordHeader.chunkFlagBit)) | hasType | content
    // First chunks and unchunked records (§3.2.6): TNF 1-4 with a TYPE; Unknown (5) without;
    // Empty (0) with no TYPE, ID or PAYLOAD and not chunked; Unchanged (6) and Reserved (7)
    // never. Continuation chunks (§2.3.3): TNF Unchanged and no TYPE, whatever the rest,
    // and no ID (IL set: no combination allowed).
    let firstChunks: UInt64 = 0x1E20_1E20_1E20_1E21
    let continuations: UInt64 = h & NDEFRecordHeader.idLengthPresentBit != 0 ? 0 : 0x0040_0040_0040_0040
    let table = continuation ? continuations : firstChunks
    return messageBeginRight && !messageEndInChunk && (table &>> UInt64(key)) & 1 != 0
  }

  /// Where ``walkClean(_:from:checker:)`` stopped.
  enum WalkStop {
    /// The bytes ended (no record with ME yet).
    case end
    /// After the record with ME.
    case messageEnd
    /// Before a record that does not fit, breaks a rule or reaches the record-count bound.
    case stopped
  }

  /// Advances over records that fit and break no per-record rule, the common case, with
  /// nothing but the record-sequence state live in the loop; stops before any other record
  /// (leaving it and the state untouched) or after the record with ME.
  @inline(never)
  static func walkClean(_ bytes: RawSpan, from index: inout Int, checker: inout NDEFRecordSequenceChecker)
    -> WalkStop
  {
    let total = bytes.byteCount
    var at = index
    var state = checker
    defer {
      index = at
      checker = state
    }
    while at < total {
      guard let record = NDEFPhysicalRecord.scan(bytes, at: at) else { return .stopped }
      let h = record.header.rawValue
      let continuation = state.inChunkSequence
      // The usual record first: not the first, not in or starting a chunk sequence (MB and
      // CF clear), TNF 1-4 with a TYPE. It breaks no rule (`isClean` holds), so only the
      // counts and the position move.
      let mbOrCF = NDEFRecordHeader.messageBeginBit | NDEFRecordHeader.chunkFlagBit
      if !continuation && at != 0 && h & mbOrCF == 0
        && (h & NDEFRecordHeader.typeNameFormatMask) &- 1 < 4 && record.typeLength != 0
        && state.logicalCount < state.maximumRecordCount
      {
        state.logicalCount &+= 1
        state.physicalCount &+= 1
        at = record.end
        if h & NDEFRecordHeader.messageEndBit != 0 { return .messageEnd }
        continue
      }
      guard
        continuation || state.logicalCount < state.maximumRecordCount,
        isClean(
          header: h, typeLength: record.typeLength, idLength: record.idLength,
          payloadLength: record.payloadLength, first: at == 0, continuation: continuation)
      else { return .stopped }
      if !continuation { state.logicalCount &+= 1 }
      state.inChunkSequence =
        h & NDEFRecordHeader.chunkFlagBit != 0 && h & NDEFRecordHeader.messageEndBit == 0
      state.physicalCount &+= 1
      at = record.end
      if h & NDEFRecordHeader.messageEndBit != 0 { return .messageEnd }
    }
    return .end
  }

  /// Reads the record at `start` with ``NDEFPhysicalRecord/read(_:)``, for a record whose
  /// fields do not all fit: it throws the error naming the first field past the end.
  @usableFromInline @inline(never)
  static func readFailing(_ bytes: RawSpan, at start: Int, baseOffset: Int) throws(NDEFError)
    -> NDEFPhysicalRecord
  {
    var reader = ByteReader(bytes, baseOffset: baseOffset)
    _ = reader.move(to: start)
    return try NDEFPhysicalRecord.read(&reader)
  }

  /// Throws the first per-record rule the record at `start` breaks (strict), or notes
  /// every one as a warning (lenient). Out of line: valid input never gets here.
  @usableFromInline @inline(never)
  static func reportViolations(
    _ bytes: RawSpan, at start: Int, baseOffset: Int, first: Bool, continuation: Bool, lenient: Bool,
    warnings: inout [NDEFWarning]
  ) throws(NDEFError) {
    guard let record = NDEFPhysicalRecord.scan(bytes, at: start) else { return }
    let offset = baseOffset &+ start
    for code in violations(record, first: first, continuation: continuation) {
      guard lenient else { throw NDEFError(code, offset: offset) }
      warnings.append(NDEFWarning(code, offset: offset))
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
    @inlinable get { NDEFRecordIterator(bytes, baseOffset: baseOffset, lenient: options.isLenient) }
  }

  /// Checks and iterates the records of unvalidated `bytes` in one pass (strict): for a
  /// reader that visits every record once, this does the work of `init(validating:)` and
  /// `records` together, reading each header once.
  ///
  /// The iterator throws the error `init(validating:)` would throw, at the record where it
  /// finds it; records before it have been handed out. A loop that reaches `nil` has
  /// validated the whole message.
  ///
  /// ```swift
  /// var records = NDEFMessageView.checkedRecords(bytes.span.bytes)
  /// while let record = try records.next() { _ = record.payload }
  /// ```
  @_lifetime(copy bytes)
  @inlinable
  public static func checkedRecords(
    _ bytes: RawSpan, baseOffset: Int = 0,
    maximumRecordCount: Int = NDEFDecodingOptions.defaultMaximumRecordCount
  ) -> NDEFCheckedRecordIterator {
    NDEFCheckedRecordIterator(bytes, baseOffset: baseOffset, maximumRecordCount: maximumRecordCount)
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
/// Inlinable: a caller's loop compiles to index arithmetic over its own bytes.
public struct NDEFRecordIterator: ~Escapable, BitwiseCopyable {
  @usableFromInline let bytes: RawSpan
  @usableFromInline let baseOffset: Int
  @usableFromInline var index: Int
  @usableFromInline let lenient: Bool

  @_lifetime(copy bytes)
  @inlinable init(_ bytes: RawSpan, baseOffset: Int, lenient: Bool) {
    self.bytes = bytes
    self.baseOffset = baseOffset
    self.index = 0
    self.lenient = lenient
  }

  /// The next record, or `nil` after the last one.
  @_lifetime(copy self)
  @inlinable @inline(__always) public mutating func next() -> NDEFRecordView? {
    guard let first = NDEFPhysicalRecord.scan(bytes, at: index) else { return nil }
    index = first.end
    var end = first.end
    var chunkCount = 1
    var payloadLength = first.payloadLength
    if first.header.chunked && !first.header.messageEnd {
      // Static, integers in and out: a mutating call would take the iterator's address and
      // keep it in memory across the caller's whole loop.
      (end, chunkCount, payloadLength) = Self.continueChunks(
        bytes, at: first.end, payloadLength: payloadLength)
      index = end
    }
    var tnf = first.header.typeNameFormat
    if lenient && (tnf == .reserved || tnf == .unchanged) { tnf = .unknown }
    return NDEFRecordView(
      layout: first, typeNameFormat: tnf,
      bytes: unsafe bytes.extracting(unchecked: Range(uncheckedBounds: (first.start, end))),
      offset: baseOffset &+ first.start, chunkCount: chunkCount, payloadLength: payloadLength)
  }

  /// Walks the continuation chunks of `bytes` from `start`, after a first chunk with
  /// `payloadLength` octets (the message was validated: they follow until CF is clear, or in
  /// lenient mode until ME is set or the message ends); returns the record's end, its chunk
  /// count and its summed payload length. Integers in and out, so the caller keeps its in
  /// registers.
  @usableFromInline
  static func continueChunks(_ bytes: RawSpan, at start: Int, payloadLength: Int)
    -> (end: Int, chunks: Int, payload: Int)
  {
    var end = start
    var chunkCount = 1
    var payloadLength = payloadLength
    while let chunk = NDEFPhysicalRecord.scan(bytes, at: end) {
      end = chunk.end
      chunkCount &+= 1
      payloadLength = Checked.add(payloadLength, chunk.payloadLength) ?? Int.max
      if !chunk.header.chunked || chunk.header.messageEnd { break }
    }
    return (end, chunkCount, payloadLength)
  }
}
