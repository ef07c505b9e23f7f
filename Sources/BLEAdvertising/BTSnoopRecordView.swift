// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// One btsnoop packet record, a view.
public struct BTSnoopRecordView: ~Escapable {
  /// The packet's length on the wire.
  public let originalLength: Int
  /// The record flags: bit 0 received (1) or sent (0), bit 1 command/event (1) or data;
  /// for the BlueZ monitor datalink, the adapter index (high 16 bits) and an opcode.
  public let flags: UInt32
  /// Packets dropped since the capture began.
  public let cumulativeDrops: UInt32
  /// Microseconds since 0000-01-01 (the btsnoop epoch).
  public let timestamp: Int64
  /// The included packet octets.
  public let data: RawSpan
  /// Absolute offset of the record header.
  public let offset: Int
  /// Absolute offset of the packet octets.
  public let dataOffset: Int

  @_lifetime(copy data)
  init(
    originalLength: Int, flags: UInt32, cumulativeDrops: UInt32, timestamp: Int64,
    data: RawSpan, offset: Int, dataOffset: Int
  ) {
    self.originalLength = originalLength
    self.flags = flags
    self.cumulativeDrops = cumulativeDrops
    self.timestamp = timestamp
    self.data = data
    self.offset = offset
    self.dataOffset = dataOffset
  }

  /// The H4 packet-type octet of an HCI event.
  public static let h4EventPacket: UInt8 = 0x04
  /// The BlueZ monitor opcode of an HCI event.
  public static let monitorEventOpcode: UInt32 = 3

  /// The timestamp in microseconds since the Unix epoch.
  public var unixMicroseconds: Int64 { timestamp &- BTSnoopFileView.unixEpochOffset }

  /// Whether the packet went from the controller to the host (H1/H4 flags bit 0).
  public var isReceived: Bool { flags & 0x01 != 0 }

  /// The HCI event packet (from its event code) when this record holds one, else `nil`.
  @_lifetime(copy self)
  public func hciEvent(datalink: BTSnoopDatalink) -> RawSpan? {
    switch datalink {
    case .h1:
      return flags & 0x03 == 0x03 ? data : nil
    case .h4:
      guard data.byte(at: 0) == Self.h4EventPacket else { return nil }
      return data.extracting(1..<data.byteCount)
    case .linuxMonitor:
      return flags & 0xFFFF == Self.monitorEventOpcode ? data : nil
    default:
      return nil
    }
  }

  /// Absolute offset of ``hciEvent(datalink:)``'s first octet.
  public func hciEventOffset(datalink: BTSnoopDatalink) -> Int {
    datalink == .h4 ? dataOffset &+ 1 : dataOffset
  }
}
