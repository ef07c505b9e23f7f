// SPDX-License-Identifier: Apache-2.0
/// One advertising report of an LE Advertising Report or LE Extended Advertising Report
/// event (Core Vol 4 Part E §7.7.65.2, §7.7.65.13), a view.
///
/// Legacy reports fill the extended-only fields with their "not available" meaning:
/// ``primaryPHY`` LE 1M, ``secondaryPHY`` none, no SID, no TX power.
public struct HCIAdvertisingReportView: ~Escapable {
  /// Whether the report came from an LE Extended Advertising Report event.
  public let isExtended: Bool
  /// The Event_Type: for a legacy report, its octet; for an extended one, the 16 bits.
  public let rawEventType: UInt16
  /// The advertiser's address type.
  public let addressType: BluetoothAddressType
  /// The advertiser's address.
  public let address: BluetoothAddress
  /// The primary advertising PHY (extended reports; LE 1M for legacy ones).
  public let primaryPHY: LEPHY
  /// The secondary advertising PHY (extended reports; none for legacy ones).
  public let secondaryPHY: LEPHY
  /// The Advertising SID, or `nil` for none (0xFF) and legacy reports.
  public let advertisingSID: UInt8?
  /// TX power in dBm, or `nil` when not available (127) and for legacy reports.
  public let txPower: Int8?
  /// RSSI in dBm, or `nil` when not available (127).
  public let rssi: Int8?
  /// Periodic advertising interval in 1.25 ms, or `nil` for none (0) and legacy reports.
  public let periodicAdvertisingInterval: UInt16?
  /// For directed advertising (extended), the target's address type and address.
  public let directAddressType: BluetoothAddressType?
  /// For directed advertising (extended), the target address.
  public let directAddress: BluetoothAddress?
  /// The advertising or scan response data fragment.
  public let data: RawSpan
  /// Absolute offset of the report's first octet (its Event_Type).
  public let offset: Int
  /// Absolute offset of the first data octet.
  public let dataOffset: Int

  @_lifetime(copy data)
  init(
    isExtended: Bool, rawEventType: UInt16, addressType: BluetoothAddressType,
    address: BluetoothAddress, primaryPHY: LEPHY, secondaryPHY: LEPHY, advertisingSID: UInt8?,
    txPower: Int8?, rssi: Int8?, periodicAdvertisingInterval: UInt16?,
    directAddressType: BluetoothAddressType?, directAddress: BluetoothAddress?, data: RawSpan,
    offset: Int, dataOffset: Int
  ) {
    self.isExtended = isExtended
    self.rawEventType = rawEventType
    self.addressType = addressType
    self.address = address
    self.primaryPHY = primaryPHY
    self.secondaryPHY = secondaryPHY
    self.advertisingSID = advertisingSID
    self.txPower = txPower
    self.rssi = rssi
    self.periodicAdvertisingInterval = periodicAdvertisingInterval
    self.directAddressType = directAddressType
    self.directAddress = directAddress
    self.data = data
    self.offset = offset
    self.dataOffset = dataOffset
  }

  /// The extended Event_Type bits (a legacy type is mapped to its legacy-PDU bits).
  public var eventType: HCIExtendedAdvertisingEventType {
    isExtended
      ? HCIExtendedAdvertisingEventType(rawValue: rawEventType)
      : HCILegacyAdvertisingEventType(rawValue: UInt8(truncatingIfNeeded: rawEventType)).extended
  }

  /// The legacy Event_Type, for legacy reports.
  public var legacyEventType: HCILegacyAdvertisingEventType? {
    isExtended ? nil : HCILegacyAdvertisingEventType(rawValue: UInt8(truncatingIfNeeded: rawEventType))
  }

  /// Whether the data is scan response data.
  public var isScanResponse: Bool { eventType.contains(.scanResponse) }

  /// The data status (always complete for legacy reports).
  public var dataStatus: HCIDataStatus { isExtended ? eventType.dataStatus : .complete }
}
