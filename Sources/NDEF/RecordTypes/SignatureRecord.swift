// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A Signature record payload (well-known type `Sig`, NFC Forum Signature RTD 2.0 §3.3),
/// as a view. Parsing and encoding only: verification needs a cryptography library and
/// is out of scope.
///
/// Layout: version (0x20); the signature field (a byte with URI-present bit 7 and the
/// signature type in bits 6...0, the hash type, a 2-byte length, then the signature or its
/// URI); the certificate chain (a byte with URI-present bit 7, the certificate format in
/// bits 6...4 and the number of certificates in bits 3...0, each certificate as a 2-byte
/// length and its bytes, then, when bit 7 is set, a 2-byte length and the chain's URI).
public struct SignatureRecordView: ~Escapable {
  /// The well-known type name `Sig`.
  public static let type: [UInt8] = Array("Sig".utf8)
  /// Version 2.0 of the Signature RTD.
  public static let version2: UInt8 = 0x20

  /// The version byte.
  public let version: UInt8
  /// Whether ``signature`` is a URI where the signature can be fetched.
  public let signatureIsURI: Bool
  /// The signature type (§3.3.2.1, table 4: 0x00 none, e.g. 0x0B ECDSA P-256).
  public let signatureType: UInt8
  /// The hash type (§3.3.2.2: 0x02 SHA-256).
  public let hashType: UInt8
  /// The signature bytes, or the URI bytes.
  public let signature: RawSpan
  /// The certificate format (§3.3.3.2: 0 X.509, 1 M2M).
  public let certificateFormat: UInt8
  /// The number of certificates in the chain.
  public let certificateCount: Int
  /// The certificate chain URI, when present.
  public let certificateURI: RawSpan?
  let certificates: RawSpan
  let certificatesOffset: Int

  /// Decodes a `Sig` payload.
  ///
  /// - Throws: `emptyPayload`, `signatureUnsupportedVersion`, `signatureTruncated`.
  @_lifetime(copy payload)
  public init(validating payload: RawSpan, baseOffset: Int = 0) throws(NDEFError) {
    var reader = ByteReader(payload, baseOffset: baseOffset)
    guard let version = reader.readUInt8() else { throw NDEFError(.emptyPayload, offset: baseOffset) }
    guard version == Self.version2 else { throw NDEFError(.signatureUnsupportedVersion, offset: baseOffset) }
    guard let flags = reader.readUInt8(), let hash = reader.readUInt8(), let length = reader.readUInt16BE()
    else {
      throw NDEFError(.signatureTruncated, offset: reader.offset)
    }
    guard let signature = reader.readSpan(count: Int(length)) else {
      throw NDEFError(.signatureTruncated, offset: reader.offset &- 2)
    }
    guard let chainFlags = reader.readUInt8() else {
      throw NDEFError(.signatureTruncated, offset: reader.offset)
    }
    let count = Int(chainFlags & 0x0F)
    let chainStart = reader.index
    let chainOffset = reader.offset
    for _ in 0..<count {
      let at = reader.offset
      guard let certificateLength = reader.readUInt16BE(), reader.skip(Int(certificateLength)) else {
        throw NDEFError(.signatureTruncated, offset: at)
      }
    }
    let chainEnd = reader.index
    var uri: RawSpan? = nil
    if chainFlags & 0x80 != 0 {
      let at = reader.offset
      guard let uriLength = reader.readUInt16BE(), let bytes = reader.readSpan(count: Int(uriLength)) else {
        throw NDEFError(.signatureTruncated, offset: at)
      }
      uri = bytes
    }
    self.version = version
    self.signatureIsURI = flags & 0x80 != 0
    self.signatureType = flags & 0x7F
    self.hashType = hash
    self.signature = signature
    self.certificateFormat = (chainFlags >> 4) & 0x07
    self.certificateCount = count
    self.certificateURI = uri
    self.certificates = payload.extracting(chainStart..<chainEnd)
    self.certificatesOffset = chainOffset
  }

