// SPDX-License-Identifier: Apache-2.0
/// The capability container of a Type 5 tag: block 0 (4 bytes) or blocks 0-1 (8 bytes)
/// (T5T 1.0 §4.3.1).
public struct Type5CapabilityContainer: Sendable, Hashable {
  /// Byte 0: 0xE1 (1-byte block addresses) or 0xE2 (2-byte block addresses).
  public var magic: UInt8
  /// Byte 1: major version (bits 7-6), minor version (bits 5-4), read access (bits 3-2)
  /// and write access (bits 1-0).
  public var versionAndAccess: UInt8
  /// MLEN: the T5T area size in 8-byte units (byte 2, or bytes 6-7 of an 8-byte CC).
  public var mlen: Int
  /// Byte 3: feature bits (b0 Read Multiple Blocks, b2 Lock Block, b3 special frame).
  public var features: UInt8
  /// Whether the CC is 8 bytes long (byte 2 is 0, MLEN in bytes 6-7).
  public var isEightBytes: Bool

  /// 0xE1: the magic number for 1-byte block addresses.
  public static let magic1ByteAddress: UInt8 = 0xE1
  /// 0xE2: the magic number for 2-byte block addresses.
  public static let magic2ByteAddress: UInt8 = 0xE2
  /// Version 1.0, read and write access granted.
  public static let version10: UInt8 = 0x40

  /// Creates a CC.
  public init(
    magic: UInt8 = magic1ByteAddress, versionAndAccess: UInt8 = version10, mlen: Int, features: UInt8 = 0x01,
    isEightBytes: Bool = false
  ) {
    self.magic = magic
    self.versionAndAccess = versionAndAccess
    self.mlen = mlen
    self.features = features
    self.isEightBytes = isEightBytes
  }

  /// The CC length in bytes: 4 or 8.
  public var byteCount: Int { isEightBytes ? 8 : 4 }
  /// Major version: bits 7-6 of byte 1.
  public var majorVersion: Int { Int(versionAndAccess >> 6) }
  /// Minor version: bits 5-4 of byte 1.
  public var minorVersion: Int { Int((versionAndAccess >> 4) & 0x03) }
  /// Read access: bits 3-2 of byte 1 (0b00 always).
  public var readAccess: UInt8 { (versionAndAccess >> 2) & 0x03 }
  /// Write access: bits 1-0 of byte 1 (0b00 always, 0b11 never, 0b10 proprietary).
  public var writeAccess: UInt8 { versionAndAccess & 0x03 }
  /// Whether writing is granted.
  public var isWritable: Bool { writeAccess == 0x00 }
  /// The T5T area size in bytes: MLEN × 8.
  public var dataAreaSize: Int { mlen &* 8 }
  /// Feature b0: the tag supports READ MULTIPLE BLOCKS.
  public var supportsMultipleBlockRead: Bool { features & 0x01 != 0 }
  /// Feature b2: the tag supports LOCK BLOCK.
  public var supportsLockBlock: Bool { features & 0x04 != 0 }
  /// Feature b3: the tag needs the special frame format for writes.
  public var requiresSpecialFrame: Bool { features & 0x08 != 0 }

  /// The CC bytes.
  public var bytes: [UInt8] {
    guard isEightBytes else { return [magic, versionAndAccess, UInt8(truncatingIfNeeded: mlen), features] }
    return [
      magic, versionAndAccess, 0x00, features, 0x00, 0x00, UInt8(truncatingIfNeeded: mlen >> 8),
      UInt8(truncatingIfNeeded: mlen),
    ]
  }
}
