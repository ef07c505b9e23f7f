// SPDX-License-Identifier: Apache-2.0
/// A failure of ISO 7816-4 APDU, BER-TLV, SIMPLE-TLV, GlobalPlatform or script processing: what
/// rule was broken and where.
///
/// Decoding errors carry the absolute byte offset of the first offending byte (the length
/// field that claims more than remains, the tag byte that is not allowed). Encoding errors
/// carry offset 0 unless noted. Script errors also name the step (``step``, 0-based) and,
/// for unexpected responses, the status word received (``statusWord``).
public struct APDUError: Error, Sendable, Hashable {
  /// The rule that was broken.
  public let code: Code
  /// Absolute byte offset of the first offending byte (in script text: of the offending character).
  public let offset: Int
  /// For script parsing and running, the 0-based index of the step concerned.
  public let step: Int?
  /// For ``Code/unexpectedStatusWord`` and ``Code/unexpectedResponseData``, the status word received.
  public let statusWord: StatusWord?

  /// Creates an error with a code, the offset it applies to and optionally the script step.
  public init(_ code: Code, offset: Int, step: Int? = nil, statusWord: StatusWord? = nil) {
    self.code = code
    self.offset = offset
    self.step = step
    self.statusWord = statusWord
  }

  /// The same error attributed to script step `step`.
  public func at(step: Int) -> APDUError {
    APDUError(code, offset: offset, step: step, statusWord: statusWord)
  }

