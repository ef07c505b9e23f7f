// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The text encoding of a Text record (RTD Text 1.0, §3.2.1, status bit 7).
public enum TextEncoding: Sendable, Hashable {
  /// Bit 7 clear: UTF-8.
  case utf8
  /// Bit 7 set: UTF-16, big-endian unless a byte-order mark says otherwise.
  case utf16

  /// `UTF-8` or `UTF-16`, as the JSON contract writes it.
  public var name: String { self == .utf8 ? "UTF-8" : "UTF-16" }
}

/// An NFC Forum Text record payload (well-known type `T`, RTD Text 1.0 §3), as a view.
///
/// Layout: a status byte (bit 7 UTF-16, bit 6 reserved, bits 5...0 language code length),
/// the IANA language code (US-ASCII), then the text.
public struct TextRecordView: ~Escapable {
  /// The well-known type name `T`.
  public static let type: [UInt8] = [0x54]
  /// Status bit 7: the text is UTF-16.
  public static let utf16Bit: UInt8 = 0x80
  /// Status bit 6: reserved, 0.
  public static let reservedBit: UInt8 = 0x40
  /// Status bits 5...0: the language code length.
  public static let languageLengthMask: UInt8 = 0x3F

  /// The status byte.
  public let status: UInt8
  /// The text encoding.
  public let encoding: TextEncoding
  /// The language code bytes (US-ASCII, e.g. `en-US`).
  public let languageCode: RawSpan
  /// The text bytes, byte-order mark included when present.
  public let text: RawSpan
  /// Absolute offset of the text bytes.
  public let textOffset: Int
  /// Lenient-mode warnings.
  public let warnings: [NDEFWarning]

  /// Decodes a Text payload.
  ///
  /// - Throws: ``NDEFError`` `emptyPayload`, `textReservedBitSet`,
  ///   `textLanguageLengthExceedsPayload`, `textLanguageMissing`, `invalidLanguageCode`,
  ///   `invalidUTF8`, `invalidUTF16` (the last five are warnings in lenient mode, except the
  ///   length, which is always an error).
  @_lifetime(copy payload)
  public init(
    validating payload: RawSpan, baseOffset: Int = 0, options: NDEFDecodingOptions = .strict
  ) throws(NDEFError) {
    var sink = WarningSink(lenient: options.isLenient)
    var reader = ByteReader(payload, baseOffset: baseOffset)
    guard let status = reader.readUInt8() else { throw NDEFError(.emptyPayload, offset: baseOffset) }
    if status & Self.reservedBit != 0 { try sink.report(.textReservedBitSet, at: baseOffset) }
    let languageLength = Int(status & Self.languageLengthMask)
    guard let language = reader.readSpan(count: languageLength) else {
      throw NDEFError(.textLanguageLengthExceedsPayload, offset: baseOffset)
    }
    if languageLength == 0 { try sink.report(.textLanguageMissing, at: baseOffset) }
    if let bad = LanguageTag.firstInvalid(language) {
      try sink.report(.invalidLanguageCode, at: baseOffset &+ 1 &+ bad)
    }
    let textOffset = reader.offset
    let text = reader.readRemaining()
    let encoding: TextEncoding = status & Self.utf16Bit != 0 ? .utf16 : .utf8
    switch encoding {
    case .utf8:
      if let bad = TextValidation.firstInvalidUTF8(text) {
        try sink.report(.invalidUTF8, at: textOffset &+ bad)
      }
    case .utf16:
      let (bigEndian, skip) = Self.byteOrder(text)
      if let bad = TextValidation.firstInvalidUTF16(
        text.extracting(skip..<text.byteCount), bigEndian: bigEndian)
      {
        try sink.report(.invalidUTF16, at: textOffset &+ skip &+ bad)
      }
    }
    self.status = status
    self.encoding = encoding
    self.languageCode = language
    self.text = text
    self.textOffset = textOffset
    self.warnings = sink.warnings
  }

  /// Decodes the payload of a Text record view (TNF Well Known, type `T`, not chunked).
  ///
  /// - Throws: `recordTypeMismatch`, and the payload errors above.
  @_lifetime(copy record)
  public init(validating record: borrowing NDEFRecordView, options: NDEFDecodingOptions = .strict)
    throws(NDEFError)
  {
    guard record.hasType(.wellKnown, Self.type), !record.isChunked else {
      throw NDEFError(.recordTypeMismatch, offset: record.offset)
    }
    try self.init(validating: record.payload, baseOffset: record.payloadOffset, options: options)
  }

  /// UTF-16 byte order from a byte-order mark: (big-endian, bytes to skip). Without a mark
  /// the text is big-endian (RTD Text §3.4, as RFC 2781 §4.3 prescribes).
  static func byteOrder(_ text: RawSpan) -> (Bool, Int) {
    switch (text.byte(at: 0), text.byte(at: 1)) {
    case (0xFE, 0xFF): return (true, 2)
    case (0xFF, 0xFE): return (false, 2)
    default: return (true, 0)
    }
  }

  /// The language code as a `String`.
  public var language: String { TextValidation.string(utf8: languageCode) }

