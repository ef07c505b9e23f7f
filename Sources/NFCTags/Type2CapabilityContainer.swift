// SPDX-License-Identifier: Apache-2.0
/// The capability container of a Type 2 tag: page 3, bytes 12-15 of the image
/// (T2T 1.0 §6.1).
public struct Type2CapabilityContainer: Sendable, Hashable {
  /// Byte 0: the NDEF magic number, 0xE1.
  public var magic: UInt8
  /// Byte 1: the mapping version, major in bits 7-4 and minor in bits 3-0 (0x10 is 1.0).
  public var version: UInt8
  /// Byte 2: the data area size divided by 8.
  public var size: UInt8
  /// Byte 3: read access (bits 7-4, 0x0 granted) and write access (bits 3-0, 0x0 granted,
  /// 0xF none).
  public var access: UInt8

  /// The NDEF magic number (T2T §6.1).
  public static let ndefMagic: UInt8 = 0xE1
  /// Version 1.0.
  public static let version10: UInt8 = 0x10

  /// Creates a capability container.
  public init(magic: UInt8 = ndefMagic, version: UInt8 = version10, size: UInt8, access: UInt8 = 0x00) {
    self.magic = magic
    self.version = version
    self.size = size
    self.access = access
  }

  /// Major version: bits 7-4 of ``version``.
  public var majorVersion: Int { Int(version >> 4) }
  /// Minor version: bits 3-0 of ``version``.
  public var minorVersion: Int { Int(version & 0x0F) }
  /// The data area size in bytes: ``size`` × 8.
  public var dataAreaSize: Int { Int(size) &* 8 }
  /// Read access condition: bits 7-4 of ``access``.
  public var readAccess: UInt8 { access >> 4 }
  /// Write access condition: bits 3-0 of ``access``.
  public var writeAccess: UInt8 { access & 0x0F }
  /// Whether the CC grants writing (write access 0x0).
  public var isWritable: Bool { writeAccess == 0x0 }
  /// The four bytes.
  public var bytes: [UInt8] { [magic, version, size, access] }
}
