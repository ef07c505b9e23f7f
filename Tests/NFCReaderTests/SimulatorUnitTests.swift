// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import PN532Simulator

@Suite struct CRCATests {
  // ISO/IEC 14443-3 CRC_A: READ page 0 is sent as 30 00 02 A8; HLTA as 50 00 57 CD.
  @Test(
    arguments: [
      ([0x30, 0x00], [0x02, 0xA8]), ([0x50, 0x00], [0x57, 0xCD]), ([0x60], [0xF8, 0x32]), ([], [0x63, 0x63]),
    ] as [([UInt8], [UInt8])])
  func knownVectors(_ input: [UInt8], _ crc: [UInt8]) {
    #expect(crcA(input) == crc)
  }
}

@Suite struct PN532FrameTests {
  @Test func parsesACommandAfterWakeUpBytes() {
    var buffer: [UInt8] = [
      0x55, 0x55, 0, 0, 0, 0, 0x00, 0x00, 0xFF, 0x03, 0xFD, 0xD4, 0x14, 0x01, 0x17, 0x00,
    ]
    #expect(PN532Frame.next(from: &buffer) == .command([0x14, 0x01]))
    #expect(buffer == [0x00])  // the postamble stays; the next start-code search skips it
    #expect(PN532Frame.next(from: &buffer) == nil)
  }

  @Test func waitsForTheRestOfAFrameAtEveryCut() {
    let frame: [UInt8] = [0x00, 0x00, 0xFF, 0x04, 0xFC, 0xD4, 0x4A, 0x01, 0x00, 0xE1, 0x00]
    for cut in 0..<(frame.count - 1) {
      var buffer = Array(frame.prefix(cut))
      #expect(PN532Frame.next(from: &buffer) == nil, "cut at \(cut)")
      buffer += frame.dropFirst(cut)
      #expect(PN532Frame.next(from: &buffer) == .command([0x4A, 0x01, 0x00]), "cut at \(cut)")
    }
  }

  @Test func ackNackAndBadChecksums() {
    var ack: [UInt8] = [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]
    #expect(PN532Frame.next(from: &ack) == .ack)
    var nack: [UInt8] = [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00]
    #expect(PN532Frame.next(from: &nack) == .nack)
    var badLCS: [UInt8] = [0x00, 0x00, 0xFF, 0x03, 0xFC, 0xD4, 0x14, 0x01, 0x17, 0x00]
    #expect(PN532Frame.next(from: &badLCS) == nil)
    var badDCS: [UInt8] = [0x00, 0x00, 0xFF, 0x03, 0xFD, 0xD4, 0x14, 0x01, 0x18, 0x00]
    #expect(PN532Frame.next(from: &badDCS) == nil)
    var wrongTFI: [UInt8] = [0x00, 0x00, 0xFF, 0x03, 0xFD, 0xD5, 0x14, 0x01, 0x16, 0x00]
    #expect(PN532Frame.next(from: &wrongTFI) == nil)
  }

  @Test func extendedFrameRoundTrip() {
    let payload = [UInt8](repeating: 0xAB, count: 300)
    var bytes = PN532Frame.answer([0x41, 0x00] + payload)
    #expect(Array(bytes.prefix(5)) == [0x00, 0x00, 0xFF, 0xFF, 0xFF])
    // Answers carry D5; as a host frame it would need D4: swap to check the framing.
    bytes[8] = 0xD4
    bytes[bytes.count - 2] &+= 1
    #expect(PN532Frame.next(from: &bytes) == .command([0x41, 0x00] + payload))
  }

  @Test func answerFrameOfGetFirmwareVersion() {
    #expect(
      PN532Frame.answer([0x03, 0x32, 0x01, 0x06, 0x07]) == [
        0x00, 0x00, 0xFF, 0x06, 0xFA, 0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0xE8, 0x00,
      ])
  }
}

