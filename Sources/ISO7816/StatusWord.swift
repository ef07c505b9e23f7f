// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The status word SW1-SW2 that ends every response APDU (ISO/IEC 7816-4:2013 §5.1.3,
/// Tables 5 and 6).
///
/// A `RawRepresentable` struct: every 16-bit value is representable, named statics cover the
/// interindustry table, and ``meaning`` describes any value in words.
public struct StatusWord: RawRepresentable, Sendable, Hashable {
  /// SW1 in the high byte, SW2 in the low byte.
  public let rawValue: UInt16

  /// Creates a status word from its 16-bit value (SW1 high).
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// Creates a status word from SW1 and SW2.
  public init(sw1: UInt8, sw2: UInt8) { self.rawValue = UInt16(sw1) << 8 | UInt16(sw2) }

  /// The first byte, SW1.
  public var sw1: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }
  /// The second byte, SW2.
  public var sw2: UInt8 { UInt8(truncatingIfNeeded: rawValue) }

  // MARK: Normal processing (§5.1.3, Table 6)

  /// 9000: normal processing, no further qualification.
  public static let success = StatusWord(rawValue: 0x90_00)
  /// 6100: response bytes still available; SW2 00 means 256 or more remain (see
  /// ``bytesAvailable``).
  public static let bytesRemaining = StatusWord(rawValue: 0x61_00)

  // MARK: Warning processing

  /// 6200: state of non-volatile memory unchanged, no information given.
  public static let warningNoInformation = StatusWord(rawValue: 0x62_00)
  /// 6281: part of the returned data may be corrupted.
  public static let dataMayBeCorrupted = StatusWord(rawValue: 0x62_81)
  /// 6282: end of file or record reached before reading Ne bytes, or unsuccessful search.
  public static let endOfFileReached = StatusWord(rawValue: 0x62_82)
  /// 6283: selected file deactivated.
  public static let selectedFileDeactivated = StatusWord(rawValue: 0x62_83)
  /// 6284: file or data control information not formatted according to §7.4.
  public static let fileControlInformationNotFormatted = StatusWord(rawValue: 0x62_84)
  /// 6285: selected file in termination state.
  public static let selectedFileTerminated = StatusWord(rawValue: 0x62_85)
  /// 6286: no input data available from a sensor on the card.
  public static let noSensorData = StatusWord(rawValue: 0x62_86)
  /// 6287: at least one of the referenced records is deactivated.
  public static let recordDeactivated = StatusWord(rawValue: 0x62_87)
  /// 6300: state of non-volatile memory changed, no information given.
  public static let memoryChangedNoInformation = StatusWord(rawValue: 0x63_00)
  /// 6310: more data available (GlobalPlatform Card Specification 2.3 §11.4.3, GET STATUS).
  public static let moreDataAvailable = StatusWord(rawValue: 0x63_10)
  /// 6381: file filled up by the last write.
  public static let fileFilledUp = StatusWord(rawValue: 0x63_81)
  /// 63C0: counter at 0 (63CX: X is a counter, typically verification tries remaining).
  public static let counterZero = StatusWord(rawValue: 0x63_C0)

  // MARK: Execution errors

  /// 6400: execution error, state of non-volatile memory unchanged.
  public static let executionError = StatusWord(rawValue: 0x64_00)
  /// 6401: immediate response required by the card.
  public static let immediateResponseRequired = StatusWord(rawValue: 0x64_01)
  /// 6481: logical channel shared access denied.
  public static let channelSharedAccessDenied = StatusWord(rawValue: 0x64_81)
  /// 6482: logical channel opening denied.
  public static let channelOpeningDenied = StatusWord(rawValue: 0x64_82)
  /// 6500: state of non-volatile memory changed, no information given.
  public static let memoryChangedError = StatusWord(rawValue: 0x65_00)
  /// 6581: memory failure.
  public static let memoryFailure = StatusWord(rawValue: 0x65_81)
  /// 6600: security-related issue.
  public static let securityIssue = StatusWord(rawValue: 0x66_00)

  // MARK: Checking errors

  /// 6700: wrong length, no further indication.
  public static let wrongLength = StatusWord(rawValue: 0x67_00)
  /// 6800: functions in CLA not supported.
  public static let classFunctionsNotSupported = StatusWord(rawValue: 0x68_00)
  /// 6881: logical channel not supported.
  public static let logicalChannelNotSupported = StatusWord(rawValue: 0x68_81)
  /// 6882: secure messaging not supported.
  public static let secureMessagingNotSupported = StatusWord(rawValue: 0x68_82)
  /// 6883: last command of the chain expected.
  public static let lastCommandOfChainExpected = StatusWord(rawValue: 0x68_83)
  /// 6884: command chaining not supported.
  public static let commandChainingNotSupported = StatusWord(rawValue: 0x68_84)
  /// 6900: command not allowed, no further information.
  public static let commandNotAllowed = StatusWord(rawValue: 0x69_00)
  /// 6981: command incompatible with file structure.
  public static let incompatibleFileStructure = StatusWord(rawValue: 0x69_81)
  /// 6982: security status not satisfied.
  public static let securityStatusNotSatisfied = StatusWord(rawValue: 0x69_82)
  /// 6983: authentication method blocked.
  public static let authenticationMethodBlocked = StatusWord(rawValue: 0x69_83)
  /// 6984: reference data not usable.
  public static let referenceDataNotUsable = StatusWord(rawValue: 0x69_84)
  /// 6985: conditions of use not satisfied.
  public static let conditionsOfUseNotSatisfied = StatusWord(rawValue: 0x69_85)
  /// 6986: command not allowed (no current EF).
  public static let noCurrentEF = StatusWord(rawValue: 0x69_86)
  /// 6987: expected secure messaging data objects missing.
  public static let secureMessagingObjectsMissing = StatusWord(rawValue: 0x69_87)
  /// 6988: incorrect secure messaging data objects.
  public static let incorrectSecureMessagingObjects = StatusWord(rawValue: 0x69_88)
  /// 6A00: wrong parameters P1-P2, no further information.
  public static let wrongParametersNoInformation = StatusWord(rawValue: 0x6A_00)
  /// 6A80: incorrect parameters in the command data field.
  public static let incorrectData = StatusWord(rawValue: 0x6A_80)
  /// 6A81: function not supported.
  public static let functionNotSupported = StatusWord(rawValue: 0x6A_81)
  /// 6A82: file or application not found.
  public static let fileNotFound = StatusWord(rawValue: 0x6A_82)
  /// 6A83: record not found.
  public static let recordNotFound = StatusWord(rawValue: 0x6A_83)
  /// 6A84: not enough memory space in the file.
  public static let notEnoughMemory = StatusWord(rawValue: 0x6A_84)
  /// 6A85: Nc inconsistent with TLV structure.
  public static let lengthInconsistentWithTLV = StatusWord(rawValue: 0x6A_85)
  /// 6A86: incorrect parameters P1-P2.
  public static let incorrectParameters = StatusWord(rawValue: 0x6A_86)
  /// 6A87: Nc inconsistent with parameters P1-P2.
  public static let lengthInconsistentWithParameters = StatusWord(rawValue: 0x6A_87)
  /// 6A88: referenced data or reference data not found.
  public static let referencedDataNotFound = StatusWord(rawValue: 0x6A_88)
  /// 6A89: file already exists.
  public static let fileAlreadyExists = StatusWord(rawValue: 0x6A_89)
  /// 6A8A: DF name already exists.
  public static let dfNameAlreadyExists = StatusWord(rawValue: 0x6A_8A)
  /// 6B00: wrong parameters P1-P2.
  public static let wrongParameters = StatusWord(rawValue: 0x6B_00)
  /// 6C00: wrong Le field (6CXX: SW2 encodes the exact number of available data bytes).
  public static let wrongLe = StatusWord(rawValue: 0x6C_00)
  /// 6D00: instruction code not supported or invalid.
  public static let instructionNotSupported = StatusWord(rawValue: 0x6D_00)
  /// 6E00: class not supported.
  public static let classNotSupported = StatusWord(rawValue: 0x6E_00)
  /// 6F00: no precise diagnosis.
  public static let noPreciseDiagnosis = StatusWord(rawValue: 0x6F_00)

  /// 61XX with `count` bytes available (SW2 = count, 256 encoded as 00).
  public static func bytesAvailable(_ count: Int) -> StatusWord {
    StatusWord(sw1: 0x61, sw2: UInt8(truncatingIfNeeded: count))
  }
  /// 6CXX: wrong Le, `count` bytes available (256 encoded as 00).
  public static func wrongLe(exact count: Int) -> StatusWord {
    StatusWord(sw1: 0x6C, sw2: UInt8(truncatingIfNeeded: count))
  }
  /// 63CX: counter value `counter` (0...15), e.g. PIN tries remaining after VERIFY.
  public static func counter(_ counter: Int) -> StatusWord {
    StatusWord(sw1: 0x63, sw2: 0xC0 | UInt8(truncatingIfNeeded: counter & 0x0F))
  }
}

