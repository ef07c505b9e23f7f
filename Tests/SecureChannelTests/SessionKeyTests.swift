// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import SecureChannel

/// Session keys from GlobalPlatformPro's `TestPlaintextKeys`, master 404142…4F, as check
/// values (recomputed independently with python3-cryptography as well).
@Suite("Session key derivation")
struct SessionKeyTests {
  static let key = SecureChannelKeys.wellKnownTestKeys.encryption

  /// SCP02 (GPCS §E.4.1), sequence counter 0000: S-ENC, C-MAC, DEK, R-MAC.
  @Test(arguments: [
    ([UInt8(0x01), 0x82], "F2DCDD"), ([0x01, 0x01], "5FCC69"), ([0x01, 0x81], "85272E"),
    ([0x01, 0x02], "9F749A"),
  ])
  func scp02(constant: [UInt8], checkValue: String) throws {
    let session = try SessionKeyDerivation.scp02(
      key: Self.key, constant: constant, sequenceCounter: [0x00, 0x00], crypto: openSSL)
    #expect(
      try KeyCheckValue.compute(of: session, algorithm: .tripleDES, crypto: openSSL).description == checkValue
    )
  }

  /// SCP03's KDF with GlobalPlatformPro's test context (the KDD 00010203040506070809 instead
  /// of the challenges: not a session, but a vector of the KDF itself): S-ENC, S-MAC, S-RMAC.
  @Test(arguments: [(UInt8(0x04), "C25559"), (0x06, "0E12CC"), (0x07, "9ACB9C")])
  func scp03(constant: UInt8, checkValue: String) throws {
    let session = try SCP03KeyDerivation.derive(
      key: Self.key, constant: constant, bits: 128, context: Array(0..<10), crypto: openSSL)
    #expect(
      try KeyCheckValue.compute(of: session, algorithm: .aes, crypto: openSSL).description == checkValue)
  }

  @Test func kdfLengths() throws {
    for bits in [0, -8, 7, 65536] {
      #expect(throws: SecureChannelError(.invalidKeyLength)) {
        try SCP03KeyDerivation.derive(key: Self.key, constant: 0, bits: bits, context: [], crypto: openSSL)
      }
    }
    // 192 and 256 bits take two CMAC blocks: the first block is the 128-bit output with L changed.
    let long = try SCP03KeyDerivation.derive(
      key: Self.key, constant: 4, bits: 256, context: [1], crypto: openSSL)
    #expect(long.count == 32)
    #expect(
      try SCP03KeyDerivation.derive(key: Self.key, constant: 4, bits: 192, context: [1], crypto: openSSL)
        .count == 24)
  }
}
