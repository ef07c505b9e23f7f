// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// One AD structure: a Length octet, an AD type octet and `Length - 1` data octets
/// (Core Vol 3 Part C §11, Core Specification Supplement Part A §1). A view, never a copy.
public struct ADStructureView: ~Escapable {
  /// The AD type.
  public let type: ADType
  /// The AD data (after the type octet).
  public let data: RawSpan
  /// Absolute offset of the structure's Length octet.
  public let offset: Int

  @_lifetime(copy data)
  @usableFromInline init(type: ADType, data: RawSpan, offset: Int) {
    self.type = type
    self.data = data
    self.offset = offset
  }

  /// Absolute offset of the first data octet.
  @inlinable public var dataOffset: Int { offset &+ 2 }
  /// The Length octet's value: data length plus one.
  @inlinable public var length: Int { data.byteCount &+ 1 }

  // MARK: Typed access without allocation

  /// The Flags value (CSS Part A §1.3): the first data octet; an empty Flags structure
  /// reads as no flags set. `nil` when the structure is not Flags.
  @inlinable public var flags: ADFlags? {
    guard type == .flags else { return nil }
    return ADFlags(rawValue: data.byte(at: 0) ?? 0)
  }

  /// The TX Power Level in dBm (CSS Part A §1.5). `nil` when not that type.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/invalidDataLength`` unless exactly one octet.
  @inlinable public func txPowerLevel() throws(BLEAdvertisingError) -> Int8? {
    guard type == .txPowerLevel else { return nil }
    try expect(count: 1)
    return Int8(bitPattern: data.byte(at: 0) ?? 0)
  }

  /// The Appearance value (CSS Part A §1.12). `nil` when not that type.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/invalidDataLength`` unless exactly two octets.
  @inlinable public func appearance() throws(BLEAdvertisingError) -> UInt16? {
    guard type == .appearance else { return nil }
    try expect(count: 2)
    var reader = ByteReader(data)
    return reader.readUInt16LE()
  }

  /// The service class or solicitation UUID list (CSS Part A §1.1, §1.10) as a view.
  /// `nil` when the structure is not a UUID list.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/invalidDataLength`` when the data is not a
  ///   multiple of the UUID width.
  @_lifetime(copy self)
  @inlinable public func uuidList() throws(BLEAdvertisingError) -> UUIDListView? {
    guard let width = type.uuidListWidth else { return nil }
    guard data.byteCount % width == 0 else {
      throw BLEAdvertisingError(.invalidDataLength, offset: offset)
    }
    return UUIDListView(data: data, width: width, dataOffset: dataOffset)
  }

  /// The Service Data (CSS Part A §1.11) as a view. `nil` when not Service Data.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/invalidDataLength`` when shorter than its UUID.
  @_lifetime(copy self)
  @inlinable public func serviceData() throws(BLEAdvertisingError) -> ServiceDataView? {
    guard let width = type.serviceDataUUIDWidth else { return nil }
    guard data.byteCount >= width else { throw BLEAdvertisingError(.invalidDataLength, offset: offset) }
    // Invariant: the data holds the whole UUID (width 2, 4 or 16), little-endian.
    let uuid: BluetoothUUID
    switch width {
    case 2:
      let value = unsafe data.unsafeLoadUnaligned(fromUncheckedByteOffset: 0, as: UInt16.self)
      uuid = BluetoothUUID(uuid16: UInt16(littleEndian: value))
    case 4:
      let value = unsafe data.unsafeLoadUnaligned(fromUncheckedByteOffset: 0, as: UInt32.self)
      uuid = BluetoothUUID(uuid32: UInt32(littleEndian: value))
    default:
      let low = unsafe data.unsafeLoadUnaligned(fromUncheckedByteOffset: 0, as: UInt64.self)
      let high = unsafe data.unsafeLoadUnaligned(fromUncheckedByteOffset: 8, as: UInt64.self)
      uuid = BluetoothUUID(high: UInt64(littleEndian: high), low: UInt64(littleEndian: low))
    }
    return ServiceDataView(
      uuid: uuid, uuidWidth: width,
      data: unsafe data.extracting(unchecked: Range(uncheckedBounds: (width, data.byteCount))),
      dataOffset: dataOffset &+ width)
  }

  /// The Manufacturer Specific Data (CSS Part A §1.4) as a view. `nil` when not that type.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/invalidDataLength`` when shorter than the
  ///   two-octet company identifier.
  @_lifetime(copy self)
  @inlinable public func manufacturerData() throws(BLEAdvertisingError) -> ManufacturerDataView? {
    guard type == .manufacturerSpecificData else { return nil }
    var reader = ByteReader(data, baseOffset: dataOffset)
    guard let company = reader.readUInt16LE() else {
      throw BLEAdvertisingError(.invalidDataLength, offset: offset)
    }
    return ManufacturerDataView(
      companyID: CompanyIdentifier(rawValue: company), data: reader.remainingSpan(),
      dataOffset: dataOffset &+ 2)
  }

  /// The local name's UTF-8 bytes and whether it is complete (CSS Part A §1.2); `nil`
  /// when the structure is not a local name.
  @_lifetime(copy self)
  @inlinable public func localName() -> LocalNameView? {
    guard type == .completeLocalName || type == .shortenedLocalName else { return nil }
    return LocalNameView(utf8: data, isComplete: type == .completeLocalName)
  }

  @inlinable func expect(count: Int) throws(BLEAdvertisingError) {
    guard data.byteCount == count else {
      throw BLEAdvertisingError(.invalidDataLength, offset: offset)
    }
  }

  func expect(multipleOf width: Int, atLeast minimum: Int = 1) throws(BLEAdvertisingError) {
    guard data.byteCount >= minimum, data.byteCount % width == 0 else {
      throw BLEAdvertisingError(.invalidDataLength, offset: offset)
    }
  }
}
