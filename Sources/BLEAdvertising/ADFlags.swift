/// The Flags AD data (Core Specification Supplement Part A §1.3).
public struct ADFlags: OptionSet, Sendable, Hashable {
  /// The Flags octet.
  public let rawValue: UInt8
  /// Creates flags from the octet.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Bit 0: LE Limited Discoverable Mode.
  public static let leLimitedDiscoverable = ADFlags(rawValue: 0x01)
  /// Bit 1: LE General Discoverable Mode.
  public static let leGeneralDiscoverable = ADFlags(rawValue: 0x02)
  /// Bit 2: BR/EDR Not Supported.
  public static let brEDRNotSupported = ADFlags(rawValue: 0x04)
  /// Bit 3: Simultaneous LE and BR/EDR to Same Device Capable (Controller).
  public static let simultaneousLEAndBREDRController = ADFlags(rawValue: 0x08)
  /// Bit 4: Previously Used (Simultaneous LE and BR/EDR, Host); reserved since Core 5.3.
  public static let simultaneousLEAndBREDRHost = ADFlags(rawValue: 0x10)
}

/// A company identifier (Bluetooth Assigned Numbers §7.1), as carried by Manufacturer
/// Specific Data.
public struct CompanyIdentifier: RawRepresentable, Sendable, Hashable, Comparable {
  /// The 16-bit identifier.
  public let rawValue: UInt16
  /// Creates an identifier.
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// 0x004C Apple, Inc. (iBeacon layout).
  public static let apple = CompanyIdentifier(rawValue: 0x004C)
  /// 0x00E0 Google.
  public static let google = CompanyIdentifier(rawValue: 0x00E0)
  /// 0xFFFF: reserved by the Bluetooth SIG for internal use and testing, never assigned.
  public static let testing = CompanyIdentifier(rawValue: 0xFFFF)

  /// Orders by the identifier value.
  public static func < (a: CompanyIdentifier, b: CompanyIdentifier) -> Bool {
    a.rawValue < b.rawValue
  }
}

/// The LE Role AD data (Core Specification Supplement Part A §1.17).
public struct LERole: RawRepresentable, Sendable, Hashable {
  /// The LE Role octet.
  public let rawValue: UInt8
  /// Creates a role from its octet.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 0x00 Only Peripheral Role supported.
  public static let peripheralOnly = LERole(rawValue: 0x00)
  /// 0x01 Only Central Role supported.
  public static let centralOnly = LERole(rawValue: 0x01)
  /// 0x02 Peripheral and Central Role supported, Peripheral preferred for connection.
  public static let peripheralPreferred = LERole(rawValue: 0x02)
  /// 0x03 Peripheral and Central Role supported, Central preferred for connection.
  public static let centralPreferred = LERole(rawValue: 0x03)

  /// `peripheralOnly`, `centralOnly`, `peripheralPreferred`, `centralPreferred` or
  /// `reserved`.
  public var name: String {
    switch rawValue {
    case 0: return "peripheralOnly"
    case 1: return "centralOnly"
    case 2: return "peripheralPreferred"
    case 3: return "centralPreferred"
    default: return "reserved"
    }
  }
}

/// The Security Manager Out of Band Flags AD data (Core Specification Supplement Part A
/// §1.7).
public struct SecurityManagerOOBFlags: OptionSet, Sendable, Hashable {
  /// The flags octet.
  public let rawValue: UInt8
  /// Creates flags from the octet.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Bit 0: OOB data present.
  public static let oobDataPresent = SecurityManagerOOBFlags(rawValue: 0x01)
  /// Bit 1: LE supported (Host).
  public static let leSupportedHost = SecurityManagerOOBFlags(rawValue: 0x02)
  /// Bit 2: Simultaneous LE and BR/EDR to Same Device Capable (Host).
  public static let simultaneousLEAndBREDRHost = SecurityManagerOOBFlags(rawValue: 0x04)
  /// Bit 3: Address type (0 public, 1 random).
  public static let randomAddress = SecurityManagerOOBFlags(rawValue: 0x08)
}
