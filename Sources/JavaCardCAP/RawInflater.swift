// SPDX-License-Identifier: Apache-2.0
/// Raw DEFLATE decompression (RFC 1951, no zlib or gzip wrapper), as ZIP's method 8 stores it
/// (PKWARE APPNOTE 6.3.10 §4.4.5). The CAP reader is written against this protocol so it needs
/// no C library: `ZlibInflate` provides zlib's, and an embedded target can plug in its own.
public protocol RawInflater {
  /// Inflates `deflated` and produces at most `maximumCount` bytes: an implementation stops
  /// once it would produce more (that is how a ZIP bomb is refused) and reports
  /// ``RawInflateResult/exceedsMaximum``.
  func inflate(_ deflated: [UInt8], maximumCount: Int) -> RawInflateResult
}

/// What a ``RawInflater`` made of a raw DEFLATE stream.
public enum RawInflateResult: Sendable, Hashable {
  /// The whole stream, up to and including its final block, inflated to these bytes.
  case inflated([UInt8])
  /// The stream would inflate to more than the maximum count.
  case exceedsMaximum
  /// The stream is not valid DEFLATE data, or ends before its final block.
  case invalidData
}
