// SPDX-License-Identifier: Apache-2.0
/// The Event_Type of an LE Advertising Report (legacy, Core Vol 4 Part E §7.7.65.2).
public struct HCILegacyAdvertisingEventType: RawRepresentable, Sendable, Hashable {
  /// The Event_Type octet.
  public let rawValue: UInt8
  /// Creates an event type from its octet.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 0x00 ADV_IND: connectable and scannable undirected advertising.
  public static let advInd = HCILegacyAdvertisingEventType(rawValue: 0x00)
  /// 0x01 ADV_DIRECT_IND: connectable directed advertising.
  public static let advDirectInd = HCILegacyAdvertisingEventType(rawValue: 0x01)
  /// 0x02 ADV_SCAN_IND: scannable undirected advertising.
  public static let advScanInd = HCILegacyAdvertisingEventType(rawValue: 0x02)
  /// 0x03 ADV_NONCONN_IND: non-connectable undirected advertising.
  public static let advNonconnInd = HCILegacyAdvertisingEventType(rawValue: 0x03)
  /// 0x04 SCAN_RSP: scan response.
  public static let scanRsp = HCILegacyAdvertisingEventType(rawValue: 0x04)

  /// `advInd`, `advDirectInd`, `advScanInd`, `advNonconnInd`, `scanRsp` or `reserved`.
  public var name: String {
    switch rawValue {
    case 0: return "advInd"
    case 1: return "advDirectInd"
    case 2: return "advScanInd"
    case 3: return "advNonconnInd"
    case 4: return "scanRsp"
    default: return "reserved"
    }
  }

  /// The equivalent extended Event_Type bits (Core Vol 4 Part E §7.7.65.13, table of
  /// legacy PDU values).
  public var extended: HCIExtendedAdvertisingEventType {
    switch rawValue {
    case 0: return HCIExtendedAdvertisingEventType(rawValue: 0b001_0011)
    case 1: return HCIExtendedAdvertisingEventType(rawValue: 0b001_0101)
    case 2: return HCIExtendedAdvertisingEventType(rawValue: 0b001_0010)
    case 3: return HCIExtendedAdvertisingEventType(rawValue: 0b001_0000)
    case 4: return HCIExtendedAdvertisingEventType(rawValue: 0b001_1011)
    default: return HCIExtendedAdvertisingEventType(rawValue: 0b001_0000)
    }
  }
}
