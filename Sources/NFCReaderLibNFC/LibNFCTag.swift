// SPDX-License-Identifier: Apache-2.0
import NFCReader

/// The modulation (and bit rate) a target was found with.
public enum TargetModulation: Sendable, Hashable, CaseIterable {
  /// ISO/IEC 14443 type A, 106 kbps (Type 2, Type 4A, MIFARE).
  case iso14443A
  /// ISO/IEC 14443 type B, 106 kbps (Type 4B).
  case iso14443B
  /// FeliCa (JIS X 6319-4) at 212 kbps (Type 3).
  case felica212
  /// FeliCa at 424 kbps.
  case felica424
  /// Innovision Jewel/Topaz, 106 kbps (Type 1).
  case jewel

  /// A stable name for logs and JSON.
  public var name: String {
    switch self {
    case .iso14443A: "ISO14443A"
    case .iso14443B: "ISO14443B"
    case .felica212: "FeliCa212"
    case .felica424: "FeliCa424"
    case .jewel: "Jewel"
    }
  }
}

/// A Type 2 product identified by its GET_VERSION answer (NXP NTAG21x data sheet 10.1,
/// MF0ULx1 data sheet 8.11), or plain Ultralight when there is no answer.
public struct Type2Variant: Sendable, Hashable {
  /// The product name.
  public var name: String
  /// Pages of 4 bytes (configuration pages included).
  public var pageCount: Int

  /// Creates a variant.
  public init(name: String, pageCount: Int) {
    self.name = name
    self.pageCount = pageCount
  }

  /// NTAG213 (storage size byte 0x0F): 45 pages.
  public static let ntag213 = Type2Variant(name: "NTAG213", pageCount: 45)
  /// NTAG215 (0x11): 135 pages.
  public static let ntag215 = Type2Variant(name: "NTAG215", pageCount: 135)
  /// NTAG216 (0x13): 231 pages.
  public static let ntag216 = Type2Variant(name: "NTAG216", pageCount: 231)
  /// MIFARE Ultralight EV1 MF0UL11 (0x0B): 20 pages.
  public static let ultralightEV1Small = Type2Variant(name: "MIFARE Ultralight EV1 (MF0UL11)", pageCount: 20)
  /// MIFARE Ultralight EV1 MF0UL21 (0x0E): 41 pages.
  public static let ultralightEV1Large = Type2Variant(name: "MIFARE Ultralight EV1 (MF0UL21)", pageCount: 41)
  /// MIFARE Ultralight (no GET_VERSION): 16 pages.
  public static let ultralight = Type2Variant(name: "MIFARE Ultralight", pageCount: 16)

  /// The variant for an 8-byte GET_VERSION answer (vendor 0x04 NXP; product type 0x04
  /// NTAG or 0x03 Ultralight; byte 6 the storage size), nil when unknown.
  public init?(version: [UInt8]) {
    guard version.count == 8, version[1] == 0x04 else { return nil }
    switch (version[2], version[6]) {
    case (0x04, 0x0F): self = .ntag213
    case (0x04, 0x11): self = .ntag215
    case (0x04, 0x13): self = .ntag216
    case (0x03, 0x0B): self = .ultralightEV1Small
    case (0x03, 0x0E): self = .ultralightEV1Large
    default: return nil
    }
  }
}

/// The kind of tag, from the modulation, SAK/ATQA and GET_VERSION.
public enum TagKind: Sendable, Hashable {
  /// NFC Forum Type 1 (Jewel/Topaz).
  case type1
  /// NFC Forum Type 2 (SAK 0x00), with its variant when identified.
  case type2(Type2Variant?)
  /// NFC Forum Type 3 (FeliCa).
  case type3
  /// ISO-DEP (ISO/IEC 14443-4): NFC Forum Type 4 candidates (SAK bit 0x20, or type B).
  case type4
  /// MIFARE Classic (SAK 0x08/0x18/0x09/0x19/0x88): not an NFC Forum type; NDEF through
  /// the MAD (``LibNFCReader/readMifareClassic(from:keyring:options:)``).
  case mifareClassic
  /// Anything else.
  case unknown

  /// A stable name for logs and JSON.
  public var name: String {
    switch self {
    case .type1: "type1"
    case .type2: "type2"
    case .type3: "type3"
    case .type4: "type4"
    case .mifareClassic: "mifareClassic"
    case .unknown: "unknown"
    }
  }
}

/// A tag found by a ``LibNFCReader``. It is a handle: operations check that it is still
/// the reader's current tag and that the reader (its session) is still open.
public struct LibNFCTag: DetectedTag, Hashable {
  /// The modulation it was found with.
  public var modulation: TargetModulation
  /// The UID (NFCID1 for type A, PUPI for type B, IDm for FeliCa, the 4-byte ID for Jewel).
  public var uid: [UInt8]
  /// ATQA (SENS_RES), 2 bytes as the PN53x reports them (type A and Jewel).
  public var atqa: [UInt8]
  /// SAK (SEL_RES), type A only.
  public var sak: UInt8?
  /// The answer to select without its length byte (ISO-DEP type A), empty otherwise.
  public var ats: [UInt8]
  /// The GET_VERSION answer (Type 2 products that have one).
  public var version: [UInt8]?
  /// What kind of tag this is.
  public var kind: TagKind
  let generation: UInt64

  /// The UID: each tag is reported once while it stays in the field.
  public var identifier: [UInt8] { uid }

  /// The Type 2 variant, when the tag is a Type 2 tag with a known variant.
  public var type2Variant: Type2Variant? {
    if case .type2(let variant) = kind { return variant }
    return nil
  }
}
