// SPDX-License-Identifier: Apache-2.0
/// An NDEF decoding or encoding failure: what rule was broken and where.
///
/// Decoding errors carry the absolute byte offset of the first offending byte (the header
/// octet of a record whose flags break a rule, or the length field that claims more bytes
/// than remain). Encoding errors carry the index of the offending record in
/// ``recordIndex``; their ``offset`` is 0.
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
    fileprivate enum Value: UInt8, Sendable, Hashable, CaseIterable {
      case emptyInput
      case truncatedHeader
      case typeLengthExceedsInput
      case idLengthExceedsInput
      case payloadLengthExceedsInput
      case missingMessageBegin
      case unexpectedMessageBegin
      case missingMessageEnd
      case dataAfterMessageEnd
      case emptyRecordNotEmpty
      case unexpectedType
      case missingType
      case reservedTypeNameFormat
      case unchangedOutsideChunk
      case chunkedEmptyRecord
      case chunkContinuationNotUnchanged
      case chunkContinuationHasType
      case chunkContinuationHasID
      case messageEndInChunk
      case tooManyRecords
      case payloadExceedsLimit
      case bufferTooSmall
      case typeTooLong
      case idTooLong
      case payloadTooLong
      case invalidChunkSize
      case noRecords
      case nestingTooDeep
      case recordTypeMismatch
      case emptyPayload
      case invalidUTF8
      case invalidUTF16
      case textReservedBitSet
      case textLanguageLengthExceedsPayload
      case textLanguageMissing
      case invalidLanguageCode
      case uriReservedPrefix
      case smartPosterMissingURI
      case smartPosterMultipleURIs
      case smartPosterDuplicateTitle
      case smartPosterInvalidAction
      case smartPosterInvalidSize
      case handoverUnsupportedVersion
      case handoverMissingCollisionResolution
      case handoverMissingAlternativeCarrier
      case alternativeCarrierTruncated
      case collisionResolutionInvalidLength
      case handoverErrorInvalid
      case handoverCarrierTruncated
      case attributeTruncated
      case attributeInvalidLength
      case wscMissingCredential
      case wscMissingAttribute
      case signatureTruncated
      case signatureUnsupportedVersion
      case deviceInformationMissingField
      case invalidExternalType
      case invalidMediaType
      case invalidAbsoluteURI
      case invalidWellKnownType
      case bluetoothOOBTruncated
      case bluetoothOOBLengthMismatch
      case bluetoothOOBMissingAddress
      case invalidAdvertisingData
      case p2pLengthExceedsPayload
      case p2pTrailingBytes
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
    /// The record is not of the type the decoder reads (TNF and TYPE differ).
    public static let recordTypeMismatch = Code(.recordTypeMismatch)
    /// The record type needs at least one payload byte (status, prefix or version byte).
    public static let emptyPayload = Code(.emptyPayload)
    /// A field that must be UTF-8 is not well-formed; the offset is the first bad byte.
    public static let invalidUTF8 = Code(.invalidUTF8)
    /// A field that must be UTF-16 is not well-formed (odd length or unpaired surrogate).
    public static let invalidUTF16 = Code(.invalidUTF16)
    /// RTD Text §3.2.1: bit 6 of the status byte is reserved and must be 0.
    public static let textReservedBitSet = Code(.textReservedBitSet)
    /// RTD Text §3.2.1: the language code length is larger than the payload.
    public static let textLanguageLengthExceedsPayload = Code(.textLanguageLengthExceedsPayload)
    /// RTD Text §3.2.1: the IANA language code is empty.
    public static let textLanguageMissing = Code(.textLanguageMissing)
    /// RTD Text §3.2.2: the language code is not US-ASCII letters, digits and hyphens (RFC 5646).
    public static let invalidLanguageCode = Code(.invalidLanguageCode)
    /// RTD URI §3.2.2: the identifier code is reserved (0x24...0xFF).
    public static let uriReservedPrefix = Code(.uriReservedPrefix)
    /// RTD Smart Poster §3.2: the Smart Poster has no URI record.
    public static let smartPosterMissingURI = Code(.smartPosterMissingURI)
    /// RTD Smart Poster §3.2: the Smart Poster has more than one URI record.
    public static let smartPosterMultipleURIs = Code(.smartPosterMultipleURIs)
    /// RTD Smart Poster §3.3.2: two title records have the same language.
    public static let smartPosterDuplicateTitle = Code(.smartPosterDuplicateTitle)
    /// RTD Smart Poster §3.3.3: the action record is not one byte of a defined value.
    public static let smartPosterInvalidAction = Code(.smartPosterInvalidAction)
    /// RTD Smart Poster §3.3.4: the size record is not a 4-byte integer.
    public static let smartPosterInvalidSize = Code(.smartPosterInvalidSize)
    /// Connection Handover §6.1: the major version is not 1.
    public static let handoverUnsupportedVersion = Code(.handoverUnsupportedVersion)
    /// Connection Handover §6.2: a Handover Request (1.2 and later) has no Collision Resolution record.
    public static let handoverMissingCollisionResolution = Code(.handoverMissingCollisionResolution)
    /// Connection Handover §6.2: a Handover Request has no Alternative Carrier record.
    public static let handoverMissingAlternativeCarrier = Code(.handoverMissingAlternativeCarrier)
    /// Connection Handover §6.3.2: an Alternative Carrier record ends inside a field.
    public static let alternativeCarrierTruncated = Code(.alternativeCarrierTruncated)
    /// Connection Handover §6.3.3: a Collision Resolution record is not 2 bytes.
    public static let collisionResolutionInvalidLength = Code(.collisionResolutionInvalidLength)
    /// Connection Handover §6.3.4: an Error record has a reserved reason or the wrong data length.
    public static let handoverErrorInvalid = Code(.handoverErrorInvalid)
    /// Connection Handover §6.3.5: a Handover Carrier record ends inside a field.
    public static let handoverCarrierTruncated = Code(.handoverCarrierTruncated)
    /// A TLV attribute (WSC, P2P, Device Information) runs past its container.
    public static let attributeTruncated = Code(.attributeTruncated)
    /// A fixed-size attribute has the wrong length.
    public static let attributeInvalidLength = Code(.attributeInvalidLength)
    /// Wi-Fi Simple Configuration §7: a configuration token has no Credential.
    public static let wscMissingCredential = Code(.wscMissingCredential)
    /// Wi-Fi Simple Configuration §12: a Credential lacks a required attribute.
    public static let wscMissingAttribute = Code(.wscMissingAttribute)
    /// Signature RTD 2.0 §3.3: the Signature record ends inside a field.
    public static let signatureTruncated = Code(.signatureTruncated)
    /// Signature RTD 2.0 §3.3.1: the version is not 0x20.
    public static let signatureUnsupportedVersion = Code(.signatureUnsupportedVersion)
    /// Device Information RTD §3: the manufacturer or model name is missing.
    public static let deviceInformationMissingField = Code(.deviceInformationMissingField)
    /// NFC RTD §3.4: an external type is not `domain:type` with allowed characters.
    public static let invalidExternalType = Code(.invalidExternalType)
    /// RFC 2046 §4 / RFC 2045 §5.1: the media type is not `type/subtype[;parameters]`.
    public static let invalidMediaType = Code(.invalidMediaType)
    /// RFC 3986 §3: the absolute-URI type has no valid scheme or holds spaces or controls.
    public static let invalidAbsoluteURI = Code(.invalidAbsoluteURI)
    /// NFC RTD §3.3: a well-known type name has characters outside the RTD set.
    public static let invalidWellKnownType = Code(.invalidWellKnownType)
    /// Bluetooth Secure Simple Pairing Using NFC §3.1: the OOB record is shorter than its fixed fields.
    public static let bluetoothOOBTruncated = Code(.bluetoothOOBTruncated)
    /// Bluetooth Secure Simple Pairing Using NFC §3.1: OOB Data Length does not match the payload.
    public static let bluetoothOOBLengthMismatch = Code(.bluetoothOOBLengthMismatch)
    /// Bluetooth Secure Simple Pairing Using NFC §3.2: an LE OOB record has no LE Bluetooth Device Address (AD type 0x1B, 7 bytes).
    public static let bluetoothOOBMissingAddress = Code(.bluetoothOOBMissingAddress)
    /// The EIR/AD structures inside a Bluetooth OOB record are malformed (offset of the bad structure).
    public static let invalidAdvertisingData = Code(.invalidAdvertisingData)
    /// Wi-Fi P2P §4.2: the WSC or P2P data length is larger than the bytes that remain.
    public static let p2pLengthExceedsPayload = Code(.p2pLengthExceedsPayload)
    /// Wi-Fi P2P §4.2: bytes follow the P2P attributes.
    public static let p2pTrailingBytes = Code(.p2pTrailingBytes)

    /// Every code, for tests and documentation.
    public static var allCodes: [Code] { Value.allCases.map(Code.init) }

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
      case .recordTypeMismatch: return "recordTypeMismatch"
      case .emptyPayload: return "emptyPayload"
      case .invalidUTF8: return "invalidUTF8"
      case .invalidUTF16: return "invalidUTF16"
      case .textReservedBitSet: return "textReservedBitSet"
      case .textLanguageLengthExceedsPayload: return "textLanguageLengthExceedsPayload"
      case .textLanguageMissing: return "textLanguageMissing"
      case .invalidLanguageCode: return "invalidLanguageCode"
      case .uriReservedPrefix: return "uriReservedPrefix"
      case .smartPosterMissingURI: return "smartPosterMissingURI"
      case .smartPosterMultipleURIs: return "smartPosterMultipleURIs"
      case .smartPosterDuplicateTitle: return "smartPosterDuplicateTitle"
      case .smartPosterInvalidAction: return "smartPosterInvalidAction"
      case .smartPosterInvalidSize: return "smartPosterInvalidSize"
      case .handoverUnsupportedVersion: return "handoverUnsupportedVersion"
      case .handoverMissingCollisionResolution: return "handoverMissingCollisionResolution"
      case .handoverMissingAlternativeCarrier: return "handoverMissingAlternativeCarrier"
      case .alternativeCarrierTruncated: return "alternativeCarrierTruncated"
      case .collisionResolutionInvalidLength: return "collisionResolutionInvalidLength"
      case .handoverErrorInvalid: return "handoverErrorInvalid"
      case .handoverCarrierTruncated: return "handoverCarrierTruncated"
      case .attributeTruncated: return "attributeTruncated"
      case .attributeInvalidLength: return "attributeInvalidLength"
      case .wscMissingCredential: return "wscMissingCredential"
      case .wscMissingAttribute: return "wscMissingAttribute"
      case .signatureTruncated: return "signatureTruncated"
      case .signatureUnsupportedVersion: return "signatureUnsupportedVersion"
      case .deviceInformationMissingField: return "deviceInformationMissingField"
      case .invalidExternalType: return "invalidExternalType"
      case .invalidMediaType: return "invalidMediaType"
      case .invalidAbsoluteURI: return "invalidAbsoluteURI"
      case .invalidWellKnownType: return "invalidWellKnownType"
      case .bluetoothOOBTruncated: return "bluetoothOOBTruncated"
      case .bluetoothOOBLengthMismatch: return "bluetoothOOBLengthMismatch"
      case .bluetoothOOBMissingAddress: return "bluetoothOOBMissingAddress"
      case .invalidAdvertisingData: return "invalidAdvertisingData"
      case .p2pLengthExceedsPayload: return "p2pLengthExceedsPayload"
      case .p2pTrailingBytes: return "p2pTrailingBytes"
      }
    }

    /// A sentence for people.
    public var message: String {
      switch value {
      case .emptyInput: return "the input is empty; an NDEF message has at least one record"
      case .truncatedHeader: return "the input ends inside a record header"
      case .typeLengthExceedsInput: return "TYPE_LENGTH is larger than the bytes that remain"
      case .idLengthExceedsInput: return "ID_LENGTH is larger than the bytes that remain"
      case .payloadLengthExceedsInput: return "PAYLOAD_LENGTH is larger than the bytes that remain"
      case .missingMessageBegin: return "the first record does not have MB set"
      case .unexpectedMessageBegin: return "MB is set on a record that is not the first"
      case .missingMessageEnd: return "the input ends before a record with ME set"
      case .dataAfterMessageEnd: return "bytes follow the record with ME set"
      case .emptyRecordNotEmpty: return "a TNF Empty record has a non-zero type, id or payload length"
      case .unexpectedType: return "a TNF Unknown or Unchanged record has a type"
      case .missingType: return "a record of this TNF must have a type"
      case .reservedTypeNameFormat: return "TNF 0x07 is reserved"
      case .unchangedOutsideChunk: return "TNF Unchanged is only allowed in middle and terminating chunks"
      case .chunkedEmptyRecord: return "a TNF Empty record has CF set"
      case .chunkContinuationNotUnchanged: return "a middle or terminating chunk does not have TNF Unchanged"
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
      case .recordTypeMismatch: return "the record is not of the type being decoded"
      case .emptyPayload: return "the payload is empty but this record type needs at least one byte"
      case .invalidUTF8: return "the text is not well-formed UTF-8"
      case .invalidUTF16: return "the text is not well-formed UTF-16"
      case .textReservedBitSet: return "the reserved bit 6 of the Text status byte is set"
      case .textLanguageLengthExceedsPayload: return "the language code is longer than the payload"
      case .textLanguageMissing: return "the Text record has no language code"
      case .invalidLanguageCode: return "the language code is not a valid IANA language tag"
      case .uriReservedPrefix: return "the URI identifier code is reserved"
      case .smartPosterMissingURI: return "the Smart Poster has no URI record"
      case .smartPosterMultipleURIs: return "the Smart Poster has more than one URI record"
      case .smartPosterDuplicateTitle: return "two Smart Poster titles have the same language"
      case .smartPosterInvalidAction: return "the Smart Poster action is not 0, 1 or 2 in one byte"
      case .smartPosterInvalidSize: return "the Smart Poster size record is not 4 bytes"
      case .handoverUnsupportedVersion: return "the handover major version is not 1"
      case .handoverMissingCollisionResolution:
        return "the Handover Request has no Collision Resolution record"
      case .handoverMissingAlternativeCarrier: return "the Handover Request has no Alternative Carrier record"
      case .alternativeCarrierTruncated: return "the Alternative Carrier record is truncated"
      case .collisionResolutionInvalidLength: return "the Collision Resolution record is not 2 bytes"
      case .handoverErrorInvalid: return "the handover Error record is malformed"
      case .handoverCarrierTruncated: return "the Handover Carrier record is truncated"
      case .attributeTruncated: return "an attribute runs past the end of its container"
      case .attributeInvalidLength: return "an attribute has the wrong length"
      case .wscMissingCredential: return "the Wi-Fi configuration has no Credential attribute"
      case .wscMissingAttribute: return "the Wi-Fi Credential lacks a required attribute"
      case .signatureTruncated: return "the Signature record is truncated"
      case .signatureUnsupportedVersion: return "the Signature record version is not 2.0"
      case .deviceInformationMissingField:
        return "the Device Information record lacks the manufacturer or model name"
      case .invalidExternalType: return "the external type name is not domain:type"
      case .invalidMediaType: return "the media type is not type/subtype"
      case .invalidAbsoluteURI: return "the absolute URI type is not a valid URI"
      case .invalidWellKnownType: return "the well-known type name has characters outside the RTD set"
      case .bluetoothOOBTruncated: return "the Bluetooth OOB record is truncated"
      case .bluetoothOOBLengthMismatch: return "the Bluetooth OOB data length does not match the payload"
      case .bluetoothOOBMissingAddress: return "the LE OOB record has no LE Bluetooth Device Address"
      case .invalidAdvertisingData: return "the Bluetooth EIR/AD data inside the record is malformed"
      case .p2pLengthExceedsPayload: return "the Wi-Fi P2P data length is larger than the bytes that remain"
      case .p2pTrailingBytes: return "bytes follow the Wi-Fi P2P attributes"
      }
    }

    /// The code's name.
    public var description: String { name }
  }
}

extension NDEFError: CustomStringConvertible {
  /// `code at offset N: message`, or `code in record N: message` for encoding errors.
  public var description: String {
    if let recordIndex {
      return "\(code.name) in record \(recordIndex): \(code.message)"
    }
    return "\(code.name) at offset \(offset): \(code.message)"
  }
}

/// A rule broken by the input that lenient decoding accepted. The code is the error strict
/// decoding would have thrown.
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
