// SPDX-License-Identifier: Apache-2.0
import Foundation
import NDEF
import NFCReader
import NFCReaderLibNFC
import NFCTags
import PN532Simulator
import Testing

/// Type 1 and Type 3 fixtures.
enum TagFixture {
  static let jewelID: [UInt8] = [0x11, 0x22, 0x33, 0x44]
  static let idm: [UInt8] = [0x01, 0x2E, 0x3C, 0x4D, 0x5E, 0x6F, 0x70, 0x81]

  /// The bytes of a seed image in `Corpus/tags/seeds`.
  static func seed(_ name: String) throws -> [UInt8] {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return [UInt8](try Data(contentsOf: root.appendingPathComponent("Corpus/tags/seeds/\(name)")))
  }

  /// A Topaz 96 holding "hi".
  static func topaz96() throws -> SimulatedTag {
    .jewel(
      try SimulatedJewelTag(
        id: jewelID, tlvArea: [0x03, UInt8(Fixture.textMessage.count)] + Fixture.textMessage + [0xFE]))
  }

  /// A Topaz 512 holding "hi" after the shipped Lock and Memory Control TLVs.
  static func topaz512() throws -> SimulatedTag {
    var image = try Type1Tag.formattedImage(memorySize: 512, uid: jewelID + [0x05, 0x06, 0x07])
    let plan = try Type1Tag.writePlan(Fixture.textMessage, into: image)
    plan.apply(to: &image)
    return .jewel(try SimulatedJewelTag(memory: image))
  }

  /// A FeliCa Type 3 tag holding "hi" (13 data blocks, Nbr 4, Nbw 1).
  static func felica() throws -> SimulatedTag {
    .felica(try SimulatedFeliCaTag(idm: idm, message: Fixture.textMessage))
  }

  /// A simulated Type 1 or Type 3 tag serving a memory image.
  static func served(_ image: [UInt8], type1: Bool) throws -> SimulatedTag {
    type1
      ? .jewel(try SimulatedJewelTag(memory: image))
      : .felica(try SimulatedFeliCaTag(idm: idm, memory: image))
  }

  /// The memory of the simulator's tag (in the field or removed): Type 1 from block 0,
  /// Type 3 from the attribute block.
  static func memory(_ simulator: PN532Simulator) -> [UInt8]? {
    switch simulator.tag {
    case .jewel(let tag)?: tag.memory
    case .felica(let tag)?: tag.memory
    default: nil
    }
  }

  /// The message an image holds, read leniently (nil: empty, or a write in progress).
  static func lenientMessage(_ image: [UInt8], type1: Bool) throws -> NDEFMessage? {
    if type1 {
      let view = try Type1TagView(validating: image.span, options: .lenient)
      return try view.tlvArea.message(options: .lenient)
    }
    return try Type3TagView(validating: image.span, options: .lenient).message(options: .lenient)
  }
}

