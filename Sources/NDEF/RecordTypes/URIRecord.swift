// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// An NFC Forum URI record payload (well-known type `U`, RTD URI 1.0 §3), as a view.
///
/// Layout: an identifier code (an index into ``URIRecordView/prefixes``) and the rest of
/// the URI in UTF-8.
public struct URIRecordView: ~Escapable {
  /// The well-known type name `U`.
  public static let type: [UInt8] = [0x55]

  /// The URI identifier codes 0x00...0x23 and the prefixes they abbreviate (RTD URI §3.2.2,
  /// table 3). Codes 0x24...0xFF are reserved.
  public static let prefixes: [String] = [
    "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:",
    "ftp://anonymous:anonymous@", "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://",
    "ftp://", "dav://", "news:", "telnet://", "imap:", "rtsp://", "urn:", "pop:", "sip:",
    "sips:", "tftp:", "btspp://", "btl2cap://", "btgoep://", "tcpobex://", "irdaobex://",
    "file://", "urn:epc:id:", "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:",
    "urn:nfc:",
  ]

  /// The identifier code as read.
  public let prefixCode: UInt8
  /// The URI field after the identifier code.
  public let remainder: RawSpan
  /// Absolute offset of the URI field.
  public let remainderOffset: Int
  /// Lenient-mode warnings: a reserved identifier code, then ill-formed UTF-8 (at most one
  /// of each; the view stores their offsets, so decoding allocates nothing).
  public var warnings: [NDEFWarning] {
    var warnings: [NDEFWarning] = []
    if reservedPrefixOffset >= 0 {
      warnings.append(NDEFWarning(.uriReservedPrefix, offset: reservedPrefixOffset))
    }
    if invalidUTF8Offset >= 0 { warnings.append(NDEFWarning(.invalidUTF8, offset: invalidUTF8Offset)) }
    return warnings
  }
  /// Absolute offset of a reserved identifier code accepted in lenient mode, else -1.
  @usableFromInline let reservedPrefixOffset: Int
  /// Absolute offset of the first ill-formed UTF-8 byte accepted in lenient mode, else -1.
  @usableFromInline let invalidUTF8Offset: Int

  /// Decodes a URI payload.
  ///
  /// - Throws: ``NDEFError`` `emptyPayload`; `uriReservedPrefix` and `invalidUTF8`
  ///   (warnings in lenient mode, where a reserved code means no prefix).
  @_lifetime(copy payload)
  @inlinable public init(
    validating payload: RawSpan, baseOffset: Int = 0, options: NDEFDecodingOptions = .strict
  ) throws(NDEFError) {
    var reader = ByteReader(payload, baseOffset: baseOffset)
    guard let code = reader.readUInt8() else { throw NDEFError(.emptyPayload, offset: baseOffset) }
    var reservedPrefixOffset = -1
    if code > Self.lastPrefixCode {
      guard options.isLenient else { throw NDEFError(.uriReservedPrefix, offset: baseOffset) }
      reservedPrefixOffset = baseOffset
    }
    let offset = reader.offset
    let rest = reader.readRemaining()
    var invalidUTF8Offset = -1
    if let bad = TextValidation.firstInvalidUTF8(rest) {
      guard options.isLenient else { throw NDEFError(.invalidUTF8, offset: offset &+ bad) }
      invalidUTF8Offset = offset &+ bad
    }
    self.prefixCode = code
    self.remainder = rest
    self.remainderOffset = offset
    self.reservedPrefixOffset = reservedPrefixOffset
    self.invalidUTF8Offset = invalidUTF8Offset
  }

  /// Decodes the payload of a URI record view (TNF Well Known, type `U`, not chunked).
  @_lifetime(copy record)
  @inlinable @inline(__always) public init(
    validating record: borrowing NDEFRecordView, options: NDEFDecodingOptions = .strict
  )
    throws(NDEFError)
  {
    // Type `U` compared in place (no array of the type name to load).
    guard record.typeNameFormat == .wellKnown, record.type.byteCount == 1, record.type.byte(at: 0) == 0x55,
      !record.isChunked
    else {
      throw NDEFError(.recordTypeMismatch, offset: record.offset)
    }
    try self.init(validating: record.payload, baseOffset: record.payloadOffset, options: options)
  }

