// SPDX-License-Identifier: Apache-2.0
import NFCWire

extension TextRecordView {
  /// Whether the text is UTF-8 that decoding proved well-formed (always, in strict mode).
  var isWellFormedUTF8: Bool {
    encoding == .utf8 && !warnings.contains { $0.code == .invalidUTF8 }
  }

  /// The length in bytes of the text in UTF-8 (RTD Text 1.0 §3.2.1: the text after the
  /// language code, UTF-16 transcoded, its byte-order mark left out): what
  /// `writeUTF8(into:)` (the `OutputSpan` form) writes, and `string.utf8.count`.
  public var utf8Count: Int {
    switch encoding {
    case .utf8:
      return isWellFormedUTF8 ? text.byteCount : TextValidation.repairedUTF8Count(text)
    case .utf16:
      let (bigEndian, skip) = Self.byteOrder(text)
      return TextValidation.utf8Count(utf16: text.extracting(skip..<text.byteCount), bigEndian: bigEndian)
    }
  }

  /// Writes the text in UTF-8 into a caller's buffer, without allocating (RTD Text 1.0
  /// §3.2.1: UTF-8 text is copied, UTF-16 text transcoded in the byte order of §3.4, without
  /// its byte-order mark): the same bytes as `string.utf8` (ill-formed input accepted in
  /// lenient mode becomes U+FFFD, as in ``string``).
  ///
  /// - Throws: ``NDEFError/Code/bufferTooSmall`` when `output` has less free room than
  ///   ``utf8Count`` (offset: the bytes already in `output`); nothing is written then.
  public func writeUTF8(into output: inout OutputSpan<UInt8>) throws(NDEFError) {
    let written: Bool
    switch encoding {
    case .utf8:
      written =
        isWellFormedUTF8 ? output.appendBytes(text) : TextValidation.appendRepairingUTF8(text, to: &output)
    case .utf16:
      let (bigEndian, skip) = Self.byteOrder(text)
      written = TextValidation.appendUTF8(
        utf16: text.extracting(skip..<text.byteCount), bigEndian: bigEndian, to: &output)
    }
    guard written else { throw NDEFError(.bufferTooSmall, offset: output.count) }
  }

  /// Writes the text in UTF-8 into a caller's raw buffer (as the
  /// `OutputSpan` form of `writeUTF8(into:)`) and returns the bytes written.
  ///
  /// - Throws: ``NDEFError/Code/bufferTooSmall`` (offset 0) when `buffer` holds fewer than
  ///   ``utf8Count`` bytes.
  public func writeUTF8(into buffer: UnsafeMutableRawBufferPointer) throws(NDEFError) -> Int {
    try unsafe encodeIntoBuffer(buffer) { (output: inout OutputSpan<UInt8>) throws(NDEFError) in
      try writeUTF8(into: &output)
    }
  }
}
