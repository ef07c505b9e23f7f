// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCReader
import NFCReaderLibNFC
import NFCTags
import PN532Simulator
import Testing

/// Messages for the NDEF tests.
enum NDEFFixture {
  /// An RTD Text record (status byte 0x02: UTF-8, language "en") holding `text`.
  static func text(_ text: String) -> NDEFMessage {
    NDEFMessage(records: [
      NDEFRecord(typeNameFormat: .wellKnown, type: [0x54], payload: [0x02, 0x65, 0x6E] + Array(text.utf8))
    ])
  }

  /// The message of ``Fixture/textMessage`` ("hi").
  static let hi = text("hi")

  /// A 2-record message: a URI record (prefix 0x04 "https://") and a text record.
  static let twoRecords = NDEFMessage(records: [
    NDEFRecord(typeNameFormat: .wellKnown, type: [0x55], payload: [0x04] + Array("example.com/tapwire".utf8)),
    NDEFRecord(
      typeNameFormat: .wellKnown, type: [0x54], payload: [0x02, 0x65, 0x6E] + Array("tearing-safe".utf8)),
  ])

  static func bytes(_ message: NDEFMessage) throws -> [UInt8] { try message.encodedBytes() }

  /// The NDEF message in a Type 2 image, read leniently (nil: empty or none).
  static func lenientMessage(inType2Image image: [UInt8]) throws -> NDEFMessage? {
    let view = try Type2TagView(validating: image.span.bytes, options: .lenient)
    return try view.tlvArea.message(options: .lenient)
  }

  /// The NDEF file of the simulator's Type 4 tag.
  static func ndefFile(_ simulator: PN532Simulator) -> [UInt8]? {
    if case .type4(let tag)? = simulator.tag { return tag.fileSystem?.files[0xE104] }
    return nil
  }

  /// The message an NDEF file holds (NLEN then the bytes; nil for NLEN 0).
  static func message(inNDEFFile file: [UInt8]) throws -> NDEFMessage? {
    let length = Int(file[0]) << 8 | Int(file[1])
    guard length > 0 else { return nil }
    return try NDEFMessage(parsing: Array(file[2..<(2 + length)]))
  }
}

