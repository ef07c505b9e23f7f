// SPDX-License-Identifier: Apache-2.0
/// A run of tag memory that is not part of the TLV data: lock bytes or reserved bytes
/// (T1T 1.2 §2.2, T2T 1.0 §2.2), skipped when the data area is read and written.
public struct TagMemoryArea: Sendable, Hashable {
  /// What the bytes are for.
  public struct Kind: RawRepresentable, Sendable, Hashable {
    /// 0 lock bytes, 1 reserved bytes.
    public let rawValue: UInt8
    /// Wraps a raw kind.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Dynamic (or static) lock bits.
    public static let lock = Kind(rawValue: 0)
    /// Reserved bytes (Memory Control TLV, or a layout's fixed reserved block).
    public static let reserved = Kind(rawValue: 1)
    /// `lock` or `reserved`.
    public var name: String { rawValue == 0 ? "lock" : "reserved" }
  }

  /// Lock or reserved.
  public let kind: Kind
  /// Absolute offset of the first byte in the image.
  public let offset: Int
  /// The number of bytes.
  public let length: Int
  /// For lock areas, the number of lock bits (0 for reserved areas).
  public let bitCount: Int
  /// For lock areas, how many data bytes each bit locks (0 for reserved areas).
  public let bytesLockedPerBit: Int

  /// Creates an area.
  public init(kind: Kind, offset: Int, length: Int, bitCount: Int = 0, bytesLockedPerBit: Int = 0) {
    self.kind = kind
    self.offset = offset
    self.length = length
    self.bitCount = bitCount
    self.bytesLockedPerBit = bytesLockedPerBit
  }

  /// The offset after the last byte.
  public var end: Int { offset &+ length }
}
