// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The Apple iBeacon layout carried in Manufacturer Specific Data: company 0x004C, then
/// type 0x02, length 0x15, a 128-bit proximity UUID (big-endian), major, minor (both
/// big-endian) and the measured power at 1 m (signed dBm).
public struct IBeacon: Sendable, Hashable {
  /// The proximity UUID.
  public var proximityUUID: BluetoothUUID
  /// The major value.
  public var major: UInt16
  /// The minor value.
  public var minor: UInt16
  /// The calibrated RSSI at 1 m, in dBm.
  public var measuredPower: Int8

  /// Creates a beacon value.
  public init(proximityUUID: BluetoothUUID, major: UInt16, minor: UInt16, measuredPower: Int8) {
    self.proximityUUID = proximityUUID
    self.major = major
    self.minor = minor
    self.measuredPower = measuredPower
  }

  /// The octets after the company identifier that mark an iBeacon: type 0x02, length 0x15.
  public static let prefix: [UInt8] = [0x02, 0x15]
  /// The data length after the company identifier: prefix plus 21 octets.
  static let dataCount = 23

  /// Decodes an iBeacon from manufacturer data; `nil` when the company is not Apple or
  /// the data does not start with ``prefix``.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/invalidBeaconLength`` at the data when the
  ///   prefix matches but the data is not 23 octets.
  public init?(_ manufacturerData: borrowing ManufacturerDataView) throws(BLEAdvertisingError) {
    let data = manufacturerData.data
    guard manufacturerData.companyID == .apple, data.starts(with: Self.prefix.span.bytes) else {
      return nil
    }
    guard data.byteCount == Self.dataCount else {
      throw BLEAdvertisingError(.invalidBeaconLength, offset: manufacturerData.dataOffset)
    }
    var reader = ByteReader(data)
    _ = reader.skip(2)
    guard let uuidBytes = reader.readSpan(count: 16),
      let uuid = BluetoothUUID(bigEndian: uuidBytes),
      let major = reader.readUInt16BE(), let minor = reader.readUInt16BE(),
      let power = reader.readUInt8()
    else { return nil }
    self.init(proximityUUID: uuid, major: major, minor: minor, measuredPower: Int8(bitPattern: power))
  }

  /// The first iBeacon in advertising data, if any.
  ///
  /// - Throws: as ``init(_:)``.
  public init?(_ advertising: borrowing AdvertisingDataView) throws(BLEAdvertisingError) {
    var it = advertising.structures
    while let s = it.next() {
      guard let m = try s.manufacturerData() else { continue }
      if let beacon = try IBeacon(m) {
        self = beacon
        return
      }
    }
    return nil
  }

  /// The Manufacturer Specific Data value that encodes this beacon.
  public var manufacturerData: ManufacturerData {
    var data = Self.prefix + proximityUUID.bigEndianBytes
    data += [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF)]
    data.append(UInt8(bitPattern: measuredPower))
    return ManufacturerData(companyID: .apple, data: data)
  }

  /// The AD structure that encodes this beacon.
  public var structure: ADStructure {
    ADStructure(.manufacturerData(manufacturerData.companyID, manufacturerData.data))
  }
}
