// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCReader
import NFCTags
import Synchronization
import Testing
import Type3NDEF

/// A Type 3 tag in memory that records every Check and Update, and can be torn after a
/// number of Updates.
final class CountingType3Transport: Type3BlockTransport {
  struct State {
    var memory: [UInt8]
    var checks: [Range<Int>] = []
    var updates: [Range<Int>] = []
    var updatesBeforeTearing: Int?
  }
  let state: Mutex<State>
  let maximumBlocksPerCommand: Int

  init(memory: [UInt8], maximumBlocksPerCommand: Int = 15) {
    state = Mutex(State(memory: memory))
    self.maximumBlocksPerCommand = maximumBlocksPerCommand
  }

  var checks: [Range<Int>] { state.withLock { $0.checks } }
  var updates: [Range<Int>] { state.withLock { $0.updates } }
  var memory: [UInt8] { state.withLock { $0.memory } }
  func tear(afterUpdates count: Int?) { state.withLock { $0.updatesBeforeTearing = count } }

  func check(_ blocks: Range<Int>) async throws(ReaderError) -> [UInt8] {
    let bytes: [UInt8]? = state.withLock { state in
      state.checks.append(blocks)
      guard blocks.count <= maximumBlocksPerCommand, blocks.upperBound * 16 <= state.memory.count else {
        return nil
      }
      return Array(state.memory[(blocks.lowerBound * 16)..<(blocks.upperBound * 16)])
    }
    guard let bytes else { throw ReaderError(.tagError, "the tag answered status flags 01A8") }
    return bytes
  }

  func update(_ blocks: Range<Int>, _ data: [UInt8]) async throws(ReaderError) {
    let torn: Bool = state.withLock { state in
      if let left = state.updatesBeforeTearing {
        guard left > 0 else { return true }
        state.updatesBeforeTearing = left - 1
      }
      state.updates.append(blocks)
      state.memory.replaceSubrange((blocks.lowerBound * 16)..<(blocks.upperBound * 16), with: data)
      return false
    }
    if torn { throw ReaderError(.tagLost, "the tag left") }
  }
}

