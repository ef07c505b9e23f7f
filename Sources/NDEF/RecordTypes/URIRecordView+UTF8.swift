// SPDX-License-Identifier: Apache-2.0
import NFCWire

extension URIRecordView {
  /// The length in bytes of the full URI in UTF-8, prefix expanded (RTD URI 1.0 §3.2.2, the
  /// identifier code's prefix from table 3, then the URI field of §3.2.3): what
  /// `writeURI(into:)` (the `OutputSpan` form) writes, and `uri.utf8.count`.
  public var uriUTF8Count: Int {
    let prefixCount = Self.prefix(code: prefixCode).utf8CodeUnitCount
    // Strict decoding (and lenient decoding without a warning) proved the field well-formed.
    let restCount =
      invalidUTF8Offset < 0 ? remainder.byteCount : TextValidation.repairedUTF8Count(remainder)
    return prefixCount &+ restCount
  }

  /// Writes the full URI in UTF-8 (the prefix of RTD URI 1.0 §3.2.2 table 3, then the URI
  /// field of §3.2.3) into a caller's buffer, without allocating: the same bytes as
  /// `uri.utf8` (in lenient mode, ill-formed UTF-8 becomes U+FFFD as in ``uri``).
  ///
  /// - Throws: ``NDEFError/Code/bufferTooSmall`` when `output` has less free room than
  ///   ``uriUTF8Count`` (offset: the bytes already in `output`); nothing is written then.
  public func writeURI(into output: inout OutputSpan<UInt8>) throws(NDEFError) {
    guard output.freeCapacity >= uriUTF8Count else {
      throw NDEFError(.bufferTooSmall, offset: output.count)
    }
    let prefix = Self.prefix(code: prefixCode)
    let start = prefix.utf8Start
    for i in 0..<prefix.utf8CodeUnitCount {
      // Invariant: i < utf8CodeUnitCount, the static string's length.
      output.append(unsafe start[i])
    }
    if invalidUTF8Offset < 0 {
      output.appendBytes(remainder)
    } else {
      TextValidation.appendRepairingUTF8(remainder, to: &output)
    }
  }

  /// Writes the full URI in UTF-8 into a caller's raw buffer (as the
  /// `OutputSpan` form of `writeURI(into:)`) and returns the bytes written.
  ///
  /// - Throws: ``NDEFError/Code/bufferTooSmall`` (offset 0) when `buffer` holds fewer than
  ///   ``uriUTF8Count`` bytes.
  public func writeURI(into buffer: UnsafeMutableRawBufferPointer) throws(NDEFError) -> Int {
    try unsafe encodeIntoBuffer(buffer) { (output: inout OutputSpan<UInt8>) throws(NDEFError) in
      try writeURI(into: &output)
    }
  }
}
