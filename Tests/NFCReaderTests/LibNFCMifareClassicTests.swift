// SPDX-License-Identifier: Apache-2.0
import MifareClassicNDEF
import NDEF
import NFCReader
import NFCReaderLibNFC
import NFCTags
import PN532Simulator
import Testing

/// MIFARE Classic through the real libnfc adapter (pn532_uart) against the simulator.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LibNFCMifareClassicTests {
  static var keyring: MifareClassicKeyring {
    var keyring = MifareClassicKeyring.publicKeys
    keyring.add(ClassicFixture.keyB, slot: .b)
    return keyring
  }

  /// The simulator's current MIFARE Classic memory.
  static func memory(_ simulator: PN532Simulator) -> [UInt8] {
    if case .mifareClassic(let tag)? = simulator.tag { return tag.memory }
    return []
  }

  func open(_ simulator: PN532Simulator) async throws -> (LibNFCReader, LibNFCTag) {
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    return (reader, tag)
  }

  @Test(arguments: [
    (MifareClassicProduct.classic1K, [0x00, 0x04] as [UInt8]), (.classic4K, [0x00, 0x02]),
    (.mini, [0x00, 0x04]),
  ])
  func pollsACardAsMifareClassic(product: MifareClassicProduct, atqa: [UInt8]) async throws {
    let simulator = try PN532Simulator(tag: .mifareClassic(try ClassicFixture.blank(product)))
    defer { simulator.close() }
    let (reader, tag) = try await open(simulator)
    await reader.close()
    #expect(tag.kind == .mifareClassic)
    #expect(tag.uid == ClassicFixture.uid)
    #expect(tag.sak == product.sak)
    #expect(tag.atqa == atqa)
  }

  @Test(arguments: [MifareClassicProduct.classic1K, .classic4K])
  func formatsWritesAndReadsNDEF(product: MifareClassicProduct) async throws {
    let simulator = try PN532Simulator(tag: .mifareClassic(try ClassicFixture.blank(product)))
    defer { simulator.close() }
    let (reader, tag) = try await open(simulator)
    try await reader.formatMifareClassic(tag, keyB: ClassicFixture.keyB)
    #expect(try await reader.readNDEF(from: tag) == nil)  // an empty NDEF TLV
    try await reader.writeNDEF(NDEFFixture.twoRecords, to: tag)
    let message = try await reader.readNDEF(from: tag)
    let content = try await reader.readMifareClassic(from: tag)
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    #expect(message == NDEFFixture.twoRecords)
    #expect(content.madVersion == (product == .classic4K ? 2 : 1))
    #expect(!content.isReadOnly)
    // The dump is what the card shows: key A as zeros, key B hidden under 7F 07 88.
    #expect(image.count == product.blockCount * 16)
    #expect(ClassicFixture.block(image, 7) == [0, 0, 0, 0, 0, 0, 0x7F, 0x07, 0x88, 0x40, 0, 0, 0, 0, 0, 0])
    #expect(ClassicFixture.block(image, 4) == ClassicFixture.block(Self.memory(simulator), 4))
  }

  @Test func makesACardReadOnlyWithItsKeyB() async throws {
    let simulator = try PN532Simulator(tag: .mifareClassic(try ClassicFixture.blank(.classic1K)))
    defer { simulator.close() }
    let (reader, tag) = try await open(simulator)
    try await reader.formatMifareClassic(tag, keyB: ClassicFixture.keyB)
    try await reader.writeNDEF(NDEFFixture.hi, to: tag)
    try await reader.makeMifareClassicReadOnly(tag, keyring: Self.keyring)
    let content = try await reader.readMifareClassic(from: tag)
    var refusal: LibNFCNDEFError?
    do { try await reader.writeNDEF(NDEFFixture.twoRecords, to: tag) } catch { refusal = error }
    await reader.close()
    #expect(content.isReadOnly)
    #expect(try NDEFMessage(parsing: content.message) == NDEFFixture.hi)
    #expect(refusal?.mifareClassicError?.code == .readOnly)
    #expect(ClassicFixture.block(Self.memory(simulator), 7)[6...9] == [0x07, 0x8F, 0x0F, 0x43])
  }

  /// A card whose keys are none of the keyring's: a typed error naming the sector and the
  /// slot, within seconds (each refused key halts the card; it is selected again).
  @Test func wrongKeysGiveATypedErrorQuickly() async throws {
    var tag = try ClassicFixture.blank(.classic1K)
    let secret: [UInt8] = [0x0B, 0xAD, 0xC0, 0xFF, 0xEE, 0x42]
    tag = try SimulatedMifareClassicTag(
      product: .classic1K,
      memory: {
        var memory = tag.memory
        for i in 0..<6 {
          memory[48 + i] = secret[i]
          memory[58 + i] = secret[i]
        }
        return memory
      }())
    let simulator = try PN532Simulator(tag: .mifareClassic(tag))
    defer { simulator.close() }
    let (reader, found) = try await open(simulator)
    let clock = ContinuousClock()
    let start = clock.now
    var failure: LibNFCNDEFError?
    do { _ = try await reader.readNDEF(from: found) } catch { failure = error }
    let elapsed = clock.now - start
    await reader.close()
    let error = try #require(failure?.mifareClassicError)
    #expect(error.code == .authenticationFailed)
    #expect(error.sector == 0)
    #expect(error.keySlot == .b)
    #expect(error.keysTried == 4)
    #expect(elapsed < .seconds(5))
    #expect(!"\(String(describing: failure))".lowercased().contains("0badc0ffee42"))
    // 0x60/0x61 authentications each followed by a new InListPassiveTarget (0x4A).
    let commands = simulator.receivedCommands
    #expect(commands.filter { $0 == 0x4A }.count >= 4)
  }

  /// The card leaves after some exchanges of a write: a typed tagLost, and what the card
  /// holds is the old message, an empty NDEF TLV, or the new message. The write's exchanges:
  /// 1-4 MAD (auth, trailer, blocks 1-2), 5-9 sector 1 (auth, trailer, blocks 4-6), 10 the
  /// write check (trailer), 11 block 4 with length 0, 12-13 blocks 5-6, 14 block 4.
  @Test(arguments: [2, 9, 10, 11, 13])
  func cardRemovedMidWriteLeavesAValidState(after exchanges: Int) async throws {
    let simulator = try PN532Simulator(tag: .mifareClassic(try ClassicFixture.blank(.classic1K)))
    defer { simulator.close() }
    let (reader, tag) = try await open(simulator)
    try await reader.formatMifareClassic(tag, keyB: ClassicFixture.keyB)
    try await reader.writeNDEF(NDEFFixture.hi, to: tag)
    simulator.inject(.tagLeaves(afterExchanges: exchanges))
    var failure: LibNFCNDEFError?
    do { try await reader.writeNDEF(NDEFFixture.twoRecords, to: tag) } catch { failure = error }
    await reader.close()
    let code = try #require(failure?.mifareClassicError?.code)
    #expect(code == .tagLost)
    let area = ClassicFixture.tlvArea(Self.memory(simulator), sectors: ClassicFixture.nfcSectors(16))
    let held = try #require(ClassicFixture.message(inArea: area))
    let candidates = [
      try NDEFFixture.bytes(NDEFFixture.hi), [], try NDEFFixture.bytes(NDEFFixture.twoRecords),
    ]
    #expect(candidates.contains(held))
  }

  @Test func aBlankCardIsNotFormatted() async throws {
    let simulator = try PN532Simulator(tag: .mifareClassic(try ClassicFixture.blank(.classic1K)))
    defer { simulator.close() }
    let (reader, tag) = try await open(simulator)
    var failure: LibNFCNDEFError?
    do { _ = try await reader.readNDEF(from: tag) } catch { failure = error }
    let (image, unread) = try await reader.readMifareClassicMemory(from: tag)
    await reader.close()
    #expect(failure?.mifareClassicError?.code == .notFormatted)
    #expect(unread.isEmpty)  // the transport key opens every sector
    #expect(ClassicFixture.block(image, 0) == ClassicFixture.block(Self.memory(simulator), 0))
  }

  /// RATS (`E0 50`) through InCommunicateThru gets no answer from a MIFARE Classic card, as
  /// nfc-mfclassic sends it; the card is then selected again and still works.
  @Test func ratsFailsCleanly() async throws {
    let simulator = try PN532Simulator(tag: .mifareClassic(try ClassicFixture.blank(.classic1K)))
    defer { simulator.close() }
    let (reader, tag) = try await open(simulator)
    var failure: ReaderError?
    do { _ = try await reader.transceiveRaw([0xE0, 0x50], with: tag) } catch { failure = error }
    try await reader.reselect(tag)
    let opened = try await reader.authenticate(block: 4, slot: .a, key: .transport, of: tag)
    let block = try await reader.readBlock(4, of: tag)
    await reader.close()
    #expect(failure != nil)
    #expect(opened)
    #expect(block == [UInt8](repeating: 0, count: 16))
  }
}
