// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NDEF

/// A tag memory or Type 4 procedure failure: what rule was broken and where.
///
/// Memory-image errors carry the absolute byte offset of the first offending byte in the
/// image. Type 4 procedure errors carry the ``step`` that failed and, for unexpected status
/// words, the ``statusWord``; their ``offset`` is the offset inside the response data (or
/// inside the NDEF file for length errors).
public struct NFCTagError: Error, Sendable, Hashable {
  /// The rule that was broken.
  public let code: Code
  /// Absolute byte offset of the first offending byte.
  public let offset: Int
  /// For Type 4 procedure errors, the step of the NDEF procedure that failed.
  public let step: Type4Step?
  /// For ``Code/unexpectedStatusWord``, the status word the tag answered.
  public let statusWord: StatusWord?
  /// For ``Code/invalidNDEFMessage``, the NDEF error found in the message bytes.
  public let ndefError: NDEFError?
  /// For ``Code/invalidKeyDictionaryLine``, the line number (from 1) in the key dictionary.
  public let line: Int?

  /// Creates an error.
  public init(
    _ code: Code, offset: Int, step: Type4Step? = nil, statusWord: StatusWord? = nil,
    ndefError: NDEFError? = nil
  ) {
    self.code = code
    self.offset = offset
    self.step = step
    self.statusWord = statusWord
    self.ndefError = ndefError
    self.line = nil
  }

  /// Creates an error about a line of a text file (a MIFARE Classic key dictionary):
  /// `offset` is the line's first byte, `line` its number from 1.
  public init(_ code: Code, offset: Int, line: Int) {
    self.code = code
    self.offset = offset
    self.step = nil
    self.statusWord = nil
    self.ndefError = nil
    self.line = line
  }

