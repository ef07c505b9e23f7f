// SPDX-License-Identifier: Apache-2.0
/// An ordered list of block writes that puts a message into a tag and is safe against
/// tearing: the NDEF length is set to 0 first, then the body is written, then the real
/// length, so a write cut at any step reads back as an empty message or the whole new one
/// (T2T 1.0 §6.4.2, T5T 1.0 §7.4.2, T3T 1.0 §7.4.2 with WriteFlag).
public struct TagWritePlan: Sendable, Hashable {
  /// The block size in bytes.
  public let blockSize: Int
  /// The writes, in the order they must be sent.
  public let writes: [TagWrite]
  /// The image after every write.
  public let finalImage: [UInt8]

  /// Creates a plan.
  public init(blockSize: Int, writes: [TagWrite], finalImage: [UInt8]) {
    self.blockSize = blockSize
    self.writes = writes
    self.finalImage = finalImage
  }

  /// Applies the first `count` writes (all by default) to `image`, as a tag would.
  public func apply(to image: inout [UInt8], count: Int? = nil) {
    let n = min(max(count ?? writes.count, 0), writes.count)
    for write in writes.prefix(n) {
      for (i, byte) in write.bytes.enumerated() where write.offset &+ i < image.count {
        image[write.offset &+ i] = byte
      }
    }
  }

  /// Applies the first `count` writes (all by default) to a caller's buffer holding the
  /// image.
  ///
  /// - Throws: ``NFCTagError/Code/bufferTooSmall`` (offset: the buffer size; nothing
  ///   written) when the buffer is smaller than ``finalImage``.
  public func apply(to image: inout MutableSpan<UInt8>, count: Int? = nil) throws(NFCTagError) {
    guard image.count >= finalImage.count else {
      throw NFCTagError(.bufferTooSmall, offset: image.count)
    }
    let n = min(max(count ?? writes.count, 0), writes.count)
    for write in writes.prefix(n) {
      for (i, byte) in write.bytes.enumerated() { image[write.offset &+ i] = byte }
    }
  }

  /// Builds the plan that goes from `old` through `zero` (the NDEF length set to 0) to
  /// `new`. `commitOffset` is the first length byte, whose block is written first to reach
  /// `zero` and last to reach `new`; `headerOffsets` are the bytes of the zero-length
  /// header, kept until the end.
  static func tearingSafe(
    old: [UInt8], zero: [UInt8], new: [UInt8], blockSize: Int, commitOffset: Int,
    headerOffsets: [Int]
  ) -> TagWritePlan {
    let size = max(blockSize, 1)
    let blockCount = (new.count &+ size &- 1) / size
    // Blocks are compared as slices: only the blocks that are written are copied.
    func block(_ image: [UInt8], _ index: Int) -> ArraySlice<UInt8> {
      let start = index &* size
      let end = min(start &+ size, image.count)
      return image[start..<end]
    }
    let commit = commitOffset / size
    var headerBlocks: [Int] = []
    for offset in headerOffsets where !headerBlocks.contains(offset / size) {
      headerBlocks.append(offset / size)
    }
    if !headerBlocks.contains(commit) { headerBlocks.append(commit) }
    var writes: [TagWrite] = []
    func write(_ image: [UInt8], _ index: Int) {
      writes.append(TagWrite(block: index, offset: index &* size, bytes: Array(block(image, index))))
    }
    // 1: old to zero, the commit block first.
    if block(old, commit) != block(zero, commit) { write(zero, commit) }
    for index in 0..<blockCount where index != commit && block(old, index) != block(zero, index) {
      write(zero, index)
    }
    // 2: the body, header blocks kept at zero.
    for index in 0..<blockCount where !headerBlocks.contains(index) {
      if block(zero, index) != block(new, index) { write(new, index) }
    }
    // 3: the header blocks, the commit block last.
    for index in headerBlocks.sorted() where index != commit {
      if block(zero, index) != block(new, index) { write(new, index) }
    }
    if block(zero, commit) != block(new, commit) { write(new, commit) }
    return TagWritePlan(blockSize: size, writes: writes, finalImage: new)
  }
}
