// SPDX-License-Identifier: Apache-2.0
import CLibCrypto
import SecureChannel

/// The secure channels' crypto provider over OpenSSL 3's libcrypto (Debian libssl-dev): the
/// only code in Tapwire that calls a crypto library.
///
/// AES-ECB/CBC and AES-CMAC (NIST SP 800-38B) for SCP03, two- and three-key TDEA for
/// SCP02, SHA-1/SHA-256, and `RAND_bytes` as the CSPRNG. Single DES, which SCP02's retail
/// MAC needs, is not in OpenSSL 3's default provider; ``SingleDES`` chooses how it is done.
@safe public final class OpenSSLSecureChannelCrypto: SecureChannelCrypto, @unchecked Sendable {
  // @unchecked: the only stored state is an OSSL_LIB_CTX that is fully set up once and
  // only read afterwards; OpenSSL 3 library contexts are safe for concurrent use.

  /// How single DES is computed.
  public struct SingleDES: Sendable, Hashable {
    fileprivate enum Value: UInt8, Sendable, Hashable { case repeatedKey, legacyProvider }
    fileprivate let value: Value
    /// TDEA with the key repeated (K1‖K1‖K1), which equals DES (NIST SP 800-67 §3.3
    /// keying option 3 degenerates to single DES); needs only the default provider.
    public static let tripleDESWithRepeatedKey = SingleDES(value: .repeatedKey)
    /// OpenSSL's `DES-CBC` from the legacy provider (`legacy.so`, shipped in Debian's libssl3).
    public static let legacyProvider = SingleDES(value: .legacyProvider)
  }

  /// How single DES is done by this provider.
  public let singleDES: SingleDES
  private let context: OpaquePointer
  /// The OpenSSL library context, for the other providers of this module.
  var libraryContext: OpaquePointer { unsafe context }

  /// The process's two OpenSSL library contexts (default provider; default and legacy),
  /// each made on first use and never freed: freeing a context with loaded providers while
  /// another thread uses libcrypto (libcurl's TLS in the same process), or after OpenSSL's
  /// exit handler has run, crashed in OpenSSL's locks.
  private nonisolated(unsafe) static let defaultContext = unsafe tapwire_crypto_context_new(0)
  private nonisolated(unsafe) static let legacyContext = unsafe tapwire_crypto_context_new(1)

  /// Creates a provider over an OpenSSL library context of the process's own (default
  /// provider, plus the legacy provider for ``SingleDES/legacyProvider``), not OpenSSL's
  /// default context.
  ///
  /// - Throws: `SecureChannelError.Code.cryptoFailure` when a provider cannot be loaded.
  public init(singleDES: SingleDES = .tripleDESWithRepeatedKey) throws(SecureChannelError) {
    let shared = unsafe singleDES == .legacyProvider ? Self.legacyContext : Self.defaultContext
    guard let context = unsafe shared else { throw SecureChannelError(.cryptoFailure) }
    unsafe self.context = context
    self.singleDES = singleDES
  }

  /// AES-ECB, key 16/24/32 bytes, whole blocks.
  public func aesECB(encrypting: Bool, key: [UInt8], data: [UInt8]) throws(SecureChannelError) -> [UInt8] {
    guard let name = Self.aesName(key.count, mode: "ECB"), data.count % 16 == 0 else {
      throw SecureChannelError(.cryptoFailure)
    }
    return try cipher(name, encrypting: encrypting, key: key, iv: nil, data: data)
  }

  /// AES-CBC, key 16/24/32 bytes, 16-byte IV, whole blocks.
  public func aesCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(SecureChannelError)
    -> [UInt8]
  {
    guard let name = Self.aesName(key.count, mode: "CBC"), iv.count == 16, data.count % 16 == 0 else {
      throw SecureChannelError(.cryptoFailure)
    }
    return try cipher(name, encrypting: encrypting, key: key, iv: iv, data: data)
  }