/// ``Type3NDEF/Type3NDEFProcedure`` over a counting fake: the fewest Checks (the AIB, then
/// ⌈blocks / min(Nbr, transport)⌉), the WriteFlag order, torn writes, typed errors, and the
/// raw frames of ``Type3NDEF/FeliCaBlockFrame`` (T3T 1.0 §5.3, §7.4; JIS X 6319-4).
@Suite struct Type3NDEFProcedureTests {
  static let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0x7A, 0x10, 0x20, 0x30, 0x40]

  /// A Text record of `count` bytes in all (a short record up to 259 bytes).
  static func message(_ count: Int) -> [UInt8] {
    let short = count <= 259
    let payload = [0x02, 0x65, 0x6E] + [UInt8](repeating: 0x61, count: count - (short ? 4 : 7) - 3)
    if short { return [0xD1, 0x01, UInt8(payload.count), 0x54] + payload }
    let length = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: payload.count >> $0) }
    return [0xC1, 0x01] + length + [0x54] + payload
  }

  /// A formatted image of `blocks` data blocks holding `message`.
  static func image(blocks: Int, nbr: UInt8, nbw: UInt8 = 1, message: [UInt8]) throws -> [UInt8] {
    let blank = try Type3Tag.formattedImage(blockCount: blocks + 1, blocksPerRead: nbr, blocksPerWrite: nbw)
    return try Type3Tag.writePlan(message, into: blank).finalImage
  }

  /// (data blocks, Nbr, transport bound, message bytes, the Check ranges expected).
  @Test(arguments: [
    (13, UInt8(4), 15, 100, [0..<1, 1..<5, 5..<8]),
    (13, 1, 15, 40, [0..<1, 1..<2, 2..<3, 3..<4]),
    (40, 15, 14, 450, [0..<1, 1..<15, 15..<29, 29..<30]),
    (13, 4, 15, 16, [0..<1, 1..<2]),
    (13, 4, 2, 64, [0..<1, 1..<3, 3..<5]),
  ])
  func readsTheAIBThenOnlyLnsBlocksInTheFewestChecks(
    blocks: Int, nbr: UInt8, bound: Int, length: Int, expected: [Range<Int>]
  ) async throws {
    let message = Self.message(length)
    let transport = CountingType3Transport(
      memory: try Self.image(blocks: blocks, nbr: nbr, message: message), maximumBlocksPerCommand: bound)
    let read = try await Type3NDEFProcedure(transport: transport).readMessage()
    #expect(try read?.encodedBytes() == message)
    let dataBlocks = (length + 15) / 16
    let step = min(Int(nbr), bound)
    #expect(transport.checks.count == 1 + (dataBlocks + step - 1) / step)
    #expect(transport.checks == expected)
  }

  @Test func anEmptyTagTakesOneCheck() async throws {
    let transport = CountingType3Transport(memory: try Type3Tag.formattedImage(blockCount: 14))
    #expect(try await Type3NDEFProcedure(transport: transport).readMessage() == nil)
    #expect(transport.checks == [0..<1])
  }

  @Test func aBadAttributeBlockReadsNoFurther() async throws {
    var image = try Self.image(blocks: 13, nbr: 4, message: Self.message(60))
    image[15] ^= 0x01
    let transport = CountingType3Transport(memory: image)
    await #expect(throws: Type3NDEFError.tag(NFCTagError(.checksumMismatch, offset: 14))) {
      try await Type3NDEFProcedure(transport: transport).readMessage()
    }
    #expect(transport.checks == [0..<1])
    // Ln past Nmaxb × 16, checksum fixed.
    var long = try Type3Tag.formattedImage(blockCount: 3)
    long[11...13] = [0x00, 0x00, 0x21]
    let sum = Type3AttributeInformation.checksum(Array(long.prefix(14)))
    long[14...15] = [UInt8(sum >> 8), UInt8(sum & 0xFF)]
    let capacity = CountingType3Transport(memory: long)
    await #expect(throws: Type3NDEFError.tag(NFCTagError(.ndefLengthExceedsCapacity, offset: 11))) {
      try await Type3NDEFProcedure(transport: capacity).readImage()
    }
    #expect(capacity.checks == [0..<1])
  }

  @Test func writesTheFlagFirstTheBlocksNbwAtATimeAndTheLengthLast() async throws {
    let transport = CountingType3Transport(memory: try Self.image(blocks: 13, nbr: 4, nbw: 3, message: []))
    let message = Self.message(100)
    let procedure = Type3NDEFProcedure(transport: transport)
    let plan = try await procedure.write(message)
    #expect(transport.checks == [0..<1])
    #expect(transport.updates == [0..<1, 1..<4, 4..<7, 7..<8, 0..<1])
    #expect(plan.writes.first?.bytes[9] == 0x0F)
    #expect(plan.writes.last?.bytes[9] == 0x00)
    let memory = transport.memory
    #expect(memory[9] == 0x00)
    #expect(Array(memory[11..<14]) == [0x00, 0x00, 100])
    #expect(Array(memory[16..<116]) == message)
    #expect(try await procedure.readMessage()?.encodedBytes() == message)
  }

  /// Torn after each Update: the old message (nothing written yet), WriteFlag ON (no
  /// message; strict reading names it), or the new one; the torn tag is written over.
  @Test func aTornWriteLeavesTheOldMessageOrNoneAndIsWrittenOver() async throws {
    let old = Self.message(20)
    let new = Self.message(70)
    for done in 0...6 {
      let transport = CountingType3Transport(memory: try Self.image(blocks: 13, nbr: 4, message: old))
      transport.tear(afterUpdates: done)
      let procedure = Type3NDEFProcedure(transport: transport)
      var lost = false
      do { try await procedure.write(new) } catch {
        lost = error == .reader(ReaderError(.tagLost, "the tag left"))
      }
      #expect(lost == (done < 7), "after \(done)")
      let lenient = try await Type3NDEFProcedure(transport: transport, options: .lenient).readMessage()
      if done == 0 {
        #expect(try lenient?.encodedBytes() == old)
      } else {
        #expect(lenient == nil, "after \(done)")
        await #expect(throws: Type3NDEFError.tag(NFCTagError(.writeInProgress, offset: 9))) {
          try await procedure.readMessage()
        }
      }
      transport.tear(afterUpdates: nil)
      try await procedure.write(new)
      #expect(try await procedure.readMessage()?.encodedBytes() == new)
    }
  }

  @Test func refusedWritesWriteNothing() async throws {
    var readOnly = try Type3Tag.formattedImage(blockCount: 14)
    readOnly[10] = 0x00
    let sum = Type3AttributeInformation.checksum(Array(readOnly.prefix(14)))
    readOnly[14...15] = [UInt8(sum >> 8), UInt8(sum & 0xFF)]
    let locked = CountingType3Transport(memory: readOnly)
    await #expect(throws: Type3NDEFError.tag(NFCTagError(.readOnly, offset: 10))) {
      try await Type3NDEFProcedure(transport: locked).write(Self.message(20))
    }
    let small = CountingType3Transport(memory: try Type3Tag.formattedImage(blockCount: 3))
    await #expect(throws: Type3NDEFError.tag(NFCTagError(.messageTooLarge, offset: 16))) {
      try await Type3NDEFProcedure(transport: small).write(Self.message(40))
    }
    #expect(locked.updates.isEmpty && small.updates.isEmpty)
  }

  @Test func readMemoryReadsEveryBlockNbrAtATime() async throws {
    let image = try Self.image(blocks: 13, nbr: 4, message: Self.message(20))
    let transport = CountingType3Transport(memory: image)
    #expect(try await Type3NDEFProcedure(transport: transport).readMemory() == image)
    #expect(transport.checks == [0..<1, 1..<5, 5..<9, 9..<13, 13..<14])
  }

  /// Check of block 0 (JIS X 6319-4: `LEN 06 IDm 01 0B00 01 8000`), Update of block 0x118
  /// (3-byte element `00 18 01`), and the answers.
  @Test func feliCaFramesAndAnswers() throws {
    #expect(
      try FeliCaBlockFrame.check(idm: Self.idm, blocks: 0..<1)
        == [0x10, 0x06] + Self.idm + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00])
    let data = [UInt8](repeating: 0xAB, count: 16)
    #expect(
      try FeliCaBlockFrame.update(idm: Self.idm, blocks: 0x118..<0x119, data: data)
        == [0x21, 0x08] + Self.idm + [0x01, 0x09, 0x00, 0x01, 0x00, 0x18, 0x01] + data)
    #expect(throws: ReaderError.self) { try FeliCaBlockFrame.check(idm: Self.idm, blocks: 0..<16) }
    #expect(throws: ReaderError.self) { try FeliCaBlockFrame.check(idm: [0x01], blocks: 0..<1) }
    #expect(throws: ReaderError.self) {
      try FeliCaBlockFrame.update(idm: Self.idm, blocks: 0..<2, data: data)
    }
    #expect(throws: ReaderError.self) {
      try FeliCaBlockFrame.update(
        idm: Self.idm, blocks: 0x100..<0x10D, data: [UInt8](repeating: 0, count: 13 * 16))
    }
    let answer = [0x1D, 0x07] + Self.idm + [0x00, 0x00, 0x01] + data
    #expect(try FeliCaBlockFrame.checkAnswer(answer, idm: Self.idm, blockCount: 1) == data)
    let flags = [0x0C, 0x09] + Self.idm + [0x01, 0xA8]
    #expect(throws: ReaderError(.tagError, "the tag answered status flags 01A8")) {
      try FeliCaBlockFrame.updateAnswer(flags, idm: Self.idm)
    }
    for bad in [Array(answer.prefix(11)), [0x1D, 0x09] + Array(answer.dropFirst(2)), answer + [0x00]] {
      #expect(throws: ReaderError.self) {
        try FeliCaBlockFrame.checkAnswer(bad, idm: Self.idm, blockCount: 1)
      }
    }
    var otherIDm = answer
    otherIDm[2] ^= 0xFF
    #expect(throws: ReaderError.self) {
      try FeliCaBlockFrame.checkAnswer(otherIDm, idm: Self.idm, blockCount: 1)
    }
    #expect(throws: ReaderError.self) {
      try FeliCaBlockFrame.checkAnswer(answer, idm: Self.idm, blockCount: 2)
    }
  }
}
