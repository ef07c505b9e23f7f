// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A Bluetooth UUID: a 128-bit UUID, of which 16- and 32-bit UUIDs are shorthands on the
/// Bluetooth Base UUID `00000000-0000-1000-8000-00805F9B34FB` (Core Vol 3 Part B §2.5.1).
///
/// Two UUIDs are equal when their 128-bit values are, whatever width they were sent in.
/// ``description`` is the full 128-bit lowercase form the JSON contract uses.
public struct BluetoothUUID: Sendable, Hashable, Comparable {
  /// The most significant 64 bits.
  public let high: UInt64
  /// The least significant 64 bits.
  public let low: UInt64

  /// High half of the Bluetooth Base UUID, without the 32-bit shorthand value.
  @usableFromInline static let baseHigh: UInt64 = 0x0000_0000_0000_1000
  /// Low half of the Bluetooth Base UUID.
  @usableFromInline static let baseLow: UInt64 = 0x8000_0080_5F9B_34FB

  /// A UUID from its two 64-bit halves.
  @inlinable public init(high: UInt64, low: UInt64) {
    self.high = high
    self.low = low
  }

  /// A 16-bit UUID on the Base UUID (Core Vol 3 Part B §2.5.1).
  @inlinable public init(uuid16: UInt16) { self.init(uuid32: UInt32(uuid16)) }

  /// A 32-bit UUID on the Base UUID (Core Vol 3 Part B §2.5.1).
  @inlinable public init(uuid32: UInt32) {
    self.init(high: UInt64(uuid32) << 32 | Self.baseHigh, low: Self.baseLow)
  }

  /// The UUID sent little-endian in `bytes` (2, 4 or 16 octets, as in AD structures);
  /// `nil` for any other length.
  @inlinable public init?(littleEndian bytes: RawSpan) {
    var reader = ByteReader(bytes)
    switch bytes.byteCount {
    case 2:
      guard let value = reader.readUInt16LE() else { return nil }
      self.init(uuid16: value)
    case 4:
      guard let value = reader.readUInt32LE() else { return nil }
      self.init(uuid32: value)
    case 16:
      guard let low = reader.readLittleEndian(UInt64.self),
        let high = reader.readLittleEndian(UInt64.self)
      else { return nil }
      self.init(high: high, low: low)
    default: return nil
    }
  }

  /// The UUID written big-endian in 16 octets (the text order, as in iBeacon).
  public init?(bigEndian bytes: RawSpan) {
    guard bytes.byteCount == 16 else { return nil }
    var reader = ByteReader(bytes)
    guard let high = reader.readBigEndian(UInt64.self), let low = reader.readBigEndian(UInt64.self)
    else { return nil }
    self.init(high: high, low: low)
  }

  /// Parses `xxxx`, `xxxxxxxx` (shorthands) or the 36-character 8-4-4-4-12 form; case
  /// does not matter. `nil` for anything else.
  public init?(_ text: String) {
    var digits: [UInt8] = []
    var index = 0
    let utf8 = Array(text.utf8)
    for c in utf8 {
      if c == UInt8(ascii: "-") {
        guard utf8.count == 36, index == 8 || index == 13 || index == 18 || index == 23
        else { return nil }
        index += 1
        continue
      }
      guard let v = Self.hexValue(c) else { return nil }
      digits.append(v)
      index += 1
    }
    var value: (UInt64, UInt64) = (0, 0)
    for (i, d) in digits.enumerated() {
      if digits.count == 32 {
        if i < 16 { value.0 = value.0 << 4 | UInt64(d) } else { value.1 = value.1 << 4 | UInt64(d) }
      } else {
        value.0 = value.0 << 4 | UInt64(d)
      }
    }
    switch (digits.count, utf8.count) {
    case (4, 4): self.init(uuid16: UInt16(truncatingIfNeeded: value.0))
    case (8, 8): self.init(uuid32: UInt32(truncatingIfNeeded: value.0))
    case (32, 36): self.init(high: value.0, low: value.1)
    default: return nil
    }
  }

  private static func hexValue(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c &- UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c &- UInt8(ascii: "a") &+ 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c &- UInt8(ascii: "A") &+ 10
    default: return nil
    }
  }

  /// Whether the UUID lies on the Base UUID, so a 32-bit (or 16-bit) form exists.
  public var isOnBase: Bool { low == Self.baseLow && high & 0xFFFF_FFFF == Self.baseHigh }

  /// The 16-bit shorthand, when the UUID has one.
  public var uuid16: UInt16? {
    guard let value = uuid32, value <= 0xFFFF else { return nil }
    return UInt16(value)
  }

  /// The 32-bit shorthand, when the UUID lies on the Base UUID.
  public var uuid32: UInt32? { isOnBase ? UInt32(truncatingIfNeeded: high >> 32) : nil }

  /// The shortest width the UUID can be sent in: 2, 4 or 16 octets.
  public var shortestWidth: Int { uuid16 != nil ? 2 : (uuid32 != nil ? 4 : 16) }

  /// The 16 octets, most significant first (text order).
  public var bigEndianBytes: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(16)
    for shift in stride(from: 56, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: high >> UInt64(shift)))
    }
    for shift in stride(from: 56, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: low >> UInt64(shift)))
    }
    return bytes
  }

  /// The UUID little-endian in `width` octets (2, 4 or 16) as AD structures send it;
  /// `nil` when the UUID has no form of that width.
  public func littleEndianBytes(width: Int) -> [UInt8]? {
    switch width {
    case 2:
      guard let v = uuid16 else { return nil }
      return [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
    case 4:
      guard let v = uuid32 else { return nil }
      return (0..<4).map { UInt8(truncatingIfNeeded: v >> UInt32($0 * 8)) }
    case 16: return bigEndianBytes.reversed()
    default: return nil
    }
  }

  /// Orders by the 128-bit value.
  public static func < (a: BluetoothUUID, b: BluetoothUUID) -> Bool {
    (a.high, a.low) < (b.high, b.low)
  }
}

extension BluetoothUUID: CustomStringConvertible {
  /// The full 128-bit lowercase form, e.g. `0000180f-0000-1000-8000-00805f9b34fb`.
  public var description: String {
    let hex = Hex.string(bigEndianBytes)
    var utf8: [UInt8] = []
    utf8.reserveCapacity(36)
    for (i, c) in hex.utf8.enumerated() {
      if i == 8 || i == 12 || i == 16 || i == 20 { utf8.append(UInt8(ascii: "-")) }
      utf8.append(c)
    }
    return String(decoding: utf8, as: UTF8.self)
  }
}