@Suite struct Type2TagTests {
  static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x80]

  @Test func formatsUIDAndBCCBytes() throws {
    let tag = try SimulatedType2Tag(product: .ntag213, uid: Self.uid)
    #expect(tag.memory.count == 180)
    #expect(Array(tag.memory[0..<4]) == [0x04, 0xA1, 0xB2, 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2])
    #expect(Array(tag.memory[4..<8]) == [0xC3, 0xD4, 0xE5, 0x80])
    #expect(tag.memory[8] == 0xC3 ^ 0xD4 ^ 0xE5 ^ 0x80)
    #expect(Array(tag.memory[12..<16]) == [0xE1, 0x10, 0x12, 0x00])
    #expect(Array(tag.memory[16..<19]) == [0x03, 0x00, 0xFE])
    #expect(try SimulatedType2Tag(product: .ntag213, memory: tag.memory).uid == Self.uid)
  }

  @Test func rejectsBadImages() {
    #expect(throws: SimulatorError.self) { try SimulatedType2Tag(product: .ntag213, uid: [1, 2, 3]) }
    #expect(throws: SimulatorError.self) {
      try SimulatedType2Tag(product: .ultralight, memory: [UInt8](repeating: 0, count: 63))
    }
    #expect(throws: SimulatorError.self) {
      try SimulatedType2Tag(product: .ultralight, uid: Self.uid, tlvArea: [UInt8](repeating: 0, count: 49))
    }
  }

  @Test func commands() throws {
    var tag = try SimulatedType2Tag(product: .ultralight, uid: Self.uid)
    #expect(tag.answer([0x60]) == nil)  // no GET_VERSION on a plain Ultralight
    #expect(tag.answer([0x30, 16]) == nil)
    #expect(tag.answer([0xA2, 0, 1, 2, 3, 4]) == nil)  // UID pages are read-only
    #expect(tag.answer([0xA2, 4, 1, 2, 3, 4]) == [])
    #expect(tag.answer([0xA0, 5] + [5, 6, 7, 8] + [UInt8](repeating: 9, count: 12)) == [])
    #expect(Array(tag.memory[16..<24]) == [1, 2, 3, 4, 5, 6, 7, 8])
    #expect(tag.answer([0xA2, 3, 0x00, 0x00, 0x00, 0x0F]) == [])  // OTP: bits are OR-ed
    #expect(Array(tag.memory[12..<16]) == [0xE1, 0x10, 0x06, 0x0F])
    #expect(tag.answer([0x3A, 0, 1]) == nil)  // FAST_READ is an NTAG/EV1 command
    var ntag = try SimulatedType2Tag(product: .ntag215, uid: Self.uid)
    #expect(ntag.answer([0x60]) == [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03])
    #expect(ntag.answer([0x3A, 0, 1]) == Array(ntag.memory[0..<8]))
    #expect(ntag.answer([0x3A, 2, 1]) == nil)
    #expect(ntag.answer([0x30, 134]) == Array(ntag.memory[536..<540]) + Array(ntag.memory[0..<12]))
  }
}

@Suite struct Type4FileSystemTests {
  static let select: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]

  @Test func ndefProcedure() {
    var system = Type4FileSystem.ndef(message: [0xD0, 0x00, 0x00], capacity: 64)
    #expect(system.answer([0x00, 0xB0, 0x00, 0x00, 0x02]) == [0x69, 0x86])  // nothing selected
    #expect(system.answer([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03]) == [0x6A, 0x82])  // application first
    #expect(system.answer(Self.select) == [0x90, 0x00])
    #expect(system.answer([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03]) == [0x90, 0x00])
    #expect(
      system.answer([0x00, 0xB0, 0x00, 0x00, 0x0F]) == [
        0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x04, 0x06, 0xE1, 0x04, 0x00, 0x40, 0x00, 0x00, 0x90, 0x00,
      ])
    #expect(system.answer([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04]) == [0x90, 0x00])
    #expect(system.answer([0x00, 0xB0, 0x00, 0x00, 0x05]) == [0x00, 0x03, 0xD0, 0x00, 0x00, 0x90, 0x00])
    #expect(system.answer([0x00, 0xD6, 0x00, 0x3F, 0x02, 0x01, 0x02]) == [0x6A, 0x84])  // past the end
    #expect(system.answer([0x00, 0xB0, 0x00, 0x41, 0x01]) == [0x6B, 0x00])
    #expect(system.answer([0x00, 0xD6, 0x00, 0x00, 0x02, 0x00, 0x00]) == [0x90, 0x00])
    #expect(system.answer([0x00, 0xB0, 0x00, 0x00, 0x02]) == [0x00, 0x00, 0x90, 0x00])
    #expect(system.answer([0x00, 0xCA, 0x00, 0x00, 0x00]) == [0x6D, 0x00])
    #expect(system.answer([0x80, 0xB0, 0x00, 0x00, 0x00]) == [0x6E, 0x00])
    #expect(system.answer([0x00, 0xB0]) == [0x67, 0x00])
    #expect(system.answer([0x00, 0xD6, 0x00, 0x00, 0x05, 0x01]) == [0x67, 0x00])
  }
}