  /// The highest identifier code with a prefix (RTD URI §3.2.2, table 3).
  @inlinable static var lastPrefixCode: UInt8 { 0x23 }

  /// The prefix the identifier code stands for; empty for 0x00 and reserved codes.
  public var prefix: String {
    Self.prefix(code: prefixCode).withUTF8Buffer { String(decoding: $0, as: UTF8.self) }
  }

  /// The prefix of identifier code `code` (the same table as ``prefixes``), as a static
  /// string: no array access, nothing to retain, its UTF-8 in read-only memory.
  static func prefix(code: UInt8) -> StaticString {
    switch code {
    case 0x01: "http://www."
    case 0x02: "https://www."
    case 0x03: "http://"
    case 0x04: "https://"
    case 0x05: "tel:"
    case 0x06: "mailto:"
    case 0x07: "ftp://anonymous:anonymous@"
    case 0x08: "ftp://ftp."
    case 0x09: "ftps://"
    case 0x0A: "sftp://"
    case 0x0B: "smb://"
    case 0x0C: "nfs://"
    case 0x0D: "ftp://"
    case 0x0E: "dav://"
    case 0x0F: "news:"
    case 0x10: "telnet://"
    case 0x11: "imap:"
    case 0x12: "rtsp://"
    case 0x13: "urn:"
    case 0x14: "pop:"
    case 0x15: "sip:"
    case 0x16: "sips:"
    case 0x17: "tftp:"
    case 0x18: "btspp://"
    case 0x19: "btl2cap://"
    case 0x1A: "btgoep://"
    case 0x1B: "tcpobex://"
    case 0x1C: "irdaobex://"
    case 0x1D: "file://"
    case 0x1E: "urn:epc:id:"
    case 0x1F: "urn:epc:tag:"
    case 0x20: "urn:epc:pat:"
    case 0x21: "urn:epc:raw:"
    case 0x22: "urn:epc:"
    case 0x23: "urn:nfc:"
    default: ""
    }
  }

  /// The full URI, prefix expanded.
  public var uri: String {
    let prefix = Self.prefix(code: prefixCode)
    return prefix.withUTF8Buffer { head in
      unsafe TextValidation.string(prefix: UnsafeRawBufferPointer(head), utf8: remainder)
    }
  }
}

/// An owned URI record (RTD URI 1.0) for building.
public struct URIRecord: Sendable, Hashable {
  /// The full URI.
  public var uri: String

  /// Creates a URI record.
  public init(_ uri: String) { self.uri = uri }

  /// Copies a view (the prefix expanded).
  public init(_ view: borrowing URIRecordView) { self.uri = view.uri }

  /// The identifier code of the longest prefix of ``uri`` (0x00 when none matches).
  public var prefixCode: UInt8 {
    var best = 0
    var bestLength = 0
    for (code, prefix) in URIRecordView.prefixes.enumerated() where code > 0 {
      let length = prefix.utf8.count
      if length > bestLength && uri.utf8.starts(with: prefix.utf8) {
        best = code
        bestLength = length
      }
    }
    return UInt8(best)
  }

  /// The payload: the longest matching identifier code, then the rest in UTF-8.
  public var payload: [UInt8] {
    let code = prefixCode
    let skip = URIRecordView.prefixes[Int(code)].utf8.count
    return [code] + Array(uri.utf8.dropFirst(skip))
  }

  /// The NDEF record (TNF Well Known, type `U`).
  public func record(id: [UInt8] = []) -> NDEFRecord {
    NDEFRecord(typeNameFormat: .wellKnown, type: URIRecordView.type, id: id, payload: payload)
  }
}
