// SPDX-License-Identifier: Apache-2.0

/// How one family of PC/SC readers deviates from PC/SC Part 3 for storage cards: where
/// LOAD KEYS puts keys, what P2 names, what the key number of GENERAL AUTHENTICATE is,
/// how failures are reported and which raw-command route the reader has.
///
/// ``matching(readerName:)`` picks a profile from the PC/SC reader name; every field is a
/// `var`, so a caller who knows better overrides it (or passes another profile). The facts
/// and their sources are in each profile's comment (gathered in the project's notes on
/// PC/SC storage cards; marked unverified where no public source confirmed them).
public struct StorageCardReaderProfile: Sendable, Hashable {
  /// What LOAD KEYS P2 carries on this reader.
  public enum KeyNumbering: Sendable, Hashable {
    /// The slot number (Part 3).
    case slot
    /// The key type, 60 or 61 (SCM/Identiv legacy firmware).
    case keyType
    /// Key A in slots `0x00 + slot`, key B in `0x10 + slot` (Gemalto GemProx).
    case keyTypeBank
  }

  /// A stable identifier ("acs", "hid-omnikey", "identiv-scm", "gemalto-gemprox", "sony",
  /// "generic") for logs, JSON and a `--reader-profile` option.
  public var identifier: String
  /// A name for people.
  public var name: String
  /// P1 of LOAD KEYS tried first.
  public var keyStructure: LoadKeysPseudoAPDU.KeyStructure
  /// The key slots the reader has, when known.
  public var keySlots: ClosedRange<UInt8>?
  /// What LOAD KEYS P2 carries.
  public var keyNumbering: KeyNumbering
  /// The key number GENERAL AUTHENTICATE must carry regardless of the slot, when the
  /// reader wants a fixed one (GemProx: 00).
  public var fixedAuthenticateKeyNumber: UInt8?
  /// Whether the reader answers 6300 to every failed pseudo-APDU, so 6300 says nothing
  /// about why (a wrong key, a missing block, an unsupported command look the same).
  public var reportsEveryFailureAsNoInformation: Bool
  /// Whether the reader passes raw card frames with direct transmit `FF 00 00 00`.
  public var hasDirectTransmit: Bool
  /// Whether the reader is known to implement the transparent session `FF C2`.
  public var hasTransparentSession: Bool

  /// Creates a profile.
  public init(
    identifier: String, name: String, keyStructure: LoadKeysPseudoAPDU.KeyStructure,
    keySlots: ClosedRange<UInt8>?,
    keyNumbering: KeyNumbering = .slot, fixedAuthenticateKeyNumber: UInt8? = nil,
    reportsEveryFailureAsNoInformation: Bool = false, hasDirectTransmit: Bool = false,
    hasTransparentSession: Bool = false
  ) {
    self.identifier = identifier
    self.name = name
    self.keyStructure = keyStructure
    self.keySlots = keySlots
    self.keyNumbering = keyNumbering
    self.fixedAuthenticateKeyNumber = fixedAuthenticateKeyNumber
    self.reportsEveryFailureAsNoInformation = reportsEveryFailureAsNoInformation
    self.hasDirectTransmit = hasDirectTransmit
    self.hasTransparentSession = hasTransparentSession
  }

  /// ACS (ACR122U, ACR1252U, ACR1222L...): volatile key slots 00-01 (LOAD KEYS P1 00; P1
  /// 20 fails), 6300 for every failure, direct transmit `FF 00 00 00` to the PN532/contactless
  /// chip, both FF 86 and FF 88. Sources: ACR122T API v2.02 p.16 and §5, ACM1252U-Y3 manual
  /// p.38 and p.45, libnfc `drivers/acr122_pcsc.c`, liblogicalaccess `mifarepcsccommands.cpp`.
  public static let acs = StorageCardReaderProfile(
    identifier: "acs", name: "ACS", keyStructure: .volatile, keySlots: 0x00...0x01,
    reportsEveryFailureAsNoInformation: true, hasDirectTransmit: true)

  /// HID OMNIKEY (5x21, 5x22, 5427): keys go to non-volatile memory (LOAD KEYS P1 20;
  /// volatile answers 6986 on the 5321), failures are 69xx. The slot range is unverified.
  /// Sources: Lafargue's MIFARE tool, StackOverflow q/18830280.
  public static let hidOmnikey = StorageCardReaderProfile(
    identifier: "hid-omnikey", name: "HID OMNIKEY", keyStructure: .nonVolatile, keySlots: nil)

  /// SCM Microsystems / Identiv (SCL3711 under the SCM driver, SDI010/011, SCL01x, uTrust):
  /// LOAD KEYS P2 is the key type 60/61, not a slot, P1 00 (retried volatile on 6386);
  /// GENERAL AUTHENTICATE is standard with the caller's key number; errors may come as
  /// 638x (PC/SC v1.07) and Identiv adds 6700, 6800, 6B00 and 6CXX. Sources: SCL3711
  /// reference manual p.34, SCL01x manual p.36, liblogicalaccess `mifarescmcommands.cpp`.
  /// That the uTrust 3700 F keeps the legacy P2 is unverified (the fallback plan covers it).
  public static let identivSCM = StorageCardReaderProfile(
    identifier: "identiv-scm", name: "Identiv/SCM", keyStructure: .volatile, keySlots: nil,
    keyNumbering: .keyType)

  /// Gemalto GemProx: key slots 00-0F hold key A, 10-1F key B; the GENERAL AUTHENTICATE
  /// key number must be 00. Source: Lafargue's MIFARE tool (unverified on hardware).
  public static let gemaltoGemProx = StorageCardReaderProfile(
    identifier: "gemalto-gemprox", name: "Gemalto GemProx", keyStructure: .volatile, keySlots: 0x00...0x1F,
    keyNumbering: .keyTypeBank, fixedAuthenticateKeyNumber: 0x00)