  /// An error code: a struct over a private enum so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable, CaseIterable {
      case truncatedImage
      case invalidMagic
      case unsupportedVersion
      case invalidCapabilityContainer
      case dataAreaExceedsImage
      case truncatedTLV
      case tlvLengthExceedsDataArea
      case invalidControlTLV
      case controlTLVAfterNDEF
      case tooManyMemoryAreas
      case tooManyTLVs
      case unknownTLVType
      case missingNDEFTLV
      case multipleNDEFTLVs
      case ndefNotContiguous
      case invalidNDEFMessage
      case messageTooLarge
      case readOnly
      case invalidImageSize
      case checksumMismatch
      case invalidAttributeInformation
      case writeInProgress
      case ndefLengthExceedsCapacity
      case bufferTooSmall
      case unexpectedStatusWord
      case responseTooShort
      case unexpectedResponse
      case invalidCCFile
      case missingNDEFFileControl
      case invalidNDEFFileControl
      case ndefFileNotReadable
      case ndefFileNotWritable
      case ndefLengthExceedsFile
      case procedureFinished
      case controlAreaOutsideImage
      case bccMismatch
      case inconsistentAccessBits
      case invalidKeyDictionaryLine
      case missingMAD
      case madCRCMismatch
      case invalidMADInfo
      case madSectorOutOfRange
      case undeclaredMAD2
      case negativeAcknowledge
      case passwordAcknowledgeMismatch
      case invalidPageRange
      case configurationLocked
      case invalidAuthenticationLimit
      case passwordProtectionNotSupported
      case invalidAddress
      case invalidBlockCount
      case invalidIDm
      case frameTooLong
      case writeNotConfirmed
      case identifierMismatch
      case feliCaStatusFlags
      case pn532Error
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// The image ends before a structure its layout requires (CC, header, AIB, a block).
    public static let truncatedImage = Code(.truncatedImage)
    /// T1T/T2T/T5T CC byte 0 is not the NDEF magic number (0xE1; 0xE2 for T5T).
    public static let invalidMagic = Code(.invalidMagic)
    /// The mapping's major version is not one this reader supports.
    public static let unsupportedVersion = Code(.unsupportedVersion)
    /// A capability container field holds a value the specification does not allow.
    public static let invalidCapabilityContainer = Code(.invalidCapabilityContainer)
    /// The data area the CC declares runs past the end of the image.
    public static let dataAreaExceedsImage = Code(.dataAreaExceedsImage)
    /// The data area ends inside a TLV's type or length field.
    public static let truncatedTLV = Code(.truncatedTLV)
    /// A TLV's length claims more bytes than remain in the data area.
    public static let tlvLengthExceedsDataArea = Code(.tlvLengthExceedsDataArea)
    /// A Lock Control or Memory Control TLV does not have a 3-byte value (T2T 1.0 §2.3.1,
    /// §2.3.2).
    public static let invalidControlTLV = Code(.invalidControlTLV)
    /// The lock or reserved bytes a well-formed Lock or Memory Control TLV points at lie
    /// past the end of the image (a dump of the header and data area only). Past the data
    /// area this is a note, not an error; a write plan that needs those lock bits refuses
    /// with this code; an area that starts inside the data area and runs past the image is
    /// an error (lenient: a warning).
    public static let controlAreaOutsideImage = Code(.controlAreaOutsideImage)
    /// A Lock Control or Memory Control TLV follows the NDEF TLV (T2T §2.3: they come first).
    public static let controlTLVAfterNDEF = Code(.controlTLVAfterNDEF)
    /// More reserved and lock areas than ``TagDecodingOptions/maximumMemoryAreas``.
    public static let tooManyMemoryAreas = Code(.tooManyMemoryAreas)
    /// More TLVs (NULL TLVs not counted) than ``TagDecodingOptions/maximumTLVCount``.
    public static let tooManyTLVs = Code(.tooManyTLVs)
    /// A TLV type that the tag operation specifications reserve.
    public static let unknownTLVType = Code(.unknownTLVType)
    /// The TLV area holds no NDEF TLV.
    public static let missingNDEFTLV = Code(.missingNDEFTLV)
    /// The TLV area holds more than one NDEF TLV.
    public static let multipleNDEFTLVs = Code(.multipleNDEFTLVs)
    /// The NDEF message spans reserved or lock areas; assemble it explicitly.
    public static let ndefNotContiguous = Code(.ndefNotContiguous)
    /// The NDEF message bytes are not a valid NDEF message (see ``NFCTagError/ndefError``).
    public static let invalidNDEFMessage = Code(.invalidNDEFMessage)
    /// The message does not fit in the data area.
    public static let messageTooLarge = Code(.messageTooLarge)
    /// The tag is read-only (CC access, lock bits, or AIB RWFlag).
    public static let readOnly = Code(.readOnly)
    /// The image size does not match the tag's layout.
    public static let invalidImageSize = Code(.invalidImageSize)
    /// T3T §6.2: the Attribute Information Block checksum does not match its bytes.
    public static let checksumMismatch = Code(.checksumMismatch)
    /// T3T §6.2: an Attribute Information Block field is out of range.
    public static let invalidAttributeInformation = Code(.invalidAttributeInformation)
    /// T3T §6.2: WriteFlag is 0x0F: a write was interrupted.
    public static let writeInProgress = Code(.writeInProgress)
    /// The NDEF length is larger than the tag can hold.
    public static let ndefLengthExceedsCapacity = Code(.ndefLengthExceedsCapacity)
    /// The caller's output buffer is smaller than the encoding.
    public static let bufferTooSmall = Code(.bufferTooSmall)
    /// T4T §5: a response status word other than the one the procedure expects.
    public static let unexpectedStatusWord = Code(.unexpectedStatusWord)
    /// T4T §5: a response data field shorter than the procedure needs.
    public static let responseTooShort = Code(.responseTooShort)
    /// T4T §5: a response data field longer than requested, or a response when none is expected.
    public static let unexpectedResponse = Code(.unexpectedResponse)
    /// T4T §5.1: the CC file is malformed (CCLEN, MLe, MLc out of range).
    public static let invalidCCFile = Code(.invalidCCFile)
    /// T4T §5.1: the CC file holds no NDEF File Control TLV.
    public static let missingNDEFFileControl = Code(.missingNDEFFileControl)
    /// T4T §5.1.2: the NDEF File Control TLV has a bad length, file id or file size.
    public static let invalidNDEFFileControl = Code(.invalidNDEFFileControl)
    /// T4T §5.1.2: the read access condition does not grant reading.
    public static let ndefFileNotReadable = Code(.ndefFileNotReadable)
    /// T4T §5.1.2: the write access condition does not grant writing.
    public static let ndefFileNotWritable = Code(.ndefFileNotWritable)
    /// T4T §5.2: NLEN/ENLEN is larger than the NDEF file allows.
    public static let ndefLengthExceedsFile = Code(.ndefLengthExceedsFile)
    /// The procedure has already finished or failed; no further command.
    public static let procedureFinished = Code(.procedureFinished)
    /// NTAG21x §9.3 / MF0ULX1 §8.3: the tag answered a 4-bit NAK (0x0, 0x1, 0x4, 0x5)
    /// instead of data (offset 0).
    public static let negativeAcknowledge = Code(.negativeAcknowledge)
    /// NTAG21x §10.7 PWD_AUTH: the PACK the tag sent is not the one expected (offset 0).
    public static let passwordAcknowledgeMismatch = Code(.passwordAcknowledgeMismatch)
    /// NTAG21x §10.3 FAST_READ: the end page is before the start page, or the range is
    /// outside the chip's pages.
    public static let invalidPageRange = Code(.invalidPageRange)
    /// NTAG21x §8.5.7: CFGLCK is set, the configuration pages are locked for writing.
    public static let configurationLocked = Code(.configurationLocked)
    /// NTAG21x §8.5.7: AUTHLIM is 3 bits; a limit over 7 cannot be set.
    public static let invalidAuthenticationLimit = Code(.invalidAuthenticationLimit)
    /// The chip has no PWD/PACK configuration pages (MIFARE Ultralight, Ultralight C,
    /// NTAG210u, a chip whose layout is not in the variant table).
    public static let passwordProtectionNotSupported = Code(.passwordProtectionNotSupported)
    /// A frame codec was given a block, byte or segment address outside what the command takes
    /// (T1T 1.2 §5, JIS X 6319-4 §7.3); offset: the address field in the frame.
    public static let invalidAddress = Code(.invalidAddress)
    /// FeliCa Check or Update (JIS X 6319-4 §7.3): a block count outside 1-15, or data that is
    /// not 16 bytes a block; offset: the block-count field.
    public static let invalidBlockCount = Code(.invalidBlockCount)
    /// A FeliCa IDm of other than 8 bytes (JIS X 6319-4 §7.3); offset: the given length.
    public static let invalidIDm = Code(.invalidIDm)
    /// The frame would be longer than its carrier takes (a FeliCa frame over 255 bytes, a PN532
    /// InDataExchange over 262 data bytes); offset: the limit.
    public static let frameTooLong = Code(.frameTooLong)
    /// T1T 1.2 §5.5, §5.8: the answer to WRITE-E or WRITE-E8 is not the data written; offset:
    /// the first byte that differs.
    public static let writeNotConfirmed = Code(.writeNotConfirmed)
    /// The answer carries another tag's identifier (a FeliCa IDm); offset: the first byte
    /// that differs.
    public static let identifierMismatch = Code(.identifierMismatch)
    /// JIS X 6319-4 §7.3: status flag 1 or 2 of a Check or Update answer is not 00;
    /// ``NFCTagError/statusWord`` carries SF1 and SF2 (offset 10).
    public static let feliCaStatusFlags = Code(.feliCaStatusFlags)
    /// PN532 user manual §7.1, §7.3.8: the InDataExchange status byte holds an error code (01
    /// timeout: the tag did not answer; 02 CRC; 03 parity; ...); offset 2.
    public static let pn532Error = Code(.pn532Error)