@Suite struct SimulatorStateTests {
  @Test func faultsAndFieldChanges() throws {
    var state = PN532Simulator.State()
    state.tag = .type2(try SimulatedType2Tag(product: .ntag213, uid: Type2TagTests.uid))
    #expect(state.answer([0x40, 0x01, 0x30, 0x00]) == [0x41, 0x01])  // not activated yet
    #expect(state.answer([0x4A, 0x01, 0x00])?.prefix(3) == [0x4B, 0x01, 0x01])
    #expect(state.answer([0x4A, 0x01, 0x03, 0x00]) == [0x4B, 0x00])  // no type B tag
    // Select by UID with cascade tag, as libnfc sends it.
    #expect(state.answer([0x4A, 0x01, 0x00, 0x88, 0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x80])?.count == 14)
    #expect(
      state.answer([0x4A, 0x01, 0x00, 0x88, 0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x81]) == [0x4B, 0x00])
    #expect(
      state.answer([0x4A, 0x01, 0x00]) == [0x4B, 0x01, 0x01, 0x00, 0x44, 0x00, 0x07] + Type2TagTests.uid)
    state.faults = [.noAnswer(count: 1), .tagLeaves(afterExchanges: 1)]
    #expect(state.answer([0x40, 0x01, 0x30, 0x00]) == nil)
    #expect(state.answer([0x40, 0x01, 0x30, 0x00])?.count == 18)
    #expect(state.answer([0x40, 0x01, 0x30, 0x00]) == [0x41, 0x01])
    #expect(state.tag == nil)
    #expect(state.removedTag != nil)
    #expect(state.answer([0x06, 0x63, 0x02, 0x63, 0x03]) == [0x07, 0x80, 0x80])
    #expect(state.answer([0x08, 0x63, 0x02, 0x00]) == [0x09])
    #expect(state.answer([0x06, 0x63, 0x02]) == [0x07, 0x00])
    #expect(state.answer([0x00, 0x00, 0x6C, 0x69, 0x62]) == [0x01, 0x00, 0x6C, 0x69, 0x62])
    #expect(state.answer([0x02]) == [0x03, 0x32, 0x01, 0x06, 0x07])
    #expect(state.answer([0x7E]) == [])  // unknown command: syntax-error frame
    // InAutoPoll (PN532 user manual 7.3.13): type 0x10 (MIFARE/ISO14443A 106 kbps).
    state.tag = .type2(try SimulatedType2Tag(product: .ntag213, uid: Type2TagTests.uid))
    #expect(
      state.answer([0x60, 0x01, 0x01, 0x10]) == [0x61, 0x01, 0x10, 0x0C, 0x01, 0x00, 0x44, 0x00, 0x07]
        + Type2TagTests.uid)
    #expect(state.answer([0x60, 0x01, 0x01, 0x11]) == [0x61, 0x00])
    state.refused = [0x32]
    #expect(state.respond(to: .command([0x32, 0x01, 0x01])) == [PN532Frame.ackBytes, PN532Frame.errorBytes])
    state.silent = true
    #expect(state.respond(to: .command([0x02])) == [])
  }
}

/// The Type 1 commands as libnfc 1.8 passes them (utils/jewel.h: command, address, data;
/// the PN53x adds the rest), on a Topaz 96 and a Topaz 512.
@Suite struct SimulatedJewelTagTests {
  static func topaz512() throws -> SimulatedJewelTag {
    var image = [UInt8](repeating: 0, count: 512)
    image[0..<4] = [0x01, 0x02, 0x03, 0x04]
    image[8..<12] = [0xE1, 0x10, 0x3F, 0x00]
    for i in 0x80..<0x88 { image[i] = UInt8(i) }
    return try SimulatedJewelTag(memory: image)
  }

