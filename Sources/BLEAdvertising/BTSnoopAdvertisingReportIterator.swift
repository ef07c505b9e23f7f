// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// One item of a btsnoop capture's advertising stream: a report, or an LE advertising report
/// event (or a fragment of one) that breaks a rule, in the place it has in the capture
/// (Core Vol 4 Part E §7.7.65.2, §7.7.65.13).
public enum BTSnoopAdvertisingItem: Sendable, Hashable {
  /// A report. `dataOffset` is the absolute offset of its data in the capture when the data
  /// is one fragment's octets; `nil` for data reassembled from several fragments.
  case report(AdvertisingReport, dataOffset: Int?)
  /// Strict mode: an event the report framing rejects (``HCIAdvertisingReportsView``'s
  /// errors, or its ``HCIAdvertisingReportsView/reportError`` after the reports before it),
  /// or a fragment reassembly rejects (``ExtendedAdvertisingReassembler``). The stream goes on
  /// with the next report.
  case error(BLEAdvertisingError)
}

/// The advertising reports of a btsnoop capture, as a stream: each LE Advertising Report
/// and (reassembled) LE Extended Advertising Report, stamped with its record's timestamp
/// (btsnoop microseconds). Other packets are skipped.
public struct BTSnoopAdvertisingReportIterator: ~Escapable {
  var records: BTSnoopRecordIterator
  let datalink: BTSnoopDatalink
  let options: BLEAdvertisingOptions
  var reassembler: ExtendedAdvertisingReassembler
  var queue: [BTSnoopAdvertisingItem] = []
  var queueIndex = 0
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
  ///   reassembly, once the event's reports before it are returned; lenient mode lists it
  ///   as a warning and goes on. ``nextItem()`` goes on in both modes.
  public mutating func next() throws(BLEAdvertisingError) -> AdvertisingReport? {
    switch nextItem() {
    case .report(let report, _): return report
    case .error(let error): throw error
    case nil: return nil
    }
  }

  /// The next report or (strict mode) error, or `nil` at the end of the capture. A bad event
  /// hides none of the others: its framed reports come first, then its error, then the
  /// next event's reports. Lenient mode never returns `.error` (see ``warnings``).
  public mutating func nextItem() -> BTSnoopAdvertisingItem? {
    while queueIndex == queue.count {
      queue.removeAll(keepingCapacity: true)
      queueIndex = 0
      guard let record = records.next() else {
        guard !flushed else { return nil }
        flushed = true
        queue = reassembler.flush().map { .report($0, dataOffset: nil) }
        continue
      }
      guard let event = record.hciEvent(datalink: datalink) else { continue }
      // Only LE Meta advertising report events are decoded; anything else is skipped.
      guard HCIEventView.startsAdvertisingReport(event) else { continue }
      enqueue(event, at: record.hciEventOffset(datalink: datalink), timestamp: record.timestamp)
    }
    let item = queue[queueIndex]
    queueIndex &+= 1
    return item
  }

  /// Queues one event's reports (whole ones and reassembled ones) and errors, in order.
  mutating func enqueue(_ event: RawSpan, at eventOffset: Int, timestamp: Int64) {
    do throws(BLEAdvertisingError) {
      let reports = try HCIAdvertisingReportsView(
        scanning: event, baseOffset: eventOffset, options: options)
      warnings += reports.warnings
      var it = reports.reports
      while let report = it.next() {
        do throws(BLEAdvertisingError) {
          if let done = try reassembler.add(report, timestamp: timestamp) {
            let whole = done.data.count == report.data.byteCount && report.data.elementsEqual(done.data)
            queue.append(.report(done, dataOffset: whole ? report.dataOffset : nil))
          }
        } catch {
          queue.append(.error(error))
        }
      }
      warnings += reassembler.warnings
      reassembler.clearWarnings()
      if let error = reports.reportError { record(error) }
    } catch {
      record(error)
    }
  }

  mutating func record(_ error: BLEAdvertisingError) {
    if options.isLenient {
      warnings.append(BLEAdvertisingWarning(error.code, offset: error.offset))
    } else {
      queue.append(.error(error))
    }
  }
}
