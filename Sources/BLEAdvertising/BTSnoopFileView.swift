// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A validated btsnoop capture over the caller's bytes: the 16-octet header
/// (identification `btsnoop\0`, version 1, datalink type, all big-endian) and packet
/// records (original length, included length, flags, cumulative drops, 64-bit timestamp
/// in microseconds since 0000-01-01, then the packet).
///
/// `init(validating:)` checks every record header once without allocating; records are
/// then iterated as views. `init(scanning:)` keeps the records before one that cannot be
/// framed, with ``recordError``.
public struct BTSnoopFileView: ~Escapable {
  /// The validated bytes (in lenient mode, up to the last complete record).
  public let bytes: RawSpan
  /// Absolute offset of `bytes` in the caller's input.
  public let baseOffset: Int
  /// The datalink type.
  public let datalink: BTSnoopDatalink
  /// The number of complete records.
  public let recordCount: Int
  /// The options the file was validated with.
  public let options: BLEAdvertisingOptions
  /// Rules broken that lenient decoding accepted.
  public let warnings: [BLEAdvertisingWarning]
  /// Strict mode, ``init(scanning:baseOffset:options:)``: the record that cannot be framed
  /// (`truncatedRecordHeader`, `recordLengthExceedsInput`, `includedLengthExceedsOriginal`),
  /// where the file's records end; `nil` when every record is framed. Records are
  /// sequential, so none after it can be located. Lenient mode lists it as a warning.
  public let recordError: BLEAdvertisingError?

  /// The identification pattern `btsnoop\0`.
  public static let identification: [UInt8] = Array("btsnoop".utf8) + [0]
  /// The only version defined.
  public static let version: UInt32 = 1
  /// Octets of the file header.
  public static let headerCount = 16
  /// Octets of a record header.
  public static let recordHeaderCount = 24
  /// Microseconds from the btsnoop epoch to the Unix epoch (1970-01-01T00:00:00Z), as
  /// Wireshark, Android and BlueZ use it.
  public static let unixEpochOffset: Int64 = 0x00DC_DDB3_0F2F_8000

  /// Validates a btsnoop file.
  ///
  /// - Throws: `truncatedFileHeader`, `invalidMagic`, `unsupportedVersion`,
  ///   `unsupportedDatalink`, `truncatedRecordHeader`, `recordLengthExceedsInput`,
  ///   `includedLengthExceedsOriginal` (the last three: the file ends there, with a
  ///   warning, in lenient mode).
  @_lifetime(copy bytes)
  public init(
    validating bytes: RawSpan, baseOffset: Int = 0, options: BLEAdvertisingOptions = .strict
  ) throws(BLEAdvertisingError) {
    try self.init(scanning: bytes, baseOffset: baseOffset, options: options)
    if let error = recordError { throw error }
  }

  /// Frames a btsnoop file, keeping the records before the first one that cannot be framed
  /// (strict: in ``recordError``; lenient: as a warning).
  ///
  /// - Throws: only header errors: `emptyInput`, `truncatedFileHeader`, `invalidMagic`,
  ///   `unsupportedVersion`, `unsupportedDatalink`.
  @_lifetime(copy bytes)
  public init(
    scanning bytes: RawSpan, baseOffset: Int = 0, options: BLEAdvertisingOptions = .strict
  ) throws(BLEAdvertisingError) {
    var reader = ByteReader(bytes, baseOffset: baseOffset)
    guard bytes.byteCount > 0 else { throw BLEAdvertisingError(.emptyInput, offset: baseOffset) }
    guard let magic = reader.readSpan(count: 8) else {
      throw BLEAdvertisingError(.truncatedFileHeader, offset: baseOffset &+ bytes.byteCount)
    }
    guard magic.elementsEqual(Self.identification) else {
      throw BLEAdvertisingError(.invalidMagic, offset: baseOffset)
    }
    guard let version = reader.readUInt32BE(), let datalink = reader.readUInt32BE() else {
      throw BLEAdvertisingError(.truncatedFileHeader, offset: baseOffset &+ bytes.byteCount)
    }
    guard version == Self.version else {
      throw BLEAdvertisingError(.unsupportedVersion, offset: baseOffset &+ 8)
    }
    let link = BTSnoopDatalink(rawValue: datalink)
    guard link.isSupported else {
      throw BLEAdvertisingError(.unsupportedDatalink, offset: baseOffset &+ 12)
    }
    var count = 0
    var end = bytes.byteCount
    var warnings: [BLEAdvertisingWarning] = []
    var recordError: BLEAdvertisingError? = nil
    while !reader.isAtEnd {
      let start = reader.index
      do throws(BLEAdvertisingError) {
        _ = try Self.readRecord(&reader)
        count &+= 1
      } catch {
        if options.isLenient {
          warnings.append(BLEAdvertisingWarning(error.code, offset: error.offset))
        } else {
          recordError = error
        }
        end = start
        break
      }
    }
    self.bytes = bytes.extracting(0..<end)
    self.baseOffset = baseOffset
    self.datalink = link
    self.recordCount = count
    self.options = options
    self.warnings = warnings
    self.recordError = recordError
  }

  /// The packet records in order.
  public var records: BTSnoopRecordIterator {
    @_lifetime(copy self)
    get {
      BTSnoopRecordIterator(
        bytes.extracting(Self.headerCount..<bytes.byteCount),
        baseOffset: baseOffset &+ Self.headerCount)
    }
  }

  /// The advertising reports of the capture's HCI LE advertising report events, in
  /// order, extended fragments reassembled, each with its record's timestamp.
  public var advertisingReports: BTSnoopAdvertisingReportIterator {
    @_lifetime(copy self)
    get { BTSnoopAdvertisingReportIterator(records: records, datalink: datalink, options: options) }
  }

  @_lifetime(copy reader)
  static func readRecord(_ reader: inout ByteReader) throws(BLEAdvertisingError)
    -> BTSnoopRecordView
  {
    let start = reader.offset
    guard reader.remaining >= recordHeaderCount, let original = reader.readUInt32BE(),
      let included = reader.readUInt32BE(), let flags = reader.readUInt32BE(),
      let drops = reader.readUInt32BE(), let timestamp = reader.readBigEndian(UInt64.self)
    else { throw BLEAdvertisingError(.truncatedRecordHeader, offset: start) }
    guard included <= original else {
      throw BLEAdvertisingError(.includedLengthExceedsOriginal, offset: start &+ 4)
    }
    guard let length = Int(exactly: included), let data = reader.readSpan(count: length) else {
      throw BLEAdvertisingError(.recordLengthExceedsInput, offset: start &+ 4)
    }
    return BTSnoopRecordView(
      originalLength: Int(original), flags: flags, cumulativeDrops: drops,
      timestamp: Int64(bitPattern: timestamp), data: data, offset: start,
      dataOffset: start &+ recordHeaderCount)
  }
}

/// Iterates the records of a validated btsnoop file.
public struct BTSnoopRecordIterator: ~Escapable {
  var reader: ByteReader

  @_lifetime(copy bytes)
  init(_ bytes: RawSpan, baseOffset: Int) {
    self.reader = ByteReader(bytes, baseOffset: baseOffset)
  }

  /// The next record, or `nil` after the last.
  @_lifetime(copy self)
  public mutating func next() -> BTSnoopRecordView? {
    guard !reader.isAtEnd else { return nil }
    return try? BTSnoopFileView.readRecord(&reader)
  }
}
