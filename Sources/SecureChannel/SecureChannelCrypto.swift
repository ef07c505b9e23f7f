// SPDX-License-Identifier: Apache-2.0
/// The cryptographic primitives the secure channels are written against, so any provider can
/// be injected: OpenSSL (`GlobalPlatformCryptoOpenSSL`), CryptoKit, a secure element, a
/// microcontroller's AES block.
///
/// Every operation works on whole blocks without padding (the secure channels pad
/// themselves, ISO/IEC 9797-1 method 2). Implementations throw
/// ``SecureChannelError/Code/cryptoFailure`` when they cannot do an operation; they are never
/// handed keys of other lengths than those documented.
public protocol SecureChannelCrypto {
  /// AES (FIPS 197) in ECB mode over whole 16-byte blocks, with a 16-, 24- or 32-byte key.
  func aesECB(encrypting: Bool, key: [UInt8], data: [UInt8]) throws(SecureChannelError) -> [UInt8]
  /// AES in CBC mode (NIST SP 800-38A §6.2) over whole blocks, with a 16-byte `iv`.
  func aesCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(SecureChannelError)
    -> [UInt8]
  /// AES-CMAC (NIST SP 800-38B), the full 16-byte tag, over a message of any length.
  func aesCMAC(key: [UInt8], message: [UInt8]) throws(SecureChannelError) -> [UInt8]
  /// DES (8-byte key) or TDEA (16-byte two-key or 24-byte three-key, NIST SP 800-67) in CBC
  /// mode over whole 8-byte blocks, with an 8-byte `iv`.
  func desCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(SecureChannelError)
    -> [UInt8]
  /// SHA-1 (FIPS 180-4), 20 bytes.
  func sha1(_ message: [UInt8]) throws(SecureChannelError) -> [UInt8]
  /// SHA-256 (FIPS 180-4), 32 bytes.
  func sha256(_ message: [UInt8]) throws(SecureChannelError) -> [UInt8]
  /// `count` bytes from a cryptographically secure random number generator (host challenges).
  func randomBytes(count: Int) throws(SecureChannelError) -> [UInt8]
  /// The ISO/IEC 9797-1 MAC algorithm 3 with DES ("retail MAC", GPCS 2.3 §B.1.2.2): DES-CBC
  /// with the key's first 8 bytes over every block, the last block's output then decrypted
  /// with the second 8 bytes and encrypted with the first. `message` is already padded to
  /// whole blocks; `key` is 16 bytes; returns 8 bytes. A default implementation builds it
  /// from ``desCBC(encrypting:key:iv:data:)``.
  func retailMAC(key: [UInt8], iv: [UInt8], message: [UInt8]) throws(SecureChannelError) -> [UInt8]
}

extension SecureChannelCrypto {
  /// The retail MAC from single DES for every block but the last and two-key TDEA for the
  /// last one, which is the same function as ISO/IEC 9797-1 MAC algorithm 3.
  public func retailMAC(key: [UInt8], iv: [UInt8], message: [UInt8]) throws(SecureChannelError)
    -> [UInt8]
  {
    guard key.count == 16, iv.count == 8, !message.isEmpty, message.count % 8 == 0 else {
      throw SecureChannelError(.cryptoFailure)
    }
    var chain = iv
    if message.count > 8 {
      let head = try desCBC(
        encrypting: true, key: Array(key[0..<8]), iv: iv, data: Array(message[0..<(message.count - 8)]))
      chain = Array(head[(head.count - 8)...])
    }
    return try desCBC(encrypting: true, key: key, iv: chain, data: Array(message[(message.count - 8)...]))
  }

  /// DES or TDEA in ECB mode: each block on its own (CBC with a zero ICV, block by block).
  func desECB(encrypting: Bool, key: [UInt8], data: [UInt8]) throws(SecureChannelError) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(data.count)
    var start = 0
    while start < data.count {
      let end = min(start + 8, data.count)
      out += try desCBC(encrypting: encrypting, key: key, iv: zeros(8), data: Array(data[start..<end]))
      start = end
    }
    return out
  }
}

/// `count` zero bytes.
@inline(__always) func zeros(_ count: Int) -> [UInt8] { [UInt8](repeating: 0, count: count) }

/// `data` padded by ISO/IEC 9797-1 method 2: `80`, then `00` to a multiple of `block`.
func paddedISO9797Method2(_ data: [UInt8], block: Int) -> [UInt8] {
  var out = data
  out.append(0x80)
  while out.count % block != 0 { out.append(0) }
  return out
}

/// Whether two byte arrays are equal, comparing every byte whatever the first difference
/// (MACs and cryptograms are compared without an early exit).
func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
  guard a.count == b.count else { return false }
  var difference: UInt8 = 0
  for index in 0..<a.count { difference |= a[index] ^ b[index] }
  return difference == 0
}
