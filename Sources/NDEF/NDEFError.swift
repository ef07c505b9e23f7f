/// An NDEF decoding or encoding failure: what rule was broken and where.
///
/// Decoding errors carry the absolute byte offset of the first offending byte (the header
/// octet of a record whose flags break a rule, or the length field that claims more bytes
/// than remain). Encoding errors carry the index of the offending record in
/// ``recordIndex``; their ``offset`` is the byte offset the record would have had, or 0.
public struct NDEFError: Error, Sendable, Hashable {
  /// The rule that was broken.
  public let code: Code
  /// Absolute byte offset of the first offending byte.
  public let offset: Int
  /// For encoding errors, the index of the record the model got wrong.
  public let recordIndex: Int?

  /// Creates an error with a code and the offset it applies to.
  public init(_ code: Code, offset: Int, recordIndex: Int? = nil) {
    self.code = code
    self.offset = offset
    self.recordIndex = recordIndex
  }

  /// An error code: a struct over a private enum so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable {
      case emptyInput, truncatedHeader, typeLengthExceedsInput, idLengthExceedsInput
      case payloadLengthExceedsInput, missingMessageBegin, unexpectedMessageBegin
      case missingMessageEnd, dataAfterMessageEnd, emptyRecordNotEmpty, unexpectedType
      case missingType, reservedTypeNameFormat, unchangedOutsideChunk, chunkedEmptyRecord
      case chunkContinuationNotUnchanged, chunkContinuationHasType, chunkContinuationHasID
      case messageEndInChunk, tooManyRecords, payloadExceedsLimit, bufferTooSmall
      case typeTooLong, idTooLong, payloadTooLong, invalidChunkSize, noRecords
      case nestingTooDeep
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// §1: an NDEF message has at least one record; the input was empty.
    public static let emptyInput = Code(.emptyInput)
    /// §3.2: the input ends inside a record's length fields.
    public static let truncatedHeader = Code(.truncatedHeader)
    /// §3.2.7: TYPE_LENGTH claims more bytes than remain.
    public static let typeLengthExceedsInput = Code(.typeLengthExceedsInput)
    /// §3.2.9: ID_LENGTH claims more bytes than remain.
    public static let idLengthExceedsInput = Code(.idLengthExceedsInput)
    /// §3.2.8: PAYLOAD_LENGTH claims more bytes than remain.
    public static let payloadLengthExceedsInput = Code(.payloadLengthExceedsInput)
    /// §3.2.1: the first record does not have MB set.
    public static let missingMessageBegin = Code(.missingMessageBegin)
    /// §3.2.1: a record other than the first has MB set.
    public static let unexpectedMessageBegin = Code(.unexpectedMessageBegin)
    /// §3.2.2: the input ends before a record with ME set.
    public static let missingMessageEnd = Code(.missingMessageEnd)
    /// §3.2.2: bytes follow the record with ME set.
    public static let dataAfterMessageEnd = Code(.dataAfterMessageEnd)
    /// §3.2.6: a TNF Empty record has a non-zero type, id or payload length.
    public static let emptyRecordNotEmpty = Code(.emptyRecordNotEmpty)
    /// §3.2.6: a TNF Unknown or Unchanged record has a TYPE field.
    public static let unexpectedType = Code(.unexpectedType)
    /// §3.2.6: a TNF 0x01...0x04 record has no TYPE field.
    public static let missingType = Code(.missingType)
    /// §3.2.6: TNF 0x07 (Reserved) is not to be used.
    public static let reservedTypeNameFormat = Code(.reservedTypeNameFormat)
    /// §2.3.3: TNF Unchanged outside a middle or terminating record chunk.
    public static let unchangedOutsideChunk = Code(.unchangedOutsideChunk)
    /// §3.2.6: a TNF Empty record has CF set (an Empty record has no payload to chunk).
    public static let chunkedEmptyRecord = Code(.chunkedEmptyRecord)
    /// §2.3.3: a middle or terminating chunk does not have TNF Unchanged.
    public static let chunkContinuationNotUnchanged = Code(.chunkContinuationNotUnchanged)
    /// §2.3.3: a middle or terminating chunk has a TYPE field.
    public static let chunkContinuationHasType = Code(.chunkContinuationHasType)
    /// §2.3.3: a middle or terminating chunk has IL set.
    public static let chunkContinuationHasID = Code(.chunkContinuationHasID)
    /// §2.3.3: a record with CF set also has ME set.
    public static let messageEndInChunk = Code(.messageEndInChunk)
    /// The message has more records than ``NDEFDecodingOptions/maximumRecordCount``.
    public static let tooManyRecords = Code(.tooManyRecords)
    /// An assembled chunked payload exceeds the configured maximum.
    public static let payloadExceedsLimit = Code(.payloadExceedsLimit)
    /// The caller's output buffer is smaller than the encoding.
    public static let bufferTooSmall = Code(.bufferTooSmall)
    /// §3.2.7: a type longer than 255 bytes cannot be encoded.
    public static let typeTooLong = Code(.typeTooLong)
    /// §3.2.9: an id longer than 255 bytes cannot be encoded.
    public static let idTooLong = Code(.idTooLong)
    /// §3.2.8: a payload longer than 2^32-1 bytes cannot be encoded.
    public static let payloadTooLong = Code(.payloadTooLong)
    /// The requested chunk size is not at least 1.
    public static let invalidChunkSize = Code(.invalidChunkSize)
    /// A message model with no records cannot be encoded (§1: at least one record).
    public static let noRecords = Code(.noRecords)
    /// Nested NDEF messages are deeper than ``NDEFDecodingOptions/maximumNestingDepth``.
    public static let nestingTooDeep = Code(.nestingTooDeep)