  @Test func staticTagAnswersTheStaticCommandsOnly() throws {
    var tag = try SimulatedJewelTag(id: [0x11, 0x22, 0x33, 0x44])
    #expect(!tag.isDynamic)
    #expect(tag.answer([0x78]) == [0x11, 0x48, 0x11, 0x22, 0x33, 0x44])  // RID
    #expect(tag.answer([0x00])?.count == 122)  // RALL: HR0 HR1 and blocks 0-E
    #expect(tag.answer([0x01, 0x08]) == [0xE1])  // READ the NMN
    #expect(tag.answer([0x53, 0x20, 0x5A]) == [0x5A])  // WRITE-E
    #expect(tag.answer([0x1A, 0x20, 0x81]) == [0xDB])  // WRITE-NE ORs
    #expect(tag.answer([0x53, 0x03, 0x00]) == nil)  // block 0: UID
    #expect(tag.answer([0x53, 0x68, 0x00]) == nil)  // block D: reserved
    #expect(tag.answer([0x53, 0x70, 0x01]) == [0x01])  // block E lock bits only gain bits
    #expect(tag.answer([0x53, 0x70, 0x00]) == [0x01])
    #expect(tag.answer([0x10, 0x00]) == nil)  // RSEG: dynamic tags only
    #expect(tag.answer([0x02, 0x01]) == nil)  // READ8
    #expect(tag.answer([0x54, 0x01] + [UInt8](repeating: 1, count: 8)) == nil)  // WRITE-E8
    #expect(tag.answer([0x01]) == nil)  // too short
    #expect(tag.answer([0x01, 0x78]) == nil)  // past the static memory
  }

  @Test func dynamicTagAnswersSegmentsAndBlocks() throws {
    var tag = try Self.topaz512()
    #expect(tag.isDynamic)
    #expect(tag.answer([0x78]) == [0x12, 0x4C, 0x01, 0x02, 0x03, 0x04])
    let segment1 = tag.answer([0x10, 0x10])  // RSEG: segment in ADDS bits 7-4
    #expect(segment1?.count == 128)
    #expect(segment1.map { Array($0.prefix(8)) } == (0x80..<0x88).map { UInt8($0) })
    #expect(tag.answer([0x10, 0x40]) == nil)  // segment 4 is past 512 bytes
    #expect(tag.answer([0x02, 0x10]) == (0x80..<0x88).map { UInt8($0) })  // READ8 block 0x10
    let block: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
    #expect(tag.answer([0x54, 0x20] + block) == block)  // WRITE-E8 echoes the block
    #expect(Array(tag.memory[0x100..<0x108]) == block)
    #expect(tag.answer([0x1B, 0x20] + [UInt8](repeating: 0x80, count: 8)) == block.map { $0 | 0x80 })
    #expect(tag.answer([0x54, 0x00] + block) == nil)  // block 0
    #expect(tag.answer([0x54, 0x0D] + block) == nil)  // block D
    #expect(tag.answer([0x54, 0x40] + block) == nil)  // past the memory
    #expect(tag.answer([0x54, 0x20] + block.prefix(7)) == nil)  // 7 data bytes
  }

  @Test func rejectsBadImages() {
    #expect(throws: SimulatorError.self) { try SimulatedJewelTag(memory: [UInt8](repeating: 0, count: 121)) }
    #expect(throws: SimulatorError.self) { try SimulatedJewelTag(memory: [UInt8](repeating: 0, count: 128)) }
    #expect(throws: SimulatorError.self) { try SimulatedJewelTag(memory: [UInt8](repeating: 0, count: 2056)) }
    #expect(throws: SimulatorError.self) {
      try SimulatedJewelTag(memory: [UInt8](repeating: 0, count: 120), headerROM: [0x11])
    }
    #expect(throws: SimulatorError.self) {
      try SimulatedFeliCaTag(idm: [UInt8](repeating: 1, count: 8), memory: [])
    }
    #expect(throws: SimulatorError.self) {
      try SimulatedFeliCaTag(idm: [UInt8](repeating: 1, count: 8), memory: [UInt8](repeating: 0, count: 40))
    }
  }

  @Test func feliCaMemoryRoundTrips() throws {
    let memory = (0..<64).map { UInt8($0) }
    let tag = try SimulatedFeliCaTag(idm: [UInt8](repeating: 1, count: 8), memory: memory)
    #expect(tag.blocks.count == 4)
    #expect(tag.blocks[1] == (16..<32).map { UInt8($0) })
    #expect(tag.memory == memory)
  }
}
