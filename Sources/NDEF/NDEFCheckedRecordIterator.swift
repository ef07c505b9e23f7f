// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The record-sequence state validation carries from one physical record to the next
/// (NDEF 1.0 §2.3.3, §3.2): the chunk sequence in progress and the record counts. Shared by
/// ``NDEFMessageView/init(validating:baseOffset:options:)-(RawSpan,_,_)`` and
/// ``NDEFCheckedRecordIterator`` so both apply the same rules in the same order.
@usableFromInline
struct NDEFRecordSequenceChecker: BitwiseCopyable {
  /// Whether the next record continues a chunk sequence.
  @usableFromInline var inChunkSequence = false
  /// Logical records so far (a chunk sequence counts once).
  @usableFromInline var logicalCount = 0
  /// Physical records so far.
  @usableFromInline var physicalCount = 0
  @usableFromInline let maximumRecordCount: Int

  @inlinable init(maximumRecordCount: Int) {
    self.maximumRecordCount = maximumRecordCount
  }

  /// Reads the physical record at `start` and advances the sequence over it.
  ///
  /// Returns the record's layout, whether it continues a chunk sequence, and whether it
  /// breaks none of the per-record rules (``NDEFMessageView/isClean``); the caller reports
  /// the rules a record that is not clean breaks.
  ///
  /// - Throws: the layout error naming the field that runs past the end, or
  ///   ``NDEFError/Code/tooManyRecords``.
  @inlinable @inline(__always)
  mutating func check(_ bytes: RawSpan, at start: Int, baseOffset: Int) throws(NDEFError)
    -> (record: NDEFPhysicalRecord, continuation: Bool, clean: Bool)
  {
    let record: NDEFPhysicalRecord
    if let scanned = NDEFPhysicalRecord.scan(bytes, at: start) {
      record = scanned
    } else {
      // Some field runs past the end: `read` throws the error that names it.
      record = try NDEFMessageView.readFailing(bytes, at: start, baseOffset: baseOffset)
    }
    let h = record.header.rawValue
    let continuation = inChunkSequence
    if !continuation {
      logicalCount &+= 1
      guard logicalCount <= maximumRecordCount else {
        throw NDEFError(.tooManyRecords, offset: baseOffset &+ start)
      }
    }
    // A chunk sequence runs while CF is set (ME ends it, and breaks a rule).
    inChunkSequence = h & NDEFRecordHeader.chunkFlagBit != 0 && h & NDEFRecordHeader.messageEndBit == 0
    physicalCount &+= 1
    let clean = NDEFMessageView.isClean(
      header: h, typeLength: record.typeLength, idLength: record.idLength,
      payloadLength: record.payloadLength,
      first: start == 0, continuation: continuation)
    return (record, continuation, clean)
  }
}

/// Checks and iterates the logical records of unvalidated bytes in one strict pass
/// (NDEF 1.0 §2 and §3): made by ``NDEFMessageView/checkedRecords(_:baseOffset:maximumRecordCount:)``.
///
/// `next()` applies every rule of strict ``NDEFMessageView`` validation, record by record,
/// and throws the same error at the same offset; after an error, and after the record
/// with ME, it returns `nil`. Nothing is copied and nothing allocated.
public struct NDEFCheckedRecordIterator: ~Escapable, BitwiseCopyable {
  @usableFromInline let bytes: RawSpan
  @usableFromInline let baseOffset: Int
  @usableFromInline var index = 0
  @usableFromInline var checker: NDEFRecordSequenceChecker
  @usableFromInline var finished = false

  @_lifetime(copy bytes)
  @inlinable init(_ bytes: RawSpan, baseOffset: Int, maximumRecordCount: Int) {
    self.bytes = bytes
    self.baseOffset = baseOffset
    self.checker = NDEFRecordSequenceChecker(maximumRecordCount: maximumRecordCount)
  }

  /// The number of logical records handed out so far.
  @inlinable public var recordCount: Int { checker.logicalCount }

