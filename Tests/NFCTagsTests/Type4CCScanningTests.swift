// SPDX-License-Identifier: Apache-2.0
import NFCTags
import Testing

/// Issue 21: a Type 4 CC file field whose value breaks a rule is reported where it is and
/// the other fields are still read (T4T 3.0 §5.1: each field has a fixed place).
@Suite("Type 4 CC file scanning")
struct Type4CCScanningTests {
  /// CCLEN 15, mapping 2.0, MLe 0x3B, MLc 0x34, NDEF File Control TLV: file E104, size 50,
  /// read and write granted.
  static let valid: [UInt8] = [
    0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x04, 0x06, 0xE1, 0x04, 0x00, 0x32, 0x00, 0x00,
  ]

  static func scan(_ bytes: [UInt8]) throws(NFCTagError) -> (Type4CapabilityContainer, [NFCTagError]) {
    var errors: [NFCTagError] = []
    let cc = try Type4CapabilityContainer(scanning: bytes, errors: &errors)
    return (cc, errors)
  }

  static func with(_ changes: [Int: UInt8]) -> [UInt8] {
    var bytes = valid
    for (offset, value) in changes { bytes[offset] = value }
    return bytes
  }

  @Test func aValidCCHasNoErrors() throws {
    let (cc, errors) = try Self.scan(Self.valid)
    #expect(errors.isEmpty)
    #expect(cc == (try Type4CapabilityContainer(parsing: Self.valid)))
    #expect(cc.fileControl.maximumFileSize == 50)
  }

  /// Each value rule of §5.1 on its own: the code and offset, and the fields read as they are.
  @Test(
    arguments: [
      ([0: 0x00, 1: 0x0E], "invalidCCFile", 0),  // CCLEN 14 < 15
      ([0: 0xFF, 1: 0xFF], "invalidCCFile", 0),  // CCLEN 0xFFFF is RFU
      ([2: 0x40], "unsupportedVersion", 2),  // major version 4
      ([3: 0x00, 4: 0x0E], "invalidCCFile", 3),  // MLe 14 < 15
      ([5: 0x00, 6: 0x00], "invalidCCFile", 5),  // MLc 0
      ([9: 0xE1, 10: 0x03], "invalidNDEFFileControl", 9),  // file id E103 is the CC file's
      ([11: 0x00, 12: 0x04], "invalidNDEFFileControl", 11),  // file size 4 < 5
    ] as [([Int: UInt8], String, Int)])
  func oneBadFieldIsKeptInPlace(_ changes: [Int: UInt8], code: String, offset: Int) throws {
    let bytes = Self.with(changes)
    let (cc, errors) = try Self.scan(bytes)
    #expect(errors.map(\.code.name) == [code])
    #expect(errors.map(\.offset) == [offset])
    #expect(Array(cc.bytes.prefix(15)) == bytes)
    #expect(throws: errors[0]) { try Type4CapabilityContainer(parsing: bytes) }
  }

  @Test func severalBadFieldsAreAllListedInOrder() throws {
    // Version 4.0 at 2, MLc 0 at 5, file size 3 at 11; MLe and the file id stay good.
    let bytes = Self.with([2: 0x40, 5: 0x00, 6: 0x00, 12: 0x03])
    let (cc, errors) = try Self.scan(bytes)
    #expect(errors.map(\.offset) == [2, 5, 11])
    #expect(cc.maximumReadLength == 0x3B)
    #expect(cc.fileControl.fileIdentifier == 0xE104)
    #expect(throws: NFCTagError(.unsupportedVersion, offset: 2)) {
      try Type4CapabilityContainer(parsing: bytes)
    }
  }

  /// What leaves the fields unplaced still throws.
  @Test func framingErrorsThrow() {
    #expect(throws: NFCTagError(.responseTooShort, offset: 14)) {
      try Self.scan(Array(Self.valid.prefix(14)))
    }
    #expect(throws: NFCTagError(.missingNDEFFileControl, offset: 7)) { try Self.scan(Self.with([7: 0x05])) }
    #expect(throws: NFCTagError(.invalidNDEFFileControl, offset: 8)) { try Self.scan(Self.with([8: 0x07])) }
    // The extended TLV (T 06, L 08) needs 17 bytes.
    #expect(throws: NFCTagError(.responseTooShort, offset: 15)) {
      try Self.scan(Self.with([7: 0x06, 8: 0x08]))
    }
  }

  /// Parsing still throws the first rule broken in offset order, also when a framing error
  /// follows a bad value (MLe at 3, then no file control TLV at 7).
  @Test func parsingThrowsTheFirstError() {
    #expect(throws: NFCTagError(.invalidCCFile, offset: 3)) {
      try Type4CapabilityContainer(parsing: Self.with([3: 0x00, 4: 0x00, 7: 0x05]))
    }
  }
}
