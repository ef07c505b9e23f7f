// SPDX-License-Identifier: Apache-2.0
/// CRC_A of ISO/IEC 14443-3 (6.2.4, Annex B): initial value 0x6363, reflected polynomial
/// x^16 + x^12 + x^5 + 1, transmitted least significant byte first.
public func crcA(_ bytes: some Sequence<UInt8>) -> [UInt8] {
  var crc: UInt16 = 0x6363
  for byte in bytes {
    var b = byte ^ UInt8(truncatingIfNeeded: crc)
    b ^= b << 4
    crc = (crc >> 8) ^ (UInt16(b) << 8) ^ (UInt16(b) << 3) ^ (UInt16(b) >> 4)
  }
  return [UInt8(truncatingIfNeeded: crc), UInt8(truncatingIfNeeded: crc >> 8)]
}
