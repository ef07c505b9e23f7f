// SPDX-License-Identifier: Apache-2.0
import MifareClassicNDEF
import NDEF
import NFCReader
import NFCTags
import PN532Simulator
import Testing

/// The simulator's card model: access bits as the MF1S50 data sheet tables give them.
@Suite struct MifareClassicCardModelTests {
  /// Trailer bytes 6-8 and the C1C2C3 of groups 0-3 (MF1S50 §8.7.1, worked by hand).
  @Test(arguments: [
    ([0xFF, 0x07, 0x80] as [UInt8], [0b000, 0b000, 0b000, 0b001] as [UInt8]),  // transport
    ([0x78, 0x77, 0x88], [0b100, 0b100, 0b100, 0b011]),  // MAD sector (AN10787)
    ([0x7F, 0x07, 0x88], [0b000, 0b000, 0b000, 0b011]),  // NFC sector (AN1304)
    ([0x07, 0x8F, 0x0F], [0b010, 0b010, 0b010, 0b110]),  // read-only (AN1304)
    ([0x79, 0x67, 0x88], [0b000, 0b100, 0b100, 0b011]),  // libfreefare's MAD trailer
  ])
  func accessBitsDecodePerGroup(bytes: [UInt8], expected: [UInt8]) {
    let groups = (0..<4).map { MifareClassicCardModel.accessBits((bytes[0], bytes[1], bytes[2]), group: $0) }
    #expect(groups == expected.map { Optional($0) })
    #expect(MifareClassicCardModel.accessBitsConsistent((bytes[0], bytes[1], bytes[2])))
  }

  @Test func inconsistentCopiesAreNoAccessBits() {
    #expect(MifareClassicCardModel.accessBits((0xFF, 0x07, 0x81), group: 0) == nil)
    #expect(!MifareClassicCardModel.accessBitsConsistent((0x00, 0x00, 0x00)))
  }

  @Test func blockArithmeticOfA4KCard() {
    #expect(MifareClassicCardModel.firstBlock(ofSector: 31) == 124)
    #expect(MifareClassicCardModel.firstBlock(ofSector: 32) == 128)
    #expect(MifareClassicCardModel.trailerBlock(ofSector: 39) == 255)
    #expect(MifareClassicCardModel.sector(ofBlock: 143) == 32)
    #expect(MifareClassicCardModel.sector(ofBlock: 144) == 33)
    #expect(MifareClassicProduct.classic4K.blockCount == 256)
    #expect(MifareClassicProduct.classic1K.blockCount == 64)
    #expect(MifareClassicProduct.mini.blockCount == 20)
  }

  @Test func wrongKeyFailsAndTrailerHidesKeyA() throws {
    var card = try ClassicFixture.blank(.classic1K).card
    #expect(card.authenticate(block: 4, slot: .a, key: [1, 2, 3, 4, 5, 6]) == .authenticationFailed)
    #expect(card.read(block: 4) == .refused)
    #expect(card.authenticate(block: 4, slot: .a, key: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]) == .done([]))
    // Transport trailer 001: key A reads the access bits and key B (readable).
    #expect(
      card.read(block: 7)
        == .done([0, 0, 0, 0, 0, 0, 0xFF, 0x07, 0x80, 0x69] + [UInt8](repeating: 0xFF, count: 6)))
    #expect(card.read(block: 8) == .refused)  // another sector
  }

  @Test func readableKeyBOpensButServesNothing() throws {
    var card = try ClassicFixture.blank(.classic1K).card
    // Transport configuration: key B is readable, so it "cannot serve for authentication".
    #expect(card.authenticate(block: 4, slot: .b, key: [UInt8](repeating: 0xFF, count: 6)) == .done([]))
    #expect(card.read(block: 4) == .refused)
  }

  @Test func blockZeroAndForbiddenWritesAreRefused() throws {
    var card = try ClassicFixture.blank(.classic1K).card
    let key = [UInt8](repeating: 0xFF, count: 6)
    #expect(card.authenticate(block: 0, slot: .a, key: key) == .done([]))
    #expect(card.write(block: 0, [UInt8](repeating: 0, count: 16)) == .refused)
    // Make sector 1 read-only (07 8F 0F, trailer 110), with key A under the transport trailer.
    #expect(card.authenticate(block: 4, slot: .a, key: key) == .done([]))
    let readOnly: [UInt8] = key + [0x07, 0x8F, 0x0F, 0x43] + key
    #expect(card.write(block: 7, readOnly) == .done([]))
    #expect(card.authenticate(block: 4, slot: .a, key: key) == .done([]))
    #expect(card.write(block: 4, [UInt8](repeating: 1, count: 16)) == .refused)
    #expect(card.authenticate(block: 4, slot: .a, key: key) == .done([]))
    #expect(card.write(block: 7, key + [0xFF, 0x07, 0x80, 0x69] + key) == .refused)
  }

  /// A real card stores a trailer whose copies disagree and blocks the sector for good
  /// (MF1S50 §8.7.1); the simulator does the same, so a writer's mistake shows.
  @Test func anInconsistentTrailerIsStoredAndBlocksTheSector() throws {
    var card = try ClassicFixture.blank(.classic1K).card
    let key = [UInt8](repeating: 0xFF, count: 6)
    #expect(card.authenticate(block: 4, slot: .a, key: key) == .done([]))
    #expect(card.write(block: 7, key + [0xFF, 0x07, 0x81, 0x69] + key) == .done([]))
    #expect(card.authenticate(block: 4, slot: .a, key: key) == .authenticationFailed)
  }
}

