// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// Syntax checks of record TYPE fields by TNF: well-known and external type names
/// (NFC RTD 1.0 §3), media types (RFC 2046 §4, tokens per RFC 2045 §5.1) and absolute
/// URIs (RFC 3986 §3). Each returns the index of the first bad byte, or `nil`.
public enum RecordTypeName {
  /// RTD §3.3 "other" characters allowed besides letters and digits.
  static func isRTDCharacter(_ b: UInt8) -> Bool {
    switch b {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "+"), UInt8(ascii: ","),
      UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "="), UInt8(ascii: "@"),
      UInt8(ascii: ";"), UInt8(ascii: "$"), UInt8(ascii: "_"), UInt8(ascii: "!"),
      UInt8(ascii: "*"), UInt8(ascii: "'"), UInt8(ascii: "."):
      return true
    default: return false
    }
  }

  /// A well-known type name (RTD §3.3): one or more RTD characters.
  public static func firstInvalidWellKnown(_ type: RawSpan) -> Int? {
    guard type.byteCount > 0 else { return 0 }
    for i in 0..<type.byteCount where !isRTDCharacter(type.byte(at: i) ?? 0) { return i }
    return nil
  }

  /// An external type name (RTD §3.4): `domain:type`, a DNS name (letters, digits, `-`,
  /// `.`), a colon, and one or more RTD characters.
  public static func firstInvalidExternal(_ type: RawSpan) -> Int? {
    var colon: Int? = nil
    for i in 0..<type.byteCount {
      let b = type.byte(at: i) ?? 0
      if colon == nil {
        if b == UInt8(ascii: ":") {
          guard i > 0 else { return i }
          colon = i
          continue
        }
        let isDomain =
          (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
          || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
        if !isDomain { return i }
      } else if !isRTDCharacter(b) {
        return i
      }
    }
    guard let colon else { return type.byteCount }
    return colon == type.byteCount - 1 ? type.byteCount : nil
  }

  /// An RFC 2045 token character: printable US-ASCII except space and tspecials.
  static func isTokenCharacter(_ b: UInt8) -> Bool {
    guard b > 0x20, b < 0x7F else { return false }
    switch b {
    case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"),
      UInt8(ascii: "@"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"),
      UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "["),
      UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "="):
      return false
    default: return true
    }
  }

  /// A media type (RFC 2046 §4): `type "/" subtype` as tokens, optionally followed by
  /// `;` and parameters (printable US-ASCII).
  public static func firstInvalidMediaType(_ type: RawSpan) -> Int? {
    var part = 0  // 0 type, 1 subtype, 2 parameters
    var partLength = 0
    for i in 0..<type.byteCount {
      let b = type.byte(at: i) ?? 0
      switch part {
      case 0:
        if b == UInt8(ascii: "/") {
          guard partLength > 0 else { return i }
          part = 1
          partLength = 0
        } else if isTokenCharacter(b) {
          partLength += 1
        } else {
          return i
        }
      case 1:
        if b == UInt8(ascii: ";") {
          guard partLength > 0 else { return i }
          part = 2
        } else if isTokenCharacter(b) {
          partLength += 1
        } else {
          return i
        }
      default:
        if b < 0x20 || b > 0x7E { return i }
      }
    }
    return part >= 1 && (part == 2 || partLength > 0) ? nil : type.byteCount
  }

  /// An absolute URI (RFC 3986 §4.3): a scheme (a letter, then letters, digits, `+`, `-`,
  /// `.`), a colon, then printable US-ASCII without spaces.
  public static func firstInvalidAbsoluteURI(_ type: RawSpan) -> Int? {
    var inScheme = true
    for i in 0..<type.byteCount {
      let b = type.byte(at: i) ?? 0
      let isLetter = (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
      if inScheme {
        if b == UInt8(ascii: ":") && i > 0 {
          inScheme = false
        } else if !(isLetter || (i > 0 && ((b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D || b == 0x2E)))
        {
          return i
        }
      } else if b <= 0x20 || b >= 0x7F {
        return i
      }
    }
    return inScheme ? type.byteCount : nil
  }

  /// Checks a record's TYPE against its TNF's syntax; `nil` for TNFs without a syntax.
  public static func firstInvalid(_ type: RawSpan, typeNameFormat: TypeNameFormat) -> (NDEFError.Code, Int)? {
    switch typeNameFormat {
    case .wellKnown: return firstInvalidWellKnown(type).map { (.invalidWellKnownType, $0) }
    case .media: return firstInvalidMediaType(type).map { (.invalidMediaType, $0) }
    case .absoluteURI: return firstInvalidAbsoluteURI(type).map { (.invalidAbsoluteURI, $0) }
    case .external: return firstInvalidExternal(type).map { (.invalidExternalType, $0) }
    default: return nil
    }
  }
}

/// Case-insensitive comparison of US-ASCII type names (RTD §2.4: external and media type
/// names compare without regard to case).
func asciiCaseInsensitiveEqual(_ span: RawSpan, _ bytes: [UInt8]) -> Bool {
  guard span.byteCount == bytes.count else { return false }
  for i in 0..<bytes.count {
    var a = span.byte(at: i) ?? 0
    var b = bytes[i]
    if a >= 0x41 && a <= 0x5A { a |= 0x20 }
    if b >= 0x41 && b <= 0x5A { b |= 0x20 }
    if a != b { return false }
  }
  return true
}

/// The Android Application Record: external type `android.com:pkg` whose payload is a
/// package name in UTF-8 (Android platform documentation, "Android Application Records").
public struct AndroidApplicationRecordView: ~Escapable {
  /// The external type name `android.com:pkg`.
  public static let type: [UInt8] = Array("android.com:pkg".utf8)
  /// The package name bytes.
  public let packageName: RawSpan
  /// Lenient-mode warnings.
  public let warnings: [NDEFWarning]

  /// Decodes an AAR payload.
  ///
  /// - Throws: `emptyPayload`, `invalidUTF8` (a warning in lenient mode).
  @_lifetime(copy payload)
  public init(validating payload: RawSpan, baseOffset: Int = 0, options: NDEFDecodingOptions = .strict)
    throws(NDEFError)
  {
    var sink = WarningSink(lenient: options.isLenient)
    guard payload.byteCount > 0 else { throw NDEFError(.emptyPayload, offset: baseOffset) }
    if let bad = TextValidation.firstInvalidUTF8(payload) {
      try sink.report(.invalidUTF8, at: baseOffset &+ bad)
    }
    self.packageName = payload
    self.warnings = sink.warnings
  }

  /// The package name.
  public var package: String { TextValidation.string(utf8: packageName) }

  /// The NDEF record for `package` (TNF External, type `android.com:pkg`).
  public static func record(package: String) -> NDEFRecord {
    NDEFRecord(typeNameFormat: .external, type: type, payload: Array(package.utf8))
  }
}