    /// MIFARE Classic block 0 (MF1S50 §8.6.1): the BCC byte after a 4-byte UID is not the
    /// XOR of the UID bytes.
    public static let bccMismatch = Code(.bccMismatch)
    /// MIFARE Classic sector trailer (MF1S50 §8.7): an inverted copy of the access bits
    /// does not match its plain copy (the card would block the sector for good); the
    /// offset is the byte holding the inverted copy (trailer byte 6 for C1 and C2, 7 for C3).
    public static let inconsistentAccessBits = Code(.inconsistentAccessBits)
    /// A MIFARE Classic key dictionary line is neither blank, a `#` comment, nor 12 hex
    /// digits (see ``NFCTagError/line``).
    public static let invalidKeyDictionaryLine = Code(.invalidKeyDictionaryLine)

    /// MIFARE Classic (AN10787 §3.7): the MAD general purpose byte's DA bit is clear, so the
    /// card has no MAD and no NDEF sectors.
    public static let missingMAD = Code(.missingMAD)
    /// MIFARE Classic (AN10787 §3.9): a MAD's CRC byte does not match its info byte and AIDs.
    public static let madCRCMismatch = Code(.madCRCMismatch)
    /// MIFARE Classic (AN10787 §3.8): a MAD info byte names card publisher sector 0x10 or
    /// a sector past its directory (MAD1 0x0F, MAD2 0x27).
    public static let invalidMADInfo = Code(.invalidMADInfo)
    /// MIFARE Classic: the MAD assigns a sector the card does not have (a MIFARE Mini's
    /// sectors 5-15) to something other than free or not applicable.
    public static let madSectorOutOfRange = Code(.madSectorOutOfRange)
    /// MIFARE Classic (AN10787 §3.7): a 4K card's MAD general purpose byte says MAD1 while
    /// sector 16 holds a MAD2 naming NDEF sectors (Android's formatter writes `C1`); lenient
    /// decoding reads the MAD2, with this as a warning.
    public static let undeclaredMAD2 = Code(.undeclaredMAD2)

