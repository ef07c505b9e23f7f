// SPDX-License-Identifier: Apache-2.0
/// Two bytes as four hexadecimal digits, for messages.
func hexPair(_ a: UInt8, _ b: UInt8) -> String {
  let digits = Array("0123456789ABCDEF")
  return String([digits[Int(a >> 4)], digits[Int(a & 15)], digits[Int(b >> 4)], digits[Int(b & 15)]])
}
