// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The Attribute Information Block of a Type 3 tag: block 0 of the NDEF system (system
/// code 0x12FC) (T3T 1.0 §7.1).
public struct Type3AttributeInformation: Sendable, Hashable {
  /// Ver: the mapping version (0x10 is 1.0).
  public var version: UInt8
  /// Nbr: the most blocks one CHECK command reads.
  public var blocksPerRead: UInt8
  /// Nbw: the most blocks one UPDATE command writes.
  public var blocksPerWrite: UInt8
  /// Nmaxb: the number of blocks available for NDEF data.
  public var maximumBlocks: Int
  /// WriteFlag: 0x00 OFF, 0x0F ON (a write is in progress).
  public var writeFlag: UInt8
  /// RWFlag: 0x00 read-only, 0x01 read/write.
  public var accessFlag: UInt8
  /// Ln: the NDEF message length in bytes (3 bytes).
  public var ndefLength: Int

  /// The NDEF system code (T3T §7).
  public static let ndefSystemCode: UInt16 = 0x12FC
  /// WriteFlag OFF.
  public static let writeFlagOff: UInt8 = 0x00
  /// WriteFlag ON.
  public static let writeFlagOn: UInt8 = 0x0F
  /// The block size.
  public static let blockSize = 16

  /// Creates an AIB.
  public init(
    version: UInt8 = 0x10, blocksPerRead: UInt8 = 4, blocksPerWrite: UInt8 = 1, maximumBlocks: Int,
    writeFlag: UInt8 = writeFlagOff, accessFlag: UInt8 = 0x01, ndefLength: Int = 0
  ) {
    self.version = version
    self.blocksPerRead = blocksPerRead
    self.blocksPerWrite = blocksPerWrite
    self.maximumBlocks = maximumBlocks
    self.writeFlag = writeFlag
    self.accessFlag = accessFlag
    self.ndefLength = ndefLength
  }

  /// Decodes the 16 bytes of block 0 (the checksum is checked by ``Type3TagView``).
  init(block bytes: RawSpan) {
    func b(_ i: Int) -> Int { Int(bytes.byte(at: i) ?? 0) }
    self.version = UInt8(b(0))
    self.blocksPerRead = UInt8(b(1))
    self.blocksPerWrite = UInt8(b(2))
    self.maximumBlocks = b(3) << 8 | b(4)
    self.writeFlag = UInt8(b(9))
    self.accessFlag = UInt8(b(10))
    self.ndefLength = b(11) << 16 | b(12) << 8 | b(13)
  }

  /// Major version: bits 7-4.
  public var majorVersion: Int { Int(version >> 4) }
  /// Whether the tag may be written (RWFlag 0x01).
  public var isWritable: Bool { accessFlag == 0x01 }
  /// The NDEF data capacity in bytes: Nmaxb × 16.
  public var dataAreaSize: Int { maximumBlocks &* Self.blockSize }

  /// The checksum of bytes 0-13: their sum, as 16 bits (T3T §7.1).
  public static func checksum(_ bytes: [UInt8]) -> UInt16 {
    var sum: UInt16 = 0
    for byte in bytes.prefix(14) { sum &+= UInt16(byte) }
    return sum
  }

  /// The 16 bytes of block 0, checksum included.
  public var bytes: [UInt8] {
    var bytes: [UInt8] = [
      version, blocksPerRead, blocksPerWrite, UInt8(truncatingIfNeeded: maximumBlocks >> 8),
      UInt8(truncatingIfNeeded: maximumBlocks), 0, 0, 0, 0, writeFlag, accessFlag,
      UInt8(truncatingIfNeeded: ndefLength >> 16), UInt8(truncatingIfNeeded: ndefLength >> 8),
      UInt8(truncatingIfNeeded: ndefLength),
    ]
    let sum = Self.checksum(bytes)
    bytes += [UInt8(sum >> 8), UInt8(truncatingIfNeeded: sum)]
    return bytes
  }
}
