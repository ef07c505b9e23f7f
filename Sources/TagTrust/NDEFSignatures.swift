// SPDX-License-Identifier: Apache-2.0
import NDEF

/// What checking one Signature record found. Only ``verified`` after the chain led to a trust
/// anchor and the signature verified under its first certificate's key.
public enum NDEFSignatureVerdict: Sendable, Hashable {
  /// The certificate chain leads to a trust anchor and the signature over the covered records
  /// verifies under the signer's key.
  case verified
  /// The chain is trusted but the signature does not verify: a covered record (or the
  /// signature) was changed.
  case signatureMismatch
  /// The chain does not lead to a trust anchor, or a certificate is unreadable, expired or
  /// misused (the provider's reason).
  case untrustedChain(reason: String)
  /// The signature is given only by URI (§3.3.2): not fetched, so not checked.
  case signatureByURI
  /// No certificate in the record (a chain only by URI, or none): no key to check with.
  case noCertificate
  /// A signature or hash type this library does not check (only ECDSA P-192, P-224 and P-256
  /// with SHA-256), or an ECDSA value that is neither DER nor r‖s of the curve's size.
  case unsupportedAlgorithm
  /// A certificate format other than X.509 (M2M).
  case unsupportedCertificateFormat
  /// The signer's key is not on the signature type's curve.
  case keyMismatch
  /// Signature type `00`: a record that marks where signed records start, with no signature.
  case marker
  /// The Signature record's payload cannot be read (NDEF's `SignatureRecordView` error).
  case malformed(NDEFError)

  /// Whether the verdict is ``verified``.
  public var isVerified: Bool { self == .verified }

  /// The verdict's name, e.g. `signatureMismatch`.
  public var name: String {
    switch self {
    case .verified: "verified"
    case .signatureMismatch: "signatureMismatch"
    case .untrustedChain: "untrustedChain"
    case .signatureByURI: "signatureByURI"
    case .noCertificate: "noCertificate"
    case .unsupportedAlgorithm: "unsupportedAlgorithm"
    case .unsupportedCertificateFormat: "unsupportedCertificateFormat"
    case .keyMismatch: "keyMismatch"
    case .marker: "marker"
    case .malformed: "malformed"
    }
  }
}

/// One Signature record of a message and what its check found.
public struct NDEFSignatureCheck: Sendable, Hashable {
  /// The Signature record's index in the message.
  public let recordIndex: Int
  /// The indices of the records it covers: from the message start, or from the record after
  /// the previous Signature record, to the record before this one.
  public let covered: Range<Int>
  /// The record's fields, when they could be read.
  public let record: SignatureRecord?
  /// The verdict.
  public let verdict: NDEFSignatureVerdict
}

/// What a certificate chain check found (``TagTrustCrypto/certifiedKey(chain:trustAnchors:)``).
public enum CertificateChainResult: Sendable, Hashable {
  /// The chain leads to a trust anchor; the first certificate's public key (a SEC 1 point) and
  /// its curve (nil for a key that is not on a curve of ``EllipticCurve``).
  case trusted(curve: EllipticCurve?, publicKey: [UInt8])
  /// The chain does not lead to a trust anchor, or a certificate in it cannot be read or used.
  case untrusted(reason: String)
}

/// Signature RTD 2.0 checks of a whole NDEF message.
public enum NDEFSignatures {
  /// The hash type SHA-256 (§3.3.2.2), the only one the specification defines.
  public static let sha256HashType: UInt8 = 0x02
  /// The certificate format X.509 (§3.3.3).
  public static let x509CertificateFormat: UInt8 = 0x00

  /// Whether `record` is a Signature record (TNF well-known, type `Sig`).
  public static func isSignature(_ record: NDEFRecord) -> Bool {
    record.typeNameFormat == .wellKnown && record.type == SignatureRecordView.type
  }

  /// The curve of an ECDSA signature type this library checks (§3.3.2.1: `04` P-192, `08`
  /// P-224, `0B` P-256), else nil.
  public static func curve(ofSignatureType type: UInt8) -> EllipticCurve? {
    switch type {
    case 0x04: .prime192v1
    case 0x08: .secp224r1
    case 0x0B: .prime256v1
    default: nil
    }
  }

  /// The specification's name of a signature type (`ECDSA-P256`, `RSASSA-PSS-2048`, ...), or
  /// `type XX` for the reserved values.
  public static func signatureTypeName(_ type: UInt8) -> String {
    let names = [
      "none", "RSASSA-PSS-1024", "RSASSA-PKCS1-v1_5-1024", "DSA-1024", "ECDSA-P192", "RSASSA-PSS-2048",
      "RSASSA-PKCS1-v1_5-2048", "DSA-2048", "ECDSA-P224", "ECDSA-K233", "ECDSA-B233", "ECDSA-P256",
    ]
    if Int(type) < names.count { return names[Int(type)] }
    return "type " + HexDigits.encode([type])
  }

