// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The advertising reports of one HCI LE Advertising Report or LE Extended Advertising
/// Report event, validated over the caller's bytes (Core Vol 4 Part E §7.7.65.2,
/// §7.7.65.13).
///
/// Legacy reports are read one after the other (Event_Type, Address_Type, Address,
/// Data_Length, Data, RSSI per report), as controllers send them and as BlueZ and
/// Wireshark read them.
public struct HCIAdvertisingReportsView: ~Escapable {
  /// The event's parameters after the subevent code and Num_Reports.
  let body: RawSpan
  /// Absolute offset of `body`.
  let bodyOffset: Int
  /// Whether the event is an LE Extended Advertising Report.
  public let isExtended: Bool
  /// Num_Reports.
  public let reportCount: Int
  /// The rules the input broke that lenient decoding accepted.
  public let warnings: [BLEAdvertisingWarning]
  /// The number of reports that could be framed: `reportCount` unless `reportError` is a
  /// framing error (Core Vol 4 Part E §7.7.65.2, §7.7.65.13).
  public let framedReportCount: Int
  /// The first error after the event header: a report that can't be framed
  /// (`truncatedReport`, `reportDataExceedsEvent`; the reports after it can't be located, as
  /// legacy reports are sequential) or, strict, `trailingBytes`; `nil` when every report is
  /// framed (Core Vol 4 Part E §7.7.65.2, §7.7.65.13).
  public let reportError: BLEAdvertisingError?

  /// The most legacy reports per event (Core Vol 4 Part E §7.7.65.2).
  public static let maximumLegacyReports = 0x19
  /// The most extended reports per event (Core Vol 4 Part E §7.7.65.13).
  public static let maximumExtendedReports = 0x0A
  /// The most data octets in one legacy report (Core Vol 6 Part B §2.3.1).
  public static let maximumLegacyDataLength = 31
  /// Octets of a legacy report besides its data.
  static let legacyFixedCount = 10
  /// Octets of an extended report before its data.
  static let extendedFixedCount = 24

  /// Validates an HCI event packet (starting at the event code) as advertising reports.
  ///
  /// - Throws: the errors of ``HCIEventView/init(validating:baseOffset:)``, and
  ///   `notLEMetaEvent`, `unsupportedSubevent`, `invalidReportCount`, `truncatedReport`,
  ///   `reportDataExceedsEvent`, `trailingBytes` (lenient: a warning).
  @_lifetime(copy bytes)
  public init(
    validating bytes: RawSpan, baseOffset: Int = 0, options: BLEAdvertisingOptions = .strict
  ) throws(BLEAdvertisingError) {
    let event = try HCIEventView(validating: bytes, baseOffset: baseOffset)
    try self.init(event: event, options: options)
  }

  /// Validates the advertising reports of an event already split from its header.
  ///
  /// - Throws: the errors of ``init(scanning:options:)`` and its ``reportError``.
  @_lifetime(copy event)
  public init(event: borrowing HCIEventView, options: BLEAdvertisingOptions = .strict)
    throws(BLEAdvertisingError)
  {
    try self.init(scanning: event, options: options)
    if let error = reportError { throw error }
  }

  /// Frames an HCI event packet (starting at the event code) as advertising reports, keeping
  /// the reports before the first one that can't be framed (Core Vol 4 Part E §7.7.65.2,
  /// §7.7.65.13).
  ///
  /// - Throws: only event-level errors: those of ``HCIEventView/init(validating:baseOffset:)``,
  ///   `notLEMetaEvent`, `unsupportedSubevent`, `invalidReportCount` and a missing subevent
  ///   code or Num_Reports (`truncatedReport`). A report error is kept in ``reportError``.
  @_lifetime(copy bytes)
  public init(
    scanning bytes: RawSpan, baseOffset: Int = 0, options: BLEAdvertisingOptions = .strict
  ) throws(BLEAdvertisingError) {
    let event = try HCIEventView(validating: bytes, baseOffset: baseOffset)
    try self.init(scanning: event, options: options)
  }

  /// Frames the advertising reports of an event already split from its header, keeping the
  /// reports before the first one that can't be framed (Core Vol 4 Part E §7.7.65.2,
  /// §7.7.65.13).
  ///
  /// - Throws: only event-level errors, as ``init(scanning:baseOffset:options:)``.
  @_lifetime(copy event)
  public init(scanning event: borrowing HCIEventView, options: BLEAdvertisingOptions = .strict)
    throws(BLEAdvertisingError)
  {
    guard event.eventCode == HCIEventView.leMetaEventCode else {
      throw BLEAdvertisingError(.notLEMetaEvent, offset: event.offset)
    }
    var reader = ByteReader(event.parameters, baseOffset: event.parametersOffset)
    guard let subevent = reader.readUInt8() else {
      throw BLEAdvertisingError(.truncatedReport, offset: reader.offset)
    }
    let extended: Bool
    switch subevent {
    case HCIEventView.leAdvertisingReportSubevent: extended = false
    case HCIEventView.leExtendedAdvertisingReportSubevent: extended = true
    default: throw BLEAdvertisingError(.unsupportedSubevent, offset: reader.offset &- 1)
    }
    guard let count = reader.readUInt8() else {
      throw BLEAdvertisingError(.truncatedReport, offset: reader.offset)
    }
    let maximum = extended ? Self.maximumExtendedReports : Self.maximumLegacyReports
    guard count >= 1, Int(count) <= maximum else {
      throw BLEAdvertisingError(.invalidReportCount, offset: reader.offset &- 1)
    }
    let bodyStart = reader.index
    let bodyOffset = reader.offset
    var warnings: [BLEAdvertisingWarning] = []
    var framed = 0
    var reportError: BLEAdvertisingError? = nil
    var end = reader.index
    while framed < Int(count) {
      do throws(BLEAdvertisingError) {
        _ = try Self.readReport(&reader, extended: extended)
      } catch {
        reportError = error
        break
      }
      framed &+= 1
      end = reader.index
    }
    if reportError == nil, !reader.isAtEnd {
      if options.isLenient {
        warnings.append(BLEAdvertisingWarning(.trailingBytes, offset: reader.offset))
      } else {
        reportError = BLEAdvertisingError(.trailingBytes, offset: reader.offset)
      }
    }
    self.body = event.parameters.extracting(bodyStart..<end)
    self.bodyOffset = bodyOffset
    self.isExtended = extended
    self.reportCount = Int(count)
    self.warnings = warnings
    self.framedReportCount = framed
    self.reportError = reportError
  }