extension StatusWord {
  /// The four categories of ISO/IEC 7816-4 §5.1.3, Table 5, and two for values outside them.
  public struct Category: RawRepresentable, Sendable, Hashable {
    /// 0 normal, 1 warning, 2 execution error, 3 checking error, 4 proprietary, 5 invalid.
    public let rawValue: UInt8
    /// Creates a category from its raw value.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Process completed normally: 9000 and 61XX.
    public static let normal = Category(rawValue: 0)
    /// Process completed with a warning: 62XX and 63XX.
    public static let warning = Category(rawValue: 1)
    /// Process aborted, execution error: 64XX, 65XX and 66XX.
    public static let executionError = Category(rawValue: 2)
    /// Process aborted, checking error: 67XX to 6FXX.
    public static let checkingError = Category(rawValue: 3)
    /// 9XXX other than 9000: proprietary (e.g. 91XX of DESFire); outside the four categories.
    public static let proprietary = Category(rawValue: 4)
    /// SW1 outside 61...6F and 90...9F (60 is a T=0 procedure byte, not a status).
    public static let invalid = Category(rawValue: 5)

    /// The JSON contract name: `normal`, `warning`, `executionError`, `checkingError`,
    /// `proprietary` or `invalid`.
    public var name: String {
      switch rawValue {
      case 0: return "normal"
      case 1: return "warning"
      case 2: return "executionError"
      case 3: return "checkingError"
      case 4: return "proprietary"
      default: return "invalid"
      }
    }
  }