  /// An error code: a struct over a private enum so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable {
      case truncatedHeader, truncatedExtendedLength, invalidExtendedLc, dataExceedsInput
      case invalidLengthFields, truncatedStatusWord, dataTooLong, invalidExpectedLength
      case extendedLengthRequired, invalidClass, bufferTooSmall, truncatedTag
      case invalidTag, nonMinimalTag, tagTooLong, truncatedLength
      case indefiniteLength, lengthTooLong, nonMinimalLength, lengthExceedsInput
      case nestingTooDeep, tooManyObjects, valueTooLong, missingDataObject
      case invalidDataObject, invalidAIDLength, tooManyLoadBlocks, invalidBlockSize
      case tooManyGetResponses, tooManyRetries, responseTooLarge, commandTooLong
      case exchangeFinished, invalidHex, invalidStatusWordPattern, unexpectedStatusWord
      case unexpectedResponseData, unexpectedTag, sessionFinished, trailingData
      case invalidInitialCharacter, truncatedAnswerToReset, invalidCheckCharacter, answerToResetTooLong
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// ISO/IEC 7816-4 §5.1: a command APDU is shorter than its 4-byte header (CLA INS P1 P2).
    public static let truncatedHeader = Code(.truncatedHeader)
    /// ISO/IEC 7816-4 §5.1: a 0x00 byte announces an extended length field but fewer than two bytes follow.
    public static let truncatedExtendedLength = Code(.truncatedExtendedLength)
    /// ISO/IEC 7816-4 §5.1: an extended Lc field of 0x0000 (Nc must be 1...65535).
    public static let invalidExtendedLc = Code(.invalidExtendedLc)
    /// ISO/IEC 7816-4 §5.1: Lc announces more data bytes than remain.
    public static let dataExceedsInput = Code(.dataExceedsInput)
    /// ISO/IEC 7816-4 §5.1: the bytes after the data field are neither empty nor a Le field of the right form.
    public static let invalidLengthFields = Code(.invalidLengthFields)
    /// ISO/IEC 7816-4 §5.1: a response APDU is shorter than its 2-byte trailer SW1-SW2.
    public static let truncatedStatusWord = Code(.truncatedStatusWord)
    /// ISO/IEC 7816-4 §5.1: command data longer than 65535 bytes (Nc) cannot be encoded.
    public static let dataTooLong = Code(.dataTooLong)
    /// ISO/IEC 7816-4 §5.1: Ne must be 1...65536 (absent for none).
    public static let invalidExpectedLength = Code(.invalidExpectedLength)
    /// ISO/IEC 7816-4 §5.1: the command needs extended length fields but short ones were required.
    public static let extendedLengthRequired = Code(.extendedLengthRequired)
    /// ISO/IEC 7816-4 §5.1.1: the class byte cannot express what was asked (a logical channel out of range, or CLA 0xFF).
    public static let invalidClass = Code(.invalidClass)
    /// The caller's output buffer is smaller than the encoding.
    public static let bufferTooSmall = Code(.bufferTooSmall)
    /// ISO/IEC 7816-4 §5.2.2.1: the input ends inside a tag field.
    public static let truncatedTag = Code(.truncatedTag)
    /// ISO/IEC 7816-4 §5.2.2.1 and §5.2.1: a tag whose first byte is 0x00 or 0xFF (padding, not a tag).
    public static let invalidTag = Code(.invalidTag)
    /// ISO/IEC 7816-4 §5.2.2.1: a multi-byte tag whose first subsequent byte is 0x80 (a leading zero group, ISO/IEC 8825-1 §8.1.2.4.2).
    public static let nonMinimalTag = Code(.nonMinimalTag)
    /// A tag field longer than the configured maximum (ISO/IEC 7816-4 uses at most three bytes).
    public static let tagTooLong = Code(.tagTooLong)
    /// ISO/IEC 7816-4 §5.2.2.2: the input ends inside a length field.
    public static let truncatedLength = Code(.truncatedLength)
    /// ISO/IEC 7816-4 §5.2.2.2: the indefinite length form 0x80 is not allowed.
    public static let indefiniteLength = Code(.indefiniteLength)
    /// ISO/IEC 7816-4 §5.2.2.2: a long length form with more than four subsequent bytes (0x85...0xFF).
    public static let lengthTooLong = Code(.lengthTooLong)
    /// ISO/IEC 7816-4 §5.2.2.2 (DER rule): a length encoded in more bytes than needed.
    public static let nonMinimalLength = Code(.nonMinimalLength)
    /// A TLV length announces more bytes than remain in its enclosing object or input.
    public static let lengthExceedsInput = Code(.lengthExceedsInput)
    /// Constructed objects nest deeper than the configured maximum depth.
    public static let nestingTooDeep = Code(.nestingTooDeep)
    /// The input holds more data objects than the configured maximum.
    public static let tooManyObjects = Code(.tooManyObjects)
    /// An encoder was given a value longer than its length field can express.
    public static let valueTooLong = Code(.valueTooLong)
    /// A data object the specification requires is absent.
    public static let missingDataObject = Code(.missingDataObject)
    /// A data object has a length or value the specification does not allow.
    public static let invalidDataObject = Code(.invalidDataObject)
    /// ISO/IEC 7816-4 and 7816-5: an application identifier must be 5...16 bytes long.
    public static let invalidAIDLength = Code(.invalidAIDLength)
    /// GlobalPlatform Card Specification 2.3 §11.6.2.3: a load file needs more than 256 LOAD blocks (P2 block numbers 0x00...0xFF) and block numbers may not wrap.
    public static let tooManyLoadBlocks = Code(.tooManyLoadBlocks)
    /// A LOAD block size or chaining limit below 1 byte.
    public static let invalidBlockSize = Code(.invalidBlockSize)
    /// The card kept answering 61XX beyond the configured number of GET RESPONSE commands.
    public static let tooManyGetResponses = Code(.tooManyGetResponses)
    /// The card kept answering 6CXX beyond the configured number of resends.
    public static let tooManyRetries = Code(.tooManyRetries)
    /// Concatenated response data exceeds the configured maximum.
    public static let responseTooLarge = Code(.responseTooLarge)
    /// The command data does not fit the card's limit and neither chaining nor extended length may be used.
    public static let commandTooLong = Code(.commandTooLong)
    /// A response was given to an exchange that expects none.
    public static let exchangeFinished = Code(.exchangeFinished)
    /// Script text: a character that is not a hex digit, or an odd number of digits.
    public static let invalidHex = Code(.invalidHex)
    /// Script text: an expected status word that is not four hex digits or X wildcards.
    public static let invalidStatusWordPattern = Code(.invalidStatusWordPattern)
    /// A script step received a status word its expectation does not allow.
    public static let unexpectedStatusWord = Code(.unexpectedStatusWord)
    /// A script step received response data other than the expected data.
    public static let unexpectedResponseData = Code(.unexpectedResponseData)
    /// A data object with a tag that is not allowed at this place.
    public static let unexpectedTag = Code(.unexpectedTag)
    /// A batch was given to a script session that has already finished or failed.
    public static let sessionFinished = Code(.sessionFinished)
    /// Bytes follow an object that must be the whole input (one BER-TLV object, one script
    /// template).
    public static let trailingData = Code(.trailingData)
    /// ISO/IEC 7816-3 §8.1: the initial character TS is neither 0x3B (direct) nor 0x3F (inverse convention).
    public static let invalidInitialCharacter = Code(.invalidInitialCharacter)
    /// ISO/IEC 7816-3 §8.2: the answer to reset ends before the interface bytes, historical
    /// bytes or TCK that T0 and the TDi bytes announce.
    public static let truncatedAnswerToReset = Code(.truncatedAnswerToReset)
    /// ISO/IEC 7816-3 §8.2.5: the XOR of T0 through TCK is not zero.
    public static let invalidCheckCharacter = Code(.invalidCheckCharacter)
    /// ISO/IEC 7816-3 §8.2: an answer to reset has at most 32 characters after TS (33 bytes).
    public static let answerToResetTooLong = Code(.answerToResetTooLong)

