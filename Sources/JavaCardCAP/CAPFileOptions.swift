// SPDX-License-Identifier: Apache-2.0
/// Bounds for reading a CAP file: what a hostile ZIP may make the reader do.
public struct CAPFileOptions: Sendable, Hashable {
  /// The most central directory entries read (every file of the archive counts). Default 1024.
  public var maximumEntryCount: Int
  /// The largest uncompressed size of an entry that is extracted, checked on the declared
  /// size before inflating and enforced while inflating. Default 65538: a component's `size`
  /// is a u2 after a one-byte tag and the u2 itself (JCVM 3.0.5 §6.1), so no valid component
  /// file is larger.
  public var maximumEntrySize: Int

  /// Options with the given bounds.
  public init(maximumEntryCount: Int = 1024, maximumEntrySize: Int = 65538) {
    self.maximumEntryCount = maximumEntryCount
    self.maximumEntrySize = maximumEntrySize
  }
}
