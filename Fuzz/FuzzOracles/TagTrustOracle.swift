// SPDX-License-Identifier: Apache-2.0
import NDEF
import TagTrust

/// A stand-in crypto provider for fuzzing tag-trust checks, and NOT cryptography: AES XORs
/// with the key (CBC chaining kept), CMAC is all zeros (so a MAC of zeros verifies and the
/// fuzzer reaches the valid branches), SHA-256 is zeros, and a signature "verifies" when its
/// `r` starts 5A and its `s` starts A5. The real primitives are tested against published
/// vectors.
struct FuzzTrustCrypto: TagTrustCrypto {
  func ecdsaVerify(curve: EllipticCurve, publicKey: [UInt8], digest: [UInt8], r: [UInt8], s: [UInt8])
    throws(TagTrustError) -> Bool
  {
    guard r.count == curve.scalarSize, s.count == curve.scalarSize, !publicKey.isEmpty else {
      throw TagTrustError(.cryptoFailure)
    }
    return r.first == 0x5A && s.first == 0xA5
  }
  func sha256(_ message: [UInt8]) throws(TagTrustError) -> [UInt8] { [UInt8](repeating: 0, count: 32) }
  func aesECB(encrypting: Bool, key: [UInt8], data: [UInt8]) throws(TagTrustError) -> [UInt8] {
    guard key.count == 16, data.count % 16 == 0 else { throw TagTrustError(.cryptoFailure) }
    return data.enumerated().map { $0.element ^ key[$0.offset % 16] }
  }
  func aesCBC(encrypting: Bool, key: [UInt8], iv: [UInt8], data: [UInt8]) throws(TagTrustError) -> [UInt8] {
    guard key.count == 16, iv.count == 16, data.count % 16 == 0 else { throw TagTrustError(.cryptoFailure) }
    var previous = iv
    var out: [UInt8] = []
    for start in stride(from: 0, to: data.count, by: 16) {
      let chunk = Array(data[start..<(start + 16)])
      var result = [UInt8](repeating: 0, count: 16)
      for index in 0..<16 { result[index] = chunk[index] ^ key[index] ^ previous[index] }
      out += result
      previous = encrypting ? result : chunk
    }
    return out
  }
  func aesCMAC(key: [UInt8], message: [UInt8]) throws(TagTrustError) -> [UInt8] {
    guard key.count == 16 else { throw TagTrustError(.cryptoFailure) }
    return [UInt8](repeating: 0, count: 16)
  }
  func certifiedKey(chain: [[UInt8]], trustAnchors: [[UInt8]]) throws(TagTrustError) -> CertificateChainResult
  {
    // A chain whose first certificate starts 5A is "trusted", with a P-256 key.
    guard chain.first?.first == 0x5A else { return .untrusted(reason: "stand-in") }
    return .trusted(curve: .prime256v1, publicKey: [0x04] + [UInt8](repeating: 1, count: 64))
  }
}

