// SPDX-License-Identifier: Apache-2.0
/// One manufacturer public key for originality signatures, with the family of chips it signs
/// for, how those chips sign, and where the key is published.
///
/// NXP and ST sign each chip's UID at manufacture with a key of theirs; the chip returns the
/// signature (READ_SIG, Read_Sig, GetSignature, or a TruST25 memory area). See
/// ``OriginalitySignature`` for the check and ``all`` for the table.
public struct OriginalityKey: Sendable, Hashable {
  /// The family name that identifies this key, as `tapwire verify signature --family` takes
  /// it and JSON output prints it (e.g. `NTAG21x`, `NTAG424DNA`, `ST25TV`).
  public let family: String
  /// Other family names whose chips are signed with this key (e.g. `DESFireEV2` for the
  /// NTAG 424 DNA key): naming one of them selects this key too.
  public let alsoFamilies: [String]
  /// The chips this key signs, in words.
  public let chips: String
  /// The curve the key is on; the signature is r‖s of twice its scalar size.
  public let curve: EllipticCurve
  /// The public key, a SEC 1 §2.3.3 uncompressed point (`04‖X‖Y`).
  public let publicKey: [UInt8]
  /// Where the key is published: the manufacturer's application note, or the public list it
  /// was taken from when the maker published none.
  public let source: String
  /// What the chips sign and how their signature reads.
  public let rule: OriginalityRule

  /// Creates a key entry (a table of one's own, for keys this library does not list).
  public init(
    family: String, alsoFamilies: [String] = [], chips: String, curve: EllipticCurve, publicKey: [UInt8],
    source: String, rule: OriginalityRule
  ) {
    self.family = family
    self.alsoFamilies = alsoFamilies
    self.chips = chips
    self.curve = curve
    self.publicKey = publicKey
    self.source = source
    self.rule = rule
  }

  /// Whether `name` names this key's family or one of ``alsoFamilies`` (ASCII case ignored).
  public func belongs(to name: String) -> Bool { familyName(matching: name) != nil }

  /// This key's spelling of the family `name` names (``family`` or one of ``alsoFamilies``,
  /// ASCII case ignored), or nil when it names neither.
  public func familyName(matching name: String) -> String? {
    let wanted = Self.folded(name)
    return ([family] + alsoFamilies).first { Self.folded($0) == wanted }
  }

  /// Every family name the table knows (each key's ``family`` and ``alsoFamilies``), in table
  /// order without repeats.
  public static var familyNames: [String] {
    var names: [String] = []
    for key in all {
      for name in [key.family] + key.alsoFamilies where !names.contains(name) { names.append(name) }
    }
    return names
  }

  private static func folded(_ name: String) -> [UInt8] {
    name.utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 + 32 : $0 }
  }
}

/// How a family signs: what the signed value is, and in which order the chip returns the
/// signature's bytes.
public struct OriginalityRule: Sendable, Hashable {
  /// The value a chip's signature is over.
  public struct SignedData: Sendable, Hashable {
    fileprivate enum Value: UInt8, Sendable, Hashable { case uid, reversedUID, sha256OfUID }
    fileprivate let value: Value
    /// NXP ISO/IEC 14443 chips (AN11350 §2, AN11341 §2, AN12196 §9, AN13452 §6): the UID
    /// bytes as read (anticollision order), not hashed.
    public static let uid = SignedData(value: .uid)
    /// NXP ISO/IEC 15693 chips (ICODE, NTAG 5): the UID in the order it goes over the air
    /// (least significant byte first: the printed `E0…` UID reversed), not hashed.
    public static let reversedUID = SignedData(value: .reversedUID)
    /// ST TruST25 (AN5101 §2, AN5660 §2, AN5580 §2): SHA-256 of the UID as printed
    /// (`E0…` first for ST25TV); ECDSA uses the digest's leftmost 128 bits.
    public static let sha256OfUID = SignedData(value: .sha256OfUID)
  }

  /// The value signed.
  public let signedData: SignedData
  /// Whether the chip returns the r‖s bytes last byte first (VivoKey Spark 1), so they are
  /// reversed before the check.
  public let reversedSignature: Bool

  /// Creates a rule.
  public init(signedData: SignedData, reversedSignature: Bool = false) {
    self.signedData = signedData
    self.reversedSignature = reversedSignature
  }

  /// NXP ISO/IEC 14443: the UID as read, signature as read.
  public static let nxp = OriginalityRule(signedData: .uid)
  /// NXP ISO/IEC 15693: the reversed UID, signature as read.
  public static let nxpVicinity = OriginalityRule(signedData: .reversedUID)
  /// ST TruST25: SHA-256 of the UID, signature as read.
  public static let st = OriginalityRule(signedData: .sha256OfUID)

  /// The value ECDSA checks for `uid` (the UID as the tag gives it; an ISO/IEC 15693 UID as
  /// printed, `E0` first).
  func digest<C: TagTrustCrypto>(uid: [UInt8], crypto: C) throws(TagTrustError) -> [UInt8] {
    switch signedData.value {
    case .uid: uid
    case .reversedUID: uid.reversed()
    case .sha256OfUID: try crypto.sha256(uid)
    }
  }
}
