// SPDX-License-Identifier: Apache-2.0
/// A list of service class or solicitation UUIDs (CSS Part A §1.1, §1.10), a view.
public struct UUIDListView: ~Escapable {
  /// The list's octets.
  public let data: RawSpan
  /// The UUID width in octets: 2, 4 or 16.
  public let width: Int
  /// Absolute offset of the first UUID.
  public let dataOffset: Int

  @_lifetime(copy data)
  @usableFromInline init(data: RawSpan, width: Int, dataOffset: Int) {
    self.data = data
    self.width = width
    self.dataOffset = dataOffset
  }

  /// The number of UUIDs.
  @inlinable public var count: Int { data.byteCount / width }

  /// The UUID at `index` (0..<count), or `nil` outside.
  @inlinable public func uuid(at index: Int) -> BluetoothUUID? {
    guard index >= 0, index < count else { return nil }
    let start = index &* width
    // Invariant: start + width <= data.byteCount (index < count), width is 2, 4 or 16.
    switch width {
    case 2:
      let value = unsafe data.unsafeLoadUnaligned(fromUncheckedByteOffset: start, as: UInt16.self)
      return BluetoothUUID(uuid16: UInt16(littleEndian: value))
    case 4:
      let value = unsafe data.unsafeLoadUnaligned(fromUncheckedByteOffset: start, as: UInt32.self)
      return BluetoothUUID(uuid32: UInt32(littleEndian: value))
    default:
      let low = unsafe data.unsafeLoadUnaligned(fromUncheckedByteOffset: start, as: UInt64.self)
      let high = unsafe data.unsafeLoadUnaligned(fromUncheckedByteOffset: start &+ 8, as: UInt64.self)
      return BluetoothUUID(high: UInt64(littleEndian: high), low: UInt64(littleEndian: low))
    }
  }
}