/// NDEF reads and writes through the real libnfc adapter against the PN532 simulator.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LibNFCNDEFTests {
  @Test func readsTheKnownMessageOfAnNTAG215() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag215))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let message = try await reader.readNDEF(from: tag)
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    #expect(message == NDEFFixture.hi)
    #expect(message?.records.first?.payload == [0x02, 0x65, 0x6E, 0x68, 0x69])
    #expect(try message?.encodedBytes() == Fixture.textMessage)
    #expect(image.count == 135 * 4)
    #expect(image == Fixture.memory(simulator))
    #expect(Array(image[12..<16]) == [0xE1, 0x10, 0x3E, 0x00])
  }

  @Test func writesANewMessageToAnNTAG215AndReadsItBack() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag215))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let bytes = try NDEFFixture.bytes(NDEFFixture.twoRecords)
    let plan = try await reader.type2WritePlan(bytes, for: tag)
    try await reader.writeNDEF(NDEFFixture.twoRecords, to: tag)
    let back = try await reader.readNDEF(from: tag)
    await reader.close()
    #expect(back == NDEFFixture.twoRecords)
    let memory = try #require(Fixture.memory(simulator))
    #expect(memory == plan.finalImage)
    #expect(Array(memory[16..<(18 + bytes.count + 1)]) == [0x03, UInt8(bytes.count)] + bytes + [0xFE])
    // The tearing-safe order: page 4 (the length byte) first, to length 0, and last.
    #expect(plan.writes.first?.block == 4)
    #expect(plan.writes.first.map { Array($0.bytes.prefix(2)) } == [0x03, 0x00])
    #expect(plan.writes.last?.block == 4)
    #expect(plan.writes.last.map { Array($0.bytes.prefix(2)) } == [0x03, UInt8(bytes.count)])
    #expect(plan.writes.count == (2 + bytes.count + 1 + 3) / 4 + 1)
  }

  @Test func readsTheKnownMessageOfAType4Tag() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type4())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let message = try await reader.readNDEF(from: tag)
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    #expect(message == NDEFFixture.hi)
    #expect(image == [0x00, UInt8(Fixture.textMessage.count)] + Fixture.textMessage)
  }

  @Test func writesANewMessageToAType4TagAndReadsItBack() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type4())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    // 120 bytes: more than the simulated CC's MLc (0x34 = 52), so three UPDATE BINARYs.
    let message = NDEFFixture.text(String(repeating: "type4 ", count: 19))
    let bytes = try NDEFFixture.bytes(message)
    #expect(bytes.count > 104)
    try await reader.writeNDEF(message, to: tag)
    let back = try await reader.readNDEF(from: tag)
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    #expect(back == message)
    #expect(image == [0x00, UInt8(bytes.count)] + bytes)
    let file = try #require(NDEFFixture.ndefFile(simulator))
    #expect(file.count == 256)
    #expect(Array(file.prefix(2 + bytes.count)) == [0x00, UInt8(bytes.count)] + bytes)
  }

  @Test(arguments: [Type2Product.ntag213, .ntag215, .ntag216, .ultralight, .ultralightEV1])
  func aBlankType2TagReadsAsNil(_ product: Type2Product) async throws {
    let blank = try SimulatedType2Tag(product: product, uid: Fixture.uid)
    let simulator = try PN532Simulator(tag: .type2(blank))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let message = try await reader.readNDEF(from: tag)
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    #expect(message == nil)
    #expect(image == blank.readableMemory)
    #expect(Array(image[16..<19]) == [0x03, 0x00, 0xFE])
  }

  @Test func aBlankType4TagReadsAsNil() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type4(message: []))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let message = try await reader.readNDEF(from: tag)
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    #expect(message == nil)
    #expect(image == [0x00, 0x00])
  }

  @Test func anEmptyWriteBlanksBothTagTypes() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let type2 = try #require(try await reader.poll())
    try await reader.writeNDEF(bytes: [], to: type2)
    #expect(try await reader.readNDEF(from: type2) == nil)
    #expect(Fixture.memory(simulator).map { Array($0[16..<19]) } == [0x03, 0x00, 0xFE])
    simulator.present(try Fixture.type4())
    let type4 = try #require(try await reader.poll())
    try await reader.writeNDEF(bytes: [], to: type4)
    #expect(try await reader.readNDEF(from: type4) == nil)
    await reader.close()
    #expect(NDEFFixture.ndefFile(simulator).map { Array($0.prefix(2)) } == [0x00, 0x00])
  }

  @Test func aMessageTooLargeForAnNTAG213IsTypedAndWritesNothing() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let before = try #require(Fixture.memory(simulator))
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    // 143 bytes: one more than the 144-byte data area holds with a 2-byte TLV header.
    let message = NDEFFixture.text(String(repeating: "x", count: 143 - 7))
    #expect(try NDEFFixture.bytes(message).count == 143)
    let error = await #expect(throws: LibNFCNDEFError.self) { try await reader.writeNDEF(message, to: tag) }
    #expect(error?.tagError?.code == .messageTooLarge)
    #expect(error?.tagError?.offset == 16)
    #expect(error?.readerError == nil)
    // 142 bytes fit exactly.
    let largest = NDEFFixture.text(String(repeating: "x", count: 142 - 7))
    try await reader.writeNDEF(largest, to: tag)
    let back = try await reader.readNDEF(from: tag)
    await reader.close()
    #expect(back == largest)
    let after = try #require(Fixture.memory(simulator))
    #expect(Array(after[0..<16]) == Array(before[0..<16]))
    #expect(Array(after[16..<18]) == [0x03, 142])
  }

  @Test func aReadOnlyType2TagIsTypedAndWritesNothing() async throws {
    let tlv: [UInt8] = [0x03, UInt8(Fixture.textMessage.count)] + Fixture.textMessage + [0xFE]
    var memory = try SimulatedType2Tag(product: .ntag213, uid: Fixture.uid, tlvArea: tlv).memory
    memory[15] = 0x0F  // CC write access: no write access (T2T 1.0 §6.1)
    let simulator = try PN532Simulator(tag: .type2(try SimulatedType2Tag(product: .ntag213, memory: memory)))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    #expect(try await reader.readNDEF(from: tag) == NDEFFixture.hi)
    let error = await #expect(throws: LibNFCNDEFError.self) {
      try await reader.writeNDEF(NDEFFixture.twoRecords, to: tag)
    }
    await reader.close()
    #expect(error?.tagError?.code == .readOnly)
    #expect(error?.tagError?.offset == 15)
    if case .type2(let after)? = simulator.tag { #expect(after.memory == memory) }
  }

  @Test func aMessageTooLargeForAType4FileIsTypedAndWritesNothing() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type4())
    defer { simulator.close() }
    let before = try #require(NDEFFixture.ndefFile(simulator))
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    // The 256-byte file holds 254 message bytes after NLEN.
    let error = await #expect(throws: LibNFCNDEFError.self) {
      try await reader.writeNDEF(bytes: [UInt8](repeating: 0xD0, count: 255), to: tag)
    }
    await reader.close()
    #expect(error?.tagError?.code == .messageTooLarge)
    #expect(error?.tagError?.step == .readCCFile)
    #expect(NDEFFixture.ndefFile(simulator) == before)
  }

  @Test func otherTagKindsAreUnsupported() async throws {
    var other = try SimulatedType2Tag(product: .ntag213, uid: Fixture.uid)
    other.sak = 0x01  // no NFC Forum type and not MIFARE Classic: no NDEF mapping here
    let simulator = try PN532Simulator(tag: .type2(other))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    #expect(tag.kind == .unknown)
    let read = await #expect(throws: LibNFCNDEFError.self) { try await reader.readNDEF(from: tag) }
    let write = await #expect(throws: LibNFCNDEFError.self) {
      try await reader.writeNDEF(NDEFFixture.hi, to: tag)
    }
    let plan = await #expect(throws: LibNFCNDEFError.self) { try await reader.type2WritePlan([], for: tag) }
    await reader.close()
    #expect(read?.readerError?.code == .unsupportedFeature)
    #expect(write?.readerError?.code == .unsupportedFeature)
    #expect(plan?.readerError?.code == .unsupportedFeature)
  }

  /// The tag leaves after each number of page writes in turn: the image holds exactly the
  /// plan's first writes, and reads (leniently) as the old message before the first, an
  /// empty one in between, and the new one after the last.
  @Test func aType2TagLeavingMidWriteHoldsTheOldAnEmptyOrTheNewMessage() async throws {
    let original = try Fixture.type2(.ntag213)
    guard case .type2(let originalTag) = original else { return }
    let simulator = try PN532Simulator(tag: original)
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let new = NDEFFixture.twoRecords
    let first = try #require(try await reader.poll())
    let plan = try await reader.type2WritePlan(try NDEFFixture.bytes(new), for: first)
    let reads = (45 + 3) / 4  // readMemory: READ of 4 pages at a time
    #expect(plan.writes.count > 3)
    for done in 0...plan.writes.count {
      simulator.present(original)
      let tag = try #require(try await reader.poll())
      simulator.inject(.tagLeaves(afterExchanges: reads + done))
      var lost: ReaderError.Code? = nil
      do { try await reader.writeNDEF(new, to: tag) } catch { lost = error.readerError?.code }
      let memory = try #require(Fixture.memory(simulator))
      var expected = originalTag.readableMemory
      plan.apply(to: &expected, count: done)
      #expect(memory == expected, "after \(done) writes")
      let message = try NDEFFixture.lenientMessage(inType2Image: memory)
      #expect(message == NDEFFixture.hi || message == nil || message == new, "after \(done) writes")
      if done == 0 {
        #expect(lost == .tagLost)
        #expect(message == NDEFFixture.hi)
      } else if done < plan.writes.count {
        #expect(lost == .tagLost)
        #expect(message == nil, "after \(done) writes")
      } else {
        #expect(lost == nil)
        #expect(message == new)
        #expect(memory == plan.finalImage)
      }
    }
    await reader.close()
  }

  /// The same for a Type 4 tag: NLEN 0 first, the body, NLEN last (T4T 3.0 §5.5).
  @Test func aType4TagLeavingMidWriteHoldsTheOldAnEmptyOrTheNewMessage() async throws {
    let original = try Fixture.type4()
    let simulator = try PN532Simulator(tag: original)
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let new = NDEFFixture.text(String(repeating: "tearing ", count: 12))
    var seen: [NDEFMessage?] = []
    var finished = false
    for done in 0..<16 where !finished {
      simulator.present(original)
      let tag = try #require(try await reader.poll())
      simulator.inject(.tagLeaves(afterExchanges: done))
      do {
        try await reader.writeNDEF(new, to: tag)
        finished = true
      } catch {
        #expect(error.readerError?.code == .tagLost, "after \(done) exchanges")
      }
      let file = try #require(NDEFFixture.ndefFile(simulator))
      let message = try NDEFFixture.message(inNDEFFile: file)
      #expect(message == NDEFFixture.hi || message == nil || message == new, "after \(done) exchanges")
      seen.append(message)
    }
    await reader.close()
    #expect(finished)
    #expect(seen.first == .some(NDEFFixture.hi))
    #expect(seen.last == .some(new))
    #expect(seen.contains { $0 == nil })
    // Once the old message is gone it never comes back, and the new one only comes last.
    let firstEmpty = try #require(seen.firstIndex(where: { $0 == nil }))
    #expect(seen[..<firstEmpty].allSatisfy { $0 == NDEFFixture.hi })
    #expect(seen[firstEmpty..<(seen.count - 1)].allSatisfy { $0 == nil })
  }

  @Test func libNFCVariantsMapToTheTagLayoutTable() {
    let pairs: [(Type2Variant, Type2TagVariant)] = [
      (.ntag213, .ntag213), (.ntag215, .ntag215), (.ntag216, .ntag216), (.ultralight, .ultralight),
      (.ultralightEV1Small, .ultralightEV1MF0UL11), (.ultralightEV1Large, .ultralightEV1MF0UL21),
    ]
    for (reader, layout) in pairs {
      #expect(reader.tagVariant == layout)
      #expect(reader.tagVariant?.pageCount == reader.pageCount)
    }
    #expect(Type2Variant(name: "custom", pageCount: 48).tagVariant == .ultralightC)
    #expect(Type2Variant(name: "custom", pageCount: 99).tagVariant == nil)
  }
}
