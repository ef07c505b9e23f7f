// SPDX-License-Identifier: Apache-2.0
import GlobalPlatformCryptoOpenSSL

@testable import TagTrust

/// The libcrypto provider every test checks with.
let crypto: OpenSSLTagTrustCrypto = {
  do { return try OpenSSLTagTrustCrypto() } catch { fatalError("OpenSSL: \(error)") }
}()

/// The bytes of a hex string from a test table (spaces allowed).
func hex(_ text: String) -> [UInt8] {
  let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
  do { return try HexDigits.decode(digits) } catch { fatalError("bad hex in a test table: \(text)") }
}

/// `bytes` with bit `bit` (0 = most significant bit of byte 0) inverted.
func flipped(_ bytes: [UInt8], bit: Int) -> [UInt8] {
  var out = bytes
  out[bit / 8] ^= 0x80 >> UInt8(bit % 8)
  return out
}