  /// The category of the status word (§5.1.3, Table 5).
  public var category: Category {
    switch sw1 {
    case 0x90: return sw2 == 0 ? .normal : .proprietary
    case 0x61: return .normal
    case 0x62, 0x63: return .warning
    case 0x64, 0x65, 0x66: return .executionError
    case 0x67...0x6F: return .checkingError
    case 0x91...0x9F: return .proprietary
    default: return .invalid
    }
  }

  /// Whether the process completed normally (9000 or 61XX).
  public var isSuccess: Bool { category == .normal }

  /// For 61XX, the number of response bytes available: SW2, and 256 for SW2 = 00 (which
  /// means 256 *or more*); `nil` for any other status word.
  public var bytesAvailable: Int? {
    guard sw1 == 0x61 else { return nil }
    return sw2 == 0 ? 256 : Int(sw2)
  }

  /// For 6CXX, the exact Ne the card asks for: SW2, and 256 for SW2 = 00; otherwise `nil`.
  public var exactLength: Int? {
    guard sw1 == 0x6C else { return nil }
    return sw2 == 0 ? 256 : Int(sw2)
  }

  /// For 63CX, the counter X (0...15), typically verification tries left; otherwise `nil`.
  /// A counter is a warning, never a "more data" indication.
  public var counterValue: Int? {
    guard sw1 == 0x63, sw2 & 0xF0 == 0xC0 else { return nil }
    return Int(sw2 & 0x0F)
  }

