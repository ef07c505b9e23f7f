// SPDX-License-Identifier: Apache-2.0
/// One file of a ZIP archive as its central directory file header describes it (PKWARE
/// APPNOTE 6.3.10 §4.3.12, §4.4).
public struct ZIPEntry: Sendable, Hashable {
  /// The file name (§4.4.17), as stored (CAP files use ASCII paths with `/`).
  public let name: [UInt8]
  /// The general purpose bit flag (§4.4.4): bit 0 encrypted, bit 3 data descriptor.
  public let flags: UInt16
  /// The compression method (§4.4.5): 0 stored, 8 deflated.
  public let method: UInt16
  /// The CRC-32 of the uncompressed data (§4.4.7).
  public let crc32: UInt32
  /// The compressed size (§4.4.8).
  public let compressedSize: Int
  /// The uncompressed size (§4.4.9).
  public let uncompressedSize: Int
  /// The offset of the local file header in the archive (§4.4.16).
  public let localHeaderOffset: Int
  /// The offset of this entry's central directory file header in the archive.
  public let centralHeaderOffset: Int

  /// Creates an entry.
  public init(
    name: [UInt8], flags: UInt16, method: UInt16, crc32: UInt32, compressedSize: Int,
    uncompressedSize: Int, localHeaderOffset: Int, centralHeaderOffset: Int
  ) {
    self.name = name
    self.flags = flags
    self.method = method
    self.crc32 = crc32
    self.compressedSize = compressedSize
    self.uncompressedSize = uncompressedSize
    self.localHeaderOffset = localHeaderOffset
    self.centralHeaderOffset = centralHeaderOffset
  }

  /// Method 0 (§4.4.5): the data is stored as is.
  public static let stored: UInt16 = 0
  /// Method 8 (§4.4.5): the data is raw DEFLATE (RFC 1951).
  public static let deflated: UInt16 = 8
  /// Flag bit 3 (§4.4.4): CRC-32 and sizes follow the data in a data descriptor (§4.3.9).
  public static let dataDescriptorFlag: UInt16 = 0x0008
  /// Flag bits 0 (encrypted) and 6 (strong encryption) (§4.4.4).
  public static let encryptionFlags: UInt16 = 0x0041
}
