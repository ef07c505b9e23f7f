// SPDX-License-Identifier: Apache-2.0
/// The instruction byte INS of a command APDU (ISO/IEC 7816-4:2013 §5.1.2, Table 4, and
/// GlobalPlatform Card Specification 2.3 §11, Table 11-2).
///
/// The same INS value means different commands under interindustry and proprietary classes
/// (0xE6 is TERMINATE DF under CLA 0x00 and INSTALL under GlobalPlatform's 0x80):
/// ``commandName(class:)`` takes the class into account.
public struct Instruction: RawRepresentable, Sendable, Hashable {
  /// The INS byte.
  public let rawValue: UInt8
  /// Wraps an INS byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  // MARK: Interindustry (ISO/IEC 7816-4 Table 4)

  /// 0x04: DEACTIVATE FILE (ISO/IEC 7816-4 Table 4).
  public static let deactivateFile = Instruction(rawValue: 0x04)
  /// 0x0C: ERASE RECORD(S) (ISO/IEC 7816-4 Table 4).
  public static let eraseRecord = Instruction(rawValue: 0x0C)
  /// 0x0E: ERASE BINARY (ISO/IEC 7816-4 Table 4).
  public static let eraseBinary = Instruction(rawValue: 0x0E)
  /// 0x10: PERFORM SCQL OPERATION (ISO/IEC 7816-4 Table 4).
  public static let performSCQLOperation = Instruction(rawValue: 0x10)
  /// 0x12: PERFORM TRANSACTION OPERATION (ISO/IEC 7816-4 Table 4).
  public static let performTransactionOperation = Instruction(rawValue: 0x12)
  /// 0x14: PERFORM USER OPERATION (ISO/IEC 7816-4 Table 4).
  public static let performUserOperation = Instruction(rawValue: 0x14)
  /// 0x20: VERIFY (ISO/IEC 7816-4 Table 4).
  public static let verify = Instruction(rawValue: 0x20)
  /// 0x21: VERIFY (ISO/IEC 7816-4 Table 4, odd INS: BER-TLV data).
  public static let verifyBERTLV = Instruction(rawValue: 0x21)
  /// 0x22: MANAGE SECURITY ENVIRONMENT (ISO/IEC 7816-4 Table 4).
  public static let manageSecurityEnvironment = Instruction(rawValue: 0x22)
  /// 0x24: CHANGE REFERENCE DATA (ISO/IEC 7816-4 Table 4).
  public static let changeReferenceData = Instruction(rawValue: 0x24)
  /// 0x26: DISABLE VERIFICATION REQUIREMENT (ISO/IEC 7816-4 Table 4).
  public static let disableVerificationRequirement = Instruction(rawValue: 0x26)
  /// 0x28: ENABLE VERIFICATION REQUIREMENT (ISO/IEC 7816-4 Table 4).
  public static let enableVerificationRequirement = Instruction(rawValue: 0x28)
  /// 0x2A: PERFORM SECURITY OPERATION (ISO/IEC 7816-4 Table 4).
  public static let performSecurityOperation = Instruction(rawValue: 0x2A)
  /// 0x2C: RESET RETRY COUNTER (ISO/IEC 7816-4 Table 4).
  public static let resetRetryCounter = Instruction(rawValue: 0x2C)
  /// 0x44: ACTIVATE FILE (ISO/IEC 7816-4 Table 4).
  public static let activateFile = Instruction(rawValue: 0x44)
  /// 0x46: GENERATE ASYMMETRIC KEY PAIR (ISO/IEC 7816-4 Table 4).
  public static let generateAsymmetricKeyPair = Instruction(rawValue: 0x46)
  /// 0x70: MANAGE CHANNEL (ISO/IEC 7816-4 Table 4).
  public static let manageChannel = Instruction(rawValue: 0x70)
  /// 0x82: EXTERNAL AUTHENTICATE (ISO/IEC 7816-4 Table 4).
  public static let externalAuthenticate = Instruction(rawValue: 0x82)
  /// 0x84: GET CHALLENGE (ISO/IEC 7816-4 Table 4).
  public static let getChallenge = Instruction(rawValue: 0x84)
  /// 0x86: GENERAL AUTHENTICATE (ISO/IEC 7816-4 Table 4).
  public static let generalAuthenticate = Instruction(rawValue: 0x86)
  /// 0x87: GENERAL AUTHENTICATE (ISO/IEC 7816-4 Table 4, odd INS: BER-TLV data).
  public static let generalAuthenticateBERTLV = Instruction(rawValue: 0x87)
  /// 0x88: INTERNAL AUTHENTICATE (ISO/IEC 7816-4 Table 4).
  public static let internalAuthenticate = Instruction(rawValue: 0x88)
  /// 0xA0: SEARCH BINARY (ISO/IEC 7816-4 Table 4).
  public static let searchBinary = Instruction(rawValue: 0xA0)
  /// 0xA1: SEARCH BINARY (ISO/IEC 7816-4 Table 4, odd INS: BER-TLV data).
  public static let searchBinaryBERTLV = Instruction(rawValue: 0xA1)
  /// 0xA2: SEARCH RECORD (ISO/IEC 7816-4 Table 4).
  public static let searchRecord = Instruction(rawValue: 0xA2)
  /// 0xA4: SELECT (ISO/IEC 7816-4 Table 4).
  public static let select = Instruction(rawValue: 0xA4)
  /// 0xB0: READ BINARY (ISO/IEC 7816-4 Table 4).
  public static let readBinary = Instruction(rawValue: 0xB0)
  /// 0xB1: READ BINARY (ISO/IEC 7816-4 Table 4, odd INS: BER-TLV data).
  public static let readBinaryBERTLV = Instruction(rawValue: 0xB1)
  /// 0xB2: READ RECORD(S) (ISO/IEC 7816-4 Table 4).
  public static let readRecord = Instruction(rawValue: 0xB2)
  /// 0xB3: READ RECORD(S) (ISO/IEC 7816-4 Table 4, odd INS: BER-TLV data).
  public static let readRecordBERTLV = Instruction(rawValue: 0xB3)
  /// 0xC0: GET RESPONSE (ISO/IEC 7816-4 Table 4).
  public static let getResponse = Instruction(rawValue: 0xC0)
  /// 0xC2: ENVELOPE (ISO/IEC 7816-4 Table 4).
  public static let envelope = Instruction(rawValue: 0xC2)
  /// 0xC3: ENVELOPE (ISO/IEC 7816-4 Table 4, odd INS: BER-TLV data).
  public static let envelopeBERTLV = Instruction(rawValue: 0xC3)
  /// 0xCA: GET DATA (ISO/IEC 7816-4 Table 4).
  public static let getData = Instruction(rawValue: 0xCA)
  /// 0xCB: GET DATA (ISO/IEC 7816-4 Table 4, odd INS: BER-TLV data).
  public static let getDataBERTLV = Instruction(rawValue: 0xCB)
  /// 0xD0: WRITE BINARY (ISO/IEC 7816-4 Table 4).
  public static let writeBinary = Instruction(rawValue: 0xD0)
  /// 0xD1: WRITE BINARY (ISO/IEC 7816-4 Table 4, odd INS: BER-TLV data).
  public static let writeBinaryBERTLV = Instruction(rawValue: 0xD1)
  /// 0xD2: WRITE RECORD (ISO/IEC 7816-4 Table 4).
  public static let writeRecord = Instruction(rawValue: 0xD2)
  /// 0xD6: UPDATE BINARY (ISO/IEC 7816-4 Table 4).
  public static let updateBinary = Instruction(rawValue: 0xD6)
  /// 0xD7: UPDATE BINARY (ISO/IEC 7816-4 Table 4, odd INS: BER-TLV data).
  public static let updateBinaryBERTLV = Instruction(rawValue: 0xD7)
  /// 0xDA: PUT DATA (ISO/IEC 7816-4 Table 4).
  public static let putData = Instruction(rawValue: 0xDA)
  /// 0xDB: PUT DATA (ISO/IEC 7816-4 Table 4, odd INS: BER-TLV data).
  public static let putDataBERTLV = Instruction(rawValue: 0xDB)
  /// 0xDC: UPDATE RECORD (ISO/IEC 7816-4 Table 4).
  public static let updateRecord = Instruction(rawValue: 0xDC)
  /// 0xDD: UPDATE RECORD (ISO/IEC 7816-4 Table 4, odd INS: BER-TLV data).
  public static let updateRecordBERTLV = Instruction(rawValue: 0xDD)
  /// 0xE0: CREATE FILE (ISO/IEC 7816-4 Table 4).
  public static let createFile = Instruction(rawValue: 0xE0)
  /// 0xE2: APPEND RECORD (ISO/IEC 7816-4 Table 4).
  public static let appendRecord = Instruction(rawValue: 0xE2)
  /// 0xE4: DELETE FILE (ISO/IEC 7816-4 Table 4).
  public static let deleteFile = Instruction(rawValue: 0xE4)
  /// 0xE6: TERMINATE DF (ISO/IEC 7816-4 Table 4).
  public static let terminateDF = Instruction(rawValue: 0xE6)
  /// 0xE8: TERMINATE EF (ISO/IEC 7816-4 Table 4).
  public static let terminateEF = Instruction(rawValue: 0xE8)
  /// 0xFE: TERMINATE CARD USAGE (ISO/IEC 7816-4 Table 4).
  public static let terminateCardUsage = Instruction(rawValue: 0xFE)

