// SPDX-License-Identifier: Apache-2.0
import GlobalPlatformCryptoOpenSSL
import ISO7816
import SecureChannel

/// A provider written outside Tapwire: OpenSSL for everything but the host challenge, which is
/// fixed to replay a published trace (osmocom pySim's SCP02 unit-test data).
struct FixedChallengeCrypto: SecureChannelCrypto {
  let base: OpenSSLSecureChannelCrypto
  func aesECB(encrypting: Bool, key: [UInt8], data: [UInt8]) throws(SecureChannelError) -> [UInt8] {
    try base.aesECB(encrypting: encrypting, key: key, data: data)
  }
  func aesCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(SecureChannelError)
    -> [UInt8]
  {
    try base.aesCBC(encrypting: encrypting, key: key, iv: iv, data: data)
  }
  func aesCMAC(key: [UInt8], message: [UInt8]) throws(SecureChannelError) -> [UInt8] {
    try base.aesCMAC(key: key, message: message)
  }
  func desCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(SecureChannelError)
    -> [UInt8]
  {
    try base.desCBC(encrypting: encrypting, key: key, iv: iv, data: data)
  }
  func sha1(_ message: [UInt8]) throws(SecureChannelError) -> [UInt8] { try base.sha1(message) }
  func sha256(_ message: [UInt8]) throws(SecureChannelError) -> [UInt8] { try base.sha256(message) }
  func randomBytes(count: Int) throws(SecureChannelError) -> [UInt8] {
    Array([0x40, 0xA6, 0x2C, 0x37, 0xFA, 0x63, 0x04, 0xF8].prefix(count))
  }
}

/// A card answering the trace's INITIALIZE UPDATE and EXTERNAL AUTHENTICATE, then 9000.
struct SecureChannelTraceCard: APDUTransport {
  var sent: [[UInt8]] = []
  mutating func transmit(_ command: [UInt8]) async -> [UInt8] {
    sent.append(command)
    if sent.count == 1 {
      return [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x70, 0x02, 0x00, 0x01, 0x6B, 0x45, 0x24, 0xAB, 0xEE, 0x7C]
        + [0xF3, 0x2E, 0xA3, 0x83, 0x8B, 0xC1, 0x48, 0xF3, 0x90, 0x00]
    }
    return [0x90, 0x00]
  }
}

func checkSecureChannel() async {
  await group("SecureChannel: an SCP02 channel as an APDUTransport, with OpenSSL") {
    let crypto = FixedChallengeCrypto(base: try OpenSSLSecureChannelCrypto())
    let keys = try SecureChannelKeys(
      encryption: [0x10, 0x01] + Array(2...15), mac: [0x10, 0x11] + Array(2...15),
      dataEncryption: [0x10, 0x21] + Array(2...15))
    var channel = try await SecureChannelTransport.open(
      over: SecureChannelTraceCard(), configuration: SecureChannelConfiguration(keys: keys), crypto: crypto)
    expectEqual(channel.session.secureChannelProtocol, .scp02, "protocol")
    let answer = try await channel.transmit([0x80, 0xF2, 0x20, 0x02])
    expectEqual(answer, [0x90, 0x00], "answer")
    expectEqual(
      channel.exchanger.transport.sent.last ?? [],
      [0x84, 0xF2, 0x20, 0x02, 0x08, 0x14, 0xDB, 0x34, 0xFA, 0x43, 0x41, 0xDC, 0xA8], "wrapped GET STATUS")
    expectEqual(
      SecureChannelSession<FixedChallengeCrypto>.maximumPlainDataLength(
        protocol: .scp03, securityLevel: .cMACAndDecryption), 239, "LOAD block under SCP03 C-DECRYPTION")
  }
}