  /// The next record, checked with all its chunks, or `nil` after the record with ME.
  ///
  /// - Throws: ``NDEFError`` with the first rule broken: `emptyInput` on no bytes, a layout
  ///   or per-record rule, `tooManyRecords`, `dataAfterMessageEnd` (instead of the record
  ///   with ME), or `missingMessageEnd` when the bytes end first.
  @_lifetime(copy self)
  @inlinable @inline(__always)
  public mutating func next() throws(NDEFError) -> NDEFRecordView? {
    // The common case inline: an unchunked record that breaks no rule, followed by more
    // bytes (no ME) or by none (ME). Anything else takes the general path, which applies
    // the same rules in full.
    let start = index
    let total = bytes.byteCount
    let found: NDEFLogicalRecordLayout?
    if !finished, let record = NDEFPhysicalRecord.scan(bytes, at: start),
      Self.isCommon(record, at: start, total: total, checker: checker)
    {
      // (The physical count is `init(validating:)`'s; this iterator reports logical records.)
      checker.logicalCount &+= 1
      index = record.end
      finished = record.header.messageEnd
      found = NDEFLogicalRecordLayout(
        first: record, end: record.end, chunkCount: 1, payloadLength: record.payloadLength)
    } else if finished {
      // After the record with ME (or an error): no call out of line.
      return nil
    } else {
      // Out of line with the state passed and returned as values: a call given the
      // iterator's address would keep the iterator in memory across the caller's whole loop
      // (reloaded and stored for every record); this way it stays in registers.
      let step = Self.general(
        bytes, baseOffset: baseOffset, index: index, checker: checker)
      index = step.index
      checker = step.checker
      finished = step.finished
      if let error = step.error { throw error }
      found = step.layout
    }
    // The view is made here, after both paths meet, from escapable integers: a view
    // returned from the out-of-line path would reach the caller through memory.
    guard let found else { return nil }
    return NDEFRecordView(
      layout: found.first, typeNameFormat: found.first.header.typeNameFormat,
      bytes: unsafe bytes.extracting(unchecked: Range(uncheckedBounds: (found.first.start, found.end))),
      offset: baseOffset &+ found.first.start, chunkCount: found.chunkCount,
      payloadLength: found.payloadLength)
  }

  /// Whether `record` (at `start`, fitting) is the common case `next()` takes inline: not
  /// chunked, breaking no rule, within the record bound, with ME exactly when it ends the bytes.
  @inlinable @inline(__always)
  static func isCommon(
    _ record: NDEFPhysicalRecord, at start: Int, total: Int, checker: NDEFRecordSequenceChecker
  )
    -> Bool
  {
    let h = record.header.rawValue
    let messageEnd = h & NDEFRecordHeader.messageEndBit != 0
    // The usual record (not the first, MB and CF clear, TNF 1-4 with a TYPE) is clean
    // without the full predicate.
    let mbOrCF = NDEFRecordHeader.messageBeginBit | NDEFRecordHeader.chunkFlagBit
    let usual =
      start != 0 && h & mbOrCF == 0 && (h & NDEFRecordHeader.typeNameFormatMask) &- 1 < 4
      && record.typeLength != 0
    let clean =
      usual
      || NDEFMessageView.isClean(
        header: h, typeLength: record.typeLength, idLength: record.idLength,
        payloadLength: record.payloadLength, first: start == 0, continuation: false)
    return clean && h & NDEFRecordHeader.chunkFlagBit == 0
      && checker.logicalCount < checker.maximumRecordCount
      && messageEnd == (record.end == total)
  }

  /// ``nextInGeneral()`` on an iterator made from the values given (not finished), returning
  /// its outcome and the state after it.
  @usableFromInline @inline(never)
  static func general(_ bytes: RawSpan, baseOffset: Int, index: Int, checker: NDEFRecordSequenceChecker)
    -> NDEFCheckedRecordStep
  {
    var iterator = NDEFCheckedRecordIterator(bytes, baseOffset: baseOffset, maximumRecordCount: 0)
    iterator.index = index
    iterator.checker = checker
    do throws(NDEFError) {
      let layout = try iterator.nextInGeneral()
      return NDEFCheckedRecordStep(
        layout: layout, error: nil, index: iterator.index, checker: iterator.checker,
        finished: iterator.finished)
    } catch {
      return NDEFCheckedRecordStep(
        layout: nil, error: error, index: iterator.index, checker: iterator.checker,
        finished: iterator.finished)
    }
  }

  /// `next()` for every case: chunk sequences, broken rules, the end of the bytes.
  @usableFromInline @inline(never)
  mutating func nextInGeneral() throws(NDEFError) -> NDEFLogicalRecordLayout? {
    if finished { return nil }
    if let layout = nextCleanChunked() { return layout }
    do throws(NDEFError) {
      let total = bytes.byteCount
      guard index < total else {
        throw NDEFError(total == 0 ? .emptyInput : .missingMessageEnd, offset: baseOffset &+ total)
      }
      let start = index
      let (first, _, clean) = try checker.check(bytes, at: start, baseOffset: baseOffset)
      if !clean { try Self.throwViolation(bytes, at: start, baseOffset: baseOffset, continuation: false) }
      index = first.end
      var chunkCount = 1
      var payloadLength = first.payloadLength
      var messageEnd = first.header.messageEnd
      while checker.inChunkSequence && index < total {
        let chunkStart = index
        let (chunk, _, chunkClean) = try checker.check(bytes, at: chunkStart, baseOffset: baseOffset)
        if !chunkClean {
          try Self.throwViolation(bytes, at: chunkStart, baseOffset: baseOffset, continuation: true)
        }
        index = chunk.end
        chunkCount &+= 1
        let (sum, overflow) = payloadLength.addingReportingOverflow(chunk.payloadLength)
        payloadLength = overflow ? Int.max : sum
        messageEnd = chunk.header.messageEnd
      }
      if messageEnd {
        finished = true
        if index < total { throw NDEFError(.dataAfterMessageEnd, offset: baseOffset &+ index) }
      } else if index >= total {
        throw NDEFError(.missingMessageEnd, offset: baseOffset &+ total)
      }
      return NDEFLogicalRecordLayout(
        first: first, end: index, chunkCount: chunkCount, payloadLength: payloadLength)
    } catch {
      finished = true
      throw error
    }
  }