/// NDEF on Type 1 (Topaz 96 static, Topaz 512 dynamic) and Type 3 (FeliCa) tags through
/// the real libnfc adapter against the PN532 simulator.
@Suite(.serialized, .timeLimit(.minutes(2))) struct LibNFCType1Type3Tests {
  @Test func readsTheMessageOfAStaticType1Tag() async throws {
    let simulator = try PN532Simulator(tag: try TagFixture.topaz96())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    #expect(tag.kind == .type1)
    let identification = try await reader.readType1Identification(of: tag)
    let message = try await reader.readNDEF(from: tag)
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    #expect(identification == [0x11, 0x48] + TagFixture.jewelID)
    #expect(message == NDEFFixture.hi)
    #expect(image.count == 120)
    #expect(image == TagFixture.memory(simulator))
    #expect(Array(image[8..<14]) == [0xE1, 0x10, 0x0E, 0x00, 0x03, 0x09])
  }

  @Test func readsASeedImageSpanningTheDynamicMemoryOfATopaz512() async throws {
    let seed = try TagFixture.seed("t1t-dynamic-topaz512-spanning.bin")
    let simulator = try PN532Simulator(tag: .jewel(try SimulatedJewelTag(memory: seed)))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let identification = try await reader.readType1Identification(of: tag)
    let message = try #require(try await reader.readNDEF(from: tag))
    let image = try await reader.readMemoryImage(from: tag)
    let block = try await reader.readType1Block(0x10, of: tag)
    await reader.close()
    #expect(identification == [0x12, 0x4C, 0x01, 0x02, 0x03, 0x04])
    #expect(image == seed)
    #expect(block == Array(seed[0x80..<0x88]))
    // The 200-byte payload runs past the reserved and lock blocks 0x0D-0x0F.
    let record = try #require(message.records.first)
    #expect(record.type == Array("text/plain".utf8))
    #expect(record.payload.count == 200 - 13)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    #expect(record.payload == (0..<record.payload.count).map { alphabet[$0 % 26] })
    // RID; RID and RSEG for segments 0-3 (the CC says 512 bytes) twice; READ8.
    let exchanges = simulator.receivedCommands.filter { $0 == 0x40 }.count
    #expect(exchanges == 12)
  }

  @Test func readsTheMessageOfAType3Tag() async throws {
    let simulator = try PN532Simulator(tag: try TagFixture.felica())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    #expect(tag.kind == .type3)
    let before = simulator.receivedCommands.filter { $0 == 0x42 }.count
    let message = try await reader.readNDEF(from: tag)
    // The attribute block, then the one block Ln = 9 needs: two Checks (InCommunicateThru).
    let checks = simulator.receivedCommands.filter { $0 == 0x42 }.count - before
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    #expect(message == NDEFFixture.hi)
    #expect(checks == 2)
    #expect(image.count == 14 * 16)
    #expect(image == TagFixture.memory(simulator))
    #expect(Array(image[11..<14]) == [0x00, 0x00, 0x09])
  }

  @Test(arguments: ["t3t-uri.bin", "t3t-near-capacity.bin", "t1t-static-uri.bin"])
  func readsSeedImagesAsTheDecoderDoes(_ name: String) async throws {
    let seed = try TagFixture.seed(name)
    let isType1 = name.hasPrefix("t1t")
    let simulator = try PN532Simulator(tag: try TagFixture.served(seed, type1: isType1))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let message = try await reader.readNDEF(from: tag)
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    #expect(image == seed)
    let expected = try TagFixture.lenientMessage(seed, type1: isType1)
    #expect(expected != nil)
    #expect(message == expected)
  }

  @Test func writesAStaticType1TagByteByByteAndReadsItBack() async throws {
    let simulator = try PN532Simulator(tag: try TagFixture.topaz96())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let bytes = try NDEFFixture.bytes(NDEFFixture.twoRecords)
    let plan = try await reader.writePlan(bytes, for: tag)
    try await reader.writeNDEF(NDEFFixture.twoRecords, to: tag)
    let back = try await reader.readNDEF(from: tag)
    await reader.close()
    #expect(back == NDEFFixture.twoRecords)
    #expect(plan.blockSize == 1)
    let memory = try #require(TagFixture.memory(simulator))
    #expect(memory == plan.finalImage)
    #expect(Array(memory[12..<(14 + bytes.count + 1)]) == [0x03, UInt8(bytes.count)] + bytes + [0xFE])
    // Byte 0x0D (the NDEF length) is written first, to 0, and last.
    #expect(plan.writes.first == TagWrite(block: 0x0D, offset: 0x0D, bytes: [0x00]))
    #expect(plan.writes.last == TagWrite(block: 0x0D, offset: 0x0D, bytes: [UInt8(bytes.count)]))
    // RID and 120 READs for the plan, again for the write, and for the read back.
    let exchanges = simulator.receivedCommands.filter { $0 == 0x40 }.count
    #expect(exchanges == 363 + plan.writes.count)
  }

  @Test func writesPastTheFixedBlocksOfATopaz512WithWriteE8() async throws {
    let simulator = try PN532Simulator(tag: try TagFixture.topaz512())
    defer { simulator.close() }
    let before = try #require(TagFixture.memory(simulator))
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let message = NDEFFixture.text(String(repeating: "topaz512 ", count: 20))
    let bytes = try NDEFFixture.bytes(message)
    #expect(bytes.count > 0x68)
    let plan = try await reader.writePlan(bytes, for: tag)
    try await reader.writeNDEF(message, to: tag)
    let back = try await reader.readNDEF(from: tag)
    await reader.close()
    #expect(back == message)
    #expect(plan.blockSize == 8)
    #expect(plan.writes.contains { $0.block >= 0x10 })
    #expect(!plan.writes.contains { (0x0D...0x0F).contains($0.block) || $0.block == 0 })
    let memory = try #require(TagFixture.memory(simulator))
    #expect(memory == plan.finalImage)
    #expect(Array(memory[0x68..<0x80]) == Array(before[0x68..<0x80]))
  }

  @Test func writesAType3TagWithTheWriteFlagAndReadsItBack() async throws {
    let simulator = try PN532Simulator(tag: try TagFixture.felica())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let message = NDEFFixture.text(String(repeating: "felica ", count: 9))
    let bytes = try NDEFFixture.bytes(message)
    let plan = try await reader.writePlan(bytes, for: tag)
    try await reader.writeNDEF(message, to: tag)
    let back = try await reader.readNDEF(from: tag)
    await reader.close()
    #expect(back == message)
    let memory = try #require(TagFixture.memory(simulator))
    #expect(memory == plan.finalImage)
    #expect(Array(memory[16..<(16 + bytes.count)]) == bytes)
    // The attribute block first with WriteFlag ON and Ln 0, last with WriteFlag OFF and Ln.
    let first = try #require(plan.writes.first)
    let last = try #require(plan.writes.last)
    #expect(first.block == 0)
    #expect(first.bytes[9] == 0x0F)
    #expect(Array(first.bytes[11..<14]) == [0, 0, 0])
    #expect(last.block == 0)
    #expect(last.bytes[9] == 0x00)
    #expect(Array(last.bytes[11..<14]) == [0, 0, UInt8(bytes.count)])
    #expect(plan.writes.count == 2 + (bytes.count + 15) / 16)
    let sum = memory.prefix(14).reduce(0) { $0 + Int($1) }
    #expect(Array(memory[14..<16]) == [UInt8(sum >> 8), UInt8(sum & 0xFF)])
  }

  @Test func emptyWritesBlankType1AndType3Tags() async throws {
    let simulator = try PN532Simulator(tag: try TagFixture.topaz96())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let type1 = try #require(try await reader.poll())
    try await reader.writeNDEF(bytes: [], to: type1)
    #expect(try await reader.readNDEF(from: type1) == nil)
    #expect(TagFixture.memory(simulator).map { Array($0[12..<15]) } == [0x03, 0x00, 0xFE])
    simulator.present(try TagFixture.felica())
    let type3 = try #require(try await reader.poll())
    try await reader.writeNDEF(bytes: [], to: type3)
    #expect(try await reader.readNDEF(from: type3) == nil)
    await reader.close()
    #expect(TagFixture.memory(simulator).map { Array($0[9..<14]) } == [0x00, 0x01, 0x00, 0x00, 0x00])
  }

  @Test(arguments: ["t1t-static-readonly.bin", "t3t-readonly.bin"])
  func readOnlyTagsAreTypedAndWriteNothing(_ name: String) async throws {
    let seed = try TagFixture.seed(name)
    let isType1 = name.hasPrefix("t1t")
    let simulator = try PN532Simulator(tag: try TagFixture.served(seed, type1: isType1))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let error = await #expect(throws: LibNFCNDEFError.self) {
      try await reader.writeNDEF(NDEFFixture.hi, to: tag)
    }
    await reader.close()
    #expect(error?.tagError?.code == .readOnly)
    #expect(error?.tagError?.offset == (isType1 ? 11 : 10))
    #expect(TagFixture.memory(simulator) == seed)
  }

  @Test func aMessageTooLargeForATopaz96IsTypedAndWritesNothing() async throws {
    let simulator = try PN532Simulator(tag: try TagFixture.topaz96())
    defer { simulator.close() }
    let before = TagFixture.memory(simulator)
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    // Bytes 0x0C-0x67: 92 data bytes, 90 after the 2-byte TLV header.
    let error = await #expect(throws: LibNFCNDEFError.self) {
      try await reader.writeNDEF(bytes: [UInt8](repeating: 0xD0, count: 91), to: tag)
    }
    #expect(error?.tagError?.code == .messageTooLarge)
    #expect(TagFixture.memory(simulator) == before)
    let largest = NDEFFixture.text(String(repeating: "x", count: 90 - 7))
    try await reader.writeNDEF(largest, to: tag)
    #expect(try await reader.readNDEF(from: tag) == largest)
    await reader.close()
  }

  /// The tag leaves after each number of writes in turn: its memory holds exactly the
  /// plan's first writes; put back and read through libnfc it holds the old message
  /// before the first write, an empty one in between (Type 3, read strictly: the typed
  /// "write in progress" error), and the new one after the last.
  @Test(arguments: ["topaz96", "topaz512", "felica"])
  func aTagLeavingMidWriteHoldsTheOldAnEmptyOrTheNewMessage(_ kind: String) async throws {
    let original: SimulatedTag =
      switch kind {
      case "topaz96": try TagFixture.topaz96()
      case "topaz512": try TagFixture.topaz512()
      default: try TagFixture.felica()
      }
    let isType1 = kind != "felica"
    let simulator = try PN532Simulator(tag: original)
    defer { simulator.close() }
    let originalMemory = try #require(TagFixture.memory(simulator))
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let new = NDEFFixture.twoRecords
    let first = try #require(try await reader.poll())
    let plan = try await reader.writePlan(try NDEFFixture.bytes(new), for: first)
    // The exchanges that read the image before the writes: RID and 120 READs, RID and 4
    // RSEGs, or one Check of the attribute block (a Type 3 write plan needs no data block).
    let reads = kind == "topaz96" ? 121 : kind == "topaz512" ? 5 : 1
    #expect(plan.writes.count > 3)
    for done in 0...plan.writes.count {
      simulator.present(original)
      let tag = try #require(try await reader.poll())
      if done < plan.writes.count { simulator.inject(.tagLeaves(afterExchanges: reads + done)) }
      var lost: ReaderError.Code? = nil
      do { try await reader.writeNDEF(new, to: tag) } catch { lost = error.readerError?.code }
      let memory = try #require(TagFixture.memory(simulator))
      var expected = originalMemory
      plan.apply(to: &expected, count: done)
      #expect(memory == expected, "\(kind) after \(done) writes")
      if done < plan.writes.count {
        #expect(lost == .tagLost, "\(kind) after \(done) writes")
        simulator.representTag()
      } else {
        #expect(lost == nil)
        #expect(memory == plan.finalImage)
      }
      let again = try #require(try await reader.poll())
      let lenient = try await reader.readNDEF(from: again, options: .lenient)
      var strict: NDEFMessage? = nil
      var strictError: NFCTagError.Code? = nil
      do { strict = try await reader.readNDEF(from: again) } catch { strictError = error.tagError?.code }
      if done == 0 {
        #expect(lenient == NDEFFixture.hi)
        #expect(strict == NDEFFixture.hi)
      } else if done < plan.writes.count {
        #expect(lenient == nil, "\(kind) after \(done) writes")
        if isType1 {
          #expect(strict == nil, "\(kind) after \(done) writes")
          #expect(strictError == nil, "\(kind) after \(done) writes")
        } else {
          #expect(strictError == .writeInProgress, "\(kind) after \(done) writes")
        }
      } else {
        #expect(lenient == new)
        #expect(strict == new)
      }
    }
    await reader.close()
  }

  /// A Type 3 tag left with WriteFlag ON by an interrupted write is written over.
  @Test func aTornType3TagIsWrittenOver() async throws {
    let simulator = try PN532Simulator(tag: try TagFixture.felica())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    simulator.inject(.tagLeaves(afterExchanges: 1 + 2))
    let cut = await #expect(throws: LibNFCNDEFError.self) {
      try await reader.writeNDEF(NDEFFixture.twoRecords, to: tag)
    }
    #expect(cut?.readerError?.code == .tagLost)
    #expect(TagFixture.memory(simulator).map { $0[9] } == 0x0F)
    simulator.representTag()
    let again = try #require(try await reader.poll())
    try await reader.writeNDEF(NDEFFixture.twoRecords, to: again)
    #expect(try await reader.readNDEF(from: again) == NDEFFixture.twoRecords)
    await reader.close()
    #expect(TagFixture.memory(simulator).map { $0[9] } == 0x00)
  }

  @Test func commandsOnTheWrongTagKindOrOutOfRangeAreRefused() async throws {
    let simulator = try PN532Simulator(tag: try TagFixture.topaz96())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    // A Topaz 96 does not answer the dynamic-memory commands.
    let segment = await #expect(throws: ReaderError.self) { try await reader.readType1Segment(0, of: tag) }
    #expect(segment?.code == .tagError)
    let again = try #require(try await reader.poll())
    let badBlock = await #expect(throws: ReaderError.self) {
      try await reader.writeType1Block(0, [UInt8](repeating: 0, count: 8), to: again)
    }
    #expect(badBlock?.code == .invalidArgument)
    let badSegment = await #expect(throws: ReaderError.self) {
      try await reader.readType1Segment(16, of: again)
    }
    #expect(badSegment?.code == .invalidArgument)
    let plan = TagWritePlan(blockSize: 4, writes: [], finalImage: [])
    let mismatch = await #expect(throws: LibNFCNDEFError.self) { try await reader.apply(plan, to: again) }
    #expect(mismatch?.readerError?.code == .invalidArgument)
    await reader.close()
  }

  /// Blocks past 255 use the 3-byte block list element `00 lo hi` (JIS X 6319-4): a
  /// hand-built Check of block 0x0118 reads what Write Without Encryption put there.
  @Test func type3BlocksPast255UseTheThreeByteElement() async throws {
    let simulator = try PN532Simulator(
      tag: .felica(try SimulatedFeliCaTag(idm: TagFixture.idm, message: [], blockCount: 300)))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let data = (0..<32).map { UInt8($0 * 3) }
    try await reader.writeBlocks(startingAt: 0x0118, data, to: tag)
    #expect(try await reader.readBlocks(startingAt: 0x0118, count: 2, of: tag) == data)
    // LEN 06 IDm, one service 000B, one block: 00 18 01.
    let check: [UInt8] = [0x06] + TagFixture.idm + [0x01, 0x0B, 0x00, 0x01, 0x00, 0x18, 0x01]
    let answer = try await reader.transceiveRaw([UInt8(check.count + 1)] + check, with: tag)
    await reader.close()
    #expect(answer.count == 29)
    #expect(Array(answer[1..<2]) == [0x07])
    #expect(Array(answer[10..<13]) == [0x00, 0x00, 0x01])
    #expect(Array(answer[13...]) == Array(data.prefix(16)))
    guard case .felica(let served)? = simulator.tag else { return }
    #expect(served.blocks[0x0118] == Array(data.prefix(16)))
    #expect(served.blocks[0x0119] == Array(data.suffix(16)))
  }
}