    /// The stable camelCase name of the code, as used in the JSON contract.
    public var name: String {
      switch value {
      case .truncatedHeader: return "truncatedHeader"
      case .truncatedExtendedLength: return "truncatedExtendedLength"
      case .invalidExtendedLc: return "invalidExtendedLc"
      case .dataExceedsInput: return "dataExceedsInput"
      case .invalidLengthFields: return "invalidLengthFields"
      case .truncatedStatusWord: return "truncatedStatusWord"
      case .dataTooLong: return "dataTooLong"
      case .invalidExpectedLength: return "invalidExpectedLength"
      case .extendedLengthRequired: return "extendedLengthRequired"
      case .invalidClass: return "invalidClass"
      case .bufferTooSmall: return "bufferTooSmall"
      case .truncatedTag: return "truncatedTag"
      case .invalidTag: return "invalidTag"
      case .nonMinimalTag: return "nonMinimalTag"
      case .tagTooLong: return "tagTooLong"
      case .truncatedLength: return "truncatedLength"
      case .indefiniteLength: return "indefiniteLength"
      case .lengthTooLong: return "lengthTooLong"
      case .nonMinimalLength: return "nonMinimalLength"
      case .lengthExceedsInput: return "lengthExceedsInput"
      case .nestingTooDeep: return "nestingTooDeep"
      case .tooManyObjects: return "tooManyObjects"
      case .valueTooLong: return "valueTooLong"
      case .missingDataObject: return "missingDataObject"
      case .invalidDataObject: return "invalidDataObject"
      case .invalidAIDLength: return "invalidAIDLength"
      case .tooManyLoadBlocks: return "tooManyLoadBlocks"
      case .invalidBlockSize: return "invalidBlockSize"
      case .tooManyGetResponses: return "tooManyGetResponses"
      case .tooManyRetries: return "tooManyRetries"
      case .responseTooLarge: return "responseTooLarge"
      case .commandTooLong: return "commandTooLong"
      case .exchangeFinished: return "exchangeFinished"
      case .invalidHex: return "invalidHex"
      case .invalidStatusWordPattern: return "invalidStatusWordPattern"
      case .unexpectedStatusWord: return "unexpectedStatusWord"
      case .unexpectedResponseData: return "unexpectedResponseData"
      case .unexpectedTag: return "unexpectedTag"
      case .sessionFinished: return "sessionFinished"
      case .trailingData: return "trailingData"
      case .invalidInitialCharacter: return "invalidInitialCharacter"
      case .truncatedAnswerToReset: return "truncatedAnswerToReset"
      case .invalidCheckCharacter: return "invalidCheckCharacter"
      case .answerToResetTooLong: return "answerToResetTooLong"
      }
    }

