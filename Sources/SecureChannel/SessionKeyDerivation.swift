// SPDX-License-Identifier: Apache-2.0
/// The key derivations and cryptograms of SCP02 and SCP03, as free functions over a provider.
enum SessionKeyDerivation {
  /// SCP03 data derivation constants (Amendment D §4.1.5 Table 4-1).
  enum Constant {
    static let cardCryptogram: UInt8 = 0x00
    static let hostCryptogram: UInt8 = 0x01
    static let cardChallenge: UInt8 = 0x02
    static let sessionEncryption: UInt8 = 0x04
    static let sessionMAC: UInt8 = 0x06
    static let sessionRMAC: UInt8 = 0x07
  }

  /// The SCP03 KDF (Amendment D §4.1.5): NIST SP 800-108 counter mode with AES-CMAC as PRF,
  /// input `00×11 ‖ constant ‖ 00 ‖ L (2 bytes, bits) ‖ i ‖ context`, i from 01, the
  /// output truncated to L bits.
  static func scp03<Crypto: SecureChannelCrypto>(
    key: [UInt8], constant: UInt8, bits: Int, context: [UInt8], crypto: Crypto
  ) throws(SecureChannelError) -> [UInt8] {
    var output: [UInt8] = []
    var counter: UInt8 = 1
    while output.count * 8 < bits {
      let input = zeros(11) + [constant, 0x00, UInt8(bits >> 8), UInt8(bits & 0xFF), counter] + context
      output += try crypto.aesCMAC(key: key, message: input)
      counter &+= 1
    }
    return Array(output[0..<(bits / 8)])
  }

  /// An SCP02 session key (GPCS 2.3 §E.4.1): 3DES-CBC with ICV 0 under the static key over
  /// `constant (2) ‖ sequence counter (2) ‖ 00×12`.
  static func scp02<Crypto: SecureChannelCrypto>(
    key: [UInt8], constant: [UInt8], sequenceCounter: [UInt8], crypto: Crypto
  ) throws(SecureChannelError) -> [UInt8] {
    try crypto.desCBC(encrypting: true, key: key, iv: zeros(8), data: constant + sequenceCounter + zeros(12))
  }

  /// The full triple DES MAC (GPCS 2.3 §B.1.2.1): 3DES-CBC with ICV 0 over the data padded by
  /// ISO/IEC 9797-1 method 2; the last block.
  static func fullTripleDESMAC<Crypto: SecureChannelCrypto>(key: [UInt8], data: [UInt8], crypto: Crypto)
    throws(SecureChannelError) -> [UInt8]
  {
    let out = try crypto.desCBC(
      encrypting: true, key: key, iv: zeros(8), data: paddedISO9797Method2(data, block: 8))
    return Array(out[(out.count - 8)...])
  }
}

/// SCP03's public derivations (Amendment D §4.1.5, §6.2.2.1), for checks outside a session.
public enum SCP03KeyDerivation {
  /// The SCP03 KDF: NIST SP 800-108 counter mode with AES-CMAC, input `00×11 ‖ constant ‖ 00
  /// ‖ L ‖ i ‖ context` (Amendment D §4.1.5), `bits` long (a multiple of 8).
  ///
  /// - Throws: the provider's ``SecureChannelError/Code/cryptoFailure``, and
  ///   ``SecureChannelError/Code/invalidKeyLength`` for `bits` that are not a positive
  ///   multiple of 8 below 65536.
  public static func derive<Crypto: SecureChannelCrypto>(
    key: [UInt8], constant: UInt8, bits: Int, context: [UInt8], crypto: Crypto
  ) throws(SecureChannelError) -> [UInt8] {
    guard bits > 0, bits % 8 == 0, bits < 65536 else { throw SecureChannelError(.invalidKeyLength) }
    return try SessionKeyDerivation.scp03(
      key: key, constant: constant, bits: bits, context: context, crypto: crypto)
  }

  /// The pseudo-random card challenge a card with `i` b5 set answers (Amendment D
  /// §6.2.2.1): KDF(Key-ENC, 02, 64 bits, sequence counter ‖ the security domain's AID).
  ///
  /// - Throws: the provider's ``SecureChannelError/Code/cryptoFailure``.
  public static func pseudoRandomCardChallenge<Crypto: SecureChannelCrypto>(
    keyEncryption: [UInt8], sequenceCounter: [UInt8], applicationIdentifier: [UInt8], crypto: Crypto
  ) throws(SecureChannelError) -> [UInt8] {
    try SessionKeyDerivation.scp03(
      key: keyEncryption, constant: SessionKeyDerivation.Constant.cardChallenge, bits: 64,
      context: sequenceCounter + applicationIdentifier, crypto: crypto)
  }
}
