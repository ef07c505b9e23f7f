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
    return BluetoothUUID(littleEndian: data.extracting(start..<(start &+ width)))
  }
}
