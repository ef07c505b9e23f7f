// SPDX-License-Identifier: Apache-2.0
/// One component of a CAP file: its whole file, `tag u1 | size u2 | info[size]` (Java Card
/// Virtual Machine Specification 3.0.5 §6.1), as the load file data block carries it.
public struct CAPComponent: Sendable, Hashable {
  /// The component's tag (its first byte).
  public let tag: CAPComponentTag
  /// The whole component file: tag, size and info.
  public let bytes: [UInt8]
  /// The ZIP entry's name it was read from.
  public let entryName: [UInt8]

  /// Checks a component file's tag and size field (§6.1).
  ///
  /// - Throws: ``CAPFileError`` with `component` `tag`: ``CAPFileError/Code/truncatedComponent``
  ///   (fewer than 3 bytes), ``CAPFileError/Code/componentTagMismatch`` (offset 0),
  ///   ``CAPFileError/Code/componentSizeMismatch`` (offset 1).
  public init(tag: CAPComponentTag, bytes: [UInt8], entryName: [UInt8] = []) throws(CAPFileError) {
    guard bytes.count >= 3 else {
      throw CAPFileError(.truncatedComponent, offset: bytes.count, component: tag)
    }
    guard bytes[0] == tag.rawValue else {
      throw CAPFileError(.componentTagMismatch, offset: 0, component: tag)
    }
    guard Int(bytes[1]) << 8 | Int(bytes[2]) == bytes.count - 3 else {
      throw CAPFileError(.componentSizeMismatch, offset: 1, component: tag)
    }
    self.tag = tag
    self.bytes = bytes
    self.entryName = entryName
  }

  /// The `info` bytes after tag and size.
  public var info: ArraySlice<UInt8> { bytes[3...] }
}