  /// Sony (RC-S380 "PaSoRi", FeliCa Port) in PC/SC mode: volatile keys (liblogicalaccess
  /// retries volatile "with the Sony RC-S380"), FeliCa through `FF A4` SELECT of a service
  /// then `FF B0` (tomosoft.jp/design/?p=41054).
  public static let sony = StorageCardReaderProfile(
    identifier: "sony", name: "Sony", keyStructure: .volatile, keySlots: nil)

  /// Any other reader: PC/SC Part 3 as written (volatile slot 00 first, standard status
  /// words).
  public static let generic = StorageCardReaderProfile(
    identifier: "generic", name: "generic PC/SC Part 3", keyStructure: .volatile, keySlots: nil)

  /// Every named profile, ``generic`` last.
  public static let all: [StorageCardReaderProfile] = [
    .acs, .hidOmnikey, .identivSCM, .gemaltoGemProx, .sony, .generic,
  ]

  /// The profile named `identifier`, `nil` for an unknown one.
  public init?(identifier: String) {
    guard let profile = Self.all.first(where: { $0.identifier == identifier }) else { return nil }
    self = profile
  }

  /// The profile for a PC/SC reader name ("ACS ACR122U PICC Interface 00 00", "HID Global
  /// OMNIKEY 5022 Smart Card Reader [OMNIKEY 5022 Smart Card Reader] 00 00", "Identiv uTrust
  /// 3700 F CL Reader", "SCM Microsystems Inc. SCL011", "Sony FeliCa Port/PaSoRi 3.0",
  /// "Gemalto Prox-DU"...), matched case-insensitively on the vendor and product words;
  /// ``generic`` when nothing matches.
  public static func matching(readerName: String) -> StorageCardReaderProfile {
    // ASCII case folding over UTF-8 bytes: no Unicode tables (Embedded-clean).
    let name = readerName.utf8.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
    func has(_ words: String...) -> Bool {
      words.contains { word in
        let needle = Array(word.utf8)
        guard needle.count <= name.count else { return false }
        return (0...(name.count &- needle.count)).contains {
          name[$0..<($0 &+ needle.count)].elementsEqual(needle)
        }
      }
    }
    if has("acr122", "acr1252", "acr1222", "acr1255", "acr1281") || name.starts(with: Array("acs ".utf8)) {
      return .acs
    }
    if has("omnikey") { return .hidOmnikey }
    if has("scm microsystems", "identiv", "utrust", "scl01", "scl3711", "sdi01") { return .identivSCM }
    if has("gemprox", "gemalto prox") { return .gemaltoGemProx }
    if has("sony", "pasori", "felica port", "rc-s380") { return .sony }
    return .generic
  }

  /// LOAD KEYS P2 for a key of `keyType` in `slot`.
  public func loadKeysKeyNumber(keyType: StorageCardKeyType, slot: UInt8) -> UInt8 {
    switch keyNumbering {
    case .slot: slot
    case .keyType: keyType.rawValue
    case .keyTypeBank: (keyType == .keyB ? 0x10 : 0x00) | (slot & 0x0F)
    }
  }

  /// GENERAL AUTHENTICATE's key number for a key loaded for `keyType` into `slot`.
  public func authenticateKeyNumber(keyType: StorageCardKeyType, slot: UInt8) -> UInt8 {
    if let fixedAuthenticateKeyNumber { return fixedAuthenticateKeyNumber }
    return slot
  }

  /// The LOAD KEYS attempts for `key` of `keyType` in `slot`, in order: this profile's
  /// memory first, then the other memory (PC/SC storage-card notes rule 2: retry with the
  /// other memory on 6986/6987/6B00/6300).
  public func loadKeysPlan(key: [UInt8], keyType: StorageCardKeyType, slot: UInt8) -> LoadKeysFallbackPlan {
    let first = LoadKeysPseudoAPDU(
      keyStructure: keyStructure, keyNumber: loadKeysKeyNumber(keyType: keyType, slot: slot), key: key)
    var second = first
    second.keyStructure = keyStructure.otherMemory
    return LoadKeysFallbackPlan(attempts: [first, second])
  }
}

/// The order in which to send LOAD KEYS until one is accepted: a reader that refuses the
/// memory it was asked for (6986 volatile not available, 6987 non-volatile not available,
/// 6B00 wrong P1-P2 on Identiv, 6300 on ACS) gets the next attempt. Any other answer ends
/// the plan: retrying would not change it.
public struct LoadKeysFallbackPlan: Sendable, Hashable {
  /// The commands, first to last. ``LoadKeysPseudoAPDU/description`` hides their keys.
  public var attempts: [LoadKeysPseudoAPDU]

  /// Creates a plan.
  public init(attempts: [LoadKeysPseudoAPDU]) { self.attempts = attempts }

  /// Whether `answer` to one attempt calls for the next one.
  public static func shouldRetry(after answer: LoadKeysPseudoAPDU.Answer) -> Bool {
    switch answer {
    case .volatileMemoryNotAvailable, .nonVolatileMemoryNotAvailable, .wrongParameters, .noInformation: true
    default: false
    }
  }

  /// The attempt after attempt `index` answered `answer`, or `nil` when the plan ends
  /// (accepted, a final refusal, or no attempt left).
  public func attempt(after index: Int, answered answer: LoadKeysPseudoAPDU.Answer) -> LoadKeysPseudoAPDU? {
    guard Self.shouldRetry(after: answer), index >= 0, index &+ 1 < attempts.count else { return nil }
    return attempts[index &+ 1]
  }
}
