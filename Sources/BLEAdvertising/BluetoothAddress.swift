import NFCWire

/// A 48-bit Bluetooth device address (Core Vol 2 Part B §1.2, Vol 6 Part B §1.3).
///
/// On the wire (HCI, AD structures, OOB data) the address is sent least significant octet
/// first; ``description`` writes it most significant first, upper case, colon-separated
/// (`AA:BB:CC:DD:EE:FF`), as platforms display it.
public struct BluetoothAddress: Sendable, Hashable, Comparable {
  /// The 48-bit value; the upper 16 bits are always zero.
  public let value: UInt64

  /// The address with this 48-bit value (bits above 48 are dropped).
  public init(_ value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

  /// The address from its six wire octets, least significant first; `nil` unless
  /// `bytes` holds exactly six.
  public init?(littleEndian bytes: RawSpan) {
    guard bytes.byteCount == 6 else { return nil }
    var reader = ByteReader(bytes)
    guard let v = reader.readLittleEndian(UInt64.self, width: 6) else { return nil }
    self.init(v)
  }

  /// Parses `AA:BB:CC:DD:EE:FF` (either case; `-` also accepted as separator).
  public init?(_ text: String) {
    let utf8 = Array(text.utf8)
    guard utf8.count == 17 else { return nil }
    var v: UInt64 = 0
    for (i, c) in utf8.enumerated() {
      if i % 3 == 2 {
        guard c == UInt8(ascii: ":") || c == UInt8(ascii: "-") else { return nil }
        continue
      }
      guard let d = Hex.bytes(String(decoding: [UInt8(ascii: "0"), c], as: UTF8.self))?.first
      else { return nil }
      v = v << 4 | UInt64(d)
    }
    self.init(v)
  }

  /// The six octets as sent on the wire, least significant first.
  public var littleEndianBytes: [UInt8] {
    (0..<6).map { UInt8(truncatingIfNeeded: value >> UInt64($0 * 8)) }
  }

  /// For a random address (Core Vol 6 Part B §1.3.2), its sub-type from the two most
  /// significant bits.
  public var randomAddressKind: RandomAddressKind {
    switch value >> 46 {
    case 0b11: return .staticDevice
    case 0b01: return .resolvablePrivate
    case 0b00: return .nonResolvablePrivate
    default: return .reserved
    }
  }

  /// The sub-type of a random device address (Core Vol 6 Part B §1.3.2).
  public enum RandomAddressKind: Sendable, Hashable {
    /// Top bits 0b11: static device address.
    case staticDevice
    /// Top bits 0b01: resolvable private address.
    case resolvablePrivate
    /// Top bits 0b00: non-resolvable private address.
    case nonResolvablePrivate
    /// Top bits 0b10: reserved.
    case reserved
  }

  /// Orders by the 48-bit value.
  public static func < (a: BluetoothAddress, b: BluetoothAddress) -> Bool { a.value < b.value }
}

extension BluetoothAddress: CustomStringConvertible {
  /// `AA:BB:CC:DD:EE:FF`, most significant octet first, upper case.
  public var description: String {
    let digits = Array("0123456789ABCDEF".utf8)
    var utf8: [UInt8] = []
    utf8.reserveCapacity(17)
    var shift: UInt64 = 40
    while true {
      let b = UInt8(truncatingIfNeeded: value >> shift)
      utf8.append(digits[Int(b >> 4)])
      utf8.append(digits[Int(b & 0x0F)])
      if shift == 0 { break }
      utf8.append(UInt8(ascii: ":"))
      shift -= 8
    }
    return String(decoding: utf8, as: UTF8.self)
  }
}

/// The type of a device address as HCI reports it (Core Vol 4 Part E §7.7.65.2, .13).
public struct BluetoothAddressType: RawRepresentable, Sendable, Hashable {
  /// The Address_Type octet.
  public let rawValue: UInt8
  /// Creates an address type from its octet.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// 0x00 Public Device Address.
  public static let publicDevice = BluetoothAddressType(rawValue: 0x00)
  /// 0x01 Random Device Address.
  public static let randomDevice = BluetoothAddressType(rawValue: 0x01)
  /// 0x02 Public Identity Address (resolved from a resolvable private address).
  public static let publicIdentity = BluetoothAddressType(rawValue: 0x02)
  /// 0x03 Random (static) Identity Address (resolved from a resolvable private address).
  public static let randomIdentity = BluetoothAddressType(rawValue: 0x03)
  /// 0xFF No address provided (anonymous advertisement, extended reports only).
  public static let anonymous = BluetoothAddressType(rawValue: 0xFF)

  /// `public`, `random`, `publicIdentity`, `randomIdentity`, `anonymous` or `unknown`.
  public var name: String {
    switch rawValue {
    case 0x00: return "public"
    case 0x01: return "random"
    case 0x02: return "publicIdentity"
    case 0x03: return "randomIdentity"
    case 0xFF: return "anonymous"
    default: return "unknown"
    }
  }

  /// Whether the address is a random one (types 0x01 and 0x03).
  public var isRandom: Bool { rawValue == 0x01 || rawValue == 0x03 }
}