  /// The certificates, in chain order.
  public var certificateChain: SignatureCertificateIterator {
    @_lifetime(copy self)
    get { SignatureCertificateIterator(reader: ByteReader(certificates, baseOffset: certificatesOffset)) }
  }
}

/// Iterates the certificates of a Signature record (each a 2-byte length and its bytes).
public struct SignatureCertificateIterator: ~Escapable {
  var reader: ByteReader

  @_lifetime(copy reader)
  init(reader: ByteReader) { self.reader = reader }

  /// The next certificate, or `nil`.
  @_lifetime(copy self)
  public mutating func next() -> RawSpan? {
    guard let length = reader.readUInt16BE() else { return nil }
    return reader.readSpan(count: Int(length))
  }
}

/// An owned Signature record for building (Signature RTD 2.0).
public struct SignatureRecord: Sendable, Hashable {
  /// The signature type.
  public var signatureType: UInt8
  /// The hash type.
  public var hashType: UInt8
  /// The signature bytes, or a URI's bytes when ``signatureIsURI``.
  public var signature: [UInt8]
  /// Whether ``signature`` holds a URI.
  public var signatureIsURI: Bool
  /// The certificate format (0 X.509, 1 M2M).
  public var certificateFormat: UInt8
  /// The certificates (at most 15).
  public var certificates: [[UInt8]]
  /// The certificate chain URI.
  public var certificateURI: [UInt8]?

  /// Creates a Signature record model.
  public init(
    signatureType: UInt8, hashType: UInt8, signature: [UInt8], signatureIsURI: Bool = false,
    certificateFormat: UInt8 = 0, certificates: [[UInt8]] = [], certificateURI: [UInt8]? = nil
  ) {
    self.signatureType = signatureType
    self.hashType = hashType
    self.signature = signature
    self.signatureIsURI = signatureIsURI
    self.certificateFormat = certificateFormat
    self.certificates = certificates
    self.certificateURI = certificateURI
  }

  /// Copies a view.
  public init(_ view: borrowing SignatureRecordView) {
    self.signatureType = view.signatureType
    self.hashType = view.hashType
    self.signature = view.signature.copiedBytes()
    self.signatureIsURI = view.signatureIsURI
    self.certificateFormat = view.certificateFormat
    var certificates: [[UInt8]] = []
    var iterator = view.certificateChain
    while let certificate = iterator.next() { certificates.append(certificate.copiedBytes()) }
    self.certificates = certificates
    self.certificateURI = view.certificateURI.map { $0.copiedBytes() }
  }

  /// The payload.
  ///
  /// - Throws: `signatureTruncated` when a field does not fit its length (over 65535
  ///   bytes, more than 15 certificates, a type over 0x7F or a format over 7).
  public func payload() throws(NDEFError) -> [UInt8] {
    guard signatureType <= 0x7F, certificateFormat <= 7, certificates.count <= 15, signature.count <= 0xFFFF,
      certificates.allSatisfy({ $0.count <= 0xFFFF }), (certificateURI?.count ?? 0) <= 0xFFFF
    else { throw NDEFError(.signatureTruncated, offset: 0) }
    func length(_ count: Int) -> [UInt8] { [UInt8(count >> 8), UInt8(count & 0xFF)] }
    var bytes: [UInt8] = [
      SignatureRecordView.version2, (signatureIsURI ? 0x80 : 0) | signatureType, hashType,
    ]
    bytes += length(signature.count) + signature
    bytes.append((certificateURI == nil ? 0 : 0x80) | certificateFormat << 4 | UInt8(certificates.count))
    for certificate in certificates { bytes += length(certificate.count) + certificate }
    if let certificateURI { bytes += length(certificateURI.count) + certificateURI }
    return bytes
  }

  /// The NDEF record (TNF Well Known, type `Sig`).
  public func record() throws(NDEFError) -> NDEFRecord {
    NDEFRecord(typeNameFormat: .wellKnown, type: SignatureRecordView.type, payload: try payload())
  }
}