  /// AES-CMAC (NIST SP 800-38B), 16 bytes.
  public func aesCMAC(key: [UInt8], message: [UInt8]) throws(SecureChannelError) -> [UInt8] {
    guard let name = Self.aesName(key.count, mode: "CBC") else { throw SecureChannelError(.cryptoFailure) }
    var out = [UInt8](repeating: 0, count: 16)
    var cipherName = Array(name.utf8CString)
    let ok = unsafe key.withUnsafeBufferPointer { k in
      unsafe message.withUnsafeBufferPointer { m in
        unsafe out.withUnsafeMutableBufferPointer { o in
          unsafe cipherName.withUnsafeMutableBufferPointer { c in
            unsafe tapwire_crypto_cmac(
              context, c.baseAddress, k.baseAddress, k.count, m.baseAddress, m.count, o.baseAddress)
          }
        }
      }
    }
    guard ok == 1 else { throw SecureChannelError(.cryptoFailure) }
    return out
  }

  /// DES (8-byte key, by ``singleDES``) or TDEA (16 or 24 bytes) in CBC mode, whole blocks.
  public func desCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(SecureChannelError)
    -> [UInt8]
  {
    guard iv.count == 8, data.count % 8 == 0 else { throw SecureChannelError(.cryptoFailure) }
    switch key.count {
    case 8:
      if singleDES == .legacyProvider {
        return try cipher("DES-CBC", encrypting: encrypting, key: key, iv: iv, data: data)
      }
      return try cipher("DES-EDE3-CBC", encrypting: encrypting, key: key + key + key, iv: iv, data: data)
    case 16: return try cipher("DES-EDE-CBC", encrypting: encrypting, key: key, iv: iv, data: data)
    case 24: return try cipher("DES-EDE3-CBC", encrypting: encrypting, key: key, iv: iv, data: data)
    default: throw SecureChannelError(.cryptoFailure)
    }
  }

  /// SHA-1, 20 bytes.
  public func sha1(_ message: [UInt8]) throws(SecureChannelError) -> [UInt8] {
    try digest("SHA1", message, size: 20)
  }

  /// SHA-256, 32 bytes.
  public func sha256(_ message: [UInt8]) throws(SecureChannelError) -> [UInt8] {
    try digest("SHA256", message, size: 32)
  }

  /// `count` bytes from OpenSSL's DRBG (`RAND_bytes_ex`), seeded from the operating system.
  public func randomBytes(count: Int) throws(SecureChannelError) -> [UInt8] {
    guard count >= 0 else { throw SecureChannelError(.cryptoFailure) }
    var out = [UInt8](repeating: 0, count: count)
    let ok = unsafe out.withUnsafeMutableBufferPointer { o in
      unsafe tapwire_crypto_random(context, o.baseAddress, o.count)
    }
    guard ok == 1 else { throw SecureChannelError(.cryptoFailure) }
    return out
  }

  private static func aesName(_ keyCount: Int, mode: String) -> String? {
    switch keyCount {
    case 16: "AES-128-" + mode
    case 24: "AES-192-" + mode
    case 32: "AES-256-" + mode
    default: nil
    }
  }

  private func cipher(_ name: String, encrypting: Bool, key: [UInt8], iv: [UInt8]?, data: [UInt8])
    throws(SecureChannelError) -> [UInt8]
  {
    var out = [UInt8](repeating: 0, count: data.count)
    let ivBytes = iv ?? []
    let ok = unsafe key.withUnsafeBufferPointer { k in
      unsafe ivBytes.withUnsafeBufferPointer { v in
        unsafe data.withUnsafeBufferPointer { d in
          unsafe out.withUnsafeMutableBufferPointer { o in
            // ECB passes no IV (NULL); CBC's IV has the block size, checked by the callers.
            unsafe tapwire_crypto_cipher(
              context, name, encrypting ? 1 : 0, k.baseAddress, iv == nil ? nil : v.baseAddress,
              d.baseAddress, d.count, o.baseAddress)
          }
        }
      }
    }
    guard ok == 1 else { throw SecureChannelError(.cryptoFailure) }
    return out
  }

  private func digest(_ name: String, _ message: [UInt8], size: Int) throws(SecureChannelError) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: size)
    let ok = unsafe message.withUnsafeBufferPointer { m in
      unsafe out.withUnsafeMutableBufferPointer { o in
        unsafe tapwire_crypto_digest(context, name, m.baseAddress, m.count, o.baseAddress, o.count)
      }
    }
    guard ok == 1 else { throw SecureChannelError(.cryptoFailure) }
    return out
  }
}
