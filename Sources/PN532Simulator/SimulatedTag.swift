// SPDX-License-Identifier: Apache-2.0
/// A tag the simulator can put in its field.
public enum SimulatedTag: Sendable {
  /// An NFC Forum Type 2 tag.
  case type2(SimulatedType2Tag)
  /// An ISO-DEP (Type 4) tag over ISO/IEC 14443 type A.
  case type4(SimulatedType4Tag)
  /// An ISO-DEP tag over ISO/IEC 14443 type B: the UID is the 4-byte PUPI.
  case type4B(SimulatedType4Tag)
  /// A FeliCa (Type 3) tag.
  case felica(SimulatedFeliCaTag)
  /// A Type 1 tag (Jewel, Topaz 96 or Topaz 512).
  case jewel(SimulatedJewelTag)
  /// A MIFARE Classic Mini, 1K or 4K card (ISO/IEC 14443-3 type A, not ISO-DEP).
  case mifareClassic(SimulatedMifareClassicTag)

  /// The UID (PUPI for type B, IDm for FeliCa, the ID for Jewel).
  public var uid: [UInt8] {
    switch self {
    case .type2(let tag): tag.uid
    case .type4(let tag), .type4B(let tag): tag.uid
    case .felica(let tag): tag.idm
    case .jewel(let tag): tag.id
    case .mifareClassic(let tag): tag.uid
    }
  }

  /// InListPassiveTarget target data for a baud rate/modulation code (PN532 user manual
  /// 7.3.5): type A `Tg ATQA SAK len UID [ATS]`, FeliCa `Tg len 01 IDm PMm SC`, type B
  /// `Tg ATQB len ATTRIB_RES`, Jewel `Tg SENS_RES ID`; nil when the tag does not answer it.
  func targetData(bitRate: UInt8) -> [UInt8]? {
    switch (self, bitRate) {
    case (.type2(let tag), 0x00):
      return [0x01] + tag.atqa + [tag.sak, UInt8(tag.uid.count)] + tag.uid
    case (.mifareClassic(let tag), 0x00):
      return [0x01] + tag.product.atqa + [tag.product.sak, UInt8(tag.uid.count)] + tag.uid
    case (.type4(let tag), 0x00):
      return [0x01] + tag.atqa + [tag.sak, UInt8(tag.uid.count)] + tag.uid + [UInt8(tag.ats.count + 1)]
        + tag.ats
    case (.felica(let tag), 0x01), (.felica(let tag), 0x02):
      return [0x01, 0x14, 0x01] + tag.idm + tag.pmm + tag.systemCode
    case (.type4B(let tag), 0x03):
      return [0x01, 0x50] + tag.uid.prefix(4) + [0x00, 0x00, 0x00, 0x00, 0x80, 0x81, 0x71, 0x01, 0x00]
    case (.jewel(let tag), 0x04):
      return [0x01] + tag.sensRes + tag.id
    default:
      return nil
    }
  }

  var targetData: [UInt8] { targetData(bitRate: 0x00) ?? [] }
}