  /// The ISO/IEC 7816-4 meaning in words (§5.1.3, Table 6), e.g. "file or application not
  /// found" for 6A82 or "counter: 2" for 63C2.
  public var meaning: String {
    switch rawValue {
    case 0x90_00: return "no further qualification"
    case 0x62_00: return "warning: no information given (non-volatile memory unchanged)"
    case 0x62_81: return "part of returned data may be corrupted"
    case 0x62_82: return "end of file or record reached before reading Ne bytes"
    case 0x62_83: return "selected file deactivated"
    case 0x62_84: return "file or data control information not formatted according to 7.4"
    case 0x62_85: return "selected file in termination state"
    case 0x62_86: return "no input data available from a sensor on the card"
    case 0x62_87: return "at least one of the referenced records is deactivated"
    case 0x63_00: return "warning: no information given (non-volatile memory changed)"
    case 0x63_10: return "more data available"
    case 0x63_81: return "file filled up by the last write"
    case 0x64_00: return "execution error (non-volatile memory unchanged)"
    case 0x64_01: return "immediate response required by the card"
    case 0x64_81: return "logical channel shared access denied"
    case 0x64_82: return "logical channel opening denied"
    case 0x65_00: return "execution error: no information given (non-volatile memory changed)"
    case 0x65_81: return "memory failure"
    case 0x66_00: return "security-related issue"
    case 0x67_00: return "wrong length; no further indication"
    case 0x68_00: return "functions in CLA not supported"
    case 0x68_81: return "logical channel not supported"
    case 0x68_82: return "secure messaging not supported"
    case 0x68_83: return "last command of the chain expected"
    case 0x68_84: return "command chaining not supported"
    case 0x69_00: return "command not allowed"
    case 0x69_81: return "command incompatible with file structure"
    case 0x69_82: return "security status not satisfied"
    case 0x69_83: return "authentication method blocked"
    case 0x69_84: return "reference data not usable"
    case 0x69_85: return "conditions of use not satisfied"
    case 0x69_86: return "command not allowed (no current EF)"
    case 0x69_87: return "expected secure messaging data objects missing"
    case 0x69_88: return "incorrect secure messaging data objects"
    case 0x6A_00: return "wrong parameters P1-P2; no information given"
    case 0x6A_80: return "incorrect parameters in the command data field"
    case 0x6A_81: return "function not supported"
    case 0x6A_82: return "file or application not found"
    case 0x6A_83: return "record not found"
    case 0x6A_84: return "not enough memory space in the file"
    case 0x6A_85: return "Nc inconsistent with TLV structure"
    case 0x6A_86: return "incorrect parameters P1-P2"
    case 0x6A_87: return "Nc inconsistent with parameters P1-P2"
    case 0x6A_88: return "referenced data or reference data not found"
    case 0x6A_89: return "file already exists"
    case 0x6A_8A: return "DF name already exists"
    case 0x6B_00: return "wrong parameters P1-P2"
    case 0x6D_00: return "instruction code not supported or invalid"
    case 0x6E_00: return "class not supported"
    case 0x6F_00: return "no precise diagnosis"
    default: break
    }
    if let available = bytesAvailable {
      if sw2 == 0 { return "response bytes still available: 256 or more" }
      return "response bytes still available: \(available)"
    }
    if let exact = exactLength { return "wrong Le field: \(exact) bytes available" }
    if let counter = counterValue { return "counter: \(counter)" }
    switch sw1 {
    case 0x62 where sw2 >= 0x02 && sw2 <= 0x80: return "warning: triggering by the card"
    case 0x64 where sw2 >= 0x02 && sw2 <= 0x80: return "execution error: triggering by the card"
    case 0x62, 0x63: return "warning"
    case 0x64, 0x65, 0x66: return "execution error"
    case 0x67: return "wrong length"
    case 0x68: return "functions in CLA not supported"
    case 0x69: return "command not allowed"
    case 0x6A: return "wrong parameters P1-P2"
    case 0x6B, 0x6C, 0x6D, 0x6E, 0x6F: return "checking error"
    case 0x90...0x9F: return "proprietary"
    default: return "not a valid status word"
    }
  }
}

extension StatusWord {
  /// Four lowercase hex digits, e.g. `6a82`, as the JSON contract writes `sw`.
  public var hexString: String { description.lowercased() }
}

extension StatusWord: CustomStringConvertible {
  /// Four uppercase hex digits, e.g. `6A82`.
  public var description: String {
    Hex.uppercaseString([UInt8(rawValue >> 8), UInt8(rawValue & 0xFF)])
  }
}
