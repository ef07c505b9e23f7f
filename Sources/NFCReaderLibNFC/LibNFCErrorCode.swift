// SPDX-License-Identifier: Apache-2.0
import NFCReader

/// A libnfc 1.8 error code (`nfc.h`, `NFC_E...`), negative as libnfc returns it.
public struct LibNFCErrorCode: RawRepresentable, Sendable, Hashable {
  /// The raw (negative) value.
  public var rawValue: Int32
  /// Creates a code from its raw value.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// `NFC_EIO`: input/output error (the device went away or answered garbage).
  public static let io = LibNFCErrorCode(rawValue: -1)
  /// `NFC_EINVARG`: invalid argument.
  public static let invalidArgument = LibNFCErrorCode(rawValue: -2)
  /// `NFC_EDEVNOTSUPP`: operation not supported by the device.
  public static let deviceNotSupported = LibNFCErrorCode(rawValue: -3)
  /// `NFC_ENOTSUCHDEV`: no such device.
  public static let noSuchDevice = LibNFCErrorCode(rawValue: -4)
  /// `NFC_EOVFLOW`: buffer overflow.
  public static let overflow = LibNFCErrorCode(rawValue: -5)
  /// `NFC_ETIMEOUT`: operation timed out.
  public static let timeout = LibNFCErrorCode(rawValue: -6)
  /// `NFC_EOPABORTED`: operation aborted (by `nfc_abort_command`).
  public static let aborted = LibNFCErrorCode(rawValue: -7)
  /// `NFC_ENOTIMPL`: not (yet) implemented.
  public static let notImplemented = LibNFCErrorCode(rawValue: -8)
  /// `NFC_ETGRELEASED`: target released.
  public static let targetReleased = LibNFCErrorCode(rawValue: -10)
  /// `NFC_ERFTRANS`: error in the RF transmission (the tag did not answer or NAKed).
  public static let rfTransmission = LibNFCErrorCode(rawValue: -20)
  /// `NFC_EMFCAUTHFAIL`: MIFARE Classic authentication failed.
  public static let mifareAuthentication = LibNFCErrorCode(rawValue: -30)
  /// `NFC_ESOFT`: software error (allocation, system call).
  public static let software = LibNFCErrorCode(rawValue: -80)
  /// `NFC_ECHIP`: the device's chip reported an error.
  public static let chip = LibNFCErrorCode(rawValue: -90)

  /// The libnfc macro name, such as `NFC_ETIMEOUT`.
  public var name: String {
    switch self {
    case .io: "NFC_EIO"
    case .invalidArgument: "NFC_EINVARG"
    case .deviceNotSupported: "NFC_EDEVNOTSUPP"
    case .noSuchDevice: "NFC_ENOTSUCHDEV"
    case .overflow: "NFC_EOVFLOW"
    case .timeout: "NFC_ETIMEOUT"
    case .aborted: "NFC_EOPABORTED"
    case .notImplemented: "NFC_ENOTIMPL"
    case .targetReleased: "NFC_ETGRELEASED"
    case .rfTransmission: "NFC_ERFTRANS"
    case .mifareAuthentication: "NFC_EMFCAUTHFAIL"
    case .software: "NFC_ESOFT"
    case .chip: "NFC_ECHIP"
    default: "NFC_E\(rawValue)"
    }
  }

  /// The transport-agnostic code this libnfc error stands for. `NFC_ERFTRANS` is refined by
  /// the reader into `ReaderError.Code.tagLost` or `ReaderError.Code.tagError`
  /// depending on whether the tag still answers a select.
  public var readerCode: ReaderError.Code {
    switch self {
    case .io, .software, .chip: .deviceFailure
    case .invalidArgument: .invalidArgument
    case .deviceNotSupported, .notImplemented: .unsupportedFeature
    case .noSuchDevice: .noReader
    case .overflow, .mifareAuthentication: .tagError
    case .timeout: .timeout
    case .aborted: .cancelled
    case .targetReleased, .rfTransmission: .tagLost
    default: .deviceFailure
    }
  }

  /// A `ReaderError` naming this code, for `operation` (such as `nfc_initiator_transceive_bytes`).
  public func error(_ operation: String, _ detail: String = "") -> ReaderError {
    ReaderError(
      readerCode, "\(operation) failed" + (detail.isEmpty ? "" : ": \(detail)"), transportCode: rawValue,
      transportCodeName: name)
  }
}
