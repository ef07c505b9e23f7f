// SPDX-License-Identifier: Apache-2.0
/// A Bluetooth advertising, HCI or btsnoop decoding or encoding failure: the rule broken
/// and the absolute byte offset of the first offending byte.
///
/// Offsets count from the start of the caller's input (the `baseOffset` given to a view
/// is added), so an AD structure inside an NFC Bluetooth OOB record reports its position
/// in the whole NDEF message. Encoding errors carry the byte offset the offending
/// structure would have had in the output.
public struct BLEAdvertisingError: Error, Sendable, Hashable {
  /// The rule that was broken.
  public let code: Code
  /// Absolute byte offset of the first offending byte.
  public let offset: Int

  /// Creates an error with a code and the offset it applies to.
  public init(_ code: Code, offset: Int) {
    self.code = code
    self.offset = offset
  }

  /// An error code: a struct over a private enum so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable {
      case structureLengthExceedsInput, invalidDataLength, invalidURIScheme
      case invalidBeaconLength, structureTooLong, exceedsBudget, bufferTooSmall
      case emptyInput, truncatedEventHeader, eventLengthMismatch, notLEMetaEvent
      case unsupportedSubevent, invalidReportCount, truncatedReport
      case reportDataExceedsEvent, trailingBytes, reassemblyOverflow, reservedDataStatus
      case truncatedFileHeader, invalidMagic, unsupportedVersion, unsupportedDatalink
      case truncatedRecordHeader, recordLengthExceedsInput, includedLengthExceedsOriginal
      case tooManyPendingAdvertisers
      case duplicateSingleValuedType
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// Core Specification Supplement Part A §1 / Core Vol 3 Part C §11: an AD structure's
    /// Length octet claims more bytes than remain (offset: the Length octet).
    public static let structureLengthExceedsInput = Code(.structureLengthExceedsInput)
    /// CSS Part A §1.x: an AD structure's data has the wrong size for its AD type (a
    /// UUID list not a multiple of the UUID width, TX Power Level not one octet, ...).
    public static let invalidDataLength = Code(.invalidDataLength)
    /// CSS Part A §1.18: the URI's first code point is not a valid scheme code point.
    public static let invalidURIScheme = Code(.invalidURIScheme)
    /// iBeacon / Eddystone: the beacon's prefix matched but its length is wrong.
    public static let invalidBeaconLength = Code(.invalidBeaconLength)
    /// Core Vol 3 Part C §11: an AD structure's data is longer than 254 octets (its
    /// Length octet, which counts the AD type too, cannot exceed 255).
    public static let structureTooLong = Code(.structureTooLong)
    /// The encoded advertising data is larger than the chosen size budget (legacy 31,
    /// extended 254, chained 1650 octets).
    public static let exceedsBudget = Code(.exceedsBudget)
    /// The caller's output buffer is smaller than the encoding.
    public static let bufferTooSmall = Code(.bufferTooSmall)
    /// The input is empty.
    public static let emptyInput = Code(.emptyInput)
    /// Core Vol 4 Part E §5.4.4: the input ends inside the HCI event header.
    public static let truncatedEventHeader = Code(.truncatedEventHeader)
    /// Core Vol 4 Part E §5.4.4: Parameter_Total_Length differs from the bytes that follow.
    public static let eventLengthMismatch = Code(.eventLengthMismatch)
    /// Core Vol 4 Part E §7.7.65: the event is not an LE Meta event (code 0x3E).
    public static let notLEMetaEvent = Code(.notLEMetaEvent)
    /// Core Vol 4 Part E §7.7.65: the LE Meta subevent is not an advertising report
    /// (0x02 LE Advertising Report or 0x0D LE Extended Advertising Report).
    public static let unsupportedSubevent = Code(.unsupportedSubevent)
    /// Core Vol 4 Part E §7.7.65.2 / .13: Num_Reports is 0 or above 0x19 / 0x0A.
    public static let invalidReportCount = Code(.invalidReportCount)
    /// Core Vol 4 Part E §7.7.65.2 / .13: the event ends inside a report's fixed fields.
    public static let truncatedReport = Code(.truncatedReport)
    /// Core Vol 4 Part E §7.7.65.2 / .13: Data_Length claims more bytes than remain, or
    /// more than 31 in a legacy report.
    public static let reportDataExceedsEvent = Code(.reportDataExceedsEvent)
    /// Bytes follow the last report of the event.
    public static let trailingBytes = Code(.trailingBytes)
    /// Core Vol 4 Part E §7.7.65.13: reassembled extended advertising data is larger
    /// than ``BLEAdvertisingOptions/maximumReassembledSize``.
    public static let reassemblyOverflow = Code(.reassemblyOverflow)
    /// Core Vol 4 Part E §7.7.65.13: Event_Type data status 0b11 is reserved.
    public static let reservedDataStatus = Code(.reservedDataStatus)
    /// btsnoop: the file is shorter than its 16-octet header.
    public static let truncatedFileHeader = Code(.truncatedFileHeader)
    /// btsnoop: the file does not start with the identification pattern `btsnoop\0`.
    public static let invalidMagic = Code(.invalidMagic)
    /// btsnoop: the version number is not 1.
    public static let unsupportedVersion = Code(.unsupportedVersion)
    /// btsnoop: the datalink type is not 1001 (H1), 1002 (H4) or 2001 (BlueZ monitor).
    public static let unsupportedDatalink = Code(.unsupportedDatalink)
    /// btsnoop: the file ends inside a 24-octet packet record header.
    public static let truncatedRecordHeader = Code(.truncatedRecordHeader)
    /// btsnoop: a record's included length claims more bytes than remain.
    public static let recordLengthExceedsInput = Code(.recordLengthExceedsInput)
    /// btsnoop: a record's included length is larger than its original length.
    public static let includedLengthExceedsOriginal = Code(.includedLengthExceedsOriginal)
    /// More advertisers have fragments pending than
    /// ``BLEAdvertisingOptions/maximumPendingAdvertisers`` allows.
    public static let tooManyPendingAdvertisers = Code(.tooManyPendingAdvertisers)
    /// An AD type that may appear once per block (Flags, Shortened or Complete Local Name,
    /// TX Power Level, Appearance: Core Specification Supplement Part A §1.2, §1.3, §1.5,
    /// §1.12) appears again; the offset is the repeated structure's Length octet. Never an
    /// error: ``AdvertisingDataView/duplicateStructures`` lists them, and the last one wins.
    public static let duplicateSingleValuedType = Code(.duplicateSingleValuedType)

