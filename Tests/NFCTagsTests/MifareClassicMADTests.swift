// SPDX-License-Identifier: Apache-2.0
import NFCTags
import Testing

@Suite("MIFARE Application Directory")
struct MifareClassicMADTests {
  /// CRC-8/MIFARE-MAD: poly 0x1D, init 0xC7, MSB first, no final XOR (AN10787 §3.9).
  @Test func crcCheckValue() {
    #expect(MifareClassicMAD.crc(Array("123456789".utf8)) == 0x99)
  }

  /// AN10787's example MAD (as libfreefare's test_mad.c spells it): info 01, sectors 1-3
  /// `01 08`, 4-6 free, 7 card holder `04 00`, 8-9 `03 10`, 10-11 `02 10`, 12-14 free, 15 `11 30`.
  @Test func applicationNoteExample() {
    let aids: [MifareClassicApplicationIdentifier] =
      Array(
        repeating: MifareClassicApplicationIdentifier(functionCluster: 0x08, applicationCode: 0x01), count: 3)
      + Array(repeating: .free, count: 3) + [.cardHolder]
      + Array(
        repeating: MifareClassicApplicationIdentifier(functionCluster: 0x10, applicationCode: 0x03), count: 2)
      + Array(
        repeating: MifareClassicApplicationIdentifier(functionCluster: 0x10, applicationCode: 0x02), count: 2)
      + Array(repeating: .free, count: 3) + [
        MifareClassicApplicationIdentifier(functionCluster: 0x30, applicationCode: 0x11)
      ]
    let mad = MifareClassicMAD(aids: aids, cardPublisherSector: 1)
    #expect(mad.mad1CRC == 0x89)
    #expect(
      mad.mad1Bytes
        == hex(
          "89 01 01 08 01 08 01 08 00 00 00 00 00 00 04 00  03 10 03 10 02 10 02 10 00 00 00 00 00 00 11 30"))
    #expect(mad.aid(forSector: 7) == .cardHolder)
    #expect(mad.aid(forSector: 7)?.name == "cardHolder")
    #expect(mad.cardPublisherSector == 1)
  }

  /// Two real dumps (libfreefare test_mad.c): five and six NDEF sectors, then free.
  @Test(arguments: [(5, 0xC4), (6, 0xAB)] as [(Int, UInt8)])
  func realDumps(ndefCount: Int, crc: UInt8) {
    let aids = Array(repeating: MifareClassicApplicationIdentifier.ndef, count: ndefCount)
    let mad = MifareClassicMAD(aids: aids, cardPublisherSector: 1)
    #expect(mad.mad1CRC == crc)
    #expect(mad.sectors(of: .ndef) == Array(1...ndefCount))
  }

  /// The canonical NDEF MADs: `14 01 03 E1 ...` on a 1K card, MAD2 CRC 0xE8 on a 4K card.
  @Test func canonicalNDEFMADs() {
    let oneK = MifareClassicMAD.ndef(for: .classic1K)
    #expect(oneK.mad1Bytes == hex("14 01") + Array(repeating: hex("03 E1"), count: 15).flatMap { $0 })
    #expect(!oneK.hasMAD2 && oneK.mad2Bytes.isEmpty)
    let fourK = MifareClassicMAD.ndef(for: .classic4K)
    #expect(fourK.mad1CRC == 0x14)
    #expect(fourK.mad2Bytes == hex("E8 01") + Array(repeating: hex("03 E1"), count: 23).flatMap { $0 })
    #expect(fourK.sectors(of: .ndef) == Array(1...15) + Array(17...39))
    #expect(
      fourK.aid(forSector: 0) == nil && fourK.aid(forSector: 16) == nil && fourK.aid(forSector: 40) == nil)
    // A Mini has sectors 1-4: the others are not applicable.
    let mini = MifareClassicMAD.ndef(for: .mini)
    #expect(mini.sectors(of: .ndef) == [1, 2, 3, 4])
    #expect(mini.aid(forSector: 5) == .notApplicable)
    #expect(mini.mad1CRC == mini.computedMAD1CRC)
  }

  @Test func applicationIdentifiers() {
    #expect(MifareClassicApplicationIdentifier.ndef.cardBytes == [0x03, 0xE1])
    #expect(MifareClassicApplicationIdentifier.ndef.functionCluster == 0xE1)
    #expect(MifareClassicApplicationIdentifier.ndef.applicationCode == 0x03)
    #expect("\(MifareClassicApplicationIdentifier.ndef)" == "03e1")
    let names = [0, 1, 2, 3, 4, 5].map { MifareClassicApplicationIdentifier(rawValue: UInt16($0)).name }
    #expect(names == ["free", "defect", "reserved", "additionalDirectory", "cardHolder", "notApplicable"])
    #expect(MifareClassicApplicationIdentifier(rawValue: 0x3011).name == "application")
  }

  @Test func generalPurposeBytes() {
    let c1 = MifareClassicMADGeneralPurposeByte.mad1
    #expect(c1.isMADAvailable && c1.isMultiApplication && c1.madVersion == 1)
    #expect(MifareClassicMADGeneralPurposeByte.mad2.madVersion == 2)
    #expect(!MifareClassicMADGeneralPurposeByte(rawValue: 0x69).isMADAvailable)
    let nfc = MifareClassicNFCSectorGeneralPurposeByte.readWrite
    #expect(nfc.majorVersion == 1 && nfc.minorVersion == 0 && nfc.readAccess == 0 && nfc.isWritable)
    let locked = MifareClassicNFCSectorGeneralPurposeByte.readOnly
    #expect(locked.writeAccess == 3 && !locked.isWritable && locked.readAccess == 0)
  }
}
