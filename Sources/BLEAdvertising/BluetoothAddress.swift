// SPDX-License-Identifier: Apache-2.0
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
    [40, 32, 24, 16, 8, 0].map { Hex.uppercaseString([UInt8(truncatingIfNeeded: value >> $0)]) }
      .joined(separator: ":")
  }
}
