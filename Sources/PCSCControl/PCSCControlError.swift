// SPDX-License-Identifier: Apache-2.0

/// A malformed reader-control buffer or an argument a buffer cannot carry: what rule was
/// broken and the absolute byte offset of the first offending byte.
///
/// Encoding errors (a message containing NUL, a value too long for its length field) carry
/// the offset of the offending byte inside the argument, or 0.
public struct PCSCControlError: Error, Sendable, Hashable {
  /// The rule that was broken.
  public let code: Code
  /// Absolute byte offset of the first offending byte.
  public let offset: Int

  /// Creates an error.
  public init(_ code: Code, offset: Int) {
    self.code = code
    self.offset = offset
  }

  /// An error code: a struct over a private enum, so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable {
      case truncatedFeature, invalidFeatureLength, truncatedProperty, propertyExceedsInput
      case messageContainsNUL, missingTerminator, trailingData, invalidUTF8
      case truncatedStopReason, unknownStopReason, truncatedPINProperties, valueTooLong
      case truncatedResponse
      case notStorageCardATR, truncatedStorageCardATR, checkCharacterMismatch
      case truncatedCommand, wrongClass, wrongInstruction, invalidParameters, lengthMismatch
      case unsupportedVersion, emptyValue
      case truncatedDataObject, dataObjectExceedsInput, invalidDataObjectLength
      case missingGenericErrorStatus, invalidGenericErrorStatus
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// PC/SC Part 10 §2.2: a feature TLV is shorter than its tag and length bytes.
    public static let truncatedFeature = Code(.truncatedFeature)
    /// PC/SC Part 10 §2.2: a feature TLV's length is not 4 or its value runs past the input.
    public static let invalidFeatureLength = Code(.invalidFeatureLength)
    /// PC/SC Part 10 §2.6.14: a property TLV is shorter than its tag and length bytes.
    public static let truncatedProperty = Code(.truncatedProperty)
    /// PC/SC Part 10 §2.6.14: a property's length runs past the input.
    public static let propertyExceedsInput = Code(.propertyExceedsInput)
    /// Rutoken START_NFC / STOP_NFC: a message contains a NUL byte (NUL ends a message).
    public static let messageContainsNUL = Code(.messageContainsNUL)
    /// Rutoken START_NFC: the buffer does not end with the NUL bytes its layout needs.
    public static let missingTerminator = Code(.missingTerminator)
    /// Bytes follow the end of a structure that has a fixed end.
    public static let trailingData = Code(.trailingData)
    /// A message is not valid UTF-8.
    public static let invalidUTF8 = Code(.invalidUTF8)
    /// Rutoken LAST_NFC_STOP_REASON: the answer is shorter than its one byte.
    public static let truncatedStopReason = Code(.truncatedStopReason)
    /// Rutoken LAST_NFC_STOP_REASON: a reason byte with no documented meaning (strict parsing).
    public static let unknownStopReason = Code(.unknownStopReason)
    /// PC/SC Part 10 §2.6.8: a PIN_PROPERTIES_STRUCTURE shorter than 4 bytes.
    public static let truncatedPINProperties = Code(.truncatedPINProperties)
    /// A value does not fit its length field (a property over 255 bytes, a payload over 255).
    public static let valueTooLong = Code(.valueTooLong)
    /// PC/SC Part 3: a pseudo-APDU response shorter than SW1-SW2.
    public static let truncatedResponse = Code(.truncatedResponse)
    /// PC/SC Part 3 §3.1.3.2.3: the bytes differ from the contactless storage-card ATR's fixed
    /// bytes (`3B 8F 80 01 80 4F 0C A0 00 00 03 06`); the offset is the first differing byte.
    public static let notStorageCardATR = Code(.notStorageCardATR)
    /// PC/SC Part 3 §3.1.3.2.3: a storage-card ATR shorter than its 20 bytes.
    public static let truncatedStorageCardATR = Code(.truncatedStorageCardATR)
    /// ISO/IEC 7816-3 §8.2.5: TCK is not the XOR of T0 through the last historical byte.
    public static let checkCharacterMismatch = Code(.checkCharacterMismatch)
    /// PC/SC Part 3 §3.2.2.1: a pseudo-APDU shorter than its header (CLA INS P1 P2) and
    /// length byte.
    public static let truncatedCommand = Code(.truncatedCommand)
    /// PC/SC Part 3 §3.2.2.1: a pseudo-APDU whose class byte is not `FF`.
    public static let wrongClass = Code(.wrongClass)
    /// PC/SC Part 3 §3.2.2.1: a pseudo-APDU with another command's instruction byte.
    public static let wrongInstruction = Code(.wrongInstruction)
    /// PC/SC Part 3 §3.2.2.1: P1 or P2 has a value the command does not define.
    public static let invalidParameters = Code(.invalidParameters)
    /// ISO/IEC 7816-4 §5.1: Lc does not match the number of data bytes that follow (or a
    /// fixed-length command's Lc is not its length).
    public static let lengthMismatch = Code(.lengthMismatch)
    /// PC/SC Part 3 §3.2.2.1.6: a GENERAL AUTHENTICATE data block whose version byte is
    /// not 01.
    public static let unsupportedVersion = Code(.unsupportedVersion)
    /// A command that needs data (UPDATE BINARY, a key, a transmitted frame) got none.
    public static let emptyValue = Code(.emptyValue)
    /// PC/SC Part 3 supplement (FF C2): a data object shorter than its tag and length.
    public static let truncatedDataObject = Code(.truncatedDataObject)
    /// PC/SC Part 3 supplement (FF C2): a data object's value runs past the input.
    public static let dataObjectExceedsInput = Code(.dataObjectExceedsInput)
    /// PC/SC Part 3 supplement (FF C2): a BER length form other than 1 byte, `81 L` or
    /// `82 LL`.
    public static let invalidDataObjectLength = Code(.invalidDataObjectLength)
    /// PC/SC Part 3 supplement (FF C2): the response has no generic error status object
    /// (`C0 03 index SW1 SW2`).
    public static let missingGenericErrorStatus = Code(.missingGenericErrorStatus)
    /// PC/SC Part 3 supplement (FF C2): the generic error status object's value is not
    /// 3 bytes.
    public static let invalidGenericErrorStatus = Code(.invalidGenericErrorStatus)