    /// The stable camelCase name of the code, as used in the JSON contract.
    public var name: String {
      switch value {
      case .emptyInput: return "emptyInput"
      case .truncatedHeader: return "truncatedHeader"
      case .typeLengthExceedsInput: return "typeLengthExceedsInput"
      case .idLengthExceedsInput: return "idLengthExceedsInput"
      case .payloadLengthExceedsInput: return "payloadLengthExceedsInput"
      case .missingMessageBegin: return "missingMessageBegin"
      case .unexpectedMessageBegin: return "unexpectedMessageBegin"
      case .missingMessageEnd: return "missingMessageEnd"
      case .dataAfterMessageEnd: return "dataAfterMessageEnd"
      case .emptyRecordNotEmpty: return "emptyRecordNotEmpty"
      case .unexpectedType: return "unexpectedType"
      case .missingType: return "missingType"
      case .reservedTypeNameFormat: return "reservedTypeNameFormat"
      case .unchangedOutsideChunk: return "unchangedOutsideChunk"
      case .chunkedEmptyRecord: return "chunkedEmptyRecord"
      case .chunkContinuationNotUnchanged: return "chunkContinuationNotUnchanged"
      case .chunkContinuationHasType: return "chunkContinuationHasType"
      case .chunkContinuationHasID: return "chunkContinuationHasID"
      case .messageEndInChunk: return "messageEndInChunk"
      case .tooManyRecords: return "tooManyRecords"
      case .payloadExceedsLimit: return "payloadExceedsLimit"
      case .bufferTooSmall: return "bufferTooSmall"
      case .typeTooLong: return "typeTooLong"
      case .idTooLong: return "idTooLong"
      case .payloadTooLong: return "payloadTooLong"
      case .invalidChunkSize: return "invalidChunkSize"
      case .noRecords: return "noRecords"
      case .nestingTooDeep: return "nestingTooDeep"
      }
    }

    /// A sentence for people.
    public var message: String {
      switch value {
      case .emptyInput: return "the input is empty; an NDEF message has at least one record"
      case .truncatedHeader: return "the input ends inside a record header"
      case .typeLengthExceedsInput: return "TYPE_LENGTH is larger than the bytes that remain"
      case .idLengthExceedsInput: return "ID_LENGTH is larger than the bytes that remain"
      case .payloadLengthExceedsInput:
        return "PAYLOAD_LENGTH is larger than the bytes that remain"
      case .missingMessageBegin: return "the first record does not have MB set"
      case .unexpectedMessageBegin: return "MB is set on a record that is not the first"
      case .missingMessageEnd: return "the input ends before a record with ME set"
      case .dataAfterMessageEnd: return "bytes follow the record with ME set"
      case .emptyRecordNotEmpty:
        return "a TNF Empty record has a non-zero type, id or payload length"
      case .unexpectedType: return "a TNF Unknown or Unchanged record has a type"
      case .missingType: return "a record of this TNF must have a type"
      case .reservedTypeNameFormat: return "TNF 0x07 is reserved"
      case .unchangedOutsideChunk:
        return "TNF Unchanged is only allowed in middle and terminating chunks"
      case .chunkedEmptyRecord: return "a TNF Empty record has CF set"
      case .chunkContinuationNotUnchanged:
        return "a middle or terminating chunk does not have TNF Unchanged"
      case .chunkContinuationHasType: return "a middle or terminating chunk has a type"
      case .chunkContinuationHasID: return "a middle or terminating chunk has an id"
      case .messageEndInChunk: return "ME is set on a record with CF set"
      case .tooManyRecords: return "the message has more records than allowed"
      case .payloadExceedsLimit: return "the assembled payload is larger than allowed"
      case .bufferTooSmall: return "the output buffer is too small"
      case .typeTooLong: return "the type is longer than 255 bytes"
      case .idTooLong: return "the id is longer than 255 bytes"
      case .payloadTooLong: return "the payload is longer than 4294967295 bytes"
      case .invalidChunkSize: return "the chunk size must be at least 1"
      case .noRecords: return "a message must have at least one record"
      case .nestingTooDeep: return "nested NDEF messages are too deep"
      }
    }

    /// The code's name.
    public var description: String { name }
  }
}

extension NDEFError: CustomStringConvertible {
  /// `code at offset N: message`, and the record index for encoding errors.
  public var description: String {
    if let recordIndex {
      return "\(code.name) in record \(recordIndex): \(code.message)"
    }
    return "\(code.name) at offset \(offset): \(code.message)"
  }
}

/// A rule broken by the input that lenient decoding accepted (NDEF 1.0 rules relaxed for
/// tags found in the field). The code is the error strict decoding would have thrown.
public struct NDEFWarning: Sendable, Hashable, CustomStringConvertible {
  /// The rule that was broken.
  public let code: NDEFError.Code
  /// Absolute byte offset of the first offending byte.
  public let offset: Int

  /// Creates a warning.
  public init(_ code: NDEFError.Code, offset: Int) {
    self.code = code
    self.offset = offset
  }

  /// `code at offset N: message`.
  public var description: String { "\(code.name) at offset \(offset): \(code.message)" }
}
