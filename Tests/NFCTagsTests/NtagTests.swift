// SPDX-License-Identifier: Apache-2.0

import NFCTags
import Testing

@Suite("NtagVersion")
struct NtagVersionTests {
  /// GET_VERSION answers from the NXP data sheets (NTAG213/215/216 §10.1, NTAG210/212
  /// §10.1, NTAG 210µ, MF0ULX1, NT3H1101/1201, NT3H2111/2211).
  @Test(arguments: [
    ([UInt8](arrayLiteral: 0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0B, 0x03), "NTAG210", 32...64),
    ([0x00, 0x04, 0x04, 0x01, 0x02, 0x00, 0x0B, 0x03], "NTAG210u NT2L1001", 32...64),
    ([0x00, 0x04, 0x04, 0x02, 0x02, 0x00, 0x0B, 0x03], "NTAG210u NT2H1001", 32...64),
    ([0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0E, 0x03], "NTAG212", 128...128),
    ([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03], "NTAG213", 128...256),
    ([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03], "NTAG215", 256...512),
    ([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03], "NTAG216", 512...1024),
    ([0x00, 0x04, 0x04, 0x05, 0x02, 0x01, 0x13, 0x03], "NTAG I2C 1k NT3H1101", 512...1024),
    ([0x00, 0x04, 0x04, 0x05, 0x02, 0x01, 0x15, 0x03], "NTAG I2C 2k NT3H1201", 1024...2048),
    ([0x00, 0x04, 0x04, 0x05, 0x02, 0x02, 0x13, 0x03], "NTAG I2C plus 1k NT3H2111", 512...1024),
    ([0x00, 0x04, 0x04, 0x05, 0x02, 0x02, 0x15, 0x03], "NTAG I2C plus 2k NT3H2211", 1024...2048),
    ([0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03], "MIFARE Ultralight EV1 MF0UL11", 32...64),
    ([0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0E, 0x03], "MIFARE Ultralight EV1 MF0UL21", 128...128),
    ([0x00, 0x04, 0x03, 0x02, 0x01, 0x00, 0x0B, 0x03], "MIFARE Ultralight EV1 MF0ULH11", 32...64),
    ([0x00, 0x04, 0x03, 0x02, 0x01, 0x00, 0x0E, 0x03], "MIFARE Ultralight EV1 MF0ULH21", 128...128),
  ])
  func namesTheChip(bytes: [UInt8], name: String, storage: ClosedRange<Int>) throws {
    let version = try NtagVersion(parsing: bytes)
    #expect(version.chip?.name == name)
    #expect(version.storageSizeRange == storage)
    #expect(version.encodedBytes() == bytes)
  }

  @Test func layoutsComeFromTheVariantTable() throws {
    let ntag215 = try NtagVersion(parsing: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03])
    #expect(ntag215.chip?.variant == .ntag215)
    #expect(ntag215.chip?.hasFastRead == true)
    #expect(ntag215.chip?.hasPasswordProtection == true)
    #expect(ntag215.storageSizeRange.contains(Type2TagVariant.ntag215.userMemorySize))
    let mf0ulh21 = try NtagVersion(parsing: [0x00, 0x04, 0x03, 0x02, 0x01, 0x00, 0x0E, 0x03])
    #expect(mf0ulh21.chip?.variant == .ultralightEV1MF0UL21)
    let ntag210u = try NtagVersion(parsing: [0x00, 0x04, 0x04, 0x01, 0x02, 0x00, 0x0B, 0x03])
    #expect(ntag210u.chip?.variant == nil)
    #expect(ntag210u.chip?.hasFastRead == false)
    #expect(ntag210u.chip?.hasPasswordProtection == false)
    for variant in Type2TagVariant.all where !variant.version.isEmpty {
      #expect(try NtagVersion(parsing: variant.version).chip?.variant == variant)
      #expect(NtagVersion.length == variant.version.count)
    }
    // Ultralight and Ultralight C have no GET_VERSION.
    #expect(Type2TagVariant.ultralight.version.isEmpty)
    #expect(Type2TagVariant.ultralightC.version.isEmpty)
  }

  @Test func unknownChips() throws {
    #expect(try NtagVersion(parsing: [0x00, 0x05, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]).chip == nil)
    #expect(try NtagVersion(parsing: [0x01, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]).chip == nil)
    #expect(try NtagVersion(parsing: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x04]).chip == nil)
    #expect(try NtagVersion(parsing: [0x00, 0x04, 0x04, 0x09, 0x01, 0x00, 0x11, 0x03]).chip == nil)
    let huge = try NtagVersion(parsing: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0xFF, 0x03])
    #expect(huge.storageSizeRange == (1 << 30)...(1 << 31))
    // Fuzz regression (Corpus/storagecard/regressions): storage byte 01 is "between 1 and 2
    // bytes"; the range must not be empty (it trapped).
    let tiny = try NtagVersion(parsing: [0x05, 0x04, 0x01, 0x00, 0xB2, 0x29, 0x01, 0x00])
    #expect(tiny.storageSizeRange == 1...2)
    #expect(tiny.chip == nil)
  }

  @Test func malformedAnswers() {
    for nak: UInt8 in [0x0, 0x1, 0x4, 0x5] {
      #expect(throws: NFCTagError(.negativeAcknowledge, offset: 0)) { try NtagVersion(parsing: [nak]) }
    }
    for count in 0..<8 where count != 1 {
      #expect(throws: NFCTagError(.responseTooShort, offset: count)) {
        try NtagVersion(parsing: Array(repeating: 0x04, count: count))
      }
    }
    #expect(throws: NFCTagError(.responseTooShort, offset: 1)) { try NtagVersion(parsing: [0x0A]) }
    #expect(throws: NFCTagError(.unexpectedResponse, offset: 8)) {
      try NtagVersion(parsing: Array(repeating: 0, count: 9))
    }
  }
}