    /// A sentence for people.
    public var message: String {
      switch value {
      case .truncatedHeader: return "the command ends inside the 4-byte header"
      case .truncatedExtendedLength: return "an extended length field is cut short"
      case .invalidExtendedLc: return "an extended Lc of 0000 is not valid"
      case .dataExceedsInput: return "Lc is larger than the bytes that remain"
      case .invalidLengthFields: return "the bytes after the data field are not a valid Le field"
      case .truncatedStatusWord: return "the response is shorter than the 2-byte status word"
      case .dataTooLong: return "the command data is longer than 65535 bytes"
      case .invalidExpectedLength: return "Ne must be between 1 and 65536"
      case .extendedLengthRequired: return "the command needs extended length fields"
      case .invalidClass: return "the class byte cannot be built or is invalid"
      case .bufferTooSmall: return "the output buffer is too small"
      case .truncatedTag: return "the input ends inside a tag field"
      case .invalidTag: return "0x00 and 0xFF are not valid first tag bytes"
      case .nonMinimalTag: return "the tag number is not in its shortest form"
      case .tagTooLong: return "the tag field is longer than allowed"
      case .truncatedLength: return "the input ends inside a length field"
      case .indefiniteLength: return "the indefinite length form 0x80 is not allowed"
      case .lengthTooLong: return "the length field has more than four subsequent bytes"
      case .nonMinimalLength: return "the length is not in its shortest form"
      case .lengthExceedsInput: return "the length is larger than the bytes that remain"
      case .nestingTooDeep: return "constructed objects nest too deep"
      case .tooManyObjects: return "there are more data objects than allowed"
      case .valueTooLong: return "the value is too long for its length field"
      case .missingDataObject: return "a required data object is absent"
      case .invalidDataObject: return "a data object has an invalid length or value"
      case .invalidAIDLength: return "an AID must be 5 to 16 bytes long"
      case .tooManyLoadBlocks: return "the load file needs more than 256 LOAD blocks"
      case .invalidBlockSize: return "the block size must be at least 1"
      case .tooManyGetResponses: return "the card asked for too many GET RESPONSE commands"
      case .tooManyRetries: return "the card asked for too many resends"
      case .responseTooLarge: return "the concatenated response is larger than allowed"
      case .commandTooLong: return "the command data is too long for the card"
      case .exchangeFinished: return "the exchange is already finished"
      case .invalidHex: return "invalid hex digits"
      case .invalidStatusWordPattern: return "invalid expected status word"
      case .unexpectedStatusWord: return "the status word is not the expected one"
      case .unexpectedResponseData: return "the response data is not the expected data"
      case .unexpectedTag: return "a data object has an unexpected tag"
      case .sessionFinished: return "the session has already finished"
      case .trailingData: return "bytes follow the object that should end the input"
      case .invalidInitialCharacter: return "TS must be 3B (direct) or 3F (inverse convention)"
      case .truncatedAnswerToReset: return "the answer to reset ends before the bytes it announces"
      case .invalidCheckCharacter: return "the check character TCK does not match"
      case .answerToResetTooLong: return "an answer to reset is at most 33 bytes"
      }
    }

    /// The code's name.
    public var description: String { name }
  }
}

extension APDUError: CustomStringConvertible {
  /// `code at offset N: message`, with the step when there is one.
  public var description: String {
    if let step {
      return "\(code.name) in step \(step) at offset \(offset): \(code.message)"
    }
    return "\(code.name) at offset \(offset): \(code.message)"
  }
}
