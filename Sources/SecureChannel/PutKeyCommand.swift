// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// A PUT KEY command that loads a whole key set (ENC, MAC, DEK) with the keys encrypted
/// under the session's data-encryption key, and the answer the card must give
/// (GPCS 2.3 §11.8, Tables 11-68 to 11-71; Amendment D §7.2 for AES keys; §E.4.7 for SCP02).
///
/// SCP03: each key block is `88 ‖ Lk ‖ key length ‖ AES-CBC(Key-DEK, ICV 0, key padded with
/// 00 to 16/32) ‖ 03 ‖ KCV`. SCP02: `80 10 ‖ 3DES-ECB(session DEK, key) ‖ 03 ‖ KCV`, with
/// 16-byte 3DES keys. The data field starts with the new key version number; P1 is the key
/// version replaced (00 adds a key set) and P2 is 81 (key identifier 1, several keys).
public struct PutKeyCommand: Sendable, Hashable {
  /// The command to wrap and send.
  public let command: CommandAPDU
  /// The new keys' check values, ENC, MAC and DEK (what may be shown of the keys).
  public let checkValues: [KeyCheckValue]
  /// The response data the card must return: the new key version and the three check values.
  public let expectedResponseData: [UInt8]

  /// Builds PUT KEY for `keys` as key version `newKeyVersion` over `session`'s DEK.
  ///
  /// - Parameters:
  ///   - keys: the new keys, loaded as ENC, MAC and DEK.
  ///   - newKeyVersion: their key version number, 01...7F.
  ///   - replacing: the key version number replaced, or 00 to add a new key set.
  ///   - session: the open session whose DEK encrypts the keys.
  /// - Throws: ``SecureChannelError/Code/invalidKeyVersion`` for a version outside 01...7F
  ///   (or a replaced one above 7F), ``SecureChannelError/Code/invalidKeyLength`` for keys
  ///   the protocol cannot carry (SCP02: 16 bytes only), and the provider's errors.
  public init<Crypto: SecureChannelCrypto>(
    keys: SecureChannelKeys, newKeyVersion: UInt8, replacing: UInt8 = 0, session: SecureChannelSession<Crypto>
  ) throws(SecureChannelError) {
    guard (0x01...0x7F).contains(newKeyVersion), replacing <= 0x7F else {
      throw SecureChannelError(.invalidKeyVersion)
    }
    let crypto = session.crypto
    var data: [UInt8] = [newKeyVersion]
    var values: [KeyCheckValue] = []
    for key in [keys.encryption, keys.mac, keys.dataEncryption] {
      if session.secureChannelProtocol == .scp03 {
        let check = try KeyCheckValue.compute(of: key, algorithm: .aes, crypto: crypto)
        var padded = key
        while padded.count % 16 != 0 { padded.append(0) }
        let ciphered = try crypto.aesCBC(
          encrypting: true, key: session.dataEncryptionKey, iv: zeros(16), data: padded)
        data += [0x88, UInt8(ciphered.count + 1), UInt8(key.count)] + ciphered + [0x03] + check.bytes
        values.append(check)
      } else {
        guard key.count == 16 else { throw SecureChannelError(.invalidKeyLength) }
        let check = try KeyCheckValue.compute(of: key, algorithm: .tripleDES, crypto: crypto)
        let ciphered = try crypto.desECB(encrypting: true, key: session.dataEncryptionKey, data: key)
        data += [0x80, 0x10] + ciphered + [0x03] + check.bytes
        values.append(check)
      }
    }
    command = CommandAPDU(cla: 0x80, ins: 0xD8, p1: replacing, p2: 0x81, data: data, ne: 256)
    checkValues = values
    expectedResponseData = [newKeyVersion] + values.flatMap(\.bytes)
  }
}
