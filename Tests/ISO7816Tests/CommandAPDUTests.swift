// SPDX-License-Identifier: Apache-2.0
import NFCWire
import Testing

@testable import ISO7816

/// Plain values from a view, so they can go into #expect.
struct DecodedCommand: Equatable {
  var caseName: String
  var cla: UInt8
  var ins: UInt8
  var p1: UInt8
  var p2: UInt8
  var data: [UInt8]
  var ne: Int?
  var dataOffset: Int
}

func decodeCommand(_ bytes: [UInt8]) throws(APDUError) -> DecodedCommand {
  let view = try CommandAPDUView(validating: bytes.span)
  return DecodedCommand(
    caseName: view.apduCase.name, cla: view.cla.rawValue, ins: view.ins.rawValue, p1: view.p1,
    p2: view.p2, data: view.data.copiedBytes(), ne: view.ne, dataOffset: view.dataOffset)
}

/// Re-encodes an accepted command with the length form it was read in.
func reencode(_ bytes: [UInt8]) throws(APDUError) -> [UInt8] {
  let view = try CommandAPDUView(validating: bytes.span)
  let encoding: CommandAPDU.LengthEncoding = view.apduCase.isExtended ? .extended : .shortOnly
  return try CommandAPDU(view).encodedBytes(lengthEncoding: encoding)
}

@Suite("CommandAPDU")
struct CommandAPDUTests {
  static let long255 = [UInt8](repeating: 0xAB, count: 255)
  static let long256 = [UInt8](repeating: 0xCD, count: 256)

  @Test(
    "every case decodes (ISO/IEC 7816-4 §5.1)",
    arguments: [
      ("00 A4 04 00", "1", 0, nil),
      ("00 B0 00 00 10", "2S", 0, 16),
      ("00 B0 00 00 00", "2S", 0, 256),
      ("00 A4 04 00 07 A0 00 00 00 04 10 10", "3S", 7, nil),
      ("00 A4 04 00 07 A0 00 00 00 04 10 10 00", "4S", 7, 256),
      ("00 A4 04 00 02 3F 00 1C", "4S", 2, 28),
      ("00 B0 00 00 00 01 00", "2E", 0, 256),
      ("00 B0 00 00 00 00 00", "2E", 0, 65536),
      ("00 B0 00 00 00 FF FF", "2E", 0, 65535),
      ("00 D6 00 00 00 00 02 11 22", "3E", 2, nil),
      ("00 2A 80 86 00 00 02 11 22 00 00", "4E", 2, 65536),
      ("00 2A 80 86 00 00 01 11 01 01", "4E", 1, 257),
    ] as [(String, String, Int, Int?)])
  func cases(text: String, caseName: String, nc: Int, ne: Int?) throws {
    let bytes = hex(text)
    let decoded = try decodeCommand(bytes)
    #expect(decoded.caseName == caseName)
    #expect(decoded.data.count == nc)
    #expect(decoded.ne == ne)
    #expect(try reencode(bytes) == bytes)
  }

  @Test("Lc 255 is short, 256 is extended; Ne 256 is short 00, 65536 extended 0000")
  func boundaries() throws {
    let short = CommandAPDU(cla: 0x00, ins: 0xD6, p1: 0, p2: 0, data: Self.long255, ne: 256)
    let shortBytes = try short.encodedBytes()
    #expect(shortBytes.count == 4 + 1 + 255 + 1)
    #expect(shortBytes[4] == 0xFF && shortBytes.last == 0x00)
    #expect(try decodeCommand(shortBytes).caseName == "4S")

    let long = CommandAPDU(cla: 0x00, ins: 0xD6, p1: 0, p2: 0, data: Self.long256)
    let longBytes = try long.encodedBytes()
    #expect(Array(longBytes[4..<7]) == [0x00, 0x01, 0x00])
    #expect(try decodeCommand(longBytes).caseName == "3E")

    let ne65536 = CommandAPDU(cla: 0x00, ins: 0xB0, p1: 0, p2: 0, ne: 65536)
    #expect(try ne65536.encodedBytes() == hex("00 B0 00 00 00 00 00"))
    let ne257 = CommandAPDU(cla: 0x00, ins: 0xB0, p1: 0, p2: 0, ne: 257)
    #expect(try ne257.encodedBytes() == hex("00 B0 00 00 00 01 01"))
    let ne256 = CommandAPDU(cla: 0x00, ins: 0xB0, p1: 0, p2: 0, ne: 256)
    #expect(try ne256.encodedBytes() == hex("00 B0 00 00 00"))
    #expect(try ne256.encodedBytes(lengthEncoding: .extended) == hex("00 B0 00 00 00 01 00"))
    // Short data with Ne 65536: both fields extended together.
    let mixed = CommandAPDU(cla: 0x00, ins: 0x2A, p1: 0x80, p2: 0x86, data: [0x11], ne: 65536)
    #expect(try mixed.encodedBytes() == hex("00 2A 80 86 00 00 01 11 00 00"))
  }

