// SPDX-License-Identifier: Apache-2.0
/// The datalink type of a btsnoop file (btsnoop format version 1, as written by
/// Symbian, Android, BlueZ `btmon -w` and read by Wireshark).
public struct BTSnoopDatalink: RawRepresentable, Sendable, Hashable {
  /// The 32-bit datalink type.
  public let rawValue: UInt32
  /// Creates a datalink type.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// 1001: Unencapsulated HCI (H1); the record flags say command/event vs data.
  public static let h1 = BTSnoopDatalink(rawValue: 1001)
  /// 1002: HCI UART (H4); each packet starts with its packet-type octet.
  public static let h4 = BTSnoopDatalink(rawValue: 1002)
  /// 1003: HCI BCSP (not decoded here).
  public static let bcsp = BTSnoopDatalink(rawValue: 1003)
  /// 1004: HCI Serial (H5) (not decoded here).
  public static let h5 = BTSnoopDatalink(rawValue: 1004)
  /// 2001: BlueZ monitor; the record flags hold the adapter index and an opcode.
  public static let linuxMonitor = BTSnoopDatalink(rawValue: 2001)

  /// `h1`, `h4`, `bcsp`, `h5`, `linuxMonitor` or `unknown`.
  public var name: String {
    switch rawValue {
    case 1001: return "h1"
    case 1002: return "h4"
    case 1003: return "bcsp"
    case 1004: return "h5"
    case 2001: return "linuxMonitor"
    default: return "unknown"
    }
  }

  /// Whether ``BTSnoopRecordView/hciEvent(datalink:)`` can find HCI events in this datalink.
  public var isSupported: Bool { rawValue == 1001 || rawValue == 1002 || rawValue == 2001 }
}
