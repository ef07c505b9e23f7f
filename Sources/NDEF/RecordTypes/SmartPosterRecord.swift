// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The Smart Poster action (RTD Smart Poster 1.0 §3.3.3, record type `act`).
public struct SmartPosterAction: RawRepresentable, Sendable, Hashable {
  /// The action byte.
  public let rawValue: UInt8
  /// Creates an action from its byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// 0x00: do the action (send the SMS, launch the browser, call).
  public static let doAction = SmartPosterAction(rawValue: 0)
  /// 0x01: save for later.
  public static let saveForLater = SmartPosterAction(rawValue: 1)
  /// 0x02: open for editing.
  public static let openForEditing = SmartPosterAction(rawValue: 2)
  /// `doAction`, `saveForLater`, `openForEditing`, or `reserved`.
  public var name: String {
    switch rawValue {
    case 0: return "doAction"
    case 1: return "saveForLater"
    case 2: return "openForEditing"
    default: return "reserved"
    }
  }
}

/// A Smart Poster payload (well-known type `Sp`, RTD Smart Poster 1.0 §3): a nested NDEF
/// message with exactly one URI record, optional titles (Text records, at most one per
/// language), an action, a size, a type and icons. The nested message is a view into the
/// same bytes; its depth counts against ``NDEFDecodingOptions/maximumNestingDepth``.
public struct SmartPosterView: ~Escapable {
  /// The well-known type name `Sp`.
  public static let type: [UInt8] = Array("Sp".utf8)
  /// The local type of the action record.
  public static let actionType: [UInt8] = Array("act".utf8)
  /// The local type of the size record.
  public static let sizeType: [UInt8] = Array("s".utf8)
  /// The local type of the type record.
  public static let typeType: [UInt8] = Array("t".utf8)

  /// The nested message.
  public let message: NDEFMessageView
  /// The URI (the first one in lenient mode); `nil` in lenient mode without a URI record,
  /// or when the (first) URI record is malformed (see ``malformedRecords(depth:)``).
  public let uri: URIRecordView?
  /// The action, when an `act` record is present.
  public let action: SmartPosterAction?
  /// The size of the referenced object in bytes, when an `s` record is present.
  public let size: UInt32?
  /// The MIME type of the referenced object (`t` record), when present.
  public let mimeType: RawSpan?
  /// The number of title (Text) records that decode (malformed ones are not counted).
  public let titleCount: Int
  /// The number of icon records (§3.3.6: media records of type `image/*` or `video/*`).
  public let iconCount: Int
  /// Lenient-mode warnings (nested message warnings included).
  public let warnings: [NDEFWarning]

