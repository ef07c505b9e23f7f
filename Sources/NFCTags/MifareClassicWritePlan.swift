// SPDX-License-Identifier: Apache-2.0
/// An ordered list of MIFARE Classic block writes, each with the sector and key it needs,
/// and the image after all of them.
public struct MifareClassicWritePlan: Sendable, Hashable {
  /// The card.
  public let kind: MifareClassicCardKind
  /// The writes, in the order they must be sent.
  public let writes: [MifareClassicBlockWrite]
  /// The image after every write.
  public let finalImage: [UInt8]

  /// Creates a plan.
  public init(kind: MifareClassicCardKind, writes: [MifareClassicBlockWrite], finalImage: [UInt8]) {
    self.kind = kind
    self.writes = writes
    self.finalImage = finalImage
  }

  /// The same writes as a ``TagWritePlan`` (16-byte blocks), without sectors and keys.
  public var tagWritePlan: TagWritePlan {
    TagWritePlan(blockSize: MifareClassic.blockSize, writes: writes.map(\.write), finalImage: finalImage)
  }

  /// Applies the first `count` writes (all by default) to `image`, as the card would.
  public func apply(to image: inout [UInt8], count: Int? = nil) {
    tagWritePlan.apply(to: &image, count: count)
  }
}
