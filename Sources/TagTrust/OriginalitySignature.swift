// SPDX-License-Identifier: Apache-2.0
/// What an originality signature check found.
///
/// Only ``genuine(family:key:)`` says the maker signed the UID, and only after a signature
/// check ran and passed. A genuine signature proves the UID was issued by the maker, not that
/// the chip answering is the maker's: a UID-changeable clone can replay a genuine UID and
/// signature pair.
public enum OriginalityVerdict: Sendable, Hashable {
  /// The signature verifies under `key`; `family` is the family asked for, or the key's own
  /// ``OriginalityKey/family`` when none was.
  case genuine(family: String, key: OriginalityKey)
  /// The signature verifies under none of the `keysTried` keys whose curve fits its length
  /// (and whose family was asked for): forged, for another UID, or damaged.
  case notGenuine(keysTried: Int)
  /// The signature is empty or all zero bytes: the chip carries none (AN11350 §2: unprogrammed).
  case noSignature
  /// No key in the table (of the family asked for) is on a curve whose r‖s length is the
  /// signature's length, or no key has the family name asked for: nothing was checked.
  case unknownFamily

  /// Whether the verdict is ``genuine(family:key:)``.
  public var isGenuine: Bool {
    if case .genuine = self { return true }
    return false
  }
}

/// Originality signature checks (NXP AN11350, AN11341, AN12196 §9, AN13452, AN12998; ST
/// AN5101, AN5660, AN5580): an ECDSA signature by the maker over the chip's UID.
public enum OriginalitySignature {
  /// The longest UID checked: ISO/IEC 14443-3 §6.5.4 triple size (15693's are 8 bytes).
  public static let maximumUIDLength = 10

  /// Checks `signature` over `uid` against the maker keys.
  ///
  /// With `family`, only the keys of that family (``OriginalityKey/belongs(to:)``) are tried;
  /// without, every key whose curve's r‖s length is the signature's length, in table order,
  /// and the first that verifies names the family. Each key signs by its family's
  /// ``OriginalityRule``.
  ///
  /// - Parameters:
  ///   - uid: the UID as the tag gives it (an ISO/IEC 15693 UID as printed, `E0` first).
  ///   - signature: the signature bytes as the tag gives them (r‖s).
  ///   - family: a family name from ``OriginalityKey/familyNames``, or nil to find it.
  ///   - keys: the key table (default ``OriginalityKey/all``).
  ///   - crypto: the ECDSA and SHA-256 provider.
  /// - Throws: ``TagTrustError/Code/invalidUIDLength`` for an empty UID or one longer than
  ///   ``maximumUIDLength``; ``TagTrustError/Code/cryptoFailure`` from the provider.
  public static func verify<C: TagTrustCrypto>(
    uid: [UInt8], signature: [UInt8], family: String? = nil, keys: [OriginalityKey] = OriginalityKey.all,
    crypto: C
  ) throws(TagTrustError) -> OriginalityVerdict {
    guard !uid.isEmpty, uid.count <= maximumUIDLength else {
      throw TagTrustError(.invalidUIDLength, offset: uid.isEmpty ? 0 : maximumUIDLength)
    }
    guard signature.contains(where: { $0 != 0 }) else { return .noSignature }
    let candidates = keys.filter { key in
      key.curve.signatureSize == signature.count && (family.map { key.belongs(to: $0) } ?? true)
    }
    guard !candidates.isEmpty else { return .unknownFamily }
    for key in candidates {
      let ordered = key.rule.reversedSignature ? signature.reversed() : signature
      let size = key.curve.scalarSize
      let r = Array(ordered[0..<size])
      let s = Array(ordered[size...])
      let digest = try key.rule.digest(uid: uid, crypto: crypto)
      if try crypto.ecdsaVerify(curve: key.curve, publicKey: key.publicKey, digest: digest, r: r, s: s) {
        return .genuine(family: family.flatMap { key.familyName(matching: $0) } ?? key.family, key: key)
      }
    }
    return .notGenuine(keysTried: candidates.count)
  }
}