    /// The stable camelCase name of the code, as used in the JSON contract.
    public var name: String {
      switch value {
      case .structureLengthExceedsInput: return "structureLengthExceedsInput"
      case .invalidDataLength: return "invalidDataLength"
      case .invalidURIScheme: return "invalidURIScheme"
      case .invalidBeaconLength: return "invalidBeaconLength"
      case .structureTooLong: return "structureTooLong"
      case .exceedsBudget: return "exceedsBudget"
      case .bufferTooSmall: return "bufferTooSmall"
      case .emptyInput: return "emptyInput"
      case .truncatedEventHeader: return "truncatedEventHeader"
      case .eventLengthMismatch: return "eventLengthMismatch"
      case .notLEMetaEvent: return "notLEMetaEvent"
      case .unsupportedSubevent: return "unsupportedSubevent"
      case .invalidReportCount: return "invalidReportCount"
      case .truncatedReport: return "truncatedReport"
      case .reportDataExceedsEvent: return "reportDataExceedsEvent"
      case .trailingBytes: return "trailingBytes"
      case .reassemblyOverflow: return "reassemblyOverflow"
      case .reservedDataStatus: return "reservedDataStatus"
      case .truncatedFileHeader: return "truncatedFileHeader"
      case .invalidMagic: return "invalidMagic"
      case .unsupportedVersion: return "unsupportedVersion"
      case .unsupportedDatalink: return "unsupportedDatalink"
      case .truncatedRecordHeader: return "truncatedRecordHeader"
      case .recordLengthExceedsInput: return "recordLengthExceedsInput"
      case .includedLengthExceedsOriginal: return "includedLengthExceedsOriginal"
      case .tooManyPendingAdvertisers: return "tooManyPendingAdvertisers"
      case .duplicateSingleValuedType: return "duplicateSingleValuedType"
      }
    }

    /// A sentence for people.
    public var message: String {
      switch value {
      case .structureLengthExceedsInput:
        return "an AD structure's length is larger than the bytes that remain"
      case .invalidDataLength: return "the AD structure's data has the wrong size for its type"
      case .invalidURIScheme: return "the URI does not start with a valid scheme code point"
      case .invalidBeaconLength: return "the beacon frame has the wrong length"
      case .structureTooLong: return "an AD structure's data is longer than 254 bytes"
      case .exceedsBudget: return "the advertising data is larger than the size budget"
      case .bufferTooSmall: return "the output buffer is too small"
      case .emptyInput: return "the input is empty"
      case .truncatedEventHeader: return "the input ends inside the HCI event header"
      case .eventLengthMismatch:
        return "the HCI parameter total length differs from the bytes that follow"
      case .notLEMetaEvent: return "the HCI event is not an LE Meta event (0x3e)"
      case .unsupportedSubevent: return "the LE Meta subevent is not an advertising report"
      case .invalidReportCount: return "the number of reports is out of range"
      case .truncatedReport: return "the event ends inside an advertising report"
      case .reportDataExceedsEvent:
        return "a report's data length is larger than the bytes that remain or allowed"
      case .trailingBytes: return "bytes follow the last report"
      case .reassemblyOverflow: return "reassembled advertising data is larger than allowed"
      case .reservedDataStatus: return "the report's data status is the reserved value 3"
      case .truncatedFileHeader: return "the file ends inside the btsnoop header"
      case .invalidMagic: return "the file does not start with btsnoop\\0"
      case .unsupportedVersion: return "the btsnoop version is not 1"
      case .unsupportedDatalink: return "the btsnoop datalink type is not supported"
      case .truncatedRecordHeader: return "the file ends inside a packet record header"
      case .recordLengthExceedsInput:
        return "a record's included length is larger than the bytes that remain"
      case .includedLengthExceedsOriginal:
        return "a record's included length is larger than its original length"
      case .tooManyPendingAdvertisers: return "too many advertisers have fragments pending"
      case .duplicateSingleValuedType:
        return "this AD type may appear only once in a block; it appears again here (the last one is used)"
      }
    }

    /// The code's name.
    public var description: String { name }
  }
}

extension BLEAdvertisingError: CustomStringConvertible {
  /// `code at offset N: message`.
  public var description: String { "\(code.name) at offset \(offset): \(code.message)" }
}

/// A rule broken by the input that lenient decoding accepted. The code is the error
/// strict decoding would have thrown.
public struct BLEAdvertisingWarning: Sendable, Hashable, CustomStringConvertible {
  /// The rule that was broken.
  public let code: BLEAdvertisingError.Code
  /// Absolute byte offset of the first offending byte.
  public let offset: Int

  /// Creates a warning.
  public init(_ code: BLEAdvertisingError.Code, offset: Int) {
    self.code = code
    self.offset = offset
  }

  /// `code at offset N: message`.
  public var description: String { "\(code.name) at offset \(offset): \(code.message)" }
}
