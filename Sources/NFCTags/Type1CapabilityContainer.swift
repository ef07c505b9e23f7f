// SPDX-License-Identifier: Apache-2.0
/// The capability container of a Type 1 tag: block 1, bytes 8-11 of the image
/// (T1T 1.2 §2.2.1).
public struct Type1CapabilityContainer: Sendable, Hashable {
  /// NMN: the NDEF magic number, 0xE1.
  public var magic: UInt8
  /// VNo: the mapping version (0x10 is 1.0).
  public var version: UInt8
  /// TMS: the tag memory size, (TMS + 1) × 8 bytes.
  public var size: UInt8
  /// RWA: read access (bits 7-4) and write access (bits 3-0; 0x0 granted, 0xF none).
  public var access: UInt8

  /// Creates a CC.
  public init(magic: UInt8 = 0xE1, version: UInt8 = 0x10, size: UInt8, access: UInt8 = 0x00) {
    self.magic = magic
    self.version = version
    self.size = size
    self.access = access
  }

  /// Major version: bits 7-4 of ``version``.
  public var majorVersion: Int { Int(version >> 4) }
  /// The tag memory size in bytes: (TMS + 1) × 8.
  public var memorySize: Int { (Int(size) &+ 1) &* 8 }
  /// Whether the layout is static (TMS 0x0E: 120 bytes) rather than dynamic.
  public var isStatic: Bool { size <= 0x0E }
  /// Whether the CC grants writing (write access 0x0).
  public var isWritable: Bool { access & 0x0F == 0 }
  /// The four bytes.
  public var bytes: [UInt8] { [magic, version, size, access] }
}