  /// The text as a `String` (without byte-order mark); ill-formed input becomes U+FFFD.
  public var string: String {
    switch encoding {
    case .utf8: return TextValidation.string(utf8: text)
    case .utf16:
      let (bigEndian, skip) = Self.byteOrder(text)
      return Self.string(utf16: text.extracting(skip..<text.byteCount), bigEndian: bigEndian)
    }
  }

  /// UTF-16 bytes in the given order as a `String`, with three allocations (the code units,
  /// their UTF-8 form at its largest size, the string): each unpaired surrogate becomes
  /// U+FFFD, as `String(decoding:as:)` repairs it; a trailing odd byte is dropped.
  static func string(utf16 bytes: RawSpan, bigEndian: Bool) -> String {
    var units: [UInt16] = []
    units.reserveCapacity(bytes.byteCount / 2)
    var index = 0
    while let a = bytes.byte(at: index), let b = bytes.byte(at: index &+ 1) {
      units.append(bigEndian ? UInt16(a) << 8 | UInt16(b) : UInt16(b) << 8 | UInt16(a))
      index &+= 2
    }
    // At most 3 UTF-8 bytes per code unit (a surrogate pair: 4 bytes for 2 units).
    var utf8: [UInt8] = []
    utf8.reserveCapacity(units.count &* 3)
    var iterator = units.makeIterator()
    var decoder = UTF16()
    while true {
      let value: UInt32
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): value = scalar.value
      case .error: value = 0xFFFD
      case .emptyInput: return String(decoding: utf8, as: UTF8.self)
      }
      // UTF-8 (RFC 3629 §3) of one scalar value.
      switch value {
      case 0..<0x80:
        utf8.append(UInt8(value))
      case 0x80..<0x800:
        utf8.append(0xC0 | UInt8(value >> 6))
        utf8.append(0x80 | UInt8(value & 0x3F))
      case 0x800..<0x1_0000:
        utf8.append(0xE0 | UInt8(value >> 12))
        utf8.append(0x80 | UInt8((value >> 6) & 0x3F))
        utf8.append(0x80 | UInt8(value & 0x3F))
      default:
        utf8.append(0xF0 | UInt8(value >> 18))
        utf8.append(0x80 | UInt8((value >> 12) & 0x3F))
        utf8.append(0x80 | UInt8((value >> 6) & 0x3F))
        utf8.append(0x80 | UInt8(value & 0x3F))
      }
    }
  }
}

/// An owned Text record (RTD Text 1.0) for building.
public struct TextRecord: Sendable, Hashable {
  /// The IANA language code, e.g. `en` or `fr-CA`.
  public var language: String
  /// The text.
  public var text: String
  /// How the text is encoded on the wire; UTF-16 is written big-endian with a byte-order mark.
  public var encoding: TextEncoding

  /// Creates a Text record.
  public init(language: String, text: String, encoding: TextEncoding = .utf8) {
    self.language = language
    self.text = text
    self.encoding = encoding
  }

  /// Copies a view.
  public init(_ view: borrowing TextRecordView) {
    self.language = view.language
    self.text = view.string
    self.encoding = view.encoding
  }

  /// Decodes an owned Text record from a payload.
  public init(parsing payload: [UInt8], options: NDEFDecodingOptions = .strict) throws(NDEFError) {
    self.init(try TextRecordView(validating: payload.span.bytes, options: options))
  }

  /// The payload bytes.
  ///
  /// - Throws: `invalidLanguageCode` (empty, over 63 bytes, or not a language tag).
  public func payload() throws(NDEFError) -> [UInt8] {
    let languageBytes = Array(language.utf8)
    guard !languageBytes.isEmpty, languageBytes.count <= 63,
      LanguageTag.firstInvalid(languageBytes.span.bytes) == nil
    else { throw NDEFError(.invalidLanguageCode, offset: 1) }
    var bytes: [UInt8] = [UInt8(languageBytes.count) | (encoding == .utf16 ? TextRecordView.utf16Bit : 0)]
    bytes += languageBytes
    switch encoding {
    case .utf8: bytes += Array(text.utf8)
    case .utf16:
      bytes += [0xFE, 0xFF]
      for unit in text.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
    }
    return bytes
  }

  /// The NDEF record (TNF Well Known, type `T`).
  public func record(id: [UInt8] = []) throws(NDEFError) -> NDEFRecord {
    NDEFRecord(typeNameFormat: .wellKnown, type: TextRecordView.type, id: id, payload: try payload())
  }
}

/// RFC 5646 language tags as the Text record carries them: subtags of letters and digits
/// separated by hyphens.
enum LanguageTag {
  /// The index of the first byte that breaks the tag syntax, or `nil`.
  static func firstInvalid(_ bytes: RawSpan) -> Int? {
    var previousWasHyphen = true
    for i in 0..<bytes.byteCount {
      let b = bytes.byte(at: i) ?? 0
      let isAlphanumeric =
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
      if b == 0x2D {
        if previousWasHyphen { return i }
        previousWasHyphen = true
      } else if isAlphanumeric {
        previousWasHyphen = false
      } else {
        return i
      }
    }
    return bytes.byteCount > 0 && previousWasHyphen ? bytes.byteCount - 1 : nil
  }
}
