// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A list of keys to try on a card, read from a key dictionary file as the tools of the
/// field write them (libnfc, Proxmark3 `.dic`, Flipper Zero): one key of 12 hex digits a
/// line, `#` starting a comment (a whole line or after the key), blank lines ignored.
///
/// Keys keep the file's order; a key repeated later is dropped.
public struct MifareClassicKeyDictionary: Sendable, Hashable, CustomStringConvertible {
  /// The keys, in order, without repeats.
  public let keys: [MifareClassicKey]

  /// A dictionary of `keys` (repeats dropped).
  public init(keys: [MifareClassicKey]) {
    var unique: [MifareClassicKey] = []
    for key in keys where !unique.contains(key) { unique.append(key) }
    self.keys = unique
  }

  /// The public keys: MAD key A, NFC Forum key A, transport.
  public static let wellKnown = MifareClassicKeyDictionary(keys: [.madKeyA, .nfcForumKeyA, .transport])

  /// Parses the text of a dictionary file (UTF-8; a byte order mark, CR LF line ends,
  /// spaces and tabs around a key are accepted).
  ///
  /// - Throws: ``NFCTagError/Code/invalidKeyDictionaryLine`` with ``NFCTagError/line`` (from
  ///   1) and the offset of the line's first byte, for a line that is neither blank, a
  ///   comment, nor 12 hex digits with an optional comment. The message never holds the
  ///   line's text.
  public init(parsing text: RawSpan) throws(NFCTagError) {
    var keys: [MifareClassicKey] = []
    var lineStart = 0
    var line = 1
    let count = text.byteCount
    if count >= 3, text.byte(at: 0) == 0xEF, text.byte(at: 1) == 0xBB, text.byte(at: 2) == 0xBF {
      lineStart = 3
    }
    while lineStart < count {
      var end = lineStart
      while end < count && text.byte(at: end) != UInt8(ascii: "\n") { end &+= 1 }
      // The key is what is left of the line before `#`, without blanks at either end.
      var first = lineStart
      var last = lineStart
      while last < end && text.byte(at: last) != UInt8(ascii: "#") { last &+= 1 }
      while first < last && Self.isBlank(text.byte(at: first)) { first &+= 1 }
      while last > first && Self.isBlank(text.byte(at: last &- 1)) { last &-= 1 }
      if first < last {
        var digits: [UInt8] = []
        for i in first..<last { digits.append(text.byte(at: i) ?? 0) }
        guard digits.count == 2 &* MifareClassic.keySize,
          let bytes = Hex.bytes(String(decoding: digits, as: UTF8.self)),
          let key = MifareClassicKey(bytes: bytes)
        else { throw NFCTagError(.invalidKeyDictionaryLine, offset: lineStart, line: line) }
        keys.append(key)
      }
      lineStart = end &+ 1
      line &+= 1
    }
    self.init(keys: keys)
  }

  /// Parses the text of a dictionary file.
  ///
  /// - Throws: as ``init(parsing:)-(RawSpan)``.
  public init(parsing text: String) throws(NFCTagError) {
    let bytes = Array(text.utf8)
    try self.init(parsing: bytes.span.bytes)
  }

  private static func isBlank(_ byte: UInt8?) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
  }

  /// `N keys`: never the keys themselves.
  public var description: String { keys.count == 1 ? "1 key" : "\(keys.count) keys" }
}
