// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// One step of a ``BERTLVScanner``: an object framed inside its enclosing value, or the error
/// where the framing of that level breaks (ISO/IEC 7816-4:2013 §5.2.2).
public enum BERTLVScanItem: ~Escapable {
  /// An object whose tag and length fit in the enclosing value. Its own value is not checked:
  /// scan a constructed object's value with ``BERTLVView/scannedChildren``.
  case object(BERTLVView)
  /// The first byte of this level that does not frame an object, with the typed error and
  /// its absolute offset. Nothing after it on this level can be located, so the scan of
  /// this level ends here; the levels around it go on.
  case malformed(APDUError)
}

/// Scans unvalidated BER-TLV bytes one level at a time and never fails as a whole: each
/// object that is framed is handed out as a view, and a bad object is reported where it is,
/// so a malformed nested object hides neither the objects before it nor the siblings of the
/// constructed object that holds it (a constructed object's length bounds its value, §5.2.2.2).
///
/// ```swift
/// var scan = BERTLVScanner(response.data.span.bytes)
/// while let item = scan.next() {
///   switch item {
///   case .object(let tlv): _ = (tlv.tag, tlv.length)  // tlv.scannedChildren for nested ones
///   case .malformed(let error): _ = (error.code, error.offset)
///   }
/// }
/// ```
///
/// The errors and their order are those of ``BERTLVSequenceView/init(validating:baseOffset:options:)-(RawSpan,_,_)``
/// when the levels are walked depth first: the first error of such a walk is the one
/// validation throws (but for `tooManyObjects`, which the scanner counts per level). Bounds: ``BERTLVDecodingOptions/maximumDepth`` as in validation (a
/// constructed object at that depth with a non-empty value scans as `nestingTooDeep`), and
/// ``BERTLVDecodingOptions/maximumObjectCount`` per level. The scanner does not allocate.
public struct BERTLVScanner: ~Escapable {
  var reader: ByteReader
  let depth: Int
  let options: BERTLVDecodingOptions
  var count = 0
  var done = false
  /// An error to report before anything else (a level too deep to scan).
  var pending: APDUError? = nil

  /// A scanner over the top-level objects of `bytes`, whose first byte stands at `baseOffset`.
  @_lifetime(copy bytes)
  public init(_ bytes: RawSpan, baseOffset: Int = 0, options: BERTLVDecodingOptions = .strict) {
    self.init(bytes, baseOffset: baseOffset, depth: 1, options: options)
  }

  @_lifetime(copy bytes)
  init(_ bytes: RawSpan, baseOffset: Int, depth: Int, options: BERTLVDecodingOptions) {
    self.reader = ByteReader(bytes, baseOffset: baseOffset)
    self.depth = depth
    self.options = options
  }

  /// A scanner that reports `error` and ends.
  @_lifetime(copy bytes)
  init(failing error: APDUError, over bytes: RawSpan, depth: Int, options: BERTLVDecodingOptions) {
    self.init(bytes, baseOffset: error.offset, depth: depth, options: options)
    self.pending = error
  }

  /// The next object or error of this level, or `nil` at its end (and after an error).
  @_lifetime(copy self)
  public mutating func next() -> BERTLVScanItem? {
    guard !done else { return nil }
    if let pending {
      done = true
      return .malformed(pending)
    }
    if options.allowsPadding {
      while let byte = reader.peekUInt8(), byte == 0x00 || byte == 0xFF { _ = reader.skip(1) }
    }
    guard !reader.isAtEnd else {
      done = true
      return nil
    }
    let objectOffset = reader.offset
    let header: BERTLVHeader
    do throws(APDUError) {
      header = try BERTLVHeader.read(&reader, options: options)
    } catch {
      done = true
      return .malformed(error)
    }
    count &+= 1
    guard count <= options.maximumObjectCount else {
      done = true
      return .malformed(APDUError(.tooManyObjects, offset: objectOffset))
    }
    // `read` checked that the value fits in what remains.
    _ = reader.skip(header.length)
    let all = reader.bytes
    let base = reader.baseOffset
    return .object(
      BERTLVView(
        tag: header.tag, bytes: all.extracting(header.start..<header.end),
        value: all.extracting(header.valueStart..<header.end), offset: base &+ header.start,
        lengthOffset: base &+ header.lengthStart, valueOffset: base &+ header.valueStart,
        depth: depth, options: options))
  }
}

extension BERTLVScanner {
  /// The first error of a depth-first scan of this level and every level inside it.
  static func firstError(in scanner: consuming BERTLVScanner) -> APDUError? {
    while let item = scanner.next() {
      switch item {
      case .malformed(let error): return error
      case .object(let object):
        if object.isConstructed, let error = firstError(in: object.scannedChildren) { return error }
      }
    }
    return nil
  }
}

extension BERTLVView {
  /// Scans the nested objects of a constructed object (nothing for a primitive one), each
  /// reported as framed or malformed where it is (``BERTLVScanner``). A constructed object
  /// at ``BERTLVDecodingOptions/maximumDepth`` whose value is not empty scans as one
  /// `nestingTooDeep` at its value.
  public var scannedChildren: BERTLVScanner {
    @_lifetime(copy self)
    get {
      let inner = isConstructed ? value : value.extracting(0..<0)
      if isConstructed, length > 0, depth >= options.maximumDepth {
        return BERTLVScanner(
          failing: APDUError(.nestingTooDeep, offset: valueOffset), over: inner, depth: depth &+ 1,
          options: options)
      }
      return BERTLVScanner(inner, baseOffset: valueOffset, depth: depth &+ 1, options: options)
    }
  }
}