  @Test("encoder rejects impossible commands")
  func encoderErrors() {
    let tooLong = CommandAPDU(cla: 0, ins: 0xD6, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: 65536))
    #expect(throws: APDUError(.dataTooLong, offset: 0)) { try tooLong.encodedBytes() }
    for ne in [0, -1, 65537] {
      let bad = CommandAPDU(cla: 0, ins: 0xB0, p1: 0, p2: 0, ne: ne)
      #expect(throws: APDUError(.invalidExpectedLength, offset: 0)) { try bad.encodedBytes() }
    }
    let needsExtended = CommandAPDU(cla: 0, ins: 0xD6, p1: 0, p2: 0, data: Self.long256)
    #expect(throws: APDUError(.extendedLengthRequired, offset: 0)) {
      try needsExtended.encodedBytes(lengthEncoding: .shortOnly)
    }
  }

  @Test("encode(into:) refuses a small buffer before writing")
  func smallBuffer() throws {
    let command = CommandAPDU(cla: 0, ins: 0xA4, p1: 4, p2: 0, data: [1, 2, 3], ne: 256)
    #expect(throws: APDUError(.bufferTooSmall, offset: 0)) {
      _ = try [UInt8](capacity: 5) { (output: inout OutputSpan<UInt8>) throws(APDUError) in
        try command.encode(into: &output)
      }
    }
  }

  @Test(
    "inconsistent lengths are rejected with code and offset",
    arguments: [
      ("", "truncatedHeader", 0),
      ("00 A4 04", "truncatedHeader", 3),
      ("00 A4 04 00 05 01 02", "dataExceedsInput", 4),
      ("00 A4 04 00 02 01 02 00 00", "invalidLengthFields", 8),
      ("00 A4 04 00 00 01", "truncatedExtendedLength", 6),
      ("00 A4 04 00 00 00 00 01", "invalidExtendedLc", 4),
      ("00 A4 04 00 00 00 05 01 02", "dataExceedsInput", 4),
      ("00 A4 04 00 00 00 01 01 00", "truncatedExtendedLength", 9),
      ("00 A4 04 00 00 00 01 01 00 00 00", "invalidLengthFields", 10),
    ] as [(String, String, Int)])
  func malformed(text: String, code: String, offset: Int) {
    do {
      _ = try decodeCommand(hex(text))
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.code.name == code)
      #expect(error.offset == offset)
    }
  }

  @Test("offsets are absolute with a base offset")
  func baseOffset() throws {
    let bytes = hex("00 A4 04 00 05 01 02")
    do {
      _ = try CommandAPDUView(validating: bytes.span, baseOffset: 100)
      Issue.record("accepted")
    } catch {
      #expect(error.offset == 104)
    }
    let ok = hex("00 A4 04 00 01 AA")
    let view = try CommandAPDUView(validating: ok.span, baseOffset: 10)
    #expect(view.dataOffset == 15)
  }

  @Test("data is a view into the input (zero copy)")
  func zeroCopy() throws {
    let bytes = hex("00 A4 04 00 07 A0 00 00 00 04 10 10 00")
    let base = bytes.span.bytes.baseAddressForIdentity
    let view = try CommandAPDUView(validating: bytes.span)
    #expect(view.data.baseAddressForIdentity == base + 5)
    #expect(view.commandName == "SELECT")
  }

  @Test("every prefix of valid commands either fails or re-encodes to itself")
  func truncation() {
    let vectors = [
      "00 A4 04 00 07 A0 00 00 00 04 10 10 00", "00 2A 80 86 00 00 02 11 22 00 00",
      "00 D6 00 00 00 00 02 11 22",
    ]
    for text in vectors {
      let bytes = hex(text)
      for cut in 0..<bytes.count {
        let prefix = Array(bytes[0..<cut])
        if let again = try? reencode(prefix) {
          #expect(again == prefix)
        } else {
          #expect(throws: APDUError.self) { _ = try decodeCommand(prefix) }
        }
      }
    }
  }

  @Test("seeded random round trips: model -> bytes -> model, bytes -> model -> bytes")
  func randomRoundTrips() throws {
    var rng = SeededGenerator(seed: testSeed("CommandAPDU"))
    for _ in 0..<500 {
      let count = Bool.random(using: &rng) ? Int.random(in: 0...300, using: &rng) : 0
      let data = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
      let ne: Int? = Bool.random(using: &rng) ? Int.random(in: 1...65536, using: &rng) : nil
      let command = CommandAPDU(
        cla: UInt8.random(in: 0...255, using: &rng), ins: 0xB0, p1: 1, p2: 2, data: data, ne: ne)
      for encoding in [CommandAPDU.LengthEncoding.shortest, .extended] {
        let bytes = try command.encodedBytes(lengthEncoding: encoding)
        #expect(bytes.count == (try command.encodedCount(lengthEncoding: encoding)))
        #expect(try CommandAPDU(parsing: bytes) == command)
      }
    }
    for _ in 0..<2000 {
      let bytes = (0..<Int.random(in: 0...12, using: &rng)).map { _ in
        UInt8.random(in: 0...3, using: &rng)
      }
      if let again = try? reencode(bytes) { #expect(again == bytes) }
    }
  }
}
