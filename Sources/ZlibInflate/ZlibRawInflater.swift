// SPDX-License-Identifier: Apache-2.0
import CZlib
import JavaCardCAP

/// Raw DEFLATE (RFC 1951) through zlib's `inflate` with a negative window size (no zlib
/// header, as ZIP method 8 stores it; zlib manual, `inflateInit2`): the `RawInflater` (JavaCardCAP) for
/// CAP files' deflated entries. The only code that calls zlib.
///
/// Output is bounded: inflating stops as soon as the stream would produce more than the
/// maximum count, so a small entry claiming a small size cannot expand into gigabytes.
public struct ZlibRawInflater: RawInflater, Sendable {
  /// An inflater.
  public init() {}

  /// Inflates `deflated` into at most `maximumCount` bytes (see `RawInflater`).
  public func inflate(_ deflated: [UInt8], maximumCount: Int) -> RawInflateResult {
    guard maximumCount >= 0 else { return .exceedsMaximum }
    var stream = unsafe z_stream()
    // inflateInit2 is a macro Swift cannot import; this is what it expands to.
    let initialized = unsafe inflateInit2_(
      &stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    guard initialized == Z_OK else { return .invalidData }
    defer { _ = unsafe inflateEnd(&stream) }
    // One byte more than allowed: producing it proves the stream is too large.
    var output = [UInt8](repeating: 0, count: maximumCount + 1)
    var input = deflated
    let status: Int32 = unsafe input.withUnsafeMutableBufferPointer { source in
      unsafe output.withUnsafeMutableBufferPointer { target in
        // Invariant: both buffers outlive the inflate call; zlib reads at most avail_in bytes
        // from next_in and writes at most avail_out bytes to next_out.
        unsafe stream.next_in = source.baseAddress
        unsafe stream.avail_in = UInt32(truncatingIfNeeded: source.count)
        unsafe stream.next_out = target.baseAddress
        unsafe stream.avail_out = UInt32(truncatingIfNeeded: target.count)
        return unsafe CZlib.inflate(&stream, Z_FINISH)
      }
    }
    let produced = Int(unsafe stream.total_out)
    let outputFull = unsafe stream.avail_out == 0
    let inputLeft = unsafe stream.avail_in != 0
    switch status {
    case Z_STREAM_END:
      guard produced <= maximumCount else { return .exceedsMaximum }
      // Bytes after the final block: the entry's compressed size is not the stream's.
      guard !inputLeft else { return .invalidData }
      output.removeSubrange(produced...)
      return .inflated(output)
    case Z_BUF_ERROR where outputFull:
      // The output is full and the stream goes on.
      return .exceedsMaximum
    default:
      // Z_DATA_ERROR, or Z_BUF_ERROR with room left: the input ended before the final block.
      return .invalidData
    }
  }
}
