// SPDX-License-Identifier: Apache-2.0

import PCSCControl
import Testing

@Suite("StorageCardATR")
struct StorageCardATRTests {
  static let prefix: [UInt8] = [0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06]

  static func atr(_ ss: UInt8, _ n1: UInt8, _ n2: UInt8, tck: UInt8) -> [UInt8] {
    prefix + [ss, n1, n2, 0x00, 0x00, 0x00, 0x00, tck]
  }

  /// The verified ATRs of the PC/SC storage-card notes (pcsc_scan, ACS manuals, pcsc-tools).
  static let vectors: [([UInt8], StorageCardStandard, StorageCardName, String, StorageCardKind?)] = [
    (
      atr(0x03, 0x00, 0x01, tck: 0x6A), .iso14443APart3, .mifareClassic1K, "MIFARE Classic 1K",
      .mifareClassic(sectors: 16)
    ),
    (
      atr(0x03, 0x00, 0x02, tck: 0x69), .iso14443APart3, .mifareClassic4K, "MIFARE Classic 4K",
      .mifareClassic(sectors: 40)
    ),
    (atr(0x03, 0x00, 0x03, tck: 0x68), .iso14443APart3, .mifareUltralight, "MIFARE Ultralight", .type2),
    (
      atr(0x03, 0x00, 0x26, tck: 0x4D), .iso14443APart3, .mifareMini, "MIFARE Mini",
      .mifareClassic(sectors: 5)
    ),
    (atr(0x03, 0x00, 0x3A, tck: 0x51), .iso14443APart3, .mifareUltralightC, "MIFARE Ultralight C", .type2),
    (
      atr(0x03, 0x00, 0x3D, tck: 0x56), .iso14443APart3, .mifareUltralightEV1, "MIFARE Ultralight EV1", .type2
    ),
    (atr(0x11, 0x00, 0x3B, tck: 0x42), .felica, .felica, "FeliCa", .type3),
    (atr(0x03, 0xF0, 0x11, tck: 0x8A), .iso14443APart3, .acsFeliCa212, "FeliCa 212K (ACS)", .type3),
    (atr(0x03, 0xF0, 0x04, tck: 0x9F), .iso14443APart3, .acsTopaz, "Topaz (ACS)", .type1),
    (atr(0x0B, 0x00, 0x14, tck: 0x77), .iso15693Part3, .icodeSLI, "ICODE SLI", .type5),
    (atr(0x0B, 0x00, 0x12, tck: 0x71), .iso15693Part3, .tagIt, "Tag-it", .type5),
  ]

  @Test(arguments: vectors)
  func verifiedATRs(
    bytes: [UInt8], standard: StorageCardStandard, name: StorageCardName, label: String,
    kind: StorageCardKind?
  ) throws {
    let atr = try StorageCardATR(parsing: bytes)
    #expect(atr.standard == standard)
    #expect(atr.cardName == name)
    #expect(atr.cardName.name == label)
    #expect(atr.cardName.kind == kind)
    #expect(atr.reserved == 0)
    #expect(atr.encodedBytes() == bytes)
    #expect(StorageCardATR.hasStorageCardPrefix(bytes))
  }

  @Test func standardLabels() {
    #expect(StorageCardStandard.iso14443APart3.label == "ISO/IEC 14443 A part 3")
    #expect(StorageCardStandard.iso15693Part3.label == "ISO/IEC 15693 part 3")
    #expect(StorageCardStandard.felica.label == "FeliCa")
    #expect(StorageCardStandard.iso14443BPart3.label == "ISO/IEC 14443 B part 3")
    #expect(StorageCardStandard.lowFrequency.label == "low frequency contactless")
    #expect(StorageCardStandard(rawValue: 0x04).label == nil)
    #expect(StorageCardStandard(rawValue: 0x08).label == nil)
  }

  @Test(arguments: [
    (UInt16(0x0004), "SLE55R_XXXX"), (0x0008, "AT88RF020"), (0x0013, "LRI512"), (0x0017, "PicoPass 2K"),
    (0x0020, "PicoPass 32KS (8x2+8x2)"), (0x0021, "LRI64"), (0x002F, "Jewel"), (0x0030, "Topaz"),
    (0x0035, "i-Code SL2"), (0x0036, "MIFARE Plus SL1 2K"), (0x0039, "MIFARE Plus SL2 4K"),
    (0x003C, "Melexis MLX90129"), (0xF012, "FeliCa 424K (ACS)"), (0xFF08, "unknown card, SAK 08"),
  ])
  func cardNameTable(raw: UInt16, name: String) {
    #expect(StorageCardName(rawValue: raw).name == name)
  }

  @Test func unnamedCodesAndSAK() {
    #expect(StorageCardName(rawValue: 0x0005).name == nil)
    #expect(StorageCardName(rawValue: 0x003E).name == nil)
    #expect(StorageCardName(rawValue: 0xF000).name == nil)
    #expect(StorageCardName.unknownSAK(0x18) == StorageCardName(rawValue: 0xFF18))
    #expect(StorageCardName.unknownSAK(0x18).sak == 0x18)
    #expect(StorageCardName.unknownSAK(0x18).kind == .mifareClassic(sectors: 40))
    #expect(StorageCardName.unknownSAK(0x88).kind == .mifareClassic(sectors: 16))
    #expect(StorageCardName.unknownSAK(0x09).kind == .mifareClassic(sectors: 5))
    #expect(StorageCardName.unknownSAK(0x00).kind == .type2)
    #expect(StorageCardName.unknownSAK(0x20).kind == nil)
    #expect(StorageCardName.mifareClassic1K.sak == nil)
  }

  @Test func encodesTheCheckCharacter() throws {
    let atr = StorageCardATR(standard: .iso15693Part3, cardName: .icodeSLI)
    #expect(atr.encodedBytes() == Self.atr(0x0B, 0x00, 0x14, tck: 0x77))
    let odd = StorageCardATR(standard: .none, cardName: .unknownSAK(0x28), reserved: 0x0102_0304)
    #expect(try StorageCardATR(parsing: odd.encodedBytes()) == odd)
  }

  @Test func everyPrefixByteIsChecked() {
    let good = Self.atr(0x03, 0x00, 0x01, tck: 0x6A)
    for offset in 0..<12 {
      var bad = good
      bad[offset] ^= 0x01
      #expect(throws: PCSCControlError(.notStorageCardATR, offset: offset)) {
        try StorageCardATR(parsing: bad)
      }
    }
  }

  @Test func everyLengthIsChecked() {
    let good = Self.atr(0x03, 0x00, 0x01, tck: 0x6A)
    for count in 0..<20 {
      #expect(throws: PCSCControlError(.truncatedStorageCardATR, offset: count)) {
        try StorageCardATR(parsing: Array(good.prefix(count)))
      }
    }
    #expect(throws: PCSCControlError(.trailingData, offset: 20)) {
      try StorageCardATR(parsing: good + [0x00])
    }
  }

  @Test func everyCheckedByteChangesTCK() {
    let good = Self.atr(0x03, 0x00, 0x01, tck: 0x6A)
    for offset in 12..<20 {
      var bad = good
      bad[offset] ^= 0x80
      #expect(throws: PCSCControlError(.checkCharacterMismatch, offset: 19)) {
        try StorageCardATR(parsing: bad)
      }
    }
    #expect(!StorageCardATR.hasStorageCardPrefix([0x3B, 0x8F]))
    #expect(!StorageCardATR.hasStorageCardPrefix([0x3B, 0x8A, 0x80, 0x01] + Array(repeating: 0, count: 10)))
  }
}
