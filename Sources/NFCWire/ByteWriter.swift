// SPDX-License-Identifier: Apache-2.0
/// Writing into a caller-owned `OutputSpan<UInt8>`.
///
/// Encoders compute their exact size first and throw their module's "buffer too small"
/// error before writing, so these appends never run out of room; each still checks and
/// returns `false` rather than trap if a caller breaks that rule.
extension OutputSpan where Element == UInt8 {
  /// Appends one byte.
  @inlinable
  @discardableResult
  package mutating func appendByte(_ byte: UInt8) -> Bool {
    guard freeCapacity >= 1 else { return false }
    append(byte)
    return true
  }

  /// Appends `value` big-endian in `width` bytes (1...8).
  @inlinable
  @discardableResult
  package mutating func appendBigEndian<T: FixedWidthInteger & UnsignedInteger>(
    _ value: T, width: Int = MemoryLayout<T>.size
  ) -> Bool {
    guard width > 0, width <= MemoryLayout<T>.size, freeCapacity >= width else { return false }
    var shift = (width &- 1) &* 8
    while shift >= 0 {
      append(UInt8(truncatingIfNeeded: value >> T(shift)))
      shift &-= 8
    }
    return true
  }

  /// Appends `value` little-endian in `width` bytes (1...8).
  @inlinable
  @discardableResult
  package mutating func appendLittleEndian<T: FixedWidthInteger & UnsignedInteger>(
    _ value: T, width: Int = MemoryLayout<T>.size
  ) -> Bool {
    guard width > 0, width <= MemoryLayout<T>.size, freeCapacity >= width else { return false }
    for i in 0..<width {
      append(UInt8(truncatingIfNeeded: value >> T(i &* 8)))
    }
    return true
  }

  /// Appends the bytes of a view with one bulk copy.
  @inlinable
  @discardableResult
  package mutating func appendBytes(_ bytes: RawSpan) -> Bool {
    let count = bytes.byteCount
    guard freeCapacity >= count else { return false }
    guard count > 0 else { return true }
    unsafe withUnsafeMutableBufferPointer { buffer, initialized in
      // Invariant: buffer[initialized...] has freeCapacity >= count uninitialized bytes.
      unsafe bytes.withUnsafeBytes { source in
        let target = unsafe UnsafeMutableRawBufferPointer(
          UnsafeMutableBufferPointer(rebasing: buffer[initialized...]))
        unsafe target.copyMemory(from: source)
      }
      initialized &+= count
    }
    return true
  }

  /// Appends the bytes of an array.
  @inlinable
  @discardableResult
  package mutating func appendBytes(_ bytes: [UInt8]) -> Bool {
    appendBytes(bytes.span.bytes)
  }

  /// Appends `count` copies of `byte`.
  @inlinable
  @discardableResult
  package mutating func appendRepeating(_ byte: UInt8, count: Int) -> Bool {
    guard count >= 0, freeCapacity >= count else { return false }
    for _ in 0..<count { append(byte) }
    return true
  }
}

/// Runs an encoder that writes exactly `count` bytes and returns them as an array.
@inlinable
package func encodeToArray<E: Error>(
  count: Int, _ body: (inout OutputSpan<UInt8>) throws(E) -> Void
) throws(E) -> [UInt8] {
  try [UInt8](capacity: count, initializingWith: body)
}

/// Runs an encoder over a caller's raw buffer; returns how many bytes it wrote.
@inlinable
package func encodeIntoBuffer<E: Error>(
  _ buffer: UnsafeMutableRawBufferPointer,
  _ body: (inout OutputSpan<UInt8>) throws(E) -> Void
) throws(E) -> Int {
  // Invariant: the caller owns `buffer` for the duration of the call; bytes are
  // initialized only through the OutputSpan, which tracks how many it wrote.
  let typed = unsafe buffer.bindMemory(to: UInt8.self)
  var output = unsafe OutputSpan<UInt8>(buffer: typed, initializedCount: 0)
  try body(&output)
  return unsafe output.finalize(for: typed)
}
