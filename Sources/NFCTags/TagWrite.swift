// SPDX-License-Identifier: Apache-2.0
/// One block (or page) write: the bytes of a whole block at a block number.
public struct TagWrite: Sendable, Hashable {
  /// The block (T1T 8-byte block, T2T page, T3T block, T5T block) number.
  public let block: Int
  /// Absolute offset of the block's first byte in the image.
  public let offset: Int
  /// The block's new bytes (the block size).
  public let bytes: [UInt8]

  /// Creates a write.
  public init(block: Int, offset: Int, bytes: [UInt8]) {
    self.block = block
    self.offset = offset
    self.bytes = bytes
  }
}
