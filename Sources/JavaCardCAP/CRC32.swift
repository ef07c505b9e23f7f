// SPDX-License-Identifier: Apache-2.0
/// The CRC-32 of ZIP entries (PKWARE APPNOTE 6.3.10 §4.4.7): ISO 3309 / ITU-T V.42, reflected
/// polynomial EDB88320, initial value and final XOR FFFFFFFF. `CRC32.checksum("123456789")`
/// is CBF43926.
public struct CRC32: Sendable, Hashable {
  /// The running register (before the final XOR).
  private var register: UInt32 = 0xFFFF_FFFF

  /// The reflected generator polynomial 04C11DB7.
  private static let polynomial: UInt32 = 0xEDB8_8320

  /// A checksum over no bytes yet.
  public init() {}

  /// Adds `bytes` to the checksum.
  public mutating func update(_ bytes: [UInt8]) {
    var crc = register
    for byte in bytes {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = (crc >> 1) ^ (Self.polynomial & (0 &- (crc & 1))) }
    }
    register = crc
  }

  /// The checksum of the bytes added so far.
  public var value: UInt32 { register ^ 0xFFFF_FFFF }

  /// The checksum of `bytes`.
  public static func checksum(_ bytes: [UInt8]) -> UInt32 {
    var crc = CRC32()
    crc.update(bytes)
    return crc.value
  }
}