@Suite("NtagCommand")
struct NtagCommandTests {
  @Test func frames() throws {
    #expect(NtagCommand.getVersion == [0x60])
    #expect(try NtagCommand.fastRead(from: 0x04, through: 0x07) == [0x3A, 0x04, 0x07])
    #expect(NtagCommand.fastReadLength(from: 0x04, through: 0x07) == 16)
    #expect(NtagCommand.fastReadLength(from: 0x00, through: 0xE6) == 924)
    #expect(NtagCommand.fastReadLength(from: 0x05, through: 0x04) == 0)
    #expect(throws: NFCTagError(.invalidPageRange, offset: 2)) {
      try NtagCommand.fastRead(from: 5, through: 4)
    }
    #expect(NtagCommand.readSignature == [0x3C, 0x00])
    #expect(NtagCommand.readCounter() == [0x39, 0x02])
    #expect(NtagCommand.readCounter(0) == [0x39, 0x00])
    let password = try #require(NtagPassword([0x11, 0x22, 0x33, 0x44]))
    #expect(NtagCommand.passwordAuthentication(password) == [0x1B, 0x11, 0x22, 0x33, 0x44])
  }

  @Test func answers() throws {
    let page: [UInt8] = Array(0..<16)
    #expect(try NtagCommand.fastReadAnswer(page, from: 4, through: 7) == page)
    #expect(throws: NFCTagError(.responseTooShort, offset: 15)) {
      try NtagCommand.fastReadAnswer(Array(page.dropLast()), from: 4, through: 7)
    }
    #expect(throws: NFCTagError(.unexpectedResponse, offset: 16)) {
      try NtagCommand.fastReadAnswer(page + [0], from: 4, through: 7)
    }
    let signature: [UInt8] = Array(repeating: 0x5A, count: 32)
    #expect(try NtagCommand.signature(parsing: signature) == signature)
    #expect(throws: NFCTagError(.responseTooShort, offset: 31)) {
      try NtagCommand.signature(parsing: Array(signature.dropLast()))
    }
    #expect(throws: NFCTagError(.unexpectedResponse, offset: 32)) {
      try NtagCommand.signature(parsing: signature + [0])
    }
    #expect(try NtagCommand.counter(parsing: [0x01, 0x02, 0x03]) == 0x03_0201)
    #expect(try NtagCommand.counter(parsing: [0xFF, 0xFF, 0xFF]) == 0xFF_FFFF)
    #expect(throws: NFCTagError(.responseTooShort, offset: 2)) {
      try NtagCommand.counter(parsing: [0x01, 0x02])
    }
    #expect(throws: NFCTagError(.unexpectedResponse, offset: 3)) {
      try NtagCommand.counter(parsing: [1, 2, 3, 4])
    }
    #expect(throws: NFCTagError(.negativeAcknowledge, offset: 0)) { try NtagCommand.counter(parsing: [0x04]) }
  }

  @Test func passwordAcknowledge() throws {
    let pack = NtagPasswordAcknowledge(0xAB, 0xCD)
    #expect(try NtagCommand.passwordAcknowledge(parsing: [0xAB, 0xCD], expected: pack) == pack)
    #expect(try NtagCommand.passwordAcknowledge(parsing: [0x00, 0x00]) == .factoryDefault)
    #expect(throws: NFCTagError(.passwordAcknowledgeMismatch, offset: 0)) {
      try NtagCommand.passwordAcknowledge(parsing: [0xAB, 0xCE], expected: pack)
    }
    #expect(throws: NFCTagError(.negativeAcknowledge, offset: 0)) {
      try NtagCommand.passwordAcknowledge(parsing: [0x00], expected: pack)
    }
    #expect(throws: NFCTagError(.responseTooShort, offset: 0)) {
      try NtagCommand.passwordAcknowledge(parsing: [])
    }
    #expect(throws: NFCTagError(.unexpectedResponse, offset: 2)) {
      try NtagCommand.passwordAcknowledge(parsing: [0xAB, 0xCD, 0x00])
    }
  }

  @Test func thePasswordIsNeverShown() throws {
    let password = try #require(NtagPassword([0xDE, 0xAD, 0xBE, 0xEF]))
    for text in ["\(password)", String(describing: password), String(reflecting: password)] {
      #expect(text == "NtagPassword(4 bytes, hidden)")
    }
    var dumped = ""
    dump(password, to: &dumped)
    #expect(!dumped.contains("222") && !dumped.contains("173") && !dumped.contains("190"))
    #expect(NtagPassword([1, 2, 3]) == nil)
    #expect(NtagPassword([1, 2, 3, 4, 5]) == nil)
    #expect(NtagPassword.factoryDefault.bytes == [0xFF, 0xFF, 0xFF, 0xFF])
  }
}

