// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// Reassembles extended advertising data sent in several LE Extended Advertising Report
/// fragments (Core Vol 4 Part E §7.7.65.13: data status 0b01 "incomplete, more to come"
/// until 0b00 "complete" or 0b10 "truncated"), per advertiser address, address type,
/// Advertising SID and scan-response flag. Legacy reports pass straight through.
///
/// Memory is bounded by ``BLEAdvertisingOptions/maximumReassembledSize`` per advertiser
/// and ``BLEAdvertisingOptions/maximumPendingAdvertisers``.
public struct ExtendedAdvertisingReassembler: Sendable {
  struct Key: Hashable, Sendable {
    var address: BluetoothAddress
    var addressType: BluetoothAddressType
    var sid: UInt8?
    var scanResponse: Bool
  }

  var pending: [Key: AdvertisingReport] = [:]
  var order: [Key] = []
  /// The options bounding reassembly.
  public let options: BLEAdvertisingOptions
  /// Warnings from lenient reassembly, in order (dropped advertisers, overflow).
  public private(set) var warnings: [BLEAdvertisingWarning] = []

  /// Creates an empty reassembler.
  public init(options: BLEAdvertisingOptions = .strict) { self.options = options }

  /// The number of advertisers with fragments pending.
  public var pendingCount: Int { pending.count }

  /// Adds a report fragment; returns the complete report when this fragment ends one.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/reservedDataStatus`` (data status 0b11),
  ///   ``BLEAdvertisingError/Code/reassemblyOverflow`` (more than the maximum size; the
  ///   advertiser's fragments are dropped) and
  ///   ``BLEAdvertisingError/Code/tooManyPendingAdvertisers``; in lenient mode each is a
  ///   warning instead: the reserved status reads as complete, an overflowing report is
  ///   returned truncated, and the oldest pending advertiser is dropped.
  public mutating func add(_ view: borrowing HCIAdvertisingReportView, timestamp: Int64? = nil)
    throws(BLEAdvertisingError) -> AdvertisingReport?
  {
    let fragment = AdvertisingReport(view, timestamp: timestamp)
    guard view.isExtended else { return fragment }
    var status = view.dataStatus
    if status == .reserved {
      try problem(.reservedDataStatus, offset: view.offset)
      status = .complete
    }
    let key = Key(
      address: view.address, addressType: view.addressType, sid: view.advertisingSID,
      scanResponse: view.isScanResponse)
    var report: AdvertisingReport
    if var existing = pending.removeValue(forKey: key) {
      order.removeAll { $0 == key }
      existing.data += fragment.data
      existing.rssi = fragment.rssi ?? existing.rssi
      existing.txPower = fragment.txPower ?? existing.txPower
      existing.timestamp = fragment.timestamp ?? existing.timestamp
      existing.isTruncated = existing.isTruncated || fragment.isTruncated
      existing.eventType = fragment.eventType
      report = existing
    } else {
      report = fragment
    }
    if report.data.count > options.maximumReassembledSize {
      try problem(.reassemblyOverflow, offset: view.dataOffset)
      report.data = Array(report.data.prefix(options.maximumReassembledSize))
      report.isTruncated = true
      return report
    }
    if status == .incompleteMoreToCome {
      if pending.count >= options.maximumPendingAdvertisers, let oldest = order.first {
        try problem(.tooManyPendingAdvertisers, offset: view.offset)
        pending.removeValue(forKey: oldest)
        order.removeFirst()
      }
      pending[key] = report
      order.append(key)
      return nil
    }
    return report
  }

  /// Returns and forgets every pending (incomplete) report, marked truncated: for the end
  /// of a capture or a scan.
  public mutating func flush() -> [AdvertisingReport] {
    var result: [AdvertisingReport] = []
    for key in order {
      if var report = pending[key] {
        report.isTruncated = true
        result.append(report)
      }
    }
    pending.removeAll()
    order.removeAll()
    return result
  }

  /// Forgets the warnings collected so far.
  public mutating func clearWarnings() { warnings.removeAll() }

  private mutating func problem(_ code: BLEAdvertisingError.Code, offset: Int)
    throws(BLEAdvertisingError)
  {
    guard options.isLenient else { throw BLEAdvertisingError(code, offset: offset) }
    warnings.append(BLEAdvertisingWarning(code, offset: offset))
  }
}
