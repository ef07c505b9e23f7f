// SPDX-License-Identifier: Apache-2.0
import CLibCrypto
import SecureChannel
import Synchronization
import TagTrust

/// The tag-trust checks' crypto provider over OpenSSL 3's libcrypto: ECDSA verification on
/// secp128r1, P-192, P-224 and P-256 (`EVP_PKEY_verify` with the signed value used as the
/// digest), SHA-256, and AES-ECB/CBC/CMAC shared with ``OpenSSLSecureChannelCrypto``.
///
/// Lives beside the secure channels' provider so libcrypto stays behind this one module.
///
/// ``aesBlock(encrypting:key:block:)`` and ``aesCMAC(key:bytes:)`` (all a SUN check needs)
/// allocate nothing: they rekey one AES-128-ECB context the instance keeps. Threads: an
/// instance may be shared; that context is behind a lock, and a call that finds it held by
/// another thread does its work on a context of its own, made and freed for that call (which
/// allocates). For allocation-free checks on several threads at once, give each thread its
/// own instance.
@safe public final class OpenSSLTagTrustCrypto: TagTrustCrypto, @unchecked Sendable {
  // @unchecked: the secure-channel provider is itself safe to share; the AES context is only
  // used under its Mutex.
  private let base: OpenSSLSecureChannelCrypto
  /// The AES-128-ECB context the allocation-free operations rekey.
  private let blockContext: Mutex<BlockCipherContext>

  /// Creates a provider over the process's own OpenSSL library context (default provider).
  ///
  /// - Throws: `TagTrustError.Code.cryptoFailure` when the provider cannot be loaded.
  public init() throws(TagTrustError) {
    let base: OpenSSLSecureChannelCrypto
    do { base = try OpenSSLSecureChannelCrypto() } catch { throw TagTrustError(.cryptoFailure) }
    self.base = base
    let context = try unsafe BlockCipherContext(base.libraryContext)
    blockContext = Mutex(context)
  }

  /// ECDSA verification (SEC 1 §4.1.4) of r‖s over `digest`, not hashed again.
  public func ecdsaVerify(curve: EllipticCurve, publicKey: [UInt8], digest: [UInt8], r: [UInt8], s: [UInt8])
    throws(TagTrustError) -> Bool
  {
    guard r.count == curve.scalarSize, s.count == curve.scalarSize, !digest.isEmpty else {
      throw TagTrustError(.cryptoFailure)
    }
    let context = unsafe base.libraryContext
    let result = unsafe publicKey.withUnsafeBufferPointer { point in
      unsafe digest.withUnsafeBufferPointer { value in
        unsafe r.withUnsafeBufferPointer { rBytes in
          unsafe s.withUnsafeBufferPointer { sBytes in
            // Each buffer is valid for the call; the C side copies what it keeps.
            unsafe tapwire_crypto_ecdsa_verify(
              context, curve.name, point.baseAddress, point.count, value.baseAddress, value.count,
              rBytes.baseAddress, sBytes.baseAddress, curve.scalarSize)
          }
        }
      }
    }
    guard result >= 0 else { throw TagTrustError(.cryptoFailure) }
    return result == 1
  }

  /// SHA-256, 32 bytes.
  public func sha256(_ message: [UInt8]) throws(TagTrustError) -> [UInt8] {
    do { return try base.sha256(message) } catch { throw TagTrustError(.cryptoFailure) }
  }

  /// AES-ECB over whole blocks.
  public func aesECB(encrypting: Bool, key: [UInt8], data: [UInt8]) throws(TagTrustError) -> [UInt8] {
    do { return try base.aesECB(encrypting: encrypting, key: key, data: data) } catch {
      throw TagTrustError(.cryptoFailure)
    }
  }

  /// AES-CBC over whole blocks with a 16-byte IV.
  public func aesCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(TagTrustError)
    -> [UInt8]
  {
    do { return try base.aesCBC(encrypting: encrypting, key: key, iv: iv, data: data) } catch {
      throw TagTrustError(.cryptoFailure)
    }
  }