  // MARK: GlobalPlatform (under a proprietary class, GP 2.3 Table 11-2)

  /// 0x50: GlobalPlatform INITIALIZE UPDATE (GP Card Specification 2.3 Appendix E, Amendment D).
  public static let gpInitializeUpdate = Instruction(rawValue: 0x50)
  /// 0x82: GlobalPlatform EXTERNAL AUTHENTICATE (GP Card Specification 2.3 Appendix E, Amendment D).
  public static let gpExternalAuthenticate = Instruction(rawValue: 0x82)
  /// 0xCA: GlobalPlatform GET DATA (GP Card Specification 2.3 §11.3).
  public static let gpGetData = Instruction(rawValue: 0xCA)
  /// 0xCB: GlobalPlatform GET DATA (GP Card Specification 2.3 §11.3 (odd INS)).
  public static let gpGetDataOdd = Instruction(rawValue: 0xCB)
  /// 0xD8: GlobalPlatform PUT KEY (GP Card Specification 2.3 §11.8).
  public static let gpPutKey = Instruction(rawValue: 0xD8)
  /// 0xE2: GlobalPlatform STORE DATA (GP Card Specification 2.3 §11.11).
  public static let gpStoreData = Instruction(rawValue: 0xE2)
  /// 0xE4: GlobalPlatform DELETE (GP Card Specification 2.3 §11.2).
  public static let gpDelete = Instruction(rawValue: 0xE4)
  /// 0xE6: GlobalPlatform INSTALL (GP Card Specification 2.3 §11.5).
  public static let gpInstall = Instruction(rawValue: 0xE6)
  /// 0xE8: GlobalPlatform LOAD (GP Card Specification 2.3 §11.6).
  public static let gpLoad = Instruction(rawValue: 0xE8)
  /// 0xF0: GlobalPlatform SET STATUS (GP Card Specification 2.3 §11.10).
  public static let gpSetStatus = Instruction(rawValue: 0xF0)
  /// 0xF2: GlobalPlatform GET STATUS (GP Card Specification 2.3 §11.4).
  public static let gpGetStatus = Instruction(rawValue: 0xF2)
  /// 0x70: GlobalPlatform MANAGE CHANNEL (GP Card Specification 2.3 §11.7).
  public static let gpManageChannel = Instruction(rawValue: 0x70)

