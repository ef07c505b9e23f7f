// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The card name NN NN of a contactless storage-card ATR (PC/SC Part 3 §3.1.3.2.3,
/// as listed in pcsc-tools 1.6.2 `smartcard_list.txt` "as per PCSC std part3"),
/// plus the vendor codes readers use outside the table: ACS `F0 04` Topaz, `F0 11` FeliCa
/// 212 kbit/s, `F0 12` FeliCa 424 kbit/s (ACR122T API §7.3, AET62 §8.3) and `FF <SAK>`
/// for a card the reader does not know (wsrf2009/contactless-driver `pcsc_building_atr`).
///
/// There is no NTAG code: every NTAG reports 0003 (Ultralight); GET_VERSION or the
/// capability container tells them apart. Unknown values are kept.
public struct StorageCardName: RawRepresentable, Sendable, Hashable {
  /// NN NN, most significant byte first.
  public let rawValue: UInt16
  /// Creates a name from NN NN.
  public init(rawValue: UInt16) { self.rawValue = rawValue }

  /// 0001: MIFARE Classic 1K.
  public static let mifareClassic1K = StorageCardName(rawValue: 0x0001)
  /// 0002: MIFARE Classic 4K.
  public static let mifareClassic4K = StorageCardName(rawValue: 0x0002)
  /// 0003: MIFARE Ultralight, and every NTAG (Type 2).
  public static let mifareUltralight = StorageCardName(rawValue: 0x0003)
  /// 0012: TI Tag-it HF-I.
  public static let tagIt = StorageCardName(rawValue: 0x0012)
  /// 0013: ST LRI512.
  public static let lri512 = StorageCardName(rawValue: 0x0013)
  /// 0014: NXP ICODE SLI (and SLIX).
  public static let icodeSLI = StorageCardName(rawValue: 0x0014)
  /// 0026: MIFARE Mini.
  public static let mifareMini = StorageCardName(rawValue: 0x0026)
  /// 002F: Innovision Jewel (Type 1).
  public static let jewel = StorageCardName(rawValue: 0x002F)
  /// 0030: Innovision Topaz (Type 1).
  public static let topaz = StorageCardName(rawValue: 0x0030)
  /// 003A: MIFARE Ultralight C.
  public static let mifareUltralightC = StorageCardName(rawValue: 0x003A)
  /// 003B: FeliCa (Type 3).
  public static let felica = StorageCardName(rawValue: 0x003B)
  /// 003D: MIFARE Ultralight EV1.
  public static let mifareUltralightEV1 = StorageCardName(rawValue: 0x003D)
  /// ACS F004: Topaz (ACR122T API §7.3).
  public static let acsTopaz = StorageCardName(rawValue: 0xF004)
  /// ACS F011: FeliCa 212 kbit/s (ACR122T API §7.3).
  public static let acsFeliCa212 = StorageCardName(rawValue: 0xF011)
  /// ACS F012: FeliCa 424 kbit/s (ACR122T API §7.3).
  public static let acsFeliCa424 = StorageCardName(rawValue: 0xF012)

  /// `FF <SAK>`: the ISO/IEC 14443 A SAK of a card the reader has no name for
  /// (contactless-driver `pcsc_building_atr`).
  public static func unknownSAK(_ sak: UInt8) -> StorageCardName {
    StorageCardName(rawValue: 0xFF00 | UInt16(sak))
  }

  /// The SAK when the name is `FF <SAK>`, else `nil`.
  public var sak: UInt8? { rawValue >> 8 == 0xFF ? UInt8(truncatingIfNeeded: rawValue) : nil }

