// SPDX-License-Identifier: Apache-2.0

/// A PC/SC Part 10 feature tag, as listed by `CM_IOCTL_GET_FEATURE_REQUEST` (PC/SC Part 10
/// §2.2, Table 2-2; the `FEATURE_*` values of pcsc-lite's `reader.h`).
///
/// Unknown tags survive as raw values; ``name`` is nil for them.
public struct ReaderFeature: RawRepresentable, Sendable, Hashable {
  /// The one-byte tag.
  public let rawValue: UInt8
  /// Creates a feature tag.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// `FEATURE_VERIFY_PIN_START` (0x01).
  public static let verifyPINStart = ReaderFeature(rawValue: 0x01)
  /// `FEATURE_VERIFY_PIN_FINISH` (0x02).
  public static let verifyPINFinish = ReaderFeature(rawValue: 0x02)
  /// `FEATURE_MODIFY_PIN_START` (0x03).
  public static let modifyPINStart = ReaderFeature(rawValue: 0x03)
  /// `FEATURE_MODIFY_PIN_FINISH` (0x04).
  public static let modifyPINFinish = ReaderFeature(rawValue: 0x04)
  /// `FEATURE_GET_KEY_PRESSED` (0x05).
  public static let getKeyPressed = ReaderFeature(rawValue: 0x05)
  /// `FEATURE_VERIFY_PIN_DIRECT` (0x06): PIN verification on the reader's keypad.
  public static let verifyPINDirect = ReaderFeature(rawValue: 0x06)
  /// `FEATURE_MODIFY_PIN_DIRECT` (0x07): PIN change on the reader's keypad.
  public static let modifyPINDirect = ReaderFeature(rawValue: 0x07)
  /// `FEATURE_MCT_READER_DIRECT` (0x08).
  public static let mctReaderDirect = ReaderFeature(rawValue: 0x08)
  /// `FEATURE_MCT_UNIVERSAL` (0x09).
  public static let mctUniversal = ReaderFeature(rawValue: 0x09)
  /// `FEATURE_IFD_PIN_PROPERTIES` (0x0A): the reader's PIN properties
  /// (``PINProperties``).
  public static let ifdPINProperties = ReaderFeature(rawValue: 0x0A)
  /// `FEATURE_ABORT` (0x0B).
  public static let abort = ReaderFeature(rawValue: 0x0B)
  /// `FEATURE_SET_SPE_MESSAGE` (0x0C).
  public static let setSPEMessage = ReaderFeature(rawValue: 0x0C)
  /// `FEATURE_VERIFY_PIN_DIRECT_APP_ID` (0x0D).
  public static let verifyPINDirectAppID = ReaderFeature(rawValue: 0x0D)
  /// `FEATURE_MODIFY_PIN_DIRECT_APP_ID` (0x0E).
  public static let modifyPINDirectAppID = ReaderFeature(rawValue: 0x0E)
  /// `FEATURE_WRITE_DISPLAY` (0x0F).
  public static let writeDisplay = ReaderFeature(rawValue: 0x0F)
  /// `FEATURE_GET_KEY` (0x10).
  public static let getKey = ReaderFeature(rawValue: 0x10)
  /// `FEATURE_IFD_DISPLAY_PROPERTIES` (0x11).
  public static let ifdDisplayProperties = ReaderFeature(rawValue: 0x11)
  /// `FEATURE_GET_TLV_PROPERTIES` (0x12): the reader's properties as TLVs
  /// (``TLVProperties``).
  public static let getTLVProperties = ReaderFeature(rawValue: 0x12)
  /// `FEATURE_CCID_ESC_COMMAND` (0x13): the code that sends a vendor escape command.
  public static let ccidEscapeCommand = ReaderFeature(rawValue: 0x13)
  /// `FEATURE_EXECUTE_PACE` (0x20): PACE (PC/SC Part 10 AMD1).
  public static let executePACE = ReaderFeature(rawValue: 0x20)

  /// The `reader.h` name (`FEATURE_VERIFY_PIN_DIRECT`, ...), or nil for a tag it does not define.
  public var name: String? {
    switch rawValue {
    case 0x01: "FEATURE_VERIFY_PIN_START"
    case 0x02: "FEATURE_VERIFY_PIN_FINISH"
    case 0x03: "FEATURE_MODIFY_PIN_START"
    case 0x04: "FEATURE_MODIFY_PIN_FINISH"
    case 0x05: "FEATURE_GET_KEY_PRESSED"
    case 0x06: "FEATURE_VERIFY_PIN_DIRECT"
    case 0x07: "FEATURE_MODIFY_PIN_DIRECT"
    case 0x08: "FEATURE_MCT_READER_DIRECT"
    case 0x09: "FEATURE_MCT_UNIVERSAL"
    case 0x0A: "FEATURE_IFD_PIN_PROPERTIES"
    case 0x0B: "FEATURE_ABORT"
    case 0x0C: "FEATURE_SET_SPE_MESSAGE"
    case 0x0D: "FEATURE_VERIFY_PIN_DIRECT_APP_ID"
    case 0x0E: "FEATURE_MODIFY_PIN_DIRECT_APP_ID"
    case 0x0F: "FEATURE_WRITE_DISPLAY"
    case 0x10: "FEATURE_GET_KEY"
    case 0x11: "FEATURE_IFD_DISPLAY_PROPERTIES"
    case 0x12: "FEATURE_GET_TLV_PROPERTIES"
    case 0x13: "FEATURE_CCID_ESC_COMMAND"
    case 0x20: "FEATURE_EXECUTE_PACE"
    default: nil
    }
  }
}
