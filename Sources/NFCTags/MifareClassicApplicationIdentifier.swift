// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A MAD application identifier: a function cluster code and an application code, stored
/// on the card application code first (AN10787 §3.10). NDEF is `03 E1`: application code
/// 0x03 in function cluster 0xE1 (AN1304 §6.2).
public struct MifareClassicApplicationIdentifier: RawRepresentable, Sendable, Hashable,
  CustomStringConvertible
{
  /// `functionCluster << 8 | applicationCode` (the two card bytes read little-endian).
  public let rawValue: UInt16
  /// Wraps a raw value.
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// Creates an identifier from its codes.
  public init(functionCluster: UInt8, applicationCode: UInt8) {
    self.rawValue = UInt16(functionCluster) << 8 | UInt16(applicationCode)
  }

  /// The function cluster code (the card's second byte).
  public var functionCluster: UInt8 { UInt8(truncatingIfNeeded: rawValue >> 8) }
  /// The application code (the card's first byte).
  public var applicationCode: UInt8 { UInt8(truncatingIfNeeded: rawValue) }
  /// The two bytes as stored in the MAD: application code, function cluster code.
  public var cardBytes: [UInt8] { [applicationCode, functionCluster] }

  /// `00 00`: the sector is free (AN10787 §3.10 administration codes).
  public static let free = MifareClassicApplicationIdentifier(rawValue: 0x0000)
  /// `01 00`: the sector is defect.
  public static let defect = MifareClassicApplicationIdentifier(rawValue: 0x0001)
  /// `02 00`: the sector is reserved.
  public static let reserved = MifareClassicApplicationIdentifier(rawValue: 0x0002)
  /// `03 00`: the sector holds additional directory information.
  public static let additionalDirectory = MifareClassicApplicationIdentifier(rawValue: 0x0003)
  /// `04 00`: the sector holds card holder information.
  public static let cardHolder = MifareClassicApplicationIdentifier(rawValue: 0x0004)
  /// `05 00`: not applicable (the sector does not exist on this card).
  public static let notApplicable = MifareClassicApplicationIdentifier(rawValue: 0x0005)
  /// `03 E1`: an NFC Forum NDEF sector (AN1304 §6.2).
  public static let ndef = MifareClassicApplicationIdentifier(rawValue: 0xE103)

  /// `free`, `defect`, `reserved`, `additionalDirectory`, `cardHolder`, `notApplicable`,
  /// `ndef`, or `application` for any other identifier (the JSON contract's names).
  public var name: String {
    switch rawValue {
    case 0x0000: return "free"
    case 0x0001: return "defect"
    case 0x0002: return "reserved"
    case 0x0003: return "additionalDirectory"
    case 0x0004: return "cardHolder"
    case 0x0005: return "notApplicable"
    case 0xE103: return "ndef"
    default: return "application"
    }
  }

  /// The card bytes in hex, e.g. `03e1`.
  public var description: String { Hex.string(cardBytes) }
}
