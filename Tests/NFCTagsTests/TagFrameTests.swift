// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCTags
import Testing

/// The tag frame codecs beside ``NtagCommand``: Type 1 commands as a PN53x carries them (T1T
/// 1.2 §5), FeliCa Check and Update (JIS X 6319-4 §7.3, T3T 1.0 §5.3) and the PN532
/// InDataExchange wrap (PN532 user manual §7.3.8), each field's bad value typed with its offset.
@Suite struct TagFrameTests {
  static let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0x7A, 0x10, 0x20, 0x30, 0x40]

  static func error(_ body: () throws(NFCTagError) -> Void) -> NFCTagError? {
    do throws(NFCTagError) {
      try body()
      return nil
    } catch { return error }
  }

  @Test func type1CommandFrames() throws {
    #expect(Type1Command.readIdentification == [0x78])
    #expect(try Type1Command.readByte(at: 0x08) == [0x01, 0x08])
    #expect(try Type1Command.readByte(at: 0x7F) == [0x01, 0x7F])
    #expect(try Type1Command.writeEraseByte(0xAB, at: 0x10) == [0x53, 0x10, 0xAB])
    #expect(try Type1Command.readSegment(3) == [0x10, 0x30])
    #expect(try Type1Command.readSegment(15) == [0x10, 0xF0])
    #expect(try Type1Command.readBlock(0x20) == [0x02, 0x20])
    let block: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
    #expect(try Type1Command.writeEraseBlock(1, block) == [0x54, 0x01] + block)
    #expect(try Type1Command.writeEraseBlock(0xFF, block) == [0x54, 0xFF] + block)
  }

  @Test func type1BadArguments() {
    let invalidAddress = NFCTagError(.invalidAddress, offset: 1)
    #expect(
      Self.error { () throws(NFCTagError) in _ = try Type1Command.readByte(at: 0x80) } == invalidAddress)
    #expect(Self.error { () throws(NFCTagError) in _ = try Type1Command.readByte(at: -1) } == invalidAddress)
    #expect(
      Self.error { () throws(NFCTagError) in _ = try Type1Command.writeEraseByte(0, at: 0x07) }
        == invalidAddress)
    #expect(
      Self.error { () throws(NFCTagError) in _ = try Type1Command.writeEraseByte(0, at: 0x80) }
        == invalidAddress)
    #expect(Self.error { () throws(NFCTagError) in _ = try Type1Command.readSegment(16) } == invalidAddress)
    #expect(Self.error { () throws(NFCTagError) in _ = try Type1Command.readSegment(-1) } == invalidAddress)
    #expect(Self.error { () throws(NFCTagError) in _ = try Type1Command.readBlock(256) } == invalidAddress)
    #expect(
      Self.error { () throws(NFCTagError) in
        _ = try Type1Command.writeEraseBlock(0, [UInt8](repeating: 0, count: 8))
      } == invalidAddress)
    #expect(
      Self.error { () throws(NFCTagError) in
        _ = try Type1Command.writeEraseBlock(1, [UInt8](repeating: 0, count: 7))
      }
        == NFCTagError(.invalidImageSize, offset: 7))
  }

  @Test func type1Answers() throws {
    let (rom, uid) = try Type1Command.identification(parsing: [0x11, 0x48, 0x01, 0x02, 0x03, 0x04])
    #expect(rom == Type1HeaderROM(hr0: 0x11, hr1: 0x48) && rom.isStatic && uid == [1, 2, 3, 4])
    #expect(
      Self.error { () throws(NFCTagError) in
        _ = try Type1Command.identification(parsing: [0x11, 0x48, 1, 2, 3])
      }
        == NFCTagError(.responseTooShort, offset: 5))
    #expect(
      Self.error { () throws(NFCTagError) in
        _ = try Type1Command.identification(parsing: [0x11, 0x48, 1, 2, 3, 4, 5])
      }
        == NFCTagError(.unexpectedResponse, offset: 6))
    #expect(try Type1Command.byte(parsing: [0x5A]) == 0x5A)
    #expect(
      Self.error { () throws(NFCTagError) in _ = try Type1Command.byte(parsing: []) }
        == NFCTagError(.responseTooShort, offset: 0))
    let segment = (0..<128).map { UInt8($0) }
    #expect(try Type1Command.segment(parsing: segment) == segment)
    #expect(
      Self.error { () throws(NFCTagError) in _ = try Type1Command.segment(parsing: Array(segment.prefix(127)))
      }
        == NFCTagError(.responseTooShort, offset: 127))
    let block: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
    #expect(try Type1Command.block(parsing: block) == block)
    #expect(
      Self.error { () throws(NFCTagError) in _ = try Type1Command.block(parsing: block + [9]) }
        == NFCTagError(.unexpectedResponse, offset: 8))
    #expect(
      Self.error { () throws(NFCTagError) in try Type1Command.writeEraseBlockAnswer(block, written: block) }
        == nil)
    var other = block
    other[3] = 0xFF
    #expect(
      Self.error { () throws(NFCTagError) in try Type1Command.writeEraseBlockAnswer(block, written: other) }
        == NFCTagError(.writeNotConfirmed, offset: 3))
    #expect(
      Self.error { () throws(NFCTagError) in try Type1Command.writeEraseByteAnswer([0xAB], written: 0xAB) }
        == nil)
    #expect(
      Self.error { () throws(NFCTagError) in try Type1Command.writeEraseByteAnswer([0xAA], written: 0xAB) }
        == NFCTagError(.writeNotConfirmed, offset: 0))
  }

  /// Check of block 0 (a 2-byte block list element `80 00`) and Update of block 0x118 (a
  /// 3-byte element `00 18 01`), as JIS X 6319-4 §7.3 lays them out.
  @Test func feliCaFrames() throws {
    #expect(
      try FeliCaCommand.check(idm: Self.idm, blocks: 0..<1)
        == [0x10, 0x06] + Self.idm + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00])
    let data = [UInt8](repeating: 0xAB, count: 16)
    #expect(
      try FeliCaCommand.update(idm: Self.idm, blocks: 0x118..<0x119, data: data)
        == [0x21, 0x08] + Self.idm + [0x01, 0x09, 0x00, 0x01, 0x00, 0x18, 0x01] + data)
    #expect(
      Self.error { () throws(NFCTagError) in _ = try FeliCaCommand.check(idm: Self.idm, blocks: 0..<16) }
        == NFCTagError(.invalidBlockCount, offset: 11))
    #expect(
      Self.error { () throws(NFCTagError) in _ = try FeliCaCommand.check(idm: [0x01], blocks: 0..<1) }
        == NFCTagError(.invalidIDm, offset: 1))
    #expect(
      Self.error { () throws(NFCTagError) in
        _ = try FeliCaCommand.check(idm: Self.idm, blocks: 0xFFFF..<0x1_0001)
      }
        == NFCTagError(.invalidAddress, offset: 12))
    #expect(
      Self.error { () throws(NFCTagError) in
        _ = try FeliCaCommand.update(idm: Self.idm, blocks: 0..<2, data: data)
      }
        == NFCTagError(.invalidBlockCount, offset: 11))
    #expect(
      Self.error { () throws(NFCTagError) in
        _ = try FeliCaCommand.update(
          idm: Self.idm, blocks: 0x100..<0x10D, data: [UInt8](repeating: 0, count: 13 * 16))
      } == NFCTagError(.frameTooLong, offset: 255))
  }

  @Test func feliCaAnswers() throws {
    let data = [UInt8](repeating: 0xAB, count: 16)
    let answer = [0x1D, 0x07] + Self.idm + [0x00, 0x00, 0x01] + data
    #expect(try FeliCaCommand.checkAnswer(answer, idm: Self.idm, blockCount: 1) == data)
    let flags = [0x0C, 0x09] + Self.idm + [0x01, 0xA8]
    let status = Self.error { () throws(NFCTagError) in try FeliCaCommand.updateAnswer(flags, idm: Self.idm) }
    #expect(
      status == NFCTagError(.feliCaStatusFlags, offset: 10, statusWord: StatusWord(sw1: 0x01, sw2: 0xA8)))
    #expect(
      Self.error { () throws(NFCTagError) in
        try FeliCaCommand.updateAnswer([0x0C, 0x09] + Self.idm + [0, 0], idm: Self.idm)
      } == nil)
    let cases: [([UInt8], Int, NFCTagError)] = [
      (Array(answer.prefix(11)), 1, NFCTagError(.responseTooShort, offset: 11)),
      (answer + [0x00], 1, NFCTagError(.unexpectedResponse, offset: 0)),
      ([0x1D, 0x09] + Array(answer.dropFirst(2)), 1, NFCTagError(.unexpectedResponse, offset: 1)),
      (answer, 2, NFCTagError(.unexpectedResponse, offset: 12)),
    ]
    for (bad, count, expected) in cases {
      #expect(
        Self.error { () throws(NFCTagError) in
          _ = try FeliCaCommand.checkAnswer(bad, idm: Self.idm, blockCount: count)
        } == expected)
    }
    var otherIDm = answer
    otherIDm[4] ^= 0xFF
    #expect(
      Self.error { () throws(NFCTagError) in
        _ = try FeliCaCommand.checkAnswer(otherIDm, idm: Self.idm, blockCount: 1)
      }
        == NFCTagError(.identifierMismatch, offset: 4))
  }

  @Test func pn532InDataExchange() throws {
    #expect(try PN532DataExchange.command([0x30, 0x04]) == [0xD4, 0x40, 0x01, 0x30, 0x04])
    #expect(try PN532DataExchange.command([0x60], target: 2) == [0xD4, 0x40, 0x02, 0x60])
    #expect(try PN532DataExchange.command([UInt8](repeating: 0, count: 262)).count == 265)
    #expect(
      Self.error { () throws(NFCTagError) in
        _ = try PN532DataExchange.command([UInt8](repeating: 0, count: 263))
      }
        == NFCTagError(.frameTooLong, offset: 262))
    #expect(try PN532DataExchange.answer(parsing: [0xD5, 0x41, 0x00, 0xAA, 0xBB]) == [0xAA, 0xBB])
    #expect(try PN532DataExchange.answer(parsing: [0xD5, 0x41, 0x00]) == [])
    // Bit 6 (MI, more information) is not an error: the answer continues in the next one.
    #expect(try PN532DataExchange.answer(parsing: [0xD5, 0x41, 0x40, 0xAA]) == [0xAA])
    let cases: [([UInt8], NFCTagError)] = [
      ([0xD5, 0x41], NFCTagError(.responseTooShort, offset: 2)),
      ([0xD4, 0x41, 0x00], NFCTagError(.unexpectedResponse, offset: 0)),
      ([0xD5, 0x43, 0x00], NFCTagError(.unexpectedResponse, offset: 1)),
      ([0xD5, 0x41, 0x01], NFCTagError(.pn532Error, offset: 2)),
      ([0xD5, 0x41, 0x81, 0xAA], NFCTagError(.pn532Error, offset: 2)),
    ]
    for (bad, expected) in cases {
      #expect(
        Self.error { () throws(NFCTagError) in _ = try PN532DataExchange.answer(parsing: bad) } == expected)
    }
  }
}