  /// RFC 5280 path validation with `X509_verify_cert` (validity times checked against the
  /// clock), then the signer's EC public key and curve.
  public func certifiedKey(chain: [[UInt8]], trustAnchors: [[UInt8]]) throws(TagTrustError)
    -> CertificateChainResult
  {
    let chainBytes = chain.flatMap { $0 }
    let anchorBytes = trustAnchors.flatMap { $0 }
    var group = [CChar](repeating: 0, count: 64)
    var point = [UInt8](repeating: 0, count: 133)
    var pointLength = 0
    var reason: Int32 = 0
    let context = unsafe base.libraryContext
    let result = unsafe chainBytes.withUnsafeBufferPointer { chainBuffer in
      unsafe anchorBytes.withUnsafeBufferPointer { anchorBuffer in
        unsafe group.withUnsafeMutableBufferPointer { groupBuffer in
          unsafe point.withUnsafeMutableBufferPointer { pointBuffer in
            // Every buffer outlives the call; the C side writes at most the sizes passed.
            unsafe tapwire_crypto_certified_key(
              context, chainBuffer.baseAddress, chainBuffer.count, anchorBuffer.baseAddress,
              anchorBuffer.count,
              groupBuffer.baseAddress, groupBuffer.count, pointBuffer.baseAddress, pointBuffer.count,
              &pointLength, &reason)
          }
        }
      }
    }
    switch result {
    case 1:
      let name = String(decoding: group.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let curve = EllipticCurve.all.first { $0.name == name }
      return .trusted(curve: curve, publicKey: Array(point.prefix(pointLength)))
    case 0:
      let text =
        unsafe tapwire_crypto_verify_error(reason).map { unsafe String(cString: $0) } ?? "error \(reason)"
      return .untrusted(reason: text)
    case -2: return .untrusted(reason: "a certificate of the chain is not X.509 DER")
    case -3: throw TagTrustError(.invalidCertificate)
    default: throw TagTrustError(.cryptoFailure)
    }
  }

  /// AES-CMAC (NIST SP 800-38B), 16 bytes.
  public func aesCMAC(key: [UInt8], message: [UInt8]) throws(TagTrustError) -> [UInt8] {
    do { return try base.aesCMAC(key: key, message: message) } catch { throw TagTrustError(.cryptoFailure) }
  }

  // MARK: - Allocation-free AES

  /// One block through the shared AES-128-ECB context, keyed for this call.
  public func aesBlock(encrypting: Bool, key: AESBlock, block: AESBlock) throws(TagTrustError) -> AESBlock {
    try unsafe withBlockContext { context throws(TagTrustError) in
      try unsafe Self.setKey(context, key, encrypting: encrypting)
      return try unsafe Self.cipher(context, block)
    }
  }

  /// AES-CMAC (NIST SP 800-38B) through the shared AES-128-ECB context, keyed once.
  public func aesCMAC(key: AESBlock, bytes: Span<UInt8>) throws(TagTrustError) -> AESBlock {
    try unsafe withBlockContext { context throws(TagTrustError) in
      try unsafe Self.setKey(context, key, encrypting: true)
      return try BlockCMAC.compute(bytes) { block throws(TagTrustError) in
        try unsafe Self.cipher(context, block)
      }
    }
  }

  /// Runs `body` with the instance's AES context, or, when another thread holds it, with a
  /// context made for this call (which allocates).
  private func withBlockContext<Result: Sendable>(
    _ body: (OpaquePointer) throws(TagTrustError) -> Result
  ) throws(TagTrustError) -> Result {
    let shared = try blockContext.withLockIfAvailable { context throws(TagTrustError) -> Result in
      try unsafe body(context.pointer)
    }
    if let shared { return shared }
    let own = try unsafe BlockCipherContext(base.libraryContext)
    return try unsafe body(own.pointer)
  }

  /// Keys `context` for encryption or decryption (no allocation: the cipher is kept).
  private static func setKey(_ context: OpaquePointer, _ key: AESBlock, encrypting: Bool)
    throws(TagTrustError)
  {
    let ok = unsafe withUnsafeBytes(of: key.bytes) { raw in
      // The key bytes live for the call; OpenSSL expands them into the context.
      unsafe EVP_CipherInit_ex2(
        context, nil, raw.baseAddress?.assumingMemoryBound(to: UInt8.self), nil, encrypting ? 1 : 0, nil)
    }
    guard ok == 1 else { throw TagTrustError(.cryptoFailure) }
  }

  /// One block through a keyed `context`.
  private static func cipher(_ context: OpaquePointer, _ block: AESBlock) throws(TagTrustError) -> AESBlock {
    var out = AESBlock()
    var written: Int32 = 0
    let ok = unsafe withUnsafeBytes(of: block.bytes) { input in
      unsafe withUnsafeMutableBytes(of: &out.bytes) { output in
        // 16 bytes in, 16 out (ECB without padding writes each whole block at once).
        unsafe EVP_CipherUpdate(
          context, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written,
          input.baseAddress?.assumingMemoryBound(to: UInt8.self), 16)
      }
    }
    guard ok == 1, written == 16 else { throw TagTrustError(.cryptoFailure) }
    return out
  }
}

/// An `EVP_CIPHER_CTX` set up for AES-128-ECB without padding, freed with its owner.
///
/// Rekeying it (`EVP_CipherInit_ex2` with no cipher) and encrypting a block allocate nothing.
@safe struct BlockCipherContext: ~Copyable, @unchecked Sendable {
  // @unchecked: used only under its Mutex, or by the one call that made it.
  let pointer: OpaquePointer

  /// A context on the library context `library`.
  init(_ library: OpaquePointer) throws(TagTrustError) {
    guard let cipher = unsafe EVP_CIPHER_fetch(library, "AES-128-ECB", nil) else {
      throw TagTrustError(.cryptoFailure)
    }
    defer { unsafe EVP_CIPHER_free(cipher) }
    guard let context = unsafe EVP_CIPHER_CTX_new() else { throw TagTrustError(.cryptoFailure) }
    let zero = [UInt8](repeating: 0, count: 16)
    let ok = unsafe zero.withUnsafeBufferPointer { key in
      unsafe EVP_CipherInit_ex2(context, cipher, key.baseAddress, nil, 1, nil)
    }
    guard ok == 1, unsafe EVP_CIPHER_CTX_set_padding(context, 0) == 1 else {
      unsafe EVP_CIPHER_CTX_free(context)
      throw TagTrustError(.cryptoFailure)
    }
    unsafe self.pointer = context
  }

  deinit { unsafe EVP_CIPHER_CTX_free(pointer) }
}
