// SPDX-License-Identifier: Apache-2.0

import PCSCControl
import Testing

@Suite("StorageCardReaderProfile")
struct StorageCardReaderProfileTests {
  @Test(arguments: [
    ("ACS ACR122U PICC Interface 00 00", "acs"),
    ("ACS ACR1252 Dual Reader [ACR1252 Dual Reader PICC] 00 00", "acs"),
    ("HID Global OMNIKEY 5022 Smart Card Reader [OMNIKEY 5022 Smart Card Reader] 00 00", "hid-omnikey"),
    ("HID Global OMNIKEY 5427 CK 01 00", "hid-omnikey"),
    ("Identiv uTrust 3700 F CL Reader 01 00", "identiv-scm"),
    ("SCM Microsystems Inc. SCL011 Contactless Reader 00 00", "identiv-scm"),
    ("Sony FeliCa Port/PaSoRi 3.0", "sony"),
    ("Gemalto Prox-DU Contactless_", "gemalto-gemprox"), ("Gemalto PC Twin Reader 00 00", "generic"),
    ("Tapwire Virtual NFC Reader 00 00", "generic"), ("", "generic"),
  ])
  func matchesReaderNames(name: String, identifier: String) {
    #expect(StorageCardReaderProfile.matching(readerName: name).identifier == identifier)
  }

  @Test func keyNumbering() {
    #expect(StorageCardReaderProfile.acs.loadKeysKeyNumber(keyType: .keyB, slot: 1) == 1)
    #expect(StorageCardReaderProfile.identivSCM.loadKeysKeyNumber(keyType: .keyB, slot: 0) == 0x61)
    #expect(StorageCardReaderProfile.identivSCM.authenticateKeyNumber(keyType: .keyB, slot: 0) == 0)
    #expect(StorageCardReaderProfile.gemaltoGemProx.loadKeysKeyNumber(keyType: .keyB, slot: 2) == 0x12)
    #expect(StorageCardReaderProfile.gemaltoGemProx.loadKeysKeyNumber(keyType: .keyA, slot: 2) == 0x02)
    #expect(StorageCardReaderProfile.gemaltoGemProx.authenticateKeyNumber(keyType: .keyB, slot: 2) == 0)
    #expect(StorageCardReaderProfile.acs.keySlots == 0...1)
    #expect(StorageCardReaderProfile.acs.reportsEveryFailureAsNoInformation)
    #expect(StorageCardReaderProfile.acs.hasDirectTransmit)
    #expect(StorageCardReaderProfile.hidOmnikey.keyStructure == .nonVolatile)
  }

  @Test func overridableAndNamed() {
    var profile = StorageCardReaderProfile.matching(readerName: "ACS ACR122U PICC Interface")
    profile.keyStructure = .nonVolatile
    #expect(
      profile.loadKeysPlan(key: [0, 0, 0, 0, 0, 0], keyType: .keyA, slot: 0).attempts[0].keyStructure
        == .nonVolatile)
    #expect(StorageCardReaderProfile(identifier: "sony") == .sony)
    #expect(StorageCardReaderProfile(identifier: "nope") == nil)
    #expect(Set(StorageCardReaderProfile.all.map(\.identifier)).count == StorageCardReaderProfile.all.count)
  }

  @Test func loadKeysFallback() throws {
    let key: [UInt8] = [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7]
    let plan = StorageCardReaderProfile.hidOmnikey.loadKeysPlan(key: key, keyType: .keyA, slot: 0)
    #expect(
      try plan.attempts.map { try $0.encodedBytes() } == [
        [0xFF, 0x82, 0x20, 0x00, 0x06] + key, [0xFF, 0x82, 0x00, 0x00, 0x06] + key,
      ])
    #expect(plan.attempt(after: 0, answered: .nonVolatileMemoryNotAvailable) == plan.attempts[1])
    #expect(plan.attempt(after: 0, answered: .volatileMemoryNotAvailable) == plan.attempts[1])
    #expect(plan.attempt(after: 0, answered: .wrongParameters) == plan.attempts[1])
    #expect(plan.attempt(after: 0, answered: .noInformation) == plan.attempts[1])
    #expect(plan.attempt(after: 0, answered: .loaded) == nil)
    #expect(plan.attempt(after: 0, answered: .keyLengthNotCorrect) == nil)
    #expect(plan.attempt(after: 1, answered: .noInformation) == nil)
    #expect(plan.attempt(after: -1, answered: .noInformation) == nil)
    let scm = StorageCardReaderProfile.identivSCM.loadKeysPlan(key: key, keyType: .keyB, slot: 0)
    #expect(try scm.attempts[0].encodedBytes() == [0xFF, 0x82, 0x00, 0x61, 0x06] + key)
  }
}
