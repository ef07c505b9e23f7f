// SPDX-License-Identifier: Apache-2.0
/// An NDEF Signature record's payload (NFC Forum Signature RTD 2.0, well-known type `Sig`):
/// the version, the signature field and the certificate chain field.
///
/// Layout (§3.3): version (`20` for 2.0); signature field: a byte with the URI-present flag
/// (bit 7) and the signature type (bits 6-0), the hash type byte, a 2-byte big-endian length
/// and that many bytes of signature (or of a URI to it); certificate chain field: a byte with
/// the URI-present flag (bit 7), the certificate format (bits 6-4) and the number of
/// certificates (bits 3-0), each certificate as a 2-byte length and its bytes, then, when the
/// flag is set, a 2-byte length and the URI of the next certificate.
public struct NDEFSignatureRecord: Sendable, Hashable {
  /// The record type of a Signature record (TNF well-known): `Sig`.
  public static let recordType: [UInt8] = Array("Sig".utf8)
  /// The version this library reads: 2.0 (`20`).
  public static let version2: UInt8 = 0x20

  /// The version byte (major in the high nibble).
  public let version: UInt8
  /// The signature type (§3.3.2.1 Table: `0B` ECDSA P-256, `00` none).
  public let signatureType: NDEFSignatureType
  /// The hash type (`02` SHA-256).
  public let hashType: UInt8
  /// The signature bytes (empty when given by URI or absent).
  public let signature: [UInt8]
  /// The URI the signature is at, when the record gives it by URI only.
  public let signatureURI: [UInt8]?
  /// The certificate format (`0` X.509, `1` M2M).
  public let certificateFormat: UInt8
  /// The certificate chain, signer first, each as its encoded bytes (DER for X.509).
  public let certificates: [[UInt8]]
  /// The URI of the next certificate in the chain, when present.
  public let certificateURI: [UInt8]?

  /// Reads a Signature record's payload.
  ///
  /// - Parameters:
  ///   - payload: the record's payload.
  ///   - base: the absolute offset of the payload's first byte in the message, for errors.
  /// - Throws: ``TagTrustError/Code/unsupportedSignatureVersion`` at the version byte for a
  ///   major version other than 2; ``TagTrustError/Code/invalidSignatureRecord`` at the first
  ///   byte a field's length runs past, or at the first byte left over.
  public init(parsing payload: [UInt8], base: Int = 0) throws(TagTrustError) {
    var position = 0
    func byte() throws(TagTrustError) -> UInt8 {
      guard position < payload.count else {
        throw TagTrustError(.invalidSignatureRecord, offset: base + position)
      }
      defer { position += 1 }
      return payload[position]
    }
    func field() throws(TagTrustError) -> [UInt8] {
      let start = position
      let length = Int(try byte()) << 8 | Int(try byte())
      guard payload.count - position >= length else {
        throw TagTrustError(.invalidSignatureRecord, offset: base + start)
      }
      defer { position += length }
      return Array(payload[position..<(position + length)])
    }
    version = try byte()
    guard version >> 4 == Self.version2 >> 4 else {
      throw TagTrustError(.unsupportedSignatureVersion, offset: base)
    }
    let signatureFlags = try byte()
    signatureType = NDEFSignatureType(rawValue: signatureFlags & 0x7F)
    hashType = try byte()
    let value = try field()
    if signatureFlags & 0x80 != 0 {
      signatureURI = value
      signature = []
    } else {
      signatureURI = nil
      signature = value
    }
    let chainFlags = try byte()
    certificateFormat = (chainFlags >> 4) & 0x07
    var certificates: [[UInt8]] = []
    for _ in 0..<Int(chainFlags & 0x0F) { certificates.append(try field()) }
    self.certificates = certificates
    certificateURI = chainFlags & 0x80 != 0 ? try field() : nil
    // Writers that give no certificate URI may still write its empty length (00 00).
    if payload.count - position == 2, payload[position] == 0, payload[position + 1] == 0 { position += 2 }
    guard position == payload.count else {
      throw TagTrustError(.invalidSignatureRecord, offset: base + position)
    }
  }
}

/// A Signature RTD 2.0 signature type (§3.3.2.1); unknown values survive.
public struct NDEFSignatureType: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The 7-bit type value.
  public let rawValue: UInt8
  /// Creates a type from its value.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// `00`: no signature present (the record marks where the signed records start).
  public static let noSignature = NDEFSignatureType(rawValue: 0x00)
  /// `04`: ECDSA on P-192.
  public static let ecdsaP192 = NDEFSignatureType(rawValue: 0x04)
  /// `08`: ECDSA on P-224.
  public static let ecdsaP224 = NDEFSignatureType(rawValue: 0x08)
  /// `0B`: ECDSA on P-256.
  public static let ecdsaP256 = NDEFSignatureType(rawValue: 0x0B)

  /// The curve of an ECDSA type this library checks (P-192, P-224, P-256), else nil.
  public var curve: EllipticCurve? {
    switch rawValue {
    case 0x04: .prime192v1
    case 0x08: .secp224r1
    case 0x0B: .prime256v1
    default: nil
    }
  }

  /// The specification's name (`ECDSA-P256`, `RSASSA-PSS-2048`, ...), or `type XX`.
  public var description: String {
    let names = [
      "none", "RSASSA-PSS-1024", "RSASSA-PKCS1-v1_5-1024", "DSA-1024", "ECDSA-P192", "RSASSA-PSS-2048",
      "RSASSA-PKCS1-v1_5-2048", "DSA-2048", "ECDSA-P224", "ECDSA-K233", "ECDSA-B233", "ECDSA-P256",
    ]
    if Int(rawValue) < names.count { return names[Int(rawValue)] }
    return "type " + HexDigits.encode([rawValue])
  }
}