  /// The usual chunked record (§2.3.3) in one tight loop: an initial chunk that breaks no
  /// rule, then middle and terminating chunks with TNF Unchanged, no TYPE, no ID and no MB,
  /// all fitting, ending with ME exactly when the bytes end. Any other case returns `nil`
  /// with nothing advanced, and the general path, which applies every rule in order, takes
  /// it (and throws the same error as before).
  @inline(__always)
  mutating func nextCleanChunked() -> NDEFLogicalRecordLayout? {
    let total = bytes.byteCount
    let start = index
    guard let first = NDEFPhysicalRecord.scan(bytes, at: start),
      checker.logicalCount < checker.maximumRecordCount, !checker.inChunkSequence
    else { return nil }
    let h = first.header.rawValue
    let chunkFlag = NDEFRecordHeader.chunkFlagBit
    let messageEndBit = NDEFRecordHeader.messageEndBit
    guard h & (chunkFlag | messageEndBit) == chunkFlag,
      NDEFMessageView.isClean(
        header: h, typeLength: first.typeLength, idLength: first.idLength, payloadLength: first.payloadLength,
        first: start == 0, continuation: false)
    else { return nil }
    // A continuation chunk breaks no rule exactly when MB, IL and the TNF bits read
    // 0, 0, Unchanged, it has no TYPE, and not both CF and ME are set.
    let continuationMask =
      NDEFRecordHeader.messageBeginBit | NDEFRecordHeader.idLengthPresentBit
      | NDEFRecordHeader.typeNameFormatMask
    var at = first.end
    var chunkCount = 1
    var payloadLength = first.payloadLength
    while true {
      guard let chunk = NDEFPhysicalRecord.scan(bytes, at: at) else { return nil }
      let c = chunk.header.rawValue
      guard c & continuationMask == TypeNameFormat.unchanged.rawValue, chunk.typeLength == 0,
        c & (chunkFlag | messageEndBit) != chunkFlag | messageEndBit
      else { return nil }
      at = chunk.end
      chunkCount &+= 1
      let (sum, overflow) = payloadLength.addingReportingOverflow(chunk.payloadLength)
      payloadLength = overflow ? Int.max : sum
      if c & chunkFlag == 0 {
        // The terminating chunk: ME exactly when nothing follows.
        let messageEnd = c & messageEndBit != 0
        guard messageEnd == (at == total) else { return nil }
        checker.logicalCount &+= 1
        checker.physicalCount &+= chunkCount
        index = at
        finished = messageEnd
        return NDEFLogicalRecordLayout(
          first: first, end: at, chunkCount: chunkCount, payloadLength: payloadLength)
      }
      // A middle chunk at the end of the bytes: the general path reports it.
      guard at < total else { return nil }
    }
  }

  /// Throws the first per-record rule the record at `start` breaks (out of line).
  @usableFromInline @inline(never)
  static func throwViolation(_ bytes: RawSpan, at start: Int, baseOffset: Int, continuation: Bool)
    throws(NDEFError)
  {
    var unused: [NDEFWarning] = []
    try NDEFMessageView.reportViolations(
      bytes, at: start, baseOffset: baseOffset, first: start == 0, continuation: continuation, lenient: false,
      warnings: &unused)
  }
}

/// Where one logical record stands: its first chunk's layout, the index after its last
/// chunk, its chunk count and summed payload length. Escapable (integers only), so an
/// out-of-line path can hand it back in registers and the inline caller makes the view.
@usableFromInline
struct NDEFLogicalRecordLayout: BitwiseCopyable {
  @usableFromInline var first: NDEFPhysicalRecord
  @usableFromInline var end: Int
  @usableFromInline var chunkCount: Int
  @usableFromInline var payloadLength: Int

  @inlinable init(first: NDEFPhysicalRecord, end: Int, chunkCount: Int, payloadLength: Int) {
    self.first = first
    self.end = end
    self.chunkCount = chunkCount
    self.payloadLength = payloadLength
  }
}

/// What one out-of-line step of ``NDEFCheckedRecordIterator`` did: the record found (or `nil`
/// at the end), the error thrown, and the iterator's state after it.
@usableFromInline
struct NDEFCheckedRecordStep {
  @usableFromInline var layout: NDEFLogicalRecordLayout?
  @usableFromInline var error: NDEFError?
  @usableFromInline var index: Int
  @usableFromInline var checker: NDEFRecordSequenceChecker
  @usableFromInline var finished: Bool

  @inlinable init(
    layout: NDEFLogicalRecordLayout?, error: NDEFError?, index: Int, checker: NDEFRecordSequenceChecker,
    finished: Bool
  ) {
    self.layout = layout
    self.error = error
    self.index = index
    self.checker = checker
    self.finished = finished
  }
}