  /// The card's name as the Part 3 table (or the reader vendor) gives it; `nil` for a code
  /// without one. `FF <SAK>` gives "unknown card, SAK XX".
  public var name: String? {
    if let sak { return "unknown card, SAK \(Self.hex(sak))" }
    switch rawValue {
    case 0x0001: return "MIFARE Classic 1K"
    case 0x0002: return "MIFARE Classic 4K"
    case 0x0003: return "MIFARE Ultralight"
    case 0x0004: return "SLE55R_XXXX"
    case 0x0006: return "SR176"
    case 0x0007: return "SRI X4K"
    case 0x0008: return "AT88RF020"
    case 0x0009: return "AT88SC0204CRF"
    case 0x000A: return "AT88SC0808CRF"
    case 0x000B: return "AT88SC1616CRF"
    case 0x000C: return "AT88SC3216CRF"
    case 0x000D: return "AT88SC6416CRF"
    case 0x000E: return "SRF55V10P"
    case 0x000F: return "SRF55V02P"
    case 0x0010: return "SRF55V10S"
    case 0x0011: return "SRF55V02S"
    case 0x0012: return "Tag-it"
    case 0x0013: return "LRI512"
    case 0x0014: return "ICODE SLI"
    case 0x0015: return "TEMPSENS"
    case 0x0016: return "I.CODE1"
    case 0x0017...0x0020: return Self.picoPass[Int(rawValue &- 0x0017)]
    case 0x0021: return "LRI64"
    case 0x0022: return "I.CODE UID"
    case 0x0023: return "I.CODE EPC"
    case 0x0024: return "LRI12"
    case 0x0025: return "LRI128"
    case 0x0026: return "MIFARE Mini"
    case 0x0027: return "my-d move (SLE 66R01P)"
    case 0x0028: return "my-d NFC (SLE 66RxxP)"
    case 0x0029: return "my-d proximity 2 (SLE 66RxxS)"
    case 0x002A: return "my-d proximity enhanced (SLE 55RxxE)"
    case 0x002B: return "my-d light (SRF 55V01P)"
    case 0x002C: return "PJM Stack Tag (SRF 66V10ST)"
    case 0x002D: return "PJM Item Tag (SRF 66V10IT)"
    case 0x002E: return "PJM Light (SRF 66V01ST)"
    case 0x002F: return "Jewel"
    case 0x0030: return "Topaz"
    case 0x0031: return "AT88SC0104CRF"
    case 0x0032: return "AT88SC0404CRF"
    case 0x0033: return "AT88RF01C"
    case 0x0034: return "AT88RF04C"
    case 0x0035: return "i-Code SL2"
    case 0x0036: return "MIFARE Plus SL1 2K"
    case 0x0037: return "MIFARE Plus SL1 4K"
    case 0x0038: return "MIFARE Plus SL2 2K"
    case 0x0039: return "MIFARE Plus SL2 4K"
    case 0x003A: return "MIFARE Ultralight C"
    case 0x003B: return "FeliCa"
    case 0x003C: return "Melexis MLX90129"
    case 0x003D: return "MIFARE Ultralight EV1"
    case 0xF004: return "Topaz (ACS)"
    case 0xF011: return "FeliCa 212K (ACS)"
    case 0xF012: return "FeliCa 424K (ACS)"
    default: return nil
    }
  }

  /// PicoPass 0017-0020 in table order.
  private static let picoPass = [
    "PicoPass 2K", "PicoPass 2KS", "PicoPass 16K", "PicoPass 16KS", "PicoPass 16K (8x2)",
    "PicoPass 16KS (8x2)", "PicoPass 32KS (16+16)", "PicoPass 32KS (16+8x2)", "PicoPass 32KS (8x2+16)",
    "PicoPass 32KS (8x2+8x2)",
  ]

  /// The NFC Forum memory model Tapwire reads the card with, `nil` when it has none.
  ///
  /// `FF <SAK>` maps SAK 08/88 (1K), 09 (Mini) and 18 (4K) to MIFARE Classic and SAK 00 to
  /// Type 2 (ISO/IEC 14443-3 §6.4.3 with NXP AN10833 SAK values).
  public var kind: StorageCardKind? {
    if let sak {
      switch sak {
      case 0x08, 0x88: return .mifareClassic(sectors: 16)
      case 0x09: return .mifareClassic(sectors: 5)
      case 0x18: return .mifareClassic(sectors: 40)
      case 0x00: return .type2
      default: return nil
      }
    }
    switch rawValue {
    case 0x0001: return .mifareClassic(sectors: 16)
    case 0x0002: return .mifareClassic(sectors: 40)
    case 0x0026: return .mifareClassic(sectors: 5)
    case 0x0003, 0x003A, 0x003D: return .type2
    case 0x002F, 0x0030, 0xF004: return .type1
    case 0x003B, 0xF011, 0xF012: return .type3
    case 0x0012, 0x0013, 0x0014, 0x0021, 0x0024, 0x0025, 0x0035: return .type5
    default: return nil
    }
  }

  static func hex(_ byte: UInt8) -> String { Hex.uppercaseString([byte]) }
}

/// The memory model a storage card is read with (NFC Forum tag types, MIFARE Classic).
public enum StorageCardKind: Sendable, Hashable {
  /// NFC Forum Type 1 (Topaz, Jewel): 8-byte blocks.
  case type1
  /// NFC Forum Type 2 (Ultralight, NTAG): 4-byte pages, READ BINARY P2 = page.
  case type2
  /// NFC Forum Type 3 (FeliCa): 16-byte blocks behind services.
  case type3
  /// NFC Forum Type 5 (ISO/IEC 15693): reader-specific block addressing.
  case type5
  /// MIFARE Classic with `sectors` sectors (Mini 5, 1K 16, 4K 40): absolute blocks.
  case mifareClassic(sectors: Int)
}
