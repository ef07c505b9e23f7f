// SPDX-License-Identifier: Apache-2.0
import NFCReader

/// A PC/SC return code (pcsc-lite `pcsclite.h`, the `SCARD_S_`, `SCARD_E_`, `SCARD_F_`, `SCARD_W_`
/// and `SCARD_P_` values of the PC/SC Workgroup specification part 5), kept as the 32-bit
/// pattern the library returns; unknown values survive and are named by their hex value.
public struct PCSCErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The raw 32-bit value, such as 0x8010000C.
  public var rawValue: UInt32
  /// Creates a code from its raw value.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// `SCARD_S_SUCCESS` (0x00000000).
  public static let success = PCSCErrorCode(rawValue: 0x0000_0000)
  /// `SCARD_F_INTERNAL_ERROR` (0x80100001).
  public static let failureInternalError = PCSCErrorCode(rawValue: 0x8010_0001)
  /// `SCARD_E_CANCELLED` (0x80100002).
  public static let cancelled = PCSCErrorCode(rawValue: 0x8010_0002)
  /// `SCARD_E_INVALID_HANDLE` (0x80100003).
  public static let invalidHandle = PCSCErrorCode(rawValue: 0x8010_0003)
  /// `SCARD_E_INVALID_PARAMETER` (0x80100004).
  public static let invalidParameter = PCSCErrorCode(rawValue: 0x8010_0004)
  /// `SCARD_E_INVALID_TARGET` (0x80100005).
  public static let invalidTarget = PCSCErrorCode(rawValue: 0x8010_0005)
  /// `SCARD_E_NO_MEMORY` (0x80100006).
  public static let noMemory = PCSCErrorCode(rawValue: 0x8010_0006)
  /// `SCARD_F_WAITED_TOO_LONG` (0x80100007).
  public static let failureWaitedTooLong = PCSCErrorCode(rawValue: 0x8010_0007)
  /// `SCARD_E_INSUFFICIENT_BUFFER` (0x80100008).
  public static let insufficientBuffer = PCSCErrorCode(rawValue: 0x8010_0008)
  /// `SCARD_E_UNKNOWN_READER` (0x80100009).
  public static let unknownReader = PCSCErrorCode(rawValue: 0x8010_0009)
  /// `SCARD_E_TIMEOUT` (0x8010000a).
  public static let timeout = PCSCErrorCode(rawValue: 0x8010_000A)
  /// `SCARD_E_SHARING_VIOLATION` (0x8010000b).
  public static let sharingViolation = PCSCErrorCode(rawValue: 0x8010_000B)
  /// `SCARD_E_NO_SMARTCARD` (0x8010000c).
  public static let noSmartCard = PCSCErrorCode(rawValue: 0x8010_000C)
  /// `SCARD_E_UNKNOWN_CARD` (0x8010000d).
  public static let unknownCard = PCSCErrorCode(rawValue: 0x8010_000D)
  /// `SCARD_E_CANT_DISPOSE` (0x8010000e).
  public static let cannotDispose = PCSCErrorCode(rawValue: 0x8010_000E)
  /// `SCARD_E_PROTO_MISMATCH` (0x8010000f).
  public static let protocolMismatch = PCSCErrorCode(rawValue: 0x8010_000F)
  /// `SCARD_E_NOT_READY` (0x80100010).
  public static let notReady = PCSCErrorCode(rawValue: 0x8010_0010)
  /// `SCARD_E_INVALID_VALUE` (0x80100011).
  public static let invalidValue = PCSCErrorCode(rawValue: 0x8010_0011)
  /// `SCARD_E_SYSTEM_CANCELLED` (0x80100012).
  public static let systemCancelled = PCSCErrorCode(rawValue: 0x8010_0012)
  /// `SCARD_F_COMM_ERROR` (0x80100013).
  public static let failureCommunicationError = PCSCErrorCode(rawValue: 0x8010_0013)
  /// `SCARD_F_UNKNOWN_ERROR` (0x80100014).
  public static let failureUnknownError = PCSCErrorCode(rawValue: 0x8010_0014)
  /// `SCARD_E_INVALID_ATR` (0x80100015).
  public static let invalidATR = PCSCErrorCode(rawValue: 0x8010_0015)
  /// `SCARD_E_NOT_TRANSACTED` (0x80100016).
  public static let notTransacted = PCSCErrorCode(rawValue: 0x8010_0016)
  /// `SCARD_E_READER_UNAVAILABLE` (0x80100017).
  public static let readerUnavailable = PCSCErrorCode(rawValue: 0x8010_0017)
  /// `SCARD_P_SHUTDOWN` (0x80100018).
  public static let shutdown = PCSCErrorCode(rawValue: 0x8010_0018)
  /// `SCARD_E_PCI_TOO_SMALL` (0x80100019).
  public static let pciTooSmall = PCSCErrorCode(rawValue: 0x8010_0019)
  /// `SCARD_E_READER_UNSUPPORTED` (0x8010001a).
  public static let readerUnsupported = PCSCErrorCode(rawValue: 0x8010_001A)
  /// `SCARD_E_DUPLICATE_READER` (0x8010001b).
  public static let duplicateReader = PCSCErrorCode(rawValue: 0x8010_001B)
  /// `SCARD_E_CARD_UNSUPPORTED` (0x8010001c).
  public static let cardUnsupported = PCSCErrorCode(rawValue: 0x8010_001C)
  /// `SCARD_E_NO_SERVICE` (0x8010001d).
  public static let noService = PCSCErrorCode(rawValue: 0x8010_001D)
  /// `SCARD_E_SERVICE_STOPPED` (0x8010001e).
  public static let serviceStopped = PCSCErrorCode(rawValue: 0x8010_001E)
  /// `SCARD_E_UNEXPECTED` (0x8010001f); pcsc-lite's `pcsclite.h` gives
  /// `SCARD_E_UNSUPPORTED_FEATURE` the same value (Windows: 0x80100022), and that is what
  /// pcscd answers for a control code or attribute the driver does not support.
  public static let unexpected = PCSCErrorCode(rawValue: 0x8010_001F)
  /// `SCARD_E_UNSUPPORTED_FEATURE` as pcsc-lite defines it: ``unexpected``'s value.
  public static let unsupportedFeature = unexpected
  /// `SCARD_E_ICC_INSTALLATION` (0x80100020).
  public static let iccInstallation = PCSCErrorCode(rawValue: 0x8010_0020)
  /// `SCARD_E_ICC_CREATEORDER` (0x80100021).
  public static let iccCreateOrder = PCSCErrorCode(rawValue: 0x8010_0021)
  /// `SCARD_E_DIR_NOT_FOUND` (0x80100023).
  public static let dirNotFound = PCSCErrorCode(rawValue: 0x8010_0023)
  /// `SCARD_E_FILE_NOT_FOUND` (0x80100024).
  public static let fileNotFound = PCSCErrorCode(rawValue: 0x8010_0024)
  /// `SCARD_E_NO_DIR` (0x80100025).
  public static let noDir = PCSCErrorCode(rawValue: 0x8010_0025)
  /// `SCARD_E_NO_FILE` (0x80100026).
  public static let noFile = PCSCErrorCode(rawValue: 0x8010_0026)
  /// `SCARD_E_NO_ACCESS` (0x80100027).
  public static let noAccess = PCSCErrorCode(rawValue: 0x8010_0027)
  /// `SCARD_E_WRITE_TOO_MANY` (0x80100028).
  public static let writeTooMany = PCSCErrorCode(rawValue: 0x8010_0028)
  /// `SCARD_E_BAD_SEEK` (0x80100029).
  public static let badSeek = PCSCErrorCode(rawValue: 0x8010_0029)
  /// `SCARD_E_INVALID_CHV` (0x8010002a).
  public static let invalidCHV = PCSCErrorCode(rawValue: 0x8010_002A)
  /// `SCARD_E_UNKNOWN_RES_MNG` (0x8010002b).
  public static let unknownResourceManager = PCSCErrorCode(rawValue: 0x8010_002B)
  /// `SCARD_E_NO_SUCH_CERTIFICATE` (0x8010002c).
  public static let noSuchCertificate = PCSCErrorCode(rawValue: 0x8010_002C)
  /// `SCARD_E_CERTIFICATE_UNAVAILABLE` (0x8010002d).
  public static let certificateUnavailable = PCSCErrorCode(rawValue: 0x8010_002D)
  /// `SCARD_E_NO_READERS_AVAILABLE` (0x8010002e).
  public static let noReadersAvailable = PCSCErrorCode(rawValue: 0x8010_002E)
  /// `SCARD_E_COMM_DATA_LOST` (0x8010002f).
  public static let commDataLost = PCSCErrorCode(rawValue: 0x8010_002F)
  /// `SCARD_E_NO_KEY_CONTAINER` (0x80100030).
  public static let noKeyContainer = PCSCErrorCode(rawValue: 0x8010_0030)
  /// `SCARD_E_SERVER_TOO_BUSY` (0x80100031).
  public static let serverTooBusy = PCSCErrorCode(rawValue: 0x8010_0031)
  /// `SCARD_W_UNSUPPORTED_CARD` (0x80100065).
  public static let warningUnsupportedCard = PCSCErrorCode(rawValue: 0x8010_0065)
  /// `SCARD_W_UNRESPONSIVE_CARD` (0x80100066).
  public static let warningUnresponsiveCard = PCSCErrorCode(rawValue: 0x8010_0066)
  /// `SCARD_W_UNPOWERED_CARD` (0x80100067).
  public static let warningUnpoweredCard = PCSCErrorCode(rawValue: 0x8010_0067)
  /// `SCARD_W_RESET_CARD` (0x80100068).
  public static let warningResetCard = PCSCErrorCode(rawValue: 0x8010_0068)
  /// `SCARD_W_REMOVED_CARD` (0x80100069).
  public static let warningRemovedCard = PCSCErrorCode(rawValue: 0x8010_0069)
  /// `SCARD_W_SECURITY_VIOLATION` (0x8010006a).
  public static let warningSecurityViolation = PCSCErrorCode(rawValue: 0x8010_006A)
  /// `SCARD_W_WRONG_CHV` (0x8010006b).
  public static let warningWrongCHV = PCSCErrorCode(rawValue: 0x8010_006B)
  /// `SCARD_W_CHV_BLOCKED` (0x8010006c).
  public static let warningCHVBlocked = PCSCErrorCode(rawValue: 0x8010_006C)
  /// `SCARD_W_EOF` (0x8010006d).
  public static let warningEOF = PCSCErrorCode(rawValue: 0x8010_006D)
  /// `SCARD_W_CANCELLED_BY_USER` (0x8010006e).
  public static let warningCancelledByUser = PCSCErrorCode(rawValue: 0x8010_006E)
  /// `SCARD_W_CARD_NOT_AUTHENTICATED` (0x8010006f).
  public static let warningCardNotAuthenticated = PCSCErrorCode(rawValue: 0x8010_006F)

  /// The macro name, such as `SCARD_E_NO_SMARTCARD`, or `SCARD_0x...` for a value pcsc-lite does not define.
  public var name: String {
    switch self {
    case .success: "SCARD_S_SUCCESS"
    case .failureInternalError: "SCARD_F_INTERNAL_ERROR"
    case .cancelled: "SCARD_E_CANCELLED"
    case .invalidHandle: "SCARD_E_INVALID_HANDLE"
    case .invalidParameter: "SCARD_E_INVALID_PARAMETER"
    case .invalidTarget: "SCARD_E_INVALID_TARGET"
    case .noMemory: "SCARD_E_NO_MEMORY"
    case .failureWaitedTooLong: "SCARD_F_WAITED_TOO_LONG"
    case .insufficientBuffer: "SCARD_E_INSUFFICIENT_BUFFER"
    case .unknownReader: "SCARD_E_UNKNOWN_READER"
    case .timeout: "SCARD_E_TIMEOUT"
    case .sharingViolation: "SCARD_E_SHARING_VIOLATION"
    case .noSmartCard: "SCARD_E_NO_SMARTCARD"
    case .unknownCard: "SCARD_E_UNKNOWN_CARD"
    case .cannotDispose: "SCARD_E_CANT_DISPOSE"
    case .protocolMismatch: "SCARD_E_PROTO_MISMATCH"
    case .notReady: "SCARD_E_NOT_READY"
    case .invalidValue: "SCARD_E_INVALID_VALUE"
    case .systemCancelled: "SCARD_E_SYSTEM_CANCELLED"
    case .failureCommunicationError: "SCARD_F_COMM_ERROR"
    case .failureUnknownError: "SCARD_F_UNKNOWN_ERROR"
    case .invalidATR: "SCARD_E_INVALID_ATR"
    case .notTransacted: "SCARD_E_NOT_TRANSACTED"
    case .readerUnavailable: "SCARD_E_READER_UNAVAILABLE"
    case .shutdown: "SCARD_P_SHUTDOWN"
    case .pciTooSmall: "SCARD_E_PCI_TOO_SMALL"
    case .readerUnsupported: "SCARD_E_READER_UNSUPPORTED"
    case .duplicateReader: "SCARD_E_DUPLICATE_READER"
    case .cardUnsupported: "SCARD_E_CARD_UNSUPPORTED"
    case .noService: "SCARD_E_NO_SERVICE"
    case .serviceStopped: "SCARD_E_SERVICE_STOPPED"
    case .unexpected: "SCARD_E_UNSUPPORTED_FEATURE"
    case .iccInstallation: "SCARD_E_ICC_INSTALLATION"
    case .iccCreateOrder: "SCARD_E_ICC_CREATEORDER"
    case .dirNotFound: "SCARD_E_DIR_NOT_FOUND"
    case .fileNotFound: "SCARD_E_FILE_NOT_FOUND"
    case .noDir: "SCARD_E_NO_DIR"
    case .noFile: "SCARD_E_NO_FILE"
    case .noAccess: "SCARD_E_NO_ACCESS"
    case .writeTooMany: "SCARD_E_WRITE_TOO_MANY"
    case .badSeek: "SCARD_E_BAD_SEEK"
    case .invalidCHV: "SCARD_E_INVALID_CHV"
    case .unknownResourceManager: "SCARD_E_UNKNOWN_RES_MNG"
    case .noSuchCertificate: "SCARD_E_NO_SUCH_CERTIFICATE"
    case .certificateUnavailable: "SCARD_E_CERTIFICATE_UNAVAILABLE"
    case .noReadersAvailable: "SCARD_E_NO_READERS_AVAILABLE"
    case .commDataLost: "SCARD_E_COMM_DATA_LOST"
    case .noKeyContainer: "SCARD_E_NO_KEY_CONTAINER"
    case .serverTooBusy: "SCARD_E_SERVER_TOO_BUSY"
    case .warningUnsupportedCard: "SCARD_W_UNSUPPORTED_CARD"
    case .warningUnresponsiveCard: "SCARD_W_UNRESPONSIVE_CARD"
    case .warningUnpoweredCard: "SCARD_W_UNPOWERED_CARD"
    case .warningResetCard: "SCARD_W_RESET_CARD"
    case .warningRemovedCard: "SCARD_W_REMOVED_CARD"
    case .warningSecurityViolation: "SCARD_W_SECURITY_VIOLATION"
    case .warningWrongCHV: "SCARD_W_WRONG_CHV"
    case .warningCHVBlocked: "SCARD_W_CHV_BLOCKED"
    case .warningEOF: "SCARD_W_EOF"
    case .warningCancelledByUser: "SCARD_W_CANCELLED_BY_USER"
    case .warningCardNotAuthenticated: "SCARD_W_CARD_NOT_AUTHENTICATED"
    default: "SCARD_0x" + String(rawValue, radix: 16, uppercase: true)
    }
  }

  /// The macro name (``name``).
  public var description: String { name }

  /// The transport-agnostic code this PC/SC error stands for: a removed, reset, unpowered or
  /// unresponsive card is `ReaderError.Code.tagLost`; a missing service or reader is
  /// `ReaderError.Code.noReader`; the rest not listed is `ReaderError.Code.deviceFailure`.
  public var readerCode: ReaderError.Code {
    switch self {
    case .cancelled, .systemCancelled: .cancelled
    case .timeout: .timeout
    case .noSmartCard, .warningRemovedCard, .warningResetCard, .warningUnpoweredCard,
      .warningUnresponsiveCard, .commDataLost:
      .tagLost
    case .sharingViolation, .serverTooBusy: .deviceBusy
    case .unknownReader, .noReadersAvailable, .noService, .serviceStopped, .readerUnavailable: .noReader
    case .invalidParameter, .invalidValue, .insufficientBuffer: .invalidArgument
    case .invalidHandle: .sessionEnded
    case .protocolMismatch, .unexpected, .readerUnsupported, .cardUnsupported, .warningUnsupportedCard:
      .unsupportedFeature
    default: .deviceFailure
    }
  }

  /// A `ReaderError` naming this code for `operation` (such as `SCardTransmit`);
  /// `ReaderError.transportCode` holds the 32-bit pattern.
  public func error(_ operation: String, _ detail: String = "") -> ReaderError {
    ReaderError(
      readerCode, "\(operation) failed" + (detail.isEmpty ? "" : ": \(detail)"),
      transportCode: Int32(bitPattern: rawValue), transportCodeName: name)
  }
}