  /// Decodes a Smart Poster payload whose first byte stands at `baseOffset`, nested
  /// `depth` levels below the top-level message.
  ///
  /// The nested message's framing and the poster's own rules (§3.3) are checked here; the
  /// typed result of each nested record is separate, as for a top-level message: a URI or
  /// Text record whose payload breaks its RTD does not fail the poster, it is listed by
  /// ``malformedRecords(depth:)`` (and its valid siblings still decode).
  ///
  /// - Throws: the nested message's framing errors, `nestingTooDeep`, `smartPosterMissingURI`
  ///   (no URI record at all), `smartPosterMultipleURIs`, `smartPosterDuplicateTitle`.
  ///   A bad local record (`act`, `s`, `t`, §3.3.3-§3.3.5) does not throw: it is listed by
  ///   ``malformedRecords(depth:)`` and its property stays nil.
  @_lifetime(copy payload)
  public init(
    validating payload: RawSpan, baseOffset: Int = 0, options: NDEFDecodingOptions = .strict,
    depth: Int = 0
  ) throws(NDEFError) {
    guard depth < options.maximumNestingDepth else {
      throw NDEFError(.nestingTooDeep, offset: baseOffset)
    }
    let message = try NDEFMessageView(validating: payload, baseOffset: baseOffset, options: options)
    var sink = WarningSink(lenient: options.isLenient)
    sink.warnings = message.warnings
    var uri: URIRecordView? = nil
    var uriCount = 0
    var action: SmartPosterAction? = nil
    var size: UInt32? = nil
    var mimeType: RawSpan? = nil
    var titleCount = 0
    var iconCount = 0
    var records = message.records
    while let record = records.next() {
      if Self.isIcon(record) { iconCount += 1 }
      guard record.typeNameFormat == .wellKnown, !record.isChunked else { continue }
      if record.hasType(.wellKnown, URIRecordView.type) {
        uriCount += 1
        if uriCount == 1 {
          // A URI record that breaks the URI RTD is a malformed nested record
          // (``malformedRecords(depth:)``), not a failure of the poster.
          if let view = try? URIRecordView(validating: record, options: options) {
            sink.warnings += view.warnings
            uri = view
          }
        } else {
          try sink.report(.smartPosterMultipleURIs, at: record.offset)
        }
      } else if record.hasType(.wellKnown, TextRecordView.type) {
        // A title that breaks the Text RTD is a malformed nested record, not counted.
        if let title = try? TextRecordView(validating: record, options: options) {
          sink.warnings += title.warnings
          titleCount += 1
        }
      } else if let bad = Self.localRecordError(record, options: .strict) {
        // Lenient: a warning, as before (the `t` text is kept); strict: listed by
        // ``malformedRecords(depth:)`` and the value stays nil.
        if options.isLenient {
          sink.warnings.append(NDEFWarning(bad.error.code, offset: bad.error.offset))
          if record.hasType(.wellKnown, Self.typeType) { mimeType = record.payload }
        }
      } else {
        // A local record (`act`, `s`, `t`) that breaks §3.3.3-§3.3.5 is a malformed nested
        // record (``malformedRecords(depth:)``): its value stays nil, the poster decodes.
        if record.hasType(.wellKnown, Self.actionType) {
          action = record.payload.byte(at: 0).flatMap { SmartPosterAction(rawValue: $0) }
        } else if record.hasType(.wellKnown, Self.sizeType) {
          var reader = ByteReader(record.payload, baseOffset: record.payloadOffset)
          size = reader.readUInt32BE()
        } else if record.hasType(.wellKnown, Self.typeType) {
          mimeType = record.payload
        }
      }
    }
    if uriCount == 0 { try sink.report(.smartPosterMissingURI, at: baseOffset) }
    // One title per language (§3.3.2): checked only when there are several, so a poster
    // with at most one title decodes without allocating.
    if titleCount > 1 {
      var languages: Set<[UInt8]> = []
      var again = message.records
      while let record = again.next() {
        guard record.hasType(.wellKnown, TextRecordView.type), !record.isChunked,
          let title = try? TextRecordView(
            validating: record.payload, baseOffset: record.payloadOffset, options: .lenient)
        else { continue }
        let language = title.languageCode.copiedBytes().map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        if !languages.insert(language).inserted {
          try sink.report(.smartPosterDuplicateTitle, at: record.offset)
        }
      }
    }
    self.message = message
    self.uri = uri
    self.action = action
    self.size = size
    self.mimeType = mimeType
    self.titleCount = titleCount
    self.iconCount = iconCount
    self.warnings = sink.warnings
  }

  /// Decodes the payload of a Smart Poster record view.
  @_lifetime(copy record)
  public init(
    validating record: borrowing NDEFRecordView, options: NDEFDecodingOptions = .strict, depth: Int = 0
  ) throws(NDEFError) {
    guard record.hasType(.wellKnown, Self.type), !record.isChunked else {
      throw NDEFError(.recordTypeMismatch, offset: record.offset)
    }
    try self.init(
      validating: record.payload, baseOffset: record.payloadOffset, options: options, depth: depth)
  }