  /// The reports in order, as views.
  public var reports: HCIAdvertisingReportIterator {
    @_lifetime(copy self)
    get { HCIAdvertisingReportIterator(body, baseOffset: bodyOffset, extended: isExtended) }
  }

  /// Reads one report's layout; the data is checked against what remains.
  @_lifetime(copy reader)
  static func readReport(_ reader: inout ByteReader, extended: Bool) throws(BLEAdvertisingError)
    -> HCIAdvertisingReportView
  {
    let start = reader.offset
    func truncated(_ r: borrowing ByteReader) -> BLEAdvertisingError {
      BLEAdvertisingError(.truncatedReport, offset: r.offset)
    }
    if !extended {
      guard let type = reader.readUInt8(), let addressType = reader.readUInt8(),
        let address = reader.readLittleEndian(UInt64.self, width: 6)
      else { throw truncated(reader) }
      let lengthOffset = reader.offset
      guard let length = reader.readUInt8() else { throw truncated(reader) }
      guard Int(length) <= maximumLegacyDataLength, Int(length) < reader.remaining else {
        throw BLEAdvertisingError(.reportDataExceedsEvent, offset: lengthOffset)
      }
      let dataOffset = reader.offset
      guard let data = reader.readSpan(count: Int(length)), let rssi = reader.readUInt8() else {
        throw truncated(reader)
      }
      return HCIAdvertisingReportView(
        isExtended: false, rawEventType: UInt16(type),
        addressType: BluetoothAddressType(rawValue: addressType), address: BluetoothAddress(address),
        primaryPHY: .le1M, secondaryPHY: .none, advertisingSID: nil, txPower: nil,
        rssi: rssi == 127 ? nil : Int8(bitPattern: rssi), periodicAdvertisingInterval: nil,
        directAddressType: nil, directAddress: nil, data: data, offset: start,
        dataOffset: dataOffset)
    }
    guard let type = reader.readUInt16LE(), let addressType = reader.readUInt8(),
      let address = reader.readLittleEndian(UInt64.self, width: 6),
      let primary = reader.readUInt8(), let secondary = reader.readUInt8(),
      let sid = reader.readUInt8(), let tx = reader.readUInt8(), let rssi = reader.readUInt8(),
      let interval = reader.readUInt16LE(), let directType = reader.readUInt8(),
      let direct = reader.readLittleEndian(UInt64.self, width: 6)
    else { throw truncated(reader) }
    let lengthOffset = reader.offset
    guard let length = reader.readUInt8() else { throw truncated(reader) }
    let dataOffset = reader.offset
    guard let data = reader.readSpan(count: Int(length)) else {
      throw BLEAdvertisingError(.reportDataExceedsEvent, offset: lengthOffset)
    }
    let eventType = HCIExtendedAdvertisingEventType(rawValue: type)
    let directed = eventType.contains(.directed)
    return HCIAdvertisingReportView(
      isExtended: true, rawEventType: type,
      addressType: BluetoothAddressType(rawValue: addressType), address: BluetoothAddress(address),
      primaryPHY: LEPHY(rawValue: primary), secondaryPHY: LEPHY(rawValue: secondary),
      advertisingSID: sid == 0xFF ? nil : sid, txPower: tx == 127 ? nil : Int8(bitPattern: tx),
      rssi: rssi == 127 ? nil : Int8(bitPattern: rssi),
      periodicAdvertisingInterval: interval == 0 ? nil : interval,
      directAddressType: directed ? BluetoothAddressType(rawValue: directType) : nil,
      directAddress: directed ? BluetoothAddress(direct) : nil, data: data, offset: start,
      dataOffset: dataOffset)
  }
}

/// Iterates the reports of a validated advertising report event.
public struct HCIAdvertisingReportIterator: ~Escapable {
  var reader: ByteReader
  let extended: Bool

  @_lifetime(copy bytes)
  init(_ bytes: RawSpan, baseOffset: Int, extended: Bool) {
    self.reader = ByteReader(bytes, baseOffset: baseOffset)
    self.extended = extended
  }

  /// The next report, or `nil` after the last.
  @_lifetime(copy self)
  public mutating func next() -> HCIAdvertisingReportView? {
    guard !reader.isAtEnd else { return nil }
    return try? HCIAdvertisingReportsView.readReport(&reader, extended: extended)
  }
}
