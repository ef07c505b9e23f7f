// SPDX-License-Identifier: Apache-2.0
import CLibCrypto
import SecureChannel
import TagTrust

/// The tag-trust checks' crypto provider over OpenSSL 3's libcrypto: ECDSA verification on
/// secp128r1, P-192, P-224 and P-256 (`EVP_PKEY_verify` with the signed value used as the
/// digest), SHA-256, and AES-ECB/CBC/CMAC shared with ``OpenSSLSecureChannelCrypto``.
///
/// Lives beside the secure channels' provider so libcrypto stays behind this one module.
@safe public final class OpenSSLTagTrustCrypto: TagTrustCrypto, @unchecked Sendable {
  // @unchecked: the only stored state is the secure-channel provider, itself safe to share.
  private let base: OpenSSLSecureChannelCrypto

  /// Creates a provider over the process's own OpenSSL library context (default provider).
  ///
  /// - Throws: `TagTrustError.Code.cryptoFailure` when the provider cannot be loaded.
  public init() throws(TagTrustError) {
    do { base = try OpenSSLSecureChannelCrypto() } catch { throw TagTrustError(.cryptoFailure) }
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
}