  /// Whether a record is an icon: TNF Media with a type starting `image/` or `video/` (§3.3.6).
  public static func isIcon(_ record: borrowing NDEFRecordView) -> Bool {
    guard record.typeNameFormat == .media else { return false }
    let type = record.type
    let image: [UInt8] = Array("image/".utf8)
    let video: [UInt8] = Array("video/".utf8)
    return type.byteCount > 6
      && (asciiCaseInsensitiveEqual(type.extracting(0..<6), image)
        || asciiCaseInsensitiveEqual(type.extracting(0..<6), video))
  }

  /// The nested records whose payload breaks their record type (a title that is not valid
  /// UTF-8, a URI with a reserved prefix in strict mode, ...), with their index and typed
  /// error; `depth` is the poster's own depth. In strict mode a poster with any is not
  /// valid; lenient callers may treat them as warnings.
  ///
  /// The poster's local records (`act`, `s`, `t`; local names resolve only inside the
  /// poster, NFC Forum RTD 1.0 §2.3) are listed here too, with the kinds
  /// ``RecordKind/smartPosterAction``, ``RecordKind/smartPosterSize`` and
  /// ``RecordKind/smartPosterType``, in record order with the others.
  public func malformedRecords(depth: Int = 0) -> [NestedMalformedRecord] {
    var result = message.malformedRecords(depth: depth &+ 1)
    var records = message.records
    var index = 0
    while let record = records.next() {
      if let malformed = Self.localRecordError(record, options: message.options) {
        let at = result.firstIndex(where: { $0.index > index }) ?? result.endIndex
        result.insert(NestedMalformedRecord(index: index, malformed: malformed), at: at)
      }
      index += 1
    }
    return result
  }

  /// The typed error of a Smart Poster local record whose payload breaks its rule: `act`
  /// not one byte of 0...2 (§3.3.3, `smartPosterInvalidAction` at the payload), `s` not
  /// 4 bytes (§3.3.4, `smartPosterInvalidSize` at the payload), `t` not UTF-8 (§3.3.5,
  /// `invalidUTF8` at the first bad byte); nil for a valid one or any other record, and
  /// nil in lenient mode (where the poster reports these as warnings).
  public static func localRecordError(
    _ record: borrowing NDEFRecordView, options: NDEFDecodingOptions = .strict
  ) -> MalformedRecord? {
    guard !options.isLenient, record.typeNameFormat == .wellKnown, !record.isChunked else { return nil }
    if record.hasType(.wellKnown, actionType) {
      guard record.payload.byteCount == 1, let value = record.payload.byte(at: 0), value <= 2 else {
        return MalformedRecord(
          recordType: .smartPosterAction,
          error: NDEFError(.smartPosterInvalidAction, offset: record.payloadOffset))
      }
    } else if record.hasType(.wellKnown, sizeType) {
      guard record.payload.byteCount == 4 else {
        return MalformedRecord(
          recordType: .smartPosterSize,
          error: NDEFError(.smartPosterInvalidSize, offset: record.payloadOffset))
      }
    } else if record.hasType(.wellKnown, typeType) {
      if let bad = TextValidation.firstInvalidUTF8(record.payload) {
        return MalformedRecord(
          recordType: .smartPosterType, error: NDEFError(.invalidUTF8, offset: record.payloadOffset &+ bad))
      }
    }
    return nil
  }

  /// The icon records, in order.
  public var icons: SmartPosterIconIterator {
    @_lifetime(copy self)
    get { SmartPosterIconIterator(records: message.records) }
  }

  /// The title records as Text views, in order.
  public var titles: SmartPosterTitleIterator {
    @_lifetime(copy self)
    get { SmartPosterTitleIterator(records: message.records, options: message.options) }
  }
}

/// Iterates the titles (Text records) of a Smart Poster.
public struct SmartPosterTitleIterator: ~Escapable {
  var records: NDEFRecordIterator
  let options: NDEFDecodingOptions

  @_lifetime(copy records)
  init(records: NDEFRecordIterator, options: NDEFDecodingOptions) {
    self.records = records
    self.options = options
  }