    /// Every code, for tests and documentation.
    public static var allCodes: [Code] { Value.allCases.map(Code.init) }

    /// The stable camelCase name of the code, as used in the JSON contract.
    public var name: String {
      switch value {
      case .truncatedImage: return "truncatedImage"
      case .invalidMagic: return "invalidMagic"
      case .unsupportedVersion: return "unsupportedVersion"
      case .invalidCapabilityContainer: return "invalidCapabilityContainer"
      case .dataAreaExceedsImage: return "dataAreaExceedsImage"
      case .truncatedTLV: return "truncatedTLV"
      case .tlvLengthExceedsDataArea: return "tlvLengthExceedsDataArea"
      case .invalidControlTLV: return "invalidControlTLV"
      case .controlTLVAfterNDEF: return "controlTLVAfterNDEF"
      case .tooManyMemoryAreas: return "tooManyMemoryAreas"
      case .tooManyTLVs: return "tooManyTLVs"
      case .unknownTLVType: return "unknownTLVType"
      case .missingNDEFTLV: return "missingNDEFTLV"
      case .multipleNDEFTLVs: return "multipleNDEFTLVs"
      case .ndefNotContiguous: return "ndefNotContiguous"
      case .invalidNDEFMessage: return "invalidNDEFMessage"
      case .messageTooLarge: return "messageTooLarge"
      case .readOnly: return "readOnly"
      case .invalidImageSize: return "invalidImageSize"
      case .checksumMismatch: return "checksumMismatch"
      case .invalidAttributeInformation: return "invalidAttributeInformation"
      case .writeInProgress: return "writeInProgress"
      case .ndefLengthExceedsCapacity: return "ndefLengthExceedsCapacity"
      case .bufferTooSmall: return "bufferTooSmall"
      case .unexpectedStatusWord: return "unexpectedStatusWord"
      case .responseTooShort: return "responseTooShort"
      case .unexpectedResponse: return "unexpectedResponse"
      case .invalidCCFile: return "invalidCCFile"
      case .missingNDEFFileControl: return "missingNDEFFileControl"
      case .invalidNDEFFileControl: return "invalidNDEFFileControl"
      case .ndefFileNotReadable: return "ndefFileNotReadable"
      case .ndefFileNotWritable: return "ndefFileNotWritable"
      case .ndefLengthExceedsFile: return "ndefLengthExceedsFile"
      case .procedureFinished: return "procedureFinished"
      case .controlAreaOutsideImage: return "controlAreaOutsideImage"
      case .bccMismatch: return "bccMismatch"
      case .inconsistentAccessBits: return "inconsistentAccessBits"
      case .invalidKeyDictionaryLine: return "invalidKeyDictionaryLine"
      case .missingMAD: return "missingMAD"
      case .madCRCMismatch: return "madCRCMismatch"
      case .invalidMADInfo: return "invalidMADInfo"
      case .madSectorOutOfRange: return "madSectorOutOfRange"
      case .undeclaredMAD2: return "undeclaredMAD2"
      case .negativeAcknowledge: return "negativeAcknowledge"
      case .passwordAcknowledgeMismatch: return "passwordAcknowledgeMismatch"
      case .invalidPageRange: return "invalidPageRange"
      case .configurationLocked: return "configurationLocked"
      case .invalidAuthenticationLimit: return "invalidAuthenticationLimit"
      case .passwordProtectionNotSupported: return "passwordProtectionNotSupported"
      case .invalidAddress: return "invalidAddress"
      case .invalidBlockCount: return "invalidBlockCount"
      case .invalidIDm: return "invalidIDm"
      case .frameTooLong: return "frameTooLong"
      case .writeNotConfirmed: return "writeNotConfirmed"
      case .identifierMismatch: return "identifierMismatch"
      case .feliCaStatusFlags: return "feliCaStatusFlags"
      case .pn532Error: return "pn532Error"
      }
    }