    /// A stable name for logs and JSON.
    public var name: String {
      switch value {
      case .truncatedFeature: "truncatedFeature"
      case .invalidFeatureLength: "invalidFeatureLength"
      case .truncatedProperty: "truncatedProperty"
      case .propertyExceedsInput: "propertyExceedsInput"
      case .messageContainsNUL: "messageContainsNUL"
      case .missingTerminator: "missingTerminator"
      case .trailingData: "trailingData"
      case .invalidUTF8: "invalidUTF8"
      case .truncatedStopReason: "truncatedStopReason"
      case .unknownStopReason: "unknownStopReason"
      case .truncatedPINProperties: "truncatedPINProperties"
      case .valueTooLong: "valueTooLong"
      case .truncatedResponse: "truncatedResponse"
      case .notStorageCardATR: "notStorageCardATR"
      case .truncatedStorageCardATR: "truncatedStorageCardATR"
      case .checkCharacterMismatch: "checkCharacterMismatch"
      case .truncatedCommand: "truncatedCommand"
      case .wrongClass: "wrongClass"
      case .wrongInstruction: "wrongInstruction"
      case .invalidParameters: "invalidParameters"
      case .lengthMismatch: "lengthMismatch"
      case .unsupportedVersion: "unsupportedVersion"
      case .emptyValue: "emptyValue"
      case .truncatedDataObject: "truncatedDataObject"
      case .dataObjectExceedsInput: "dataObjectExceedsInput"
      case .invalidDataObjectLength: "invalidDataObjectLength"
      case .missingGenericErrorStatus: "missingGenericErrorStatus"
      case .invalidGenericErrorStatus: "invalidGenericErrorStatus"
      }
    }

    /// The name.
    public var description: String { name }
  }
}