/// The MIFARE Classic flows over the simulator's card model (no libnfc): layouts worked
/// out by hand from AN10787/AN1304, the write order, tears at every write, wrong keys.
@Suite struct MifareClassicProcedureTests {
  typealias Procedure = MifareClassicNDEFProcedure<ModelTransport>

  static let message = try! NDEFFixture.bytes(NDEFFixture.twoRecords)

  func formatted(_ product: MifareClassicProduct, kind: MifareClassicCardKind) async throws -> ModelTransport
  {
    let transport = ModelTransport(try ClassicFixture.blank(product))
    var procedure = Procedure(transport: transport, kind: kind)
    try await procedure.format(keyB: ClassicFixture.keyB)
    return transport
  }

  @Test func formatsA1KCardAsTheApplicationNotesLayItOut() async throws {
    let memory = try await formatted(.classic1K, kind: .classic1K).card.memory
    let ndef: [UInt8] = [0x03, 0xE1]
    // AN10787: MAD1 of a 1K card with every sector NDEF has CRC 0x14, info byte 01.
    #expect(
      ClassicFixture.block(memory, 1) == [0x14, 0x01] + Array([[UInt8]](repeating: ndef, count: 7).joined()))
    #expect(ClassicFixture.block(memory, 2) == Array([[UInt8]](repeating: ndef, count: 8).joined()))
    #expect(
      ClassicFixture.block(memory, 3)
        == [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0x78, 0x77, 0x88, 0xC1] + ClassicFixture.keyB.bytes)
    #expect(ClassicFixture.block(memory, 4) == [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 13))
    for sector in 1..<16 {
      #expect(
        ClassicFixture.block(memory, sector * 4 + 3)
          == [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7, 0x7F, 0x07, 0x88, 0x40] + ClassicFixture.keyB.bytes)
    }
  }

  @Test func formatsA4KCardWithAMAD2AndNoNFCSector16() async throws {
    let memory = try await formatted(.classic4K, kind: .classic4K).card.memory
    // AN10787: MAD2 with info 01 and every sector 17-39 NDEF has CRC 0xE8.
    #expect(ClassicFixture.block(memory, 64)[0...1] == [0xE8, 0x01])
    #expect(ClassicFixture.block(memory, 3)[9] == 0xC2)
    #expect(
      ClassicFixture.block(memory, 67)[0..<9] == [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0x78, 0x77, 0x88])
    #expect(
      ClassicFixture.block(memory, 255)[0..<10] == [
        0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7, 0x7F, 0x07, 0x88, 0x40,
      ])
  }

  @Test(arguments: [
    (MifareClassicProduct.classic1K, MifareClassicCardKind.classic1K),
    (.classic4K, .classic4K), (.mini, .mini),
  ])
  func writesAndReadsBack(product: MifareClassicProduct, kind: MifareClassicCardKind) async throws {
    let transport = try await formatted(product, kind: kind)
    var procedure = Procedure(transport: transport, kind: kind)
    try await procedure.write(Self.message)
    let content = try await procedure.read()
    #expect(content.message == Self.message)
    #expect(content.ndefSectors == ClassicFixture.nfcSectors(kind.sectorCount))
    #expect(content.sectorsRead == [1])  // 46 bytes of TLVs: only the first NFC sector is read
    #expect(content.madVersion == (kind == .classic4K ? 2 : 1))
    #expect(!content.isReadOnly)
  }

  /// A message from sector 15 across the MAD2 sector into sector 17 on a 4K card: the TLV
  /// area skips sector 16 (AN1304 §6.4).
  @Test func aLargeMessageSkipsTheMAD2Sector() async throws {
    let transport = try await formatted(.classic4K, kind: .classic4K)
    var procedure = Procedure(transport: transport, kind: .classic4K)
    let payload = [UInt8](repeating: 0x61, count: 800)
    let message = try NDEFFixture.bytes(
      NDEFMessage(records: [
        NDEFRecord(typeNameFormat: .media, type: Array("text/plain".utf8), payload: payload)
      ]))
    try await procedure.write(message)
    #expect(try await procedure.read().message == message)
    let area = ClassicFixture.tlvArea(transport.card.memory, sectors: ClassicFixture.nfcSectors(40))
    #expect(ClassicFixture.message(inArea: area) == message)
    #expect(ClassicFixture.block(transport.card.memory, 64)[0...1] == [0xE8, 0x01])  // MAD2 untouched
  }

  /// The card leaves after each possible number of writes: the area then holds the old
  /// message, an empty NDEF TLV or the new message, never anything else.
  @Test func aTearAtAnyWriteLeavesOldEmptyOrNew() async throws {
    let old = try NDEFFixture.bytes(NDEFFixture.hi)
    let base = try await formatted(.classic1K, kind: .classic1K)
    var first = Procedure(transport: base, kind: .classic1K)
    try await first.write(old)
    let prepared = try SimulatedMifareClassicTag(product: .classic1K, memory: base.card.memory)
    var outcomes: Set<String> = []
    for cut in 0...8 {
      let transport = ModelTransport(prepared, writesBeforeTear: cut)
      var procedure = Procedure(transport: transport, kind: .classic1K)
      do { try await procedure.write(Self.message) } catch {
        #expect(error.code == .tagLost)
      }
      let area = ClassicFixture.tlvArea(transport.card.memory, sectors: ClassicFixture.nfcSectors(16))
      let found = ClassicFixture.message(inArea: area)
      #expect(found == old || found == [] || found == Self.message, "cut after \(cut) writes")
      outcomes.insert(found == old ? "old" : found == [] ? "empty" : "new")
    }
    #expect(outcomes == ["old", "empty", "new"])
  }

  @Test func theLengthIsZeroedFirstAndWrittenLast() async throws {
    let transport = try await formatted(.classic1K, kind: .classic1K)
    var procedure = Procedure(transport: transport, kind: .classic1K)
    let before = transport.operations.count
    try await procedure.write(Self.message)
    let writes = transport.operations.dropFirst(before).compactMap {
      if case .write(let b) = $0 { b } else { nil }
    }
    // 46 bytes of TLVs (03 2B, 43 bytes of message, FE): blocks 5, 6, then 4 with the
    // length. Block 4 of a formatted card already holds the empty NDEF TLV `03 00 FE`, so
    // the length-0 write would rewrite the same bytes: NFCTags' plan (the one of Type 2
    // tags, T2T 1.0 §6.4.2) leaves it out.
    #expect(writes == [5, 6, 4])
    // Over a message: length 0 first.
    let again = transport.operations.count
    try await procedure.write(Self.message)
    let second = transport.operations.dropFirst(again).compactMap {
      if case .write(let b) = $0 { b } else { nil }
    }
    #expect(second.first == 4)
    #expect(second.last == 4)
  }

  @Test func wrongKeysFailWithTheSectorAndSlotAndNoKeyBytes() async throws {
    let transport = try await formatted(.classic1K, kind: .classic1K)
    // A card whose MAD key A is not the public one: rewrite sector 0's trailer with key B.
    var card = transport.card
    #expect(card.authenticate(block: 3, slot: .b, key: ClassicFixture.keyB.bytes) == .done([]))
    let secret: [UInt8] = [0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
    #expect(card.write(block: 3, secret + [0x78, 0x77, 0x88, 0xC1] + ClassicFixture.keyB.bytes) == .done([]))
    let locked = ModelTransport(try SimulatedMifareClassicTag(product: .classic1K, memory: card.memory))
    var procedure = Procedure(transport: locked, kind: .classic1K)
    await #expect {
      _ = try await procedure.read()
    } throws: { error in
      guard let error = error as? MifareClassicError else { return false }
      #expect(!error.description.lowercased().contains(ClassicFixture.keyBHex))
      #expect(!error.description.lowercased().contains("112233445566"))
      return error.code == .authenticationFailed && error.sector == 0 && error.keySlot == .b
        && error.keysTried == 4
    }
    // Each refused key halts the card: a selection precedes the next key.
    let ops = locked.operations
    #expect(ops.filter { $0 == .reselect }.count == 3)
    // With the key in the keyring it reads (the card, halted by the last refusal, selected again).
    try await locked.reselect()
    var keyring = MifareClassicKeyring.publicKeys
    keyring.add(MifareClassicKey(bytes: secret)!, slot: .a)
    var keyed = Procedure(transport: locked, kind: .classic1K, keyring: keyring)
    #expect(try await keyed.read().message == [])
  }

  @Test func readOnlyNeedsKeyBAndIsReported() async throws {
    let transport = try await formatted(.classic1K, kind: .classic1K)
    var procedure = Procedure(transport: transport, kind: .classic1K)
    try await procedure.write(Self.message)
    // The public keyring has no key B of this card.
    await #expect {
      try await procedure.makeReadOnly()
    } throws: {
      ($0 as? MifareClassicError)?.code == .authenticationFailed && ($0 as? MifareClassicError)?.keySlot == .b
    }
    try await transport.reselect()
    var keyring = MifareClassicKeyring.publicKeys
    keyring.add(ClassicFixture.keyB, slot: .b)
    var locking = Procedure(transport: transport, kind: .classic1K, keyring: keyring)
    try await locking.makeReadOnly()
    #expect(ClassicFixture.block(transport.card.memory, 7)[6...9] == [0x07, 0x8F, 0x0F, 0x43])
    #expect(ClassicFixture.block(transport.card.memory, 3)[6...9] == [0x07, 0x8F, 0x0F, 0xC1])
    var reading = Procedure(transport: transport, kind: .classic1K)
    let content = try await reading.read()
    #expect(content.isReadOnly)
    #expect(content.message == Self.message)
    await #expect {
      try await reading.write([])
    } throws: { ($0 as? MifareClassicError)?.code == .readOnly }
  }

  @Test func aMessageTooLargeWritesNothing() async throws {
    let transport = try await formatted(.mini, kind: .mini)
    var procedure = Procedure(transport: transport, kind: .mini)
    let before = transport.card.memory
    await #expect {
      try await procedure.write([UInt8](repeating: 0, count: 4 * 48))
    } throws: { ($0 as? MifareClassicError)?.code == .messageTooLarge }
    #expect(transport.card.memory == before)
  }

  @Test func aBlankCardHasNoMAD() async throws {
    var procedure = Procedure(
      transport: ModelTransport(try ClassicFixture.blank(.classic1K)), kind: .classic1K)
    await #expect {
      _ = try await procedure.read()
    } throws: { ($0 as? MifareClassicError)?.code == .notFormatted }
  }

  @Test func keyringDescriptionAndErrorsNeverShowKeys() {
    var keyring = MifareClassicKeyring.publicKeys
    keyring.add(ClassicFixture.keyB, slot: .b)
    #expect(keyring.description == "3 keys A, 2 keys B")
    let error = MifareClassicError(.authenticationFailed, sector: 3, keySlot: .b, keysTried: 5)
    #expect(error.description == "authenticationFailed: sector 3, key B, 5 keys tried")
  }
}
