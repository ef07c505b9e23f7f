// SPDX-License-Identifier: Apache-2.0
/// The cryptographic primitives tag-trust checks are written against, so any provider can be
/// injected: OpenSSL (`GlobalPlatformCryptoOpenSSL`'s `OpenSSLTagTrustCrypto`), CryptoKit, a
/// secure element.
///
/// Implementations throw ``TagTrustError/Code/cryptoFailure`` when they cannot do an
/// operation (a curve they lack, a failure of their library); a signature that does not
/// verify is `false`, never an error.
public protocol TagTrustCrypto {
  /// Whether (`r`, `s`) is an ECDSA signature (SEC 1 v2 §4.1.4) of `digest` under
  /// `publicKey` on `curve`.
  ///
  /// - Parameters:
  ///   - curve: the curve the key is on.
  ///   - publicKey: the key as a SEC 1 §2.3.3 point: `04‖X‖Y` (uncompressed) or `02`/`03‖X`.
  ///   - digest: the value signed, used as ECDSA's `e` without hashing again (NXP signs the
  ///     UID bytes themselves, SEC 1 §4.1.4 step 5 with the leftmost bits taken).
  ///   - r: the signature's `r`, big-endian, ``EllipticCurve/scalarSize`` bytes.
  ///   - s: the signature's `s`, big-endian, ``EllipticCurve/scalarSize`` bytes.
  func ecdsaVerify(curve: EllipticCurve, publicKey: [UInt8], digest: [UInt8], r: [UInt8], s: [UInt8])
    throws(TagTrustError) -> Bool
  /// SHA-256 (FIPS 180-4), 32 bytes.
  func sha256(_ message: [UInt8]) throws(TagTrustError) -> [UInt8]
  /// AES (FIPS 197) in ECB mode over whole 16-byte blocks with a 16-byte key.
  func aesECB(encrypting: Bool, key: [UInt8], data: [UInt8]) throws(TagTrustError) -> [UInt8]
  /// AES in CBC mode (NIST SP 800-38A §6.2) over whole blocks with a 16-byte key and `iv`.
  func aesCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(TagTrustError) -> [UInt8]
  /// AES-CMAC (NIST SP 800-38B), the full 16-byte tag, over a message of any length.
  func aesCMAC(key: [UInt8], message: [UInt8]) throws(TagTrustError) -> [UInt8]
  /// One AES-128 block encrypted (FIPS 197 §5.1) or decrypted (§5.3) under `key`.
  ///
  /// SUN checks (``SUNMessage/verify(url:keys:names:macInput:crypto:)-(Span<UInt8>,_,_,_,_)``)
  /// and LRP use only this and ``aesCMAC(key:bytes:)``: a provider that answers both without
  /// allocating makes those checks allocation-free. The default calls
  /// ``aesECB(encrypting:key:data:)`` (arrays, so it allocates).
  func aesBlock(encrypting: Bool, key: AESBlock, block: AESBlock) throws(TagTrustError) -> AESBlock
  /// AES-128-CMAC (NIST SP 800-38B) of `bytes`, the full 16-byte tag, read in place.
  ///
  /// The default calls ``aesCMAC(key:message:)`` with copies (so it allocates).
  func aesCMAC(key: AESBlock, bytes: Span<UInt8>) throws(TagTrustError) -> AESBlock
  /// Whether the X.509 chain `chain` (DER, signer first, intermediates after) leads to one of
  /// `trustAnchors` (DER) by RFC 5280 §6 path validation, and the signer's public key if so.
  ///
  /// A chain certificate that cannot be read is ``CertificateChainResult/untrusted(reason:)``.
  ///
  /// - Throws: ``TagTrustError/Code/invalidCertificate`` when a trust anchor cannot be read;
  ///   ``TagTrustError/Code/cryptoFailure`` when the library fails.
  func certifiedKey(chain: [[UInt8]], trustAnchors: [[UInt8]]) throws(TagTrustError) -> CertificateChainResult
}

extension TagTrustCrypto {
  /// One block through ``aesECB(encrypting:key:data:)``, for providers without an
  /// allocation-free block operation.
  public func aesBlock(encrypting: Bool, key: AESBlock, block: AESBlock) throws(TagTrustError) -> AESBlock {
    guard let out = AESBlock(try aesECB(encrypting: encrypting, key: key.array, data: block.array)) else {
      throw TagTrustError(.cryptoFailure)
    }
    return out
  }

  /// The CMAC through ``aesCMAC(key:message:)`` with copies of the key and bytes, for
  /// providers without an allocation-free CMAC.
  public func aesCMAC(key: AESBlock, bytes: Span<UInt8>) throws(TagTrustError) -> AESBlock {
    var message: [UInt8] = []
    message.reserveCapacity(bytes.count)
    for index in bytes.indices { message.append(bytes[index]) }
    guard let out = AESBlock(try aesCMAC(key: key.array, message: message)) else {
      throw TagTrustError(.cryptoFailure)
    }
    return out
  }
}

/// An elliptic curve an originality signature can be made on (SEC 2 v2 §2), named as
/// OpenSSL names it.
///
/// A struct over a private enum so curves can be added without breaking clients that switch
/// over the statics with a default case.
public struct EllipticCurve: Sendable, Hashable, CustomStringConvertible {
  fileprivate enum Value: UInt8, Sendable, Hashable { case secp128r1, prime192v1, secp224r1, prime256v1 }
  fileprivate let value: Value
  fileprivate init(_ value: Value) { self.value = value }

  /// SEC 2 v1 §2.5.1 `secp128r1`: NXP's NTAG21x, Ultralight EV1, MIFARE Classic EV1, ICODE
  /// and NTAG 5 signatures, and ST's TruST25 ones (16-byte `r` and `s`).
  public static let secp128r1 = EllipticCurve(.secp128r1)
  /// SEC 2 v2 §2.4.2 `secp192r1` (ANSI X9.62 `prime192v1`, NIST P-192): MIFARE Ultralight AES
  /// and NTAG 22x DNA signatures (24-byte `r` and `s`).
  public static let prime192v1 = EllipticCurve(.prime192v1)
  /// SEC 2 v2 §2.5.2 `secp224r1` (NIST P-224): DESFire, MIFARE Plus and NTAG 413/424 DNA
  /// signatures (28-byte `r` and `s`).
  public static let secp224r1 = EllipticCurve(.secp224r1)
  /// SEC 2 v2 §2.4.2 `secp256r1` (ANSI X9.62 `prime256v1`, NIST P-256), for NDEF signatures.
  public static let prime256v1 = EllipticCurve(.prime256v1)

  /// Every curve, smallest first.
  public static let all: [EllipticCurve] = [.secp128r1, .prime192v1, .secp224r1, .prime256v1]

  /// The curve's name as OpenSSL knows it (`secp128r1`, `prime192v1`, `secp224r1`, `prime256v1`).
  public var name: String {
    switch value {
    case .secp128r1: "secp128r1"
    case .prime192v1: "prime192v1"
    case .secp224r1: "secp224r1"
    case .prime256v1: "prime256v1"
    }
  }

  /// The byte length of the curve's order, so of `r` and of `s` in an r‖s signature.
  public var scalarSize: Int {
    switch value {
    case .secp128r1: 16
    case .prime192v1: 24
    case .secp224r1: 28
    case .prime256v1: 32
    }
  }

  /// The length of an r‖s signature on this curve (IEEE P1363 form): twice ``scalarSize``.
  public var signatureSize: Int { 2 * scalarSize }

  /// The curve's name.
  public var description: String { name }
}