  /// The specification name of the command under an interindustry class (e.g. `SELECT`),
  /// or `nil` when Table 7 does not list the value.
  public var interindustryName: String? {
    switch rawValue {
    case 0x04: return "DEACTIVATE FILE"
    case 0x0C: return "ERASE RECORD(S)"
    case 0x0E: return "ERASE BINARY"
    case 0x10: return "PERFORM SCQL OPERATION"
    case 0x12: return "PERFORM TRANSACTION OPERATION"
    case 0x14: return "PERFORM USER OPERATION"
    case 0x20: return "VERIFY"
    case 0x21: return "VERIFY"
    case 0x22: return "MANAGE SECURITY ENVIRONMENT"
    case 0x24: return "CHANGE REFERENCE DATA"
    case 0x26: return "DISABLE VERIFICATION REQUIREMENT"
    case 0x28: return "ENABLE VERIFICATION REQUIREMENT"
    case 0x2A: return "PERFORM SECURITY OPERATION"
    case 0x2C: return "RESET RETRY COUNTER"
    case 0x44: return "ACTIVATE FILE"
    case 0x46: return "GENERATE ASYMMETRIC KEY PAIR"
    case 0x70: return "MANAGE CHANNEL"
    case 0x82: return "EXTERNAL AUTHENTICATE"
    case 0x84: return "GET CHALLENGE"
    case 0x86: return "GENERAL AUTHENTICATE"
    case 0x87: return "GENERAL AUTHENTICATE"
    case 0x88: return "INTERNAL AUTHENTICATE"
    case 0xA0: return "SEARCH BINARY"
    case 0xA1: return "SEARCH BINARY"
    case 0xA2: return "SEARCH RECORD"
    case 0xA4: return "SELECT"
    case 0xB0: return "READ BINARY"
    case 0xB1: return "READ BINARY"
    case 0xB2: return "READ RECORD(S)"
    case 0xB3: return "READ RECORD(S)"
    case 0xC0: return "GET RESPONSE"
    case 0xC2: return "ENVELOPE"
    case 0xC3: return "ENVELOPE"
    case 0xCA: return "GET DATA"
    case 0xCB: return "GET DATA"
    case 0xD0: return "WRITE BINARY"
    case 0xD1: return "WRITE BINARY"
    case 0xD2: return "WRITE RECORD"
    case 0xD6: return "UPDATE BINARY"
    case 0xD7: return "UPDATE BINARY"
    case 0xDA: return "PUT DATA"
    case 0xDB: return "PUT DATA"
    case 0xDC: return "UPDATE RECORD"
    case 0xDD: return "UPDATE RECORD"
    case 0xE0: return "CREATE FILE"
    case 0xE2: return "APPEND RECORD"
    case 0xE4: return "DELETE FILE"
    case 0xE6: return "TERMINATE DF"
    case 0xE8: return "TERMINATE EF"
    case 0xFE: return "TERMINATE CARD USAGE"
    default: return nil
    }
  }

  /// The GlobalPlatform command name under a proprietary class (e.g. `INSTALL`), or `nil`.
  public var globalPlatformName: String? {
    switch rawValue {
    case 0x50: return "INITIALIZE UPDATE"
    case 0x82: return "EXTERNAL AUTHENTICATE"
    case 0xCA: return "GET DATA"
    case 0xCB: return "GET DATA"
    case 0xD8: return "PUT KEY"
    case 0xE2: return "STORE DATA"
    case 0xE4: return "DELETE"
    case 0xE6: return "INSTALL"
    case 0xE8: return "LOAD"
    case 0xF0: return "SET STATUS"
    case 0xF2: return "GET STATUS"
    case 0x70: return "MANAGE CHANNEL"
    default: return nil
    }
  }

  /// The command name for this INS sent with `commandClass` (the JSON contract's
  /// `command`): the interindustry name for interindustry classes, the GlobalPlatform name
  /// for proprietary ones, `nil` when unknown.
  public func commandName(class commandClass: CommandClass) -> String? {
    switch commandClass.kind {
    case .firstInterindustry, .furtherInterindustry: return interindustryName
    case .proprietary: return globalPlatformName
    default: return nil
    }
  }
}
