// SPDX-License-Identifier: Apache-2.0
/// A bounds-checked cursor over borrowed bytes.
///
/// Every read either succeeds completely or returns `nil` and leaves the cursor where it
/// was, so a parser can report the offset of the field that did not fit. Offsets are
/// absolute: `offset` counts from the start of the caller's original input, also inside a
/// sub-reader made with ``readReader(count:)``.
///
/// The type is `public` only so that its `@inlinable` package members inline across
/// modules (Swift 6.3 does not inline them into other modules from a `package` non-escapable
/// type); it has no public members.
public struct ByteReader: ~Escapable {
  /// The bytes this reader may read, and no others.
  @usableFromInline package let bytes: RawSpan
  /// Absolute offset of `bytes`' first byte in the caller's input.
  @usableFromInline package let baseOffset: Int
  /// Index of the next byte to read, relative to `bytes`.
  @usableFromInline package private(set) var index: Int

  /// A reader over `bytes`, whose first byte stands at `baseOffset` in the caller's input.
  @inlinable
  @_lifetime(copy bytes)
  package init(_ bytes: RawSpan, baseOffset: Int = 0) {
    self.bytes = bytes
    self.baseOffset = baseOffset
    self.index = 0
  }

  /// Absolute offset of the next byte to read.
  @inlinable
  package var offset: Int { baseOffset &+ index }
  /// Bytes left to read.
  @inlinable
  package var remaining: Int { bytes.byteCount &- index }
  /// Whether every byte has been read.
  @inlinable
  package var isAtEnd: Bool { index >= bytes.byteCount }

  /// The byte `distance` bytes ahead of the cursor, without moving it.
  @inlinable
  package func peekUInt8(at distance: Int = 0) -> UInt8? {
    guard distance >= 0, distance < remaining else { return nil }
    // Invariant: index + distance < bytes.byteCount (checked above).
    return unsafe bytes.unsafeLoad(fromUncheckedByteOffset: index &+ distance, as: UInt8.self)
  }

  /// Reads one byte.
  @inlinable
  package mutating func readUInt8() -> UInt8? {
    guard index < bytes.byteCount else { return nil }
    // Invariant: index < bytes.byteCount (checked above).
    let value = unsafe bytes.unsafeLoad(fromUncheckedByteOffset: index, as: UInt8.self)
    index &+= 1
    return value
  }

  /// Reads a big-endian unsigned integer of `width` bytes (1...8).
  @inlinable
  package mutating func readBigEndian<T: FixedWidthInteger & UnsignedInteger & BitwiseCopyable>(
    _: T.Type, width: Int = MemoryLayout<T>.size
  ) -> T? {
    guard width > 0, width <= MemoryLayout<T>.size, width <= remaining else { return nil }
    if width == MemoryLayout<T>.size {
      // One unaligned load. Invariant: index + width <= bytes.byteCount (checked above).
      let raw = unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: index, as: T.self)
      index &+= width
      return T(bigEndian: raw)
    }
    var value: T = 0
    for i in 0..<width {
      // Invariant: index + i < index + width <= bytes.byteCount (checked above).
      let byte = unsafe bytes.unsafeLoad(fromUncheckedByteOffset: index &+ i, as: UInt8.self)
      value = (value << 8) | T(byte)
    }
    index &+= width
    return value
  }

  /// Reads a little-endian unsigned integer of `width` bytes (1...8).
  @inlinable
  package mutating func readLittleEndian<T: FixedWidthInteger & UnsignedInteger & BitwiseCopyable>(
    _: T.Type, width: Int = MemoryLayout<T>.size
  ) -> T? {
    guard width > 0, width <= MemoryLayout<T>.size, width <= remaining else { return nil }
    if width == MemoryLayout<T>.size {
      // One unaligned load. Invariant: index + width <= bytes.byteCount (checked above).
      let raw = unsafe bytes.unsafeLoadUnaligned(fromUncheckedByteOffset: index, as: T.self)
      index &+= width
      return T(littleEndian: raw)
    }
    var value: T = 0
    var i = width
    while i > 0 {
      i &-= 1
      // Invariant: index + i < index + width <= bytes.byteCount (checked above).
      let byte = unsafe bytes.unsafeLoad(fromUncheckedByteOffset: index &+ i, as: UInt8.self)
      value = (value << 8) | T(byte)
    }
    index &+= width
    return value
  }

  /// Reads a big-endian `UInt16`.
  @inlinable
  package mutating func readUInt16BE() -> UInt16? { readBigEndian(UInt16.self) }
  /// Reads a big-endian `UInt32`.
  @inlinable
  package mutating func readUInt32BE() -> UInt32? { readBigEndian(UInt32.self) }
  /// Reads a little-endian `UInt16`.
  @inlinable
  package mutating func readUInt16LE() -> UInt16? { readLittleEndian(UInt16.self) }
  /// Reads a little-endian `UInt32`.
  @inlinable
  package mutating func readUInt32LE() -> UInt32? { readLittleEndian(UInt32.self) }

  /// Reads `count` bytes as a view over the input (no copy).
  @inlinable
  @_lifetime(copy self)
  package mutating func readSpan(count: Int) -> RawSpan? {
    guard count >= 0, count <= remaining else { return nil }
    let span = bytes.extracting(index..<(index &+ count))
    index &+= count
    return span
  }

  /// Reads `count` bytes as a reader limited to them, keeping absolute offsets.
  @inlinable
  @_lifetime(copy self)
  package mutating func readReader(count: Int) -> ByteReader? {
    let start = offset
    guard let span = readSpan(count: count) else { return nil }
    return ByteReader(span, baseOffset: start)
  }

  /// Moves the cursor to `index` (relative to `bytes`); `false` (unmoved) when outside.
  @inlinable
  package mutating func move(to index: Int) -> Bool {
    guard index >= 0, index <= bytes.byteCount else { return false }
    self.index = index
    return true
  }

  /// Skips `count` bytes; `false` (cursor unmoved) when fewer remain.
  @inlinable
  package mutating func skip(_ count: Int) -> Bool {
    guard count >= 0, count <= remaining else { return false }
    index &+= count
    return true
  }

  /// The bytes not read yet, as a view (the cursor does not move).
  @inlinable
  @_lifetime(copy self)
  package func remainingSpan() -> RawSpan {
    bytes.extracting(index..<bytes.byteCount)
  }

  /// Reads all remaining bytes as a view.
  @inlinable
  @_lifetime(copy self)
  package mutating func readRemaining() -> RawSpan {
    let span = bytes.extracting(index..<bytes.byteCount)
    index = bytes.byteCount
    return span
  }
}
