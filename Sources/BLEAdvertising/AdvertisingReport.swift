// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// An owned advertising report: one advertiser's advertising or scan response data with
/// its radio details, complete (extended fragments reassembled), as a scanner hands it
/// on (Core Vol 4 Part E §7.7.65.2, §7.7.65.13).
///
/// This is also the input of ``ReaderDiscovery``: a platform scanner that does not speak
/// HCI builds one from its callback's address, RSSI and bytes.
public struct AdvertisingReport: Sendable, Hashable {
  /// When the report was received, in microseconds on the caller's clock (btsnoop
  /// timestamps for captures); `nil` when unknown.
  public var timestamp: Int64?

  /// ``timestamp`` as an instant of the clock that stamped it (that many µs after its
  /// origin), the time to feed `ReaderDiscovery` with; `nil` when unknown.
  public var timestampInstant: MonotonicInstant? {
    timestamp.map { MonotonicInstant(sinceOrigin: .microseconds($0)) }
  }
  /// Whether it came from an LE Extended Advertising Report.
  public var isExtended: Bool
  /// The Event_Type bits (legacy types mapped to their legacy-PDU bits).
  public var eventType: HCIExtendedAdvertisingEventType
  /// The legacy Event_Type octet, for legacy reports.
  public var legacyEventType: HCILegacyAdvertisingEventType?
  /// The advertiser's address type.
  public var addressType: BluetoothAddressType
  /// The advertiser's address.
  public var address: BluetoothAddress
  /// The primary advertising PHY.
  public var primaryPHY: LEPHY
  /// The secondary advertising PHY.
  public var secondaryPHY: LEPHY
  /// The Advertising SID, if any.
  public var advertisingSID: UInt8?
  /// The TX power in dBm reported by the controller, if available.
  public var txPower: Int8?
  /// RSSI in dBm, if available.
  public var rssi: Int8?
  /// Periodic advertising interval in 1.25 ms, if any.
  public var periodicAdvertisingInterval: UInt16?
  /// The target address of directed advertising, if any.
  public var directAddress: BluetoothAddress?
  /// The target address type of directed advertising, if any.
  public var directAddressType: BluetoothAddressType?
  /// The advertising or scan response data (all fragments).
  public var data: [UInt8]
  /// Whether the controller truncated the data (data status 0b10), or fragments were lost.
  public var isTruncated: Bool

  /// Creates a report, e.g. from a platform scanner callback.
  public init(
    timestamp: Int64? = nil, address: BluetoothAddress,
    addressType: BluetoothAddressType = .randomDevice, rssi: Int8?, txPower: Int8? = nil,
    data: [UInt8], isScanResponse: Bool = false, isExtended: Bool = false
  ) {
    self.timestamp = timestamp
    self.isExtended = isExtended
    self.eventType =
      isScanResponse
      ? HCILegacyAdvertisingEventType.scanRsp.extended : HCILegacyAdvertisingEventType.advInd.extended
    self.legacyEventType = isExtended ? nil : (isScanResponse ? .scanRsp : .advInd)
    self.addressType = addressType
    self.address = address
    self.primaryPHY = .le1M
    self.secondaryPHY = .none
    self.advertisingSID = nil
    self.txPower = txPower
    self.rssi = rssi
    self.periodicAdvertisingInterval = nil
    self.directAddress = nil
    self.directAddressType = nil
    self.data = data
    self.isTruncated = false
  }

  /// Copies a report view (one fragment, for extended reports).
  public init(_ view: borrowing HCIAdvertisingReportView, timestamp: Int64? = nil) {
    self.timestamp = timestamp
    self.isExtended = view.isExtended
    self.eventType = view.eventType
    self.legacyEventType = view.legacyEventType
    self.addressType = view.addressType
    self.address = view.address
    self.primaryPHY = view.primaryPHY
    self.secondaryPHY = view.secondaryPHY
    self.advertisingSID = view.advertisingSID
    self.txPower = view.txPower
    self.rssi = view.rssi
    self.periodicAdvertisingInterval = view.periodicAdvertisingInterval
    self.directAddress = view.directAddress
    self.directAddressType = view.directAddressType
    self.data = view.data.copiedBytes()
    self.isTruncated = view.dataStatus == .truncated
  }

  /// Whether the data is scan response data.
  public var isScanResponse: Bool { eventType.contains(.scanResponse) }

  /// The data decoded leniently (a length running past the end stops there).
  public var advertising: AdvertisingData {
    (try? AdvertisingData(parsing: data, options: .lenient)) ?? AdvertisingData()
  }

  /// The TX power to use for path loss: the controller's, else the advertised TX Power
  /// Level AD structure's.
  public var effectiveTXPower: Int8? { txPower ?? advertising.txPowerLevel }
}
