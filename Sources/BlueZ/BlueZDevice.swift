// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising

/// What BlueZ knows of one remote device: its `org.bluez.Device1` properties, kept up to date
/// from `InterfacesAdded` and `PropertiesChanged`, and the advertising report rebuilt from
/// them.
///
/// BlueZ does not hand out the advertising PDUs: it parses them, **merges advertising and
/// scan response data** into one set of properties, keeps the last value of each, and exposes
/// the AD types it parses itself only through those properties (`AdvertisingData` carries the
/// remaining types). So a report is rebuilt, as one advertising (not scan response) report,
/// from these properties, in this order:
///
/// | property | AD structure (Core Supplement Part A) |
/// |---|---|
/// | `AdvertisingFlags` (`ay`) | 0x01 Flags |
/// | `UUIDs` (`as`) | 0x03 / 0x05 / 0x07 complete 16-, 32-, 128-bit service UUID lists |
/// | `Name` (`s`), else `Alias` unless it is BlueZ's address-derived default | 0x09 Complete Local Name |
/// | `TxPower` (`n`) | 0x0A TX Power Level |
/// | `Appearance` (`q`) | 0x19 Appearance |
/// | `ServiceData` (`a{sv}`) | 0x16 / 0x20 / 0x21 service data by UUID width |
/// | `ManufacturerData` (`a{qv}`) | 0xFF Manufacturer Specific Data, one per company |
/// | `AdvertisingData` (`a{yv}`) | the AD type given, for each type not produced above |
///
/// What BlueZ hides: which part came from the scan response; whether the name was shortened
/// (0x08 becomes 0x09); incomplete UUID lists (they become complete ones, and `UUIDs` also
/// gains services found over GATT after a connection); repeated structures of one type; the
/// order of structures; the advertising event type, PHYs, SID and the controller-reported TX
/// power. `RSSI` is the last packet's, present only while discovering.
public struct BlueZDevice: Sendable, Hashable {
  /// The D-Bus object path (`/org/bluez/hci0/dev_AA_BB_CC_DD_EE_FF`).
  public var path: String
  /// The `org.bluez.Device1` properties (variants unwrapped).
  public var properties: [String: DBusValue]

  /// Creates a device.
  public init(path: String, properties: [String: DBusValue]) {
    self.path = path
    self.properties = properties
  }

  /// `Address` parsed.
  public var address: BluetoothAddress? { properties["Address"]?.stringValue.flatMap(BluetoothAddress.init) }

  /// `AddressType`: `public` or `random`.
  public var addressType: BluetoothAddressType {
    properties["AddressType"]?.stringValue == "public" ? .publicDevice : .randomDevice
  }

  /// `RSSI` in dBm, when present.
  public var rssi: Int8? { properties["RSSI"]?.intValue.map { Int8(clamping: $0) } }

  /// `Connected`.
  public var isConnected: Bool { properties["Connected"]?.boolValue ?? false }

  /// The local name: `Name`, else `Alias` unless it is the address-derived default.
  public var name: String? {
    if let name = properties["Name"]?.stringValue { return name }
    guard let alias = properties["Alias"]?.stringValue, let address = properties["Address"]?.stringValue
    else { return nil }
    return alias == address.replacingColons() ? nil : alias
  }

  /// The AD structures rebuilt from the properties (see the type's table).
  public var advertisingData: AdvertisingData {
    var values: [ADValue] = []
    if let flags = properties["AdvertisingFlags"]?.bytesValue, let first = flags.first {
      values.append(.flags(ADFlags(rawValue: first)))
    }
    if let uuids = properties["UUIDs"]?.arrayValue?.compactMap({ $0.stringValue.flatMap(BluetoothUUID.init) }
    ),
      !uuids.isEmpty
    {
      for width in [2, 4, 16] {
        let group = uuids.filter { $0.shortestWidth == width }
        if !group.isEmpty { values.append(.serviceUUIDs(group, complete: true)) }
      }
    }
    if let name { values.append(.localName(name, complete: true)) }
    if let tx = properties["TxPower"]?.intValue { values.append(.txPowerLevel(Int8(clamping: tx))) }
    if let appearance = properties["Appearance"]?.intValue, let value = UInt16(exactly: appearance) {
      values.append(.appearance(value))
    }
    for pair in properties["ServiceData"]?.dictionaryValue ?? [] {
      if let uuid = pair.key.stringValue.flatMap(BluetoothUUID.init), let bytes = pair.value.bytesValue {
        values.append(.serviceData(uuid, bytes))
      }
    }
    for pair in properties["ManufacturerData"]?.dictionaryValue ?? [] {
      if let company = pair.key.intValue.flatMap(UInt16.init(exactly:)), let bytes = pair.value.bytesValue {
        values.append(.manufacturerData(CompanyIdentifier(rawValue: company), bytes))
      }
    }
    var structures = values.map(\.structure)
    for pair in properties["AdvertisingData"]?.dictionaryValue ?? [] {
      guard let type = pair.key.intValue.flatMap(UInt8.init(exactly:)), let bytes = pair.value.bytesValue
      else {
        continue
      }
      if !structures.contains(where: { $0.type.rawValue == type }) {
        structures.append(ADStructure(type: ADType(rawValue: type), data: bytes))
      }
    }
    return AdvertisingData(structures: structures)
  }

  /// The advertising report for ``ReaderDiscovery``, stamped `timestamp` (µs), or nil without
  /// a valid `Address`. AD structures that would not fit an extended report's 1650 octets are
  /// dropped from the end.
  public func report(timestamp: Int64?) -> AdvertisingReport? {
    guard let address else { return nil }
    var data = advertisingData
    var bytes: [UInt8] = []
    while true {
      if let encoded = try? data.encodedBytes(budget: .chained) {
        bytes = encoded
        break
      }
      if data.structures.isEmpty { break }
      data.structures.removeLast()
    }
    return AdvertisingReport(
      timestamp: timestamp, address: address, addressType: addressType, rssi: rssi, data: bytes,
      isExtended: bytes.count > 31)
  }

  /// Applies a `PropertiesChanged` (changed values, invalidated names).
  mutating func apply(changed: [String: DBusValue], invalidated: [String]) {
    for (key, value) in changed { properties[key] = value }
    for key in invalidated { properties[key] = nil }
  }
}

extension String {
  func replacingColons() -> String { String(map { $0 == ":" ? "-" : $0 }) }
}
