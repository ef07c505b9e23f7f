// SPDX-License-Identifier: Apache-2.0
import NFCWire

extension AdvertisingReport {
  /// The most data octets in one extended report fragment of a 255-octet event:
  /// 255 − subevent − Num_Reports − 24 fixed octets (Core Vol 4 Part E §7.7.65.13).
  public static let maximumExtendedFragmentSize = 229

  /// The legacy Event_Type this report is sent with: ``legacyEventType`` when set, else
  /// the one matching the ``eventType`` bits.
  public var encodedLegacyEventType: HCILegacyAdvertisingEventType {
    if let legacyEventType { return legacyEventType }
    if eventType.contains(.scanResponse) { return .scanRsp }
    if eventType.contains(.directed) { return .advDirectInd }
    if eventType.contains(.connectable) { return .advInd }
    if eventType.contains(.scannable) { return .advScanInd }
    return .advNonconnInd
  }

  /// The HCI event packets (from the event code, no H4 octet) that carry this report: one
  /// LE Advertising Report for a legacy report, or LE Extended Advertising Reports with
  /// the data split into fragments of at most `maximumFragmentSize` octets (data status
  /// "incomplete, more to come" on all but the last, which is "complete", or "truncated"
  /// when ``isTruncated``). RSSI and TX power `nil` are sent as 127 (not available).
  ///
  /// - Throws: ``BLEAdvertisingError/Code/exceedsBudget`` (offset 0) when a legacy
  ///   report's data is over 31 octets, or an extended fragment size is outside
  ///   1...229.
  public func encodedEvents(maximumFragmentSize: Int = maximumExtendedFragmentSize)
    throws(BLEAdvertisingError) -> [[UInt8]]
  {
    let notAvailable: UInt8 = 127
    let rssiOctet = rssi.map { UInt8(bitPattern: $0) } ?? notAvailable
    if !isExtended {
      guard data.count <= HCIAdvertisingReportsView.maximumLegacyDataLength else {
        throw BLEAdvertisingError(.exceedsBudget, offset: 0)
      }
      var body: [UInt8] = [HCIEventView.leAdvertisingReportSubevent, 1]
      body.append(encodedLegacyEventType.rawValue)
      body.append(addressType.rawValue)
      body += address.littleEndianBytes
      body.append(UInt8(data.count))
      body += data
      body.append(rssiOctet)
      return [[HCIEventView.leMetaEventCode, UInt8(body.count)] + body]
    }
    guard maximumFragmentSize >= 1, maximumFragmentSize <= Self.maximumExtendedFragmentSize else {
      throw BLEAdvertisingError(.exceedsBudget, offset: 0)
    }
    var events: [[UInt8]] = []
    var start = 0
    repeat {
      let end = min(data.count, start + maximumFragmentSize)
      let last = end == data.count
      let status: UInt16 = last ? (isTruncated ? 0b10 : 0b00) : 0b01
      let type = (eventType.rawValue & ~UInt16(0b11 << 5)) | status << 5
      var body: [UInt8] = [HCIEventView.leExtendedAdvertisingReportSubevent, 1]
      body += [UInt8(type & 0xFF), UInt8(type >> 8), addressType.rawValue]
      body += address.littleEndianBytes
      body += [primaryPHY.rawValue, secondaryPHY.rawValue, advertisingSID ?? 0xFF]
      body += [txPower.map { UInt8(bitPattern: $0) } ?? notAvailable, rssiOctet]
      let interval = periodicAdvertisingInterval ?? 0
      body += [UInt8(interval & 0xFF), UInt8(interval >> 8)]
      body.append(directAddressType?.rawValue ?? 0)
      body += (directAddress ?? BluetoothAddress(0)).littleEndianBytes
      body.append(UInt8(end - start))
      body += data[start..<end]
      events.append([HCIEventView.leMetaEventCode, UInt8(body.count)] + body)
      start = end
    } while start < data.count
    return events
  }
}
