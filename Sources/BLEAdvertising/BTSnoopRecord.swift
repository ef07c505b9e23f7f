// SPDX-License-Identifier: Apache-2.0
/// An owned btsnoop packet record.
public struct BTSnoopRecord: Sendable, Hashable {
  /// The record flags (see ``BTSnoopRecordView/flags``).
  public var flags: UInt32
  /// Microseconds since 0000-01-01 (btsnoop epoch; see
  /// ``BTSnoopFileView/unixEpochOffset``).
  public var timestamp: Int64
  /// The included packet octets.
  public var data: [UInt8]
  /// The packet's original length when larger than `data` (a snapped capture), else `nil`.
  public var originalLength: Int?
  /// Packets dropped since the capture began.
  public var cumulativeDrops: UInt32

  /// Creates a record.
  public init(
    flags: UInt32, timestamp: Int64, data: [UInt8], originalLength: Int? = nil,
    cumulativeDrops: UInt32 = 0
  ) {
    self.flags = flags
    self.timestamp = timestamp
    self.data = data
    self.originalLength = originalLength == data.count ? nil : originalLength
    self.cumulativeDrops = cumulativeDrops
  }
}
