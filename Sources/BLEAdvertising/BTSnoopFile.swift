// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// An owned btsnoop capture: datalink and packet records, with an encoder (btsnoop
/// format version 1; see ``BTSnoopFileView``).
public struct BTSnoopFile: Sendable, Hashable {
  /// The datalink type.
  public var datalink: BTSnoopDatalink
  /// The records in order.
  public var records: [BTSnoopRecord]

  /// Creates a capture.
  public init(datalink: BTSnoopDatalink, records: [BTSnoopRecord] = []) {
    self.datalink = datalink
    self.records = records
  }

  /// Copies a validated view.
  public init(_ view: borrowing BTSnoopFileView) {
    var records: [BTSnoopRecord] = []
    records.reserveCapacity(view.recordCount)
    var it = view.records
    while let r = it.next() {
      records.append(
        BTSnoopRecord(
          flags: r.flags, timestamp: r.timestamp, data: r.data.copiedBytes(),
          originalLength: r.originalLength, cumulativeDrops: r.cumulativeDrops))
    }
    self.datalink = view.datalink
    self.records = records
  }

  /// Decodes an owned capture.
  ///
  /// - Throws: as ``BTSnoopFileView/init(validating:baseOffset:options:)``.
  public init(parsing bytes: [UInt8], options: BLEAdvertisingOptions = .strict)
    throws(BLEAdvertisingError)
  {
    let view = try BTSnoopFileView(validating: bytes.span.bytes, options: options)
    self.init(view)
  }

  /// Appends an HCI event packet (from its event code) received from the controller,
  /// framed for this file's datalink (H4 packet-type octet, H1 or monitor flags).
  public mutating func appendEvent(_ event: [UInt8], timestamp: Int64, adapterIndex: UInt16 = 0) {
    switch datalink {
    case .h4:
      records.append(
        BTSnoopRecord(flags: 0x03, timestamp: timestamp, data: [BTSnoopRecordView.h4EventPacket] + event))
    case .linuxMonitor:
      records.append(
        BTSnoopRecord(
          flags: UInt32(adapterIndex) << 16 | BTSnoopRecordView.monitorEventOpcode,
          timestamp: timestamp, data: event))
    default:
      records.append(BTSnoopRecord(flags: 0x03, timestamp: timestamp, data: event))
    }
  }

  /// The exact number of octets ``encode(into:)`` writes.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/recordLengthExceedsInput`` (offset: the record's
  ///   would-be offset) for a record over 2^32 − 1 octets, and
  ///   ``BLEAdvertisingError/Code/includedLengthExceedsOriginal`` when a record's
  ///   original length is smaller than its data.
  public func encodedCount() throws(BLEAdvertisingError) -> Int {
    var total = BTSnoopFileView.headerCount
    for record in records {
      guard UInt64(record.data.count) <= UInt64(UInt32.max) else {
        throw BLEAdvertisingError(.recordLengthExceedsInput, offset: total)
      }
      if let original = record.originalLength,
        original < record.data.count || UInt64(original) > UInt64(UInt32.max)
      {
        throw BLEAdvertisingError(.includedLengthExceedsOriginal, offset: total)
      }
      guard let next = Checked.add(total, BTSnoopFileView.recordHeaderCount + record.data.count)
      else { throw BLEAdvertisingError(.recordLengthExceedsInput, offset: total) }
      total = next
    }
    return total
  }

  /// Writes the header and records.
  ///
  /// - Throws: the errors of ``encodedCount()`` and
  ///   ``BLEAdvertisingError/Code/bufferTooSmall`` (nothing written).
  public func encode(into output: inout OutputSpan<UInt8>) throws(BLEAdvertisingError) {
    let count = try encodedCount()
    guard output.freeCapacity >= count else {
      throw BLEAdvertisingError(.bufferTooSmall, offset: output.count)
    }
    output.appendBytes(BTSnoopFileView.identification)
    output.appendBigEndian(BTSnoopFileView.version)
    output.appendBigEndian(datalink.rawValue)
    for record in records {
      output.appendBigEndian(UInt32(truncatingIfNeeded: record.originalLength ?? record.data.count))
      output.appendBigEndian(UInt32(truncatingIfNeeded: record.data.count))
      output.appendBigEndian(record.flags)
      output.appendBigEndian(record.cumulativeDrops)
      output.appendBigEndian(UInt64(bitPattern: record.timestamp))
      output.appendBytes(record.data)
    }
  }

  /// The encoded capture as a new array.
  public func encodedBytes() throws(BLEAdvertisingError) -> [UInt8] {
    let count = try encodedCount()
    return try encodeToArray(count: count) {
      (output: inout OutputSpan<UInt8>) throws(BLEAdvertisingError) in
      try encode(into: &output)
    }
  }
}
