// SPDX-License-Identifier: Apache-2.0
/// The value of a Lock Control TLV: where the dynamic lock bits are and what each locks
/// (T1T 1.2 §2.3.2, T2T 1.0 §2.3.2).
public struct TagLockControl: Sendable, Hashable {
  /// Position byte: PageAddr (bits 7-4) and ByteOffset (bits 3-0).
  public let position: UInt8
  /// Size byte: the number of dynamic lock bits (0 means 256).
  public let size: UInt8
  /// Page control byte: BytesLockedPerLockBit (bits 7-4) and BytesPerPage (bits 3-0), as
  /// powers of two.
  public let pageControl: UInt8

  /// Creates a Lock Control value from its three bytes.
  public init(position: UInt8, size: UInt8, pageControl: UInt8) {
    self.position = position
    self.size = size
    self.pageControl = pageControl
  }

  /// PageAddr: bits 7-4 of the position byte.
  public var pageAddress: Int { Int(position >> 4) }
  /// ByteOffset: bits 3-0 of the position byte.
  public var byteOffset: Int { Int(position & 0x0F) }
  /// The number of lock bits (1...256).
  public var bitCount: Int { size == 0 ? 256 : Int(size) }
  /// Bytes per page: 2^(bits 3-0 of the page control byte).
  public var bytesPerPage: Int { 1 << Int(pageControl & 0x0F) }
  /// Bytes each lock bit locks: 2^(bits 7-4 of the page control byte).
  public var bytesLockedPerBit: Int { 1 << Int(pageControl >> 4) }
  /// Absolute byte address of the first lock byte: PageAddr × BytesPerPage + ByteOffset.
  public var byteAddress: Int { pageAddress &* bytesPerPage &+ byteOffset }
  /// The number of bytes holding the lock bits: ⌈bitCount / 8⌉.
  public var byteCount: Int { (bitCount &+ 7) / 8 }
  /// The three value bytes.
  public var bytes: [UInt8] { [position, size, pageControl] }
}
