// SPDX-License-Identifier: Apache-2.0
/// The value of a Memory Control TLV: where reserved bytes are (T1T 1.2 §2.3.3,
/// T2T 1.0 §2.3.3).
public struct TagMemoryControl: Sendable, Hashable {
  /// Position byte: PageAddr (bits 7-4) and ByteOffset (bits 3-0).
  public let position: UInt8
  /// Size byte: the number of reserved bytes (0 means 256).
  public let size: UInt8
  /// Page control byte: BytesPerPage (bits 3-0) as a power of two; bits 7-4 RFU.
  public let pageControl: UInt8

  /// Creates a Memory Control value from its three bytes.
  public init(position: UInt8, size: UInt8, pageControl: UInt8) {
    self.position = position
    self.size = size
    self.pageControl = pageControl
  }

  /// PageAddr: bits 7-4 of the position byte.
  public var pageAddress: Int { Int(position >> 4) }
  /// ByteOffset: bits 3-0 of the position byte.
  public var byteOffset: Int { Int(position & 0x0F) }
  /// The number of reserved bytes (1...256).
  public var byteCount: Int { size == 0 ? 256 : Int(size) }
  /// Bytes per page: 2^(bits 3-0 of the page control byte).
  public var bytesPerPage: Int { 1 << Int(pageControl & 0x0F) }
  /// Absolute byte address of the first reserved byte.
  public var byteAddress: Int { pageAddress &* bytesPerPage &+ byteOffset }
  /// The three value bytes.
  public var bytes: [UInt8] { [position, size, pageControl] }
}