  /// The bytes a Signature record signs: TYPE, ID and PAYLOAD of each covered record,
  /// concatenated in message order (headers and lengths excluded).
  public static func signedData(_ records: ArraySlice<NDEFRecord>) -> [UInt8] {
    var out: [UInt8] = []
    for record in records { out += record.type + record.id + record.payload }
    return out
  }

  /// Checks every Signature record of `records`.
  ///
  /// The ECDSA value is accepted in DER (`Ecdsa-Sig-Value`, X9.62) and as r‖s (IEEE P1363):
  /// signers write both.
  ///
  /// - Parameters:
  ///   - records: the message's records in order.
  ///   - trustAnchors: the certificates (DER) a chain must lead to.
  ///   - crypto: the ECDSA, SHA-256 and X.509 provider.
  /// - Throws: ``TagTrustError/Code/invalidCertificate`` when a trust anchor cannot be read;
  ///   ``TagTrustError/Code/cryptoFailure`` from the provider.
  public static func verify<C: TagTrustCrypto>(
    records: [NDEFRecord], trustAnchors: [[UInt8]], crypto: C
  ) throws(TagTrustError) -> [NDEFSignatureCheck] {
    var checks: [NDEFSignatureCheck] = []
    var start = 0
    for (index, candidate) in records.enumerated() where isSignature(candidate) {
      let covered = start..<index
      start = index + 1
      let record: SignatureRecord
      do throws(NDEFError) {
        record = SignatureRecord(try SignatureRecordView(validating: candidate.payload.span.bytes))
      } catch {
        checks.append(
          NDEFSignatureCheck(recordIndex: index, covered: covered, record: nil, verdict: .malformed(error)))
        continue
      }
      let verdict = try check(
        record, data: signedData(records[covered]), trustAnchors: trustAnchors, crypto: crypto)
      checks.append(
        NDEFSignatureCheck(recordIndex: index, covered: covered, record: record, verdict: verdict))
    }
    return checks
  }

  static func check<C: TagTrustCrypto>(
    _ record: SignatureRecord, data: [UInt8], trustAnchors: [[UInt8]], crypto: C
  ) throws(TagTrustError) -> NDEFSignatureVerdict {
    if record.signatureType == 0 && !record.signatureIsURI && record.signature.isEmpty { return .marker }
    if record.signatureIsURI { return .signatureByURI }
    guard let curve = curve(ofSignatureType: record.signatureType), record.hashType == sha256HashType,
      let pair = scalars(record.signature, size: curve.scalarSize)
    else { return .unsupportedAlgorithm }
    let (r, s) = pair
    guard record.certificateFormat == x509CertificateFormat else { return .unsupportedCertificateFormat }
    guard !record.certificates.isEmpty else { return .noCertificate }
    switch try crypto.certifiedKey(chain: record.certificates, trustAnchors: trustAnchors) {
    case .untrusted(let reason): return .untrustedChain(reason: reason)
    case .trusted(let keyCurve, let publicKey):
      guard keyCurve == curve else { return .keyMismatch }
      let digest = try crypto.sha256(data)
      let good = try crypto.ecdsaVerify(curve: curve, publicKey: publicKey, digest: digest, r: r, s: s)
      return good ? .verified : .signatureMismatch
    }
  }

  /// `r` and `s`, each `size` bytes, from a DER `Ecdsa-Sig-Value` (SEQUENCE of two positive
  /// INTEGERs, definite lengths, nothing after) or from r‖s of `2 × size` bytes; nil otherwise.
  static func scalars(_ signature: [UInt8], size: Int) -> ([UInt8], [UInt8])? {
    if let der = derScalars(signature, size: size) { return der }
    guard signature.count == 2 * size else { return nil }
    return (Array(signature[0..<size]), Array(signature[size...]))
  }

  static func derScalars(_ bytes: [UInt8], size: Int) -> ([UInt8], [UInt8])? {
    var position = 0
    func length() -> Int? {
      guard position < bytes.count else { return nil }
      let first = bytes[position]
      position += 1
      if first < 0x80 { return Int(first) }
      guard first == 0x81, position < bytes.count, bytes[position] >= 0x80 else { return nil }
      position += 1
      return Int(bytes[position - 1])
    }
    func integer() -> [UInt8]? {
      guard position < bytes.count, bytes[position] == 0x02 else { return nil }
      position += 1
      guard let count = length(), count > 0, bytes.count - position >= count else { return nil }
      var value = Array(bytes[position..<(position + count)])
      position += count
      guard value[0] & 0x80 == 0 else { return nil }  // negative
      while value.count > 1, value[0] == 0 { value.removeFirst() }
      guard value.count <= size else { return nil }
      return [UInt8](repeating: 0, count: size - value.count) + value
    }
    guard bytes.first == 0x30 else { return nil }
    position = 1
    guard let total = length(), total == bytes.count - position, let r = integer(), let s = integer(),
      position == bytes.count
    else { return nil }
    return (r, s)
  }
}
