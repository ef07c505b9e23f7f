// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The advertising reports of a btsnoop capture, as a stream: each LE Advertising Report
/// and (reassembled) LE Extended Advertising Report, stamped with its record's timestamp
/// (btsnoop microseconds). Other packets are skipped.
public struct BTSnoopAdvertisingReportIterator: ~Escapable {
  var records: BTSnoopRecordIterator
  let datalink: BTSnoopDatalink
  let options: BLEAdvertisingOptions
  var reassembler: ExtendedAdvertisingReassembler
  var queue: [AdvertisingReport] = []
  var flushed = false
  /// Malformed advertising events skipped in lenient mode, and reassembly warnings.
  public private(set) var warnings: [BLEAdvertisingWarning] = []

  @_lifetime(copy records)
  init(records: BTSnoopRecordIterator, datalink: BTSnoopDatalink, options: BLEAdvertisingOptions) {
    self.records = records
    self.datalink = datalink
    self.options = options
    self.reassembler = ExtendedAdvertisingReassembler(options: options)
  }

  /// The next report, or `nil` at the end of the capture (fragments still pending then
  /// are returned first, marked truncated).
  ///
  /// - Throws: in strict mode, the first error of an LE advertising report event
  ///   (``HCIAdvertisingReportsView/init(validating:baseOffset:options:)``) or of
  ///   reassembly; lenient mode skips the event with a warning.
  public mutating func next() throws(BLEAdvertisingError) -> AdvertisingReport? {
    while queue.isEmpty {
      guard let record = records.next() else {
        if !flushed {
          flushed = true
          queue = reassembler.flush()
          continue
        }
        return nil
      }
      guard let event = record.hciEvent(datalink: datalink) else { continue }
      let eventOffset = record.hciEventOffset(datalink: datalink)
      // Only LE Meta advertising report events are decoded; anything else is skipped.
      guard event.byte(at: 0) == HCIEventView.leMetaEventCode,
        let sub = event.byte(at: 2),
        sub == HCIEventView.leAdvertisingReportSubevent
          || sub == HCIEventView.leExtendedAdvertisingReportSubevent
      else { continue }
      do throws(BLEAdvertisingError) {
        let reports = try HCIAdvertisingReportsView(
          validating: event, baseOffset: eventOffset, options: options)
        warnings += reports.warnings
        var it = reports.reports
        while let report = it.next() {
          if let done = try reassembler.add(report, timestamp: record.timestamp) {
            queue.append(done)
          }
        }
        warnings += reassembler.warnings
        reassembler.clearWarnings()
      } catch {
        guard options.isLenient else { throw error }
        warnings.append(BLEAdvertisingWarning(error.code, offset: error.offset))
      }
    }
    return queue.removeFirst()
  }
}
