// SPDX-License-Identifier: Apache-2.0
import GlobalPlatformCryptoOpenSSL
import ISO7816
import SecureChannel
import Testing

/// Bytes from hex text with spaces allowed; traps on bad test data only.
func hex(_ text: String) -> [UInt8] {
  let compact = Array(text.filter { !$0.isWhitespace }.utf8)
  precondition(compact.count % 2 == 0, "bad test hex \(text)")
  func nibble(_ c: UInt8) -> UInt8 {
    switch c {
    case 0x30...0x39: return c - 0x30
    case 0x41...0x46: return c - 0x37
    case 0x61...0x66: return c - 0x57
    default: preconditionFailure("bad test hex \(text)")
    }
  }
  return stride(from: 0, to: compact.count, by: 2).map { nibble(compact[$0]) << 4 | nibble(compact[$0 + 1]) }
}

/// Lowercase hex of bytes.
func hexString(_ bytes: [UInt8]) -> String {
  bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
    .joined()
}

/// The OpenSSL provider (single DES from repeated-key TDEA).
let openSSL: OpenSSLSecureChannelCrypto = {
  do { return try OpenSSLSecureChannelCrypto() } catch { fatalError("OpenSSL provider: \(error)") }
}()

/// The OpenSSL provider with single DES from the legacy provider.
let openSSLLegacy: OpenSSLSecureChannelCrypto = {
  do { return try OpenSSLSecureChannelCrypto(singleDES: .legacyProvider) } catch {
    fatalError("OpenSSL legacy provider: \(error)")
  }
}()

/// A provider that is OpenSSL except for its random bytes, which are given (to replay
/// published traces whose host challenge is known).
struct ReplayCrypto: SecureChannelCrypto {
  var base: OpenSSLSecureChannelCrypto = openSSL
  let challenge: [UInt8]
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
  func randomBytes(count: Int) throws(SecureChannelError) -> [UInt8] { Array(challenge.prefix(count)) }
}

/// A response from hex data and a status word.
func response(_ dataHex: String, _ sw: UInt16 = 0x9000) -> ResponseAPDU {
  ResponseAPDU(data: hex(dataHex), statusWord: StatusWord(rawValue: sw))
}

/// The encoded bytes of a command, as lowercase hex.
func encoded(_ command: CommandAPDU) throws -> String { hexString(try command.encodedBytes()) }