  /// The next title, or `nil`.
  @_lifetime(copy self)
  public mutating func next() -> TextRecordView? {
    while let record = records.next() {
      if record.hasType(.wellKnown, TextRecordView.type), !record.isChunked,
        let title = try? TextRecordView(
          validating: record.payload, baseOffset: record.payloadOffset, options: options)
      {
        return title
      }
    }
    return nil
  }
}

/// Iterates the icon records of a Smart Poster.
public struct SmartPosterIconIterator: ~Escapable {
  var records: NDEFRecordIterator

  @_lifetime(copy records)
  init(records: NDEFRecordIterator) { self.records = records }

  /// The next icon record, or `nil`.
  @_lifetime(copy self)
  public mutating func next() -> NDEFRecordView? {
    while let record = records.next() {
      if SmartPosterView.isIcon(record) { return record }
    }
    return nil
  }
}

/// An owned Smart Poster for building (RTD Smart Poster 1.0).
public struct SmartPoster: Sendable, Hashable {
  /// The URI.
  public var uri: String
  /// Titles, at most one per language.
  public var titles: [TextRecord]
  /// The action, if any.
  public var action: SmartPosterAction?
  /// The size of the referenced object, if known.
  public var size: UInt32?
  /// The MIME type of the referenced object, if known.
  public var mimeType: String?
  /// Further records kept as they are (icons, vendor records).
  public var otherRecords: [NDEFRecord]

  /// Creates a Smart Poster.
  public init(
    uri: String, titles: [TextRecord] = [], action: SmartPosterAction? = nil, size: UInt32? = nil,
    mimeType: String? = nil, otherRecords: [NDEFRecord] = []
  ) {
    self.uri = uri
    self.titles = titles
    self.action = action
    self.size = size
    self.mimeType = mimeType
    self.otherRecords = otherRecords
  }

  /// Copies a view; records other than URI, titles, action, size and type are kept in
  /// ``otherRecords``.
  public init(_ view: borrowing SmartPosterView) throws(NDEFError) {
    self.uri = view.uri?.uri ?? ""
    var titles: [TextRecord] = []
    var iterator = view.titles
    while let title = iterator.next() { titles.append(TextRecord(title)) }
    self.titles = titles
    self.action = view.action
    self.size = view.size
    if let type = view.mimeType {
      self.mimeType = TextValidation.string(utf8: type)
    } else {
      self.mimeType = nil
    }
    var others: [NDEFRecord] = []
    var records = view.message.records
    while let record = records.next() {
      let known =
        record.typeNameFormat == .wellKnown
        && (record.hasType(.wellKnown, URIRecordView.type) || record.hasType(.wellKnown, TextRecordView.type)
          || record.hasType(.wellKnown, SmartPosterView.actionType)
          || record.hasType(.wellKnown, SmartPosterView.sizeType)
          || record.hasType(.wellKnown, SmartPosterView.typeType))
      if !known { others.append(try NDEFRecord(record)) }
    }
    self.otherRecords = others
  }

  /// The nested message: URI first, then titles, action, size, type and the other records.
  public func message() throws(NDEFError) -> NDEFMessage {
    var records = [URIRecord(uri).record()]
    for title in titles { records.append(try title.record()) }
    if let action {
      records.append(
        NDEFRecord(typeNameFormat: .wellKnown, type: SmartPosterView.actionType, payload: [action.rawValue]))
    }
    if let size {
      let bytes: [UInt8] = [
        UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF),
      ]
      records.append(NDEFRecord(typeNameFormat: .wellKnown, type: SmartPosterView.sizeType, payload: bytes))
    }
    if let mimeType {
      records.append(
        NDEFRecord(typeNameFormat: .wellKnown, type: SmartPosterView.typeType, payload: Array(mimeType.utf8)))
    }
    records += otherRecords
    return NDEFMessage(records: records)
  }

  /// The NDEF record (TNF Well Known, type `Sp`).
  public func record(id: [UInt8] = []) throws(NDEFError) -> NDEFRecord {
    NDEFRecord(
      typeNameFormat: .wellKnown, type: SmartPosterView.type, id: id, payload: try message().encodedBytes())
  }
}