    /// A short explanation for people.
    public var message: String {
      switch value {
      case .truncatedImage: return "the image ends before a required structure"
      case .invalidMagic: return "the capability container does not start with the NDEF magic number"
      case .unsupportedVersion: return "the mapping major version is not supported"
      case .invalidCapabilityContainer: return "a capability container field is out of range"
      case .dataAreaExceedsImage: return "the declared data area runs past the end of the image"
      case .truncatedTLV: return "the data area ends inside a TLV header"
      case .tlvLengthExceedsDataArea: return "a TLV length runs past the end of the data area"
      case .invalidControlTLV: return "a Lock or Memory Control TLV value is not 3 bytes long"
      case .controlTLVAfterNDEF: return "a Lock or Memory Control TLV follows the NDEF TLV"
      case .tooManyMemoryAreas: return "too many reserved and lock areas"
      case .tooManyTLVs: return "too many TLVs"
      case .unknownTLVType: return "the TLV type is reserved"
      case .missingNDEFTLV: return "there is no NDEF TLV"
      case .multipleNDEFTLVs: return "there is more than one NDEF TLV"
      case .ndefNotContiguous: return "the NDEF message spans reserved or lock areas"
      case .invalidNDEFMessage: return "the NDEF TLV does not hold a valid NDEF message"
      case .messageTooLarge: return "the message does not fit in the data area"
      case .readOnly: return "the tag is read-only"
      case .invalidImageSize: return "the image size does not match the tag layout"
      case .checksumMismatch: return "the Attribute Information Block checksum does not match"
      case .invalidAttributeInformation: return "an Attribute Information Block field is out of range"
      case .writeInProgress: return "WriteFlag shows an interrupted write"
      case .ndefLengthExceedsCapacity: return "the NDEF length exceeds the tag capacity"
      case .bufferTooSmall: return "the output buffer is too small"
      case .unexpectedStatusWord: return "the tag answered an unexpected status word"
      case .responseTooShort: return "the response data is shorter than needed"
      case .unexpectedResponse: return "the response does not fit the command"
      case .invalidCCFile: return "the CC file's CCLEN, MLe or MLc is out of range"
      case .missingNDEFFileControl: return "the CC file has no NDEF File Control TLV"
      case .invalidNDEFFileControl:
        return "the NDEF File Control TLV has a bad length, file identifier or file size"
      case .ndefFileNotReadable: return "the NDEF file may not be read"
      case .ndefFileNotWritable: return "the NDEF file may not be written"
      case .ndefLengthExceedsFile: return "NLEN is larger than the NDEF file"
      case .procedureFinished: return "the procedure has finished"
      case .controlAreaOutsideImage:
        return "the lock or reserved bytes this control TLV points at lie past the end of the image"
      case .bccMismatch: return "the BCC byte is not the XOR of the UID bytes"
      case .inconsistentAccessBits:
        return "the access bits disagree with their inverted copy (the card would block the sector)"
      case .invalidKeyDictionaryLine:
        return "the key dictionary line is not 12 hex digits, a comment or blank"
      case .missingMAD: return "the MAD general purpose byte says the card has no MAD"
      case .madCRCMismatch: return "the MAD CRC does not match its info byte and AIDs"
      case .invalidMADInfo: return "the MAD info byte names an invalid card publisher sector"
      case .madSectorOutOfRange: return "the MAD assigns a sector the card does not have"
      case .undeclaredMAD2:
        return "sector 16 holds a MAD2 that the MAD general purpose byte does not announce"
      case .negativeAcknowledge: return "the tag answered NAK"
      case .passwordAcknowledgeMismatch: return "the tag's PACK is not the expected one"
      case .invalidPageRange: return "the page range is empty or outside the chip"
      case .configurationLocked: return "CFGLCK is set: the configuration pages cannot be written"
      case .invalidAuthenticationLimit: return "AUTHLIM must be 0 to 7"
      case .passwordProtectionNotSupported: return "the chip has no password configuration pages"
      case .invalidAddress: return "a block, byte, segment or page address outside what the command takes"
      case .invalidBlockCount: return "the number of blocks is outside what the command takes"
      case .invalidIDm: return "a FeliCa IDm has 8 bytes"
      case .frameTooLong: return "the frame is longer than the command or its carrier allows"
      case .writeNotConfirmed: return "the tag did not answer the bytes it was asked to write"
      case .identifierMismatch: return "the answer names another tag"
      case .feliCaStatusFlags: return "the FeliCa tag answered error status flags"
      case .pn532Error: return "the PN532 reports an error instead of the tag answer"
      }
    }

    /// The code's name.
    public var description: String { name }
  }
}

extension NFCTagError: CustomStringConvertible {
  /// `code at offset N: message`, with the Type 4 step and status word when present.
  public var description: String {
    var text = "\(code.name) at offset \(offset): \(code.message)"
    if let step { text += " (step \(step.name))" }
    if let statusWord { text += " (SW \(statusWord.hexString))" }
    if let line { text += " (line \(line))" }
    return text
  }
}

/// A rule broken by a tag image that lenient decoding accepted; the code is the error
/// strict decoding throws.
public struct NFCTagWarning: Sendable, Hashable, CustomStringConvertible {
  /// The rule that was broken.
  public let code: NFCTagError.Code
  /// Absolute byte offset of the first offending byte.
  public let offset: Int

  /// Creates a warning.
  public init(_ code: NFCTagError.Code, offset: Int) {
    self.code = code
    self.offset = offset
  }

  /// `code at offset N: message`.
  public var description: String { "\(code.name) at offset \(offset): \(code.message)" }
}
