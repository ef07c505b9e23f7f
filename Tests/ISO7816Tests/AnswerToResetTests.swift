// SPDX-License-Identifier: Apache-2.0
import NFCWire
import Testing

@testable import ISO7816

@Suite("AnswerToReset")
struct AnswerToResetTests {
  struct Vector: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: String
    var protocols: [UInt8]
    var historical: String
    var tck: UInt8?
    var groups: Int
    var testDescription: String { name }
  }

  /// ATRs of real cards and of the PC/SC part 3 contactless mapping, checked by hand
  /// (interface bytes counted from T0 and each TDi, TCK recomputed as the XOR of T0...).
  static let vectors: [Vector] = [
    Vector(
      name: "ISO 14443-4 card in a PC/SC contactless reader (part 3 §3.1.3.2.3, no historical bytes)",
      bytes: "3B 80 80 01 01", protocols: [0, 1], historical: "", tck: 0x01, groups: 3),
    Vector(
      name: "NXP JCOP 2.4.1 (T=1, TA1 13, historical JCOPv241)",
      bytes: "3B F8 13 00 00 81 31 FE 45 4A 43 4F 50 76 32 34 31 B7", protocols: [1],
      historical: "4a434f5076323431", tck: 0xB7, groups: 3),
    Vector(
      name: "Yubico YubiKey 5 NFC (T=1, historical ... YubiKey)",
      bytes: "3B FD 13 00 00 81 31 FE 15 80 73 C0 21 C0 57 59 75 62 69 4B 65 79 40", protocols: [1],
      historical: "8073c021c057597562694b6579", tck: 0x40, groups: 3),
    Vector(
      name: "T=0 card with TB1 TC1 and 14 historical bytes (no TCK)",
      bytes: "3B 6E 00 00 80 31 80 66 B0 84 12 01 6E 01 83 00 90 00", protocols: [0],
      historical: "80318066b08412016e0183009000", tck: nil, groups: 1),
    Vector(
      name: "T=0 card without interface bytes (no TCK)", bytes: "3B 02 14 50", protocols: [0],
      historical: "1450",
      tck: nil, groups: 0),
    Vector(
      name: "MIFARE Ultralight in a PC/SC contactless reader (storage card, part 3 §3.1.3.2.3.1)",
      bytes: "3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 00 03 00 00 00 00 68", protocols: [0, 1],
      historical: "804f0ca00000030603000300000000", tck: 0x68, groups: 3),
  ]

  @Test(arguments: vectors)
  func parsesRealAnswers(_ vector: Vector) throws {
    let bytes = hex(vector.bytes)
    let atr = try AnswerToReset(parsing: bytes)
    #expect(atr.convention == .direct)
    #expect(atr.protocols == vector.protocols)
    #expect(hexString(atr.historicalBytes) == vector.historical)
    #expect(atr.checkCharacter == vector.tck)
    #expect(atr.interfaceGroups.count == vector.groups)
    #expect(try atr.encodedBytes() == bytes)
    #expect(atr.encodedCount == bytes.count)
  }

  @Test func interfaceBytesOfJCOP() throws {
    let atr = try AnswerToReset(parsing: hex("3B F8 13 00 00 81 31 FE 45 4A 43 4F 50 76 32 34 31 B7"))
    #expect(
      atr.interfaceGroups == [
        .init(protocolType: 0, ta: 0x13, tb: 0x00, tc: 0x00),
        .init(protocolType: 1),
        .init(protocolType: 1, ta: 0xFE, tb: 0x45),
      ])
    #expect(atr.clockRateConversion?.fi == 1)
    #expect(atr.clockRateConversion?.di == 3)
    #expect(atr.formatCharacter == 0xF8)
    #expect(String(decoding: atr.historicalBytes, as: UTF8.self) == "JCOPv241")
  }

  @Test func inverseConvention() throws {
    let atr = try AnswerToReset(parsing: hex("3F 00"))
    #expect(atr.convention == .inverse)
    #expect(atr.protocols == [0])
    #expect(atr.checkCharacter == nil)
  }

  struct Malformed: Sendable, CustomTestStringConvertible {
    var field: String
    var bytes: String
    var code: APDUError.Code
    var offset: Int
    var testDescription: String { field }
  }

  static let malformed: [Malformed] = [
    Malformed(field: "empty input (TS)", bytes: "", code: .truncatedAnswerToReset, offset: 0),
    Malformed(field: "TS neither 3B nor 3F", bytes: "3C 00", code: .invalidInitialCharacter, offset: 0),
    Malformed(field: "T0 missing", bytes: "3B", code: .truncatedAnswerToReset, offset: 1),
    Malformed(field: "TA1 missing", bytes: "3B 10", code: .truncatedAnswerToReset, offset: 2),
    Malformed(field: "TB1 missing", bytes: "3B 30 11", code: .truncatedAnswerToReset, offset: 3),
    Malformed(field: "TC1 missing", bytes: "3B 40", code: .truncatedAnswerToReset, offset: 2),
    Malformed(field: "TD1 missing", bytes: "3B 80", code: .truncatedAnswerToReset, offset: 2),
    Malformed(field: "TA2 missing", bytes: "3B 80 91", code: .truncatedAnswerToReset, offset: 3),
    Malformed(field: "historical byte missing", bytes: "3B 02 14", code: .truncatedAnswerToReset, offset: 3),
    Malformed(
      field: "TCK missing (T=1 indicated)", bytes: "3B 80 01", code: .truncatedAnswerToReset, offset: 3),
    Malformed(field: "TCK wrong", bytes: "3B 80 80 01 02", code: .invalidCheckCharacter, offset: 4),
    Malformed(field: "byte after a T=0 answer", bytes: "3B 02 14 50 00", code: .trailingData, offset: 4),
    Malformed(field: "byte after TCK", bytes: "3B 80 80 01 01 00", code: .trailingData, offset: 5),
    Malformed(
      field: "34 bytes", bytes: String(repeating: "00", count: 34), code: .answerToResetTooLong, offset: 33),
  ]

  @Test(arguments: malformed)
  func rejectsMalformedFields(_ vector: Malformed) {
    #expect {
      _ = try AnswerToReset(parsing: hex(vector.bytes))
    } throws: { error in
      guard let error = error as? APDUError else { return false }
      return error.code == vector.code && error.offset == vector.offset
    }
  }

  @Test func offsetsAreAbsoluteWithBaseOffset() {
    let bytes = hex("3B 80 80 01 02")
    #expect {
      _ = try AnswerToReset(parsing: bytes.span.bytes, baseOffset: 100)
    } throws: { error in
      (error as? APDUError).map { $0.code == .invalidCheckCharacter && $0.offset == 104 } ?? false
    }
  }

  @Test func encoderComputesTCKAndRefusesTooLong() throws {
    let atr = AnswerToReset(
      interfaceGroups: [.init(protocolType: 0, ta: 0x96), .init(protocolType: 1)],
      historicalBytes: [0x31, 0xC0])
    // T0 = 0x92 (TA1, TD1; K = 2), TD1 = 0x01, TCK = 92 ^ 96 ^ 01 ^ 31 ^ C0 = 0xF4.
    #expect(try atr.encodedBytes() == hex("3B 92 96 01 31 C0 F4"))
    let long = AnswerToReset(interfaceGroups: [], historicalBytes: Array(repeating: 0, count: 16))
    #expect(throws: APDUError.self) { try long.encodedBytes() }
  }

  @Test func seededRoundTrips() throws {
    let seed = UInt64(0xA7_2026)
    print("AnswerToReset round-trip seed \(seed)")
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<500 {
      var groups: [AnswerToReset.InterfaceGroup] = []
      let count = Int.random(in: 0...3, using: &generator)
      for i in 0..<count {
        func maybe() -> UInt8? {
          Bool.random(using: &generator) ? UInt8.random(in: 0...255, using: &generator) : nil
        }
        groups.append(
          .init(
            protocolType: i == 0 ? 0 : UInt8.random(in: 0...15, using: &generator), ta: maybe(), tb: maybe(),
            tc: maybe()))
      }
      // A lone group without bytes has no encoding of its own (Y1 = 0 means no group).
      if groups.count == 1, groups[0].presence == 0 { groups = [] }
      let historical = (0..<Int.random(in: 0...10, using: &generator)).map { _ in
        UInt8.random(in: 0...255, using: &generator)
      }
      let atr = AnswerToReset(interfaceGroups: groups, historicalBytes: historical)
      let bytes = try atr.encodedBytes()
      let parsed = try AnswerToReset(parsing: bytes)
      #expect(parsed == atr)
      #expect(try parsed.encodedBytes() == bytes)
    }
  }

  /// Random bytes never trap; whatever parses re-encodes to the same bytes, and whatever
  /// fails names an offset inside the input (or just past its end).
  @Test func randomBytesParseOrFailWithAnOffset() throws {
    let seed = UInt64(0x7816_0003)
    print("AnswerToReset random-input seed \(seed)")
    var generator = SeededGenerator(seed: seed)
    var parsed = 0
    for _ in 0..<20_000 {
      let count = Int.random(in: 0...36, using: &generator)
      var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      if !bytes.isEmpty, Bool.random(using: &generator) { bytes[0] = 0x3B }
      do {
        let atr = try AnswerToReset(parsing: bytes)
        parsed += 1
        #expect(try atr.encodedBytes() == bytes)
      } catch {
        #expect(error.offset >= 0 && error.offset <= bytes.count)
      }
    }
    #expect(parsed > 0)
  }
}