/// SUN URLs and originality signatures (module TagTrust).
///
/// Input: byte 0 odd: byte 1 (mod 11) is a UID length, then the UID, then the signature,
/// checked against the key table with and without a family; byte 0 with low bits `10`: the
/// rest is an NDEF message whose Signature records are checked (Signature RTD 2.0); other even
/// values: the rest is a URL (UTF-8) read as a SUN message and checked with a zero key under
/// three MAC inputs.
///
/// Checks: a URL either parses or fails with a `TagTrustError` whose offset lies within the
/// URL; a parsed message has an 8-byte MAC, value offsets inside the URL and a MAC input that
/// ends at the MAC; a valid verdict gives a 7-byte UID (if any) and a 24-bit counter, and file
/// data exactly as long as the encrypted file data; a signature is genuine only when the
/// provider verified it, and an all-zero signature is never genuine; each Signature record gets
/// one check, covering the records after the previous one up to itself, and is verified only
/// when the stand-in trusted its chain.
public enum TagTrustOracle {
  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    guard let selector = bytes.first else { return }
    if selector & 1 == 1 {
      try checkSignature(Array(bytes.dropFirst()))
    } else if selector & 3 == 2 {
      try checkSignedMessage(Array(bytes.dropFirst()))
    } else {
      try checkURL(Array(bytes.dropFirst()))
    }
  }

  static func checkURL(_ bytes: [UInt8]) throws(OracleFailure) {
    let url = String(decoding: bytes, as: UTF8.self)
    let count = url.utf8.count
    let message: SUNMessage
    do { message = try SUNMessage(parsingURL: url) } catch {
      try require(error.offset >= 0 && error.offset <= count, "error offset \(error.offset) outside the URL")
      return
    }
    try require(message.mac.count == 8, "a MAC of \(message.mac.count) bytes")
    try require(message.macOffset + 16 <= count, "the MAC offset is outside the URL")
    for (_, offset) in message.valueOffsets {
      try require(offset >= 0 && offset <= count, "a value offset outside the URL")
    }
    let crypto = FuzzTrustCrypto()
    let keys = SUNKeys(key: [UInt8](repeating: 0, count: 16))
    let inputs: [SUNMACInput] = [.automatic, .from(.piccData), .fromOffset(count / 2)]
    for input in inputs {
      let macInput: [UInt8]
      do { macInput = try message.macInput(input) } catch { continue }
      try require(macInput.count <= message.macOffset, "a MAC input longer than the URL before the MAC")
      let verdict: SUNVerdict
      do { verdict = try message.verify(keys: keys, macInput: input, crypto: crypto) } catch {
        throw OracleFailure("verify threw \(error.code) after the MAC input was read")
      }
      guard case .valid(let data) = verdict else { continue }
      try require(data.uid.map { $0.count == 7 } ?? true, "a UID that is not 7 bytes")
      try require(data.counter.map { $0 < 1 << 24 } ?? true, "a counter above 24 bits")
      try require(
        data.fileData?.count == message.encryptedFileData?.count, "file data of another length than enc")
    }
  }

  static func checkSignedMessage(_ bytes: [UInt8]) throws(OracleFailure) {
    guard let message = try? NDEFMessage(parsing: bytes) else { return }
    let checks: [NDEFSignatureCheck]
    do {
      checks = try NDEFSignatures.verify(
        records: message.records, trustAnchors: [[0x30]], crypto: FuzzTrustCrypto())
    } catch {
      throw OracleFailure("verify threw \(error.code) under a provider that never throws here")
    }
    let signatures = message.records.indices.filter { NDEFSignatures.isSignature(message.records[$0]) }
    try require(checks.map(\.recordIndex) == signatures, "a check per Signature record, in order")
    var start = 0
    for check in checks {
      try require(
        check.covered == start..<check.recordIndex, "covered \(check.covered), expected from \(start)")
      start = check.recordIndex + 1
      if check.verdict.isVerified {
        try require(check.record?.certificates.first?.first == 0x5A, "verified without a trusted chain")
      }
      if case .malformed = check.verdict {
        try require(check.record == nil, "a malformed record with fields")
      }
    }
  }

  static func checkSignature(_ bytes: [UInt8]) throws(OracleFailure) {
    guard let first = bytes.first else { return }
    let uidLength = Int(first % 11)
    let rest = bytes.dropFirst()
    let uid = Array(rest.prefix(uidLength))
    let signature = Array(rest.dropFirst(uidLength))
    let crypto = FuzzTrustCrypto()
    for family in [nil, "NTAG21x", "ST25TV", "NTAG424DNA", "nothing"] as [String?] {
      let verdict: OriginalityVerdict
      do {
        verdict = try OriginalitySignature.verify(
          uid: uid, signature: signature, family: family, crypto: crypto)
      } catch {
        try require(uid.isEmpty || uid.count > OriginalitySignature.maximumUIDLength, "threw \(error.code)")
        continue
      }
      let forged =
        signature.count >= 2 && signature.count % 2 == 0 && signature.first == 0x5A
        && signature[signature.count / 2] == 0xA5
      let reversedForged =
        signature.count >= 2 && signature.last == 0x5A
        && signature[signature.count / 2 - 1] == 0xA5
      switch verdict {
      case .genuine(let name, let key):
        try require(forged || reversedForged, "genuine without the provider verifying")
        try require(key.curve.signatureSize == signature.count, "a key of another curve")
        try require(family.map { key.belongs(to: $0) } ?? true, "a key of another family than asked")
        try require(family == nil || key.belongs(to: name), "the family named is not the key's")
      case .noSignature:
        try require(!signature.contains { $0 != 0 }, "noSignature for a non-zero signature")
      case .notGenuine(let tried):
        try require(tried > 0, "notGenuine without a key tried")
      case .unknownFamily:
        try require(signature.contains { $0 != 0 }, "unknownFamily for a zero signature")
      }
    }
  }
}