@Suite("NtagProtectionPlan")
struct NtagProtectionPlanTests {
  static let shipped = NtagConfiguration(
    configuration0: [0x04, 0x00, 0x00, 0xFF], configuration1: [0x00, 0x05, 0x00, 0x00])!
  static let password = NtagPassword([0x11, 0x22, 0x33, 0x44])!

  @Test(arguments: [
    (Type2TagVariant.ntag210, 0x10), (.ntag212, 0x25), (.ntag213, 0x29), (.ntag215, 0x83), (.ntag216, 0xE3),
    (.ultralightEV1MF0UL11, 0x10), (.ultralightEV1MF0UL21, 0x25),
  ])
  func configurationPages(variant: Type2TagVariant, cfg0: Int) throws {
    let pages = try #require(variant.passwordConfigurationPages)
    #expect(
      [pages.configuration0, pages.configuration1, pages.password, pages.passwordAcknowledge] == [
        cfg0, cfg0 + 1, cfg0 + 2, cfg0 + 3,
      ])
  }

  @Test func noPasswordOnUltralightAndUltralightC() {
    #expect(Type2TagVariant.ultralight.passwordConfigurationPages == nil)
    #expect(Type2TagVariant.ultralightC.passwordConfigurationPages == nil)
    #expect(throws: NFCTagError(.passwordProtectionNotSupported, offset: 0)) {
      try NtagProtectionPlan.unprotect(.ultralightC, current: Self.shipped)
    }
  }

  @Test func protectWritesAUTH0Last() throws {
    let plan = try NtagProtectionPlan.protect(
      .ntag213, current: Self.shipped, password: Self.password,
      acknowledge: NtagPasswordAcknowledge(0xAA, 0xBB),
      firstProtectedPage: 0x04, readProtected: true, attemptLimit: 3)
    #expect(
      plan.writes == [
        TagWrite(block: 0x2B, offset: 0xAC, bytes: [0x11, 0x22, 0x33, 0x44]),
        TagWrite(block: 0x2C, offset: 0xB0, bytes: [0xAA, 0xBB, 0x00, 0x00]),
        TagWrite(block: 0x2A, offset: 0xA8, bytes: [0x83, 0x05, 0x00, 0x00]),
        TagWrite(block: 0x29, offset: 0xA4, bytes: [0x04, 0x00, 0x00, 0x04]),
      ])
    #expect(plan.description == "protect: PWD 0x2B (hidden), PACK 0x2C, CFG1 0x2A, CFG0 0x29 (AUTH0 0x04)")
    #expect(String(reflecting: plan) == plan.description)
    var dumped = ""
    dump(plan, to: &dumped)
    #expect(!dumped.contains("- 17") && !dumped.contains("- 51") && dumped.contains("writeCount: 4"))
    // Tearing: every prefix of the plan leaves AUTH0 at FF (nothing protected) until the last write.
    let image =
      Array(repeating: UInt8(0), count: 0xA4) + Self.shipped.configuration0 + Self.shipped.configuration1
      + Array(repeating: 0, count: 8)
    for count in 0...plan.writes.count {
      var torn = image
      TagWritePlan(blockSize: 4, writes: plan.writes, finalImage: image).apply(to: &torn, count: count)
      let configuration = try NtagConfiguration(parsing: Array(torn[0xA4..<0xAC]))
      #expect(configuration.isProtected(pageCount: 45) == (count == plan.writes.count))
    }
  }

  @Test func unprotectWritesAUTH0First() throws {
    var current = Self.shipped
    current.firstProtectedPage = 0x10
    current.access = NtagAccess(rawValue: 0x97)
    let plan = try NtagProtectionPlan.unprotect(.ntag215, current: current)
    #expect(
      plan.writes == [
        TagWrite(block: 0x83, offset: 0x20C, bytes: [0x04, 0x00, 0x00, 0xFF]),
        TagWrite(block: 0x84, offset: 0x210, bytes: [0x10, 0x05, 0x00, 0x00]),
        TagWrite(block: 0x85, offset: 0x214, bytes: [0xFF, 0xFF, 0xFF, 0xFF]),
        TagWrite(block: 0x86, offset: 0x218, bytes: [0x00, 0x00, 0x00, 0x00]),
      ])
    #expect(plan.description == "unprotect: CFG0 0x83 (AUTH0 0xFF), CFG1 0x84, PWD 0x85 (hidden), PACK 0x86")
  }

  @Test func refusals() {
    var locked = Self.shipped
    locked.access = NtagAccess(rawValue: 0x40)
    #expect(throws: NFCTagError(.configurationLocked, offset: 0x2A * 4)) {
      try NtagProtectionPlan.unprotect(.ntag213, current: locked)
    }
    #expect(throws: NFCTagError(.invalidAuthenticationLimit, offset: 0)) {
      try NtagProtectionPlan.protect(
        .ntag213, current: Self.shipped, password: Self.password, acknowledge: .factoryDefault,
        firstProtectedPage: 4, readProtected: false, attemptLimit: 8)
    }
    #expect(throws: NFCTagError(.invalidPageRange, offset: 0)) {
      try NtagProtectionPlan.protect(
        .ntag213, current: Self.shipped, password: Self.password, acknowledge: .factoryDefault,
        firstProtectedPage: 45, readProtected: false, attemptLimit: 0)
    }
  }

  @Test func accessBits() throws {
    let access = NtagAccess(rawValue: 0xDF)
    #expect(access.readProtected && access.configurationLocked && access.nfcCounterEnabled)
    #expect(access.nfcCounterPasswordProtected && access.authenticationLimit == 7)
    #expect(access.with(readProtected: false, authenticationLimit: 1).rawValue == 0x59)
    let configuration = try NtagConfiguration(parsing: [
      0x04, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ])
    #expect(configuration.firstProtectedPage == 0xFF && configuration.access.rawValue == 0)
    #expect(!configuration.isProtected(pageCount: 231))
    #expect(throws: NFCTagError(.responseTooShort, offset: 7)) {
      try NtagConfiguration(parsing: Array(repeating: 0, count: 7))
    }
    #expect(throws: NFCTagError(.responseTooShort, offset: 12)) {
      try NtagConfiguration(parsing: Array(repeating: 0, count: 12))
    }
    #expect(throws: NFCTagError(.unexpectedResponse, offset: 16)) {
      try NtagConfiguration(parsing: Array(repeating: 0, count: 17))
    }
    #expect(throws: NFCTagError(.negativeAcknowledge, offset: 0)) { try NtagConfiguration(parsing: [0x00]) }
    #expect(NtagConfiguration(configuration0: [0], configuration1: [0, 0, 0, 0]) == nil)
  }
}
