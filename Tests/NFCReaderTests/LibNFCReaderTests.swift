// SPDX-License-Identifier: Apache-2.0
import NFCReader
import NFCReaderLibNFC
import PN532Simulator
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The real libnfc adapter against the PN532 simulator, over a pseudo-terminal.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LibNFCReaderTests {
  static let products: [(Type2Product, Type2Variant)] = [
    (.ntag213, .ntag213), (.ntag215, .ntag215), (.ntag216, .ntag216), (.ultralight, .ultralight),
    (.ultralightEV1, .ultralightEV1Small),
  ]

  @Test func detectsAnNTAG213WithItsVariant() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try await reader.poll()
    await reader.close()
    #expect(tag?.uid == Fixture.uid)
    #expect(tag?.identifier == Fixture.uid)
    #expect(tag?.atqa == [0x00, 0x44])
    #expect(tag?.sak == 0x00)
    #expect(tag?.ats == [])
    #expect(tag?.modulation == .iso14443A)
    #expect(tag?.kind == .type2(.ntag213))
    #expect(tag?.version == [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03])
    #expect(reader.connstring == simulator.connstring)
    #expect(reader.name == "user defined device" || !reader.name.isEmpty)
    // GET_VERSION went through InCommunicateThru (0x42), the reads through InDataExchange.
    #expect(simulator.receivedCommands.contains(0x42))
  }

  @Test(arguments: 0..<5) func dumpsTheWholeMemoryOfEachProduct(_ index: Int) async throws {
    let (product, variant) = Self.products[index]
    let simulator = try PN532Simulator(tag: try Fixture.type2(product))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    #expect(tag.type2Variant == variant)
    let image = try await reader.readMemory(of: tag)
    await reader.close()
    #expect(image.count == product.pageCount * 4)
    #expect(image == Fixture.memory(simulator))
    // The NDEF TLV sits at page 4: 03 len message FE.
    #expect(Array(image[16..<18]) == [0x03, UInt8(Fixture.textMessage.count)])
    #expect(Array(image[18..<(18 + Fixture.textMessage.count)]) == Fixture.textMessage)
  }

  @Test func readsFourPagesWithRollOver() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ultralight))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let last = try await reader.readPages(startingAt: 14, of: tag)
    await reader.close()
    let memory = try #require(Fixture.memory(simulator))
    #expect(last == Array(memory[56..<64]) + Array(memory[0..<8]))
  }

  @Test func writesPagesAndReadsThemBack() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag215))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let message: [UInt8] = [0x03, 0x03, 0xD0, 0x00, 0x00, 0xFE, 0x00, 0x00]
    try await reader.writePage(4, Array(message[0..<4]), to: tag)
    try await reader.writePage(5, Array(message[4..<8]), to: tag)
    try await reader.writePage(130, [1, 2, 3, 4], to: tag)
    let back = try await reader.readPages(startingAt: 4, of: tag)
    let end = try await reader.readPages(startingAt: 130, of: tag)
    await reader.close()
    #expect(Array(back.prefix(8)) == message)
    #expect(Array(end.prefix(4)) == [1, 2, 3, 4])
    let memory = try #require(Fixture.memory(simulator))
    #expect(Array(memory[16..<24]) == message)
  }

  @Test func refusedWriteIsATagErrorNamingTheLibNFCCode() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ultralight))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    // Page 16 is past the end of an Ultralight; the range check needs a variant-less tag.
    let error = await #expect(throws: ReaderError.self) {
      try await reader.readPages(startingAt: 16, of: tag)
    }
    #expect(error?.code == .tagError)
    #expect(error?.transportCodeName == "NFC_ERFTRANS")
    #expect(error?.transportCode == -20)
    let range = await #expect(throws: ReaderError.self) {
      try await reader.writePage(1, [0, 0, 0, 0], to: tag)
    }
    #expect(range?.code == .invalidArgument)
    // The tag still works after the NAK (the reader selected it again).
    let page0 = try await reader.readPages(startingAt: 0, of: tag)
    await reader.close()
    #expect(Array(page0.prefix(3)) == Array(Fixture.uid.prefix(3)))
  }

  @Test func rawFramesFollowTheCRCRegisters() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag216))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let withCRC = try await reader.transceiveRaw([0x60], with: tag)
    let command: [UInt8] = [0x60] + crcA([0x60])
    let raw = try await reader.transceiveRaw(command, with: tag, handlesCRC: false)
    let afterwards = try await reader.readPages(startingAt: 0, of: tag)
    await reader.close()
    let version: [UInt8] = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03]
    #expect(withCRC == version)
    #expect(raw == version + crcA(version))
    #expect(afterwards.count == 16)
    // libnfc restored CRC handling in CIU_TxMode / CIU_RxMode.
    #expect(simulator.register(0x6302) & 0x80 == 0x80)
    #expect(simulator.register(0x6303) & 0x80 == 0x80)
  }

  @Test func exchangesAPDUsWithAType4Tag() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type4())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    #expect(tag.kind == .type4)
    #expect(tag.sak == 0x20)
    #expect(tag.ats == [0x78, 0x80, 0x70, 0x02])
    #expect(tag.uid == [0x08, 0x12, 0x34, 0x56])
    let select = try await reader.exchangeAPDU(
      [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00], with: tag)
    #expect(select == [0x90, 0x00])
    #expect(
      try await reader.exchangeAPDU([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03], with: tag) == [0x90, 0x00])
    let cc = try await reader.exchangeAPDU([0x00, 0xB0, 0x00, 0x00, 0x0F], with: tag)
    #expect(Array(cc.prefix(2)) == [0x00, 0x0F])
    #expect(Array(cc.suffix(2)) == [0x90, 0x00])
    #expect(Array(cc[9..<11]) == [0xE1, 0x04])
    #expect(
      try await reader.exchangeAPDU([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04], with: tag) == [0x90, 0x00])
    let length = try await reader.exchangeAPDU([0x00, 0xB0, 0x00, 0x00, 0x02], with: tag)
    #expect(length == [0x00, UInt8(Fixture.textMessage.count), 0x90, 0x00])
    let body = try await reader.exchangeAPDU(
      [0x00, 0xB0, 0x00, 0x02, UInt8(Fixture.textMessage.count)], with: tag)
    #expect(body == Fixture.textMessage + [0x90, 0x00])
    // UPDATE BINARY, then read back.
    #expect(
      try await reader.exchangeAPDU([0x00, 0xD6, 0x00, 0x02, 0x03, 0xD0, 0x00, 0x00], with: tag) == [
        0x90, 0x00,
      ])
    #expect(
      try await reader.exchangeAPDU([0x00, 0xB0, 0x00, 0x02, 0x03], with: tag) == [
        0xD0, 0x00, 0x00, 0x90, 0x00,
      ])
    #expect(
      try await reader.exchangeAPDU([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xAB, 0xCD], with: tag) == [0x6A, 0x82])
    // An injected wrong status word.
    simulator.inject(.statusWord(0x6A82, count: 1))
    #expect(try await reader.exchangeAPDU([0x00, 0xB0, 0x00, 0x00, 0x02], with: tag) == [0x6A, 0x82])
    #expect(
      try await reader.exchangeAPDU([0x00, 0xB0, 0x00, 0x00, 0x02], with: tag) == [0x00, 0x09, 0x90, 0x00])
    let pages = await #expect(throws: ReaderError.self) { try await reader.readPages(startingAt: 0, of: tag) }
    #expect(pages?.code == .unsupportedFeature)
    await reader.close()
    guard case .type4(let served)? = simulator.tag else {
      Issue.record("the simulator lost its Type 4 tag")
      return
    }
    #expect(served.fileSystem?.files[0xE104]?[2] == 0xD0)
  }

  @Test func longISODEPAnswersArriveInChainedParts() async throws {
    let message = (0..<600).map { UInt8(truncatingIfNeeded: $0 * 5) }
    let simulator = try PN532Simulator(tag: try Fixture.type4(message: message))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let selectApp: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]
    #expect(try await reader.exchangeAPDU(selectApp, with: tag) == [0x90, 0x00])
    #expect(
      try await reader.exchangeAPDU([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04], with: tag) == [0x90, 0x00])
    // Le = 00: 256 bytes and the status word, 258 bytes, more than one PN532 part.
    let long = try await reader.exchangeAPDU([0x00, 0xB0, 0x00, 0x02, 0x00], with: tag)
    #expect(long == Array(message.prefix(256)) + [0x90, 0x00])
    simulator.inject(.tagLeaves(afterExchanges: 0))
    let lost = await #expect(throws: ReaderError.self) {
      try await reader.exchangeAPDU([0x00, 0xB0, 0x00, 0x00, 0x02], with: tag)
    }
    #expect(lost?.code == .tagLost)
    await reader.close()
  }

  @Test func type4AppletFromAClosure() async throws {
    let applet = SimulatedType4Tag.Applet.handler { apdu in
      apdu.count > 1 && apdu[1] == 0xCA ? [0x42, 0x90, 0x00] : [0x6D, 0x00]
    }
    let simulator = try PN532Simulator(tag: .type4(try SimulatedType4Tag(uid: Fixture.uid, applet: applet)))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    #expect(tag.uid == Fixture.uid)
    #expect(try await reader.exchangeAPDU([0x80, 0xCA, 0x00, 0x66, 0x00], with: tag) == [0x42, 0x90, 0x00])
    #expect(try await reader.exchangeAPDU([0x80, 0x01, 0x00, 0x00], with: tag) == [0x6D, 0x00])
    await reader.close()
  }

  @Test func tagLeavingMidReadIsTagLostAndTheHandleGoesStale() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag216))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    simulator.inject(.tagLeaves(afterExchanges: 3))
    let error = await #expect(throws: ReaderError.self) { try await reader.readMemory(of: tag) }
    #expect(error?.code == .tagLost)
    #expect(error?.transportCodeName == "NFC_ERFTRANS")
    let stale = await #expect(throws: ReaderError.self) { try await reader.readPages(startingAt: 0, of: tag) }
    #expect(stale?.code == .sessionEnded)
    #expect(try await reader.poll() == nil)
    simulator.representTag()
    let again = try #require(try await reader.poll())
    #expect(again.uid == Fixture.uid)
    #expect(try await reader.readMemory(of: again).count == 231 * 4)
    await reader.close()
  }

  @Test func noAnswerIsATimeoutNamingNFCETIMEOUT() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(
      connstring: simulator.connstring, exchangeTimeout: .milliseconds(200))
    let tag = try #require(try await reader.poll())
    simulator.inject(.noAnswer(count: 1))
    let clock = ContinuousClock()
    let start = clock.now
    let error = await #expect(throws: ReaderError.self) { try await reader.readPages(startingAt: 4, of: tag) }
    #expect(clock.now - start < .seconds(3))
    #expect(error?.code == .timeout)
    #expect(error?.transportCodeName == "NFC_ETIMEOUT")
    #expect(error?.transportCode == -6)
    // The reader recovers.
    #expect(try await reader.readPages(startingAt: 4, of: tag).count == 16)
    await reader.close()
  }

  @Test func closedSimulatorIsADeviceFailure() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    simulator.close()
    #expect(simulator.isClosed)
    let error = await #expect(throws: ReaderError.self) { try await reader.readPages(startingAt: 0, of: tag) }
    #expect(error?.code == .deviceFailure)
    #expect(error?.transportCodeName == "NFC_EIO")
    await reader.close()
    let after = await #expect(throws: ReaderError.self) { try await reader.poll() }
    #expect(after?.code == .sessionEnded)
  }

  // Opening the first device named by LIBNFC_DEVICE is tested in a child process
  // (TapwireCLITests.ReadCommandTests): setenv here would race libnfc's getenv in the
  // tests that run in parallel.
  @Test func aSecondOpenOfTheSameDeviceIsBusy() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    #expect(reader.connstring == simulator.connstring)
    #expect(try await reader.poll()?.uid == Fixture.uid)
    // A second open of the same device in this process is refused as busy.
    let busy = await #expect(throws: ReaderError.self) {
      try await LibNFCReader.open(connstring: simulator.connstring)
    }
    #expect(busy?.code == .deviceBusy)
    await reader.close()
  }

  @Test func availabilityTellsNoReaderFromUnsupported() async throws {
    let missing = LibNFCTransport(connstring: "pn532_uart:/dev/pts/tapwire-missing")
    let none = await #expect(throws: ReaderError.self) { try await missing.checkAvailability() }
    #expect(none?.code == .noReader)

    let simulator = try PN532Simulator()
    defer { simulator.close() }
    try await LibNFCTransport(connstring: simulator.connstring).checkAvailability()
    simulator.inject(.refuse(command: 0x32))  // no RFConfiguration: cannot be an initiator
    let unsupported = await #expect(throws: ReaderError.self) {
      try await LibNFCTransport(connstring: simulator.connstring).checkAvailability()
    }
    #expect(unsupported?.code == .unsupportedFeature)
    #expect(unsupported?.transportCodeName == "NFC_EIO")
  }

  @Test func detectsTypeBFeliCaAndJewelTargets() async throws {
    let idm: [UInt8] = [0x01, 0x2E, 0x3C, 0x4D, 0x5E, 0x6F, 0x70, 0x81]
    let pupi: [UInt8] = [0x9A, 0xBC, 0xDE, 0xF0]
    let jewelID: [UInt8] = [0x11, 0x22, 0x33, 0x44]
    let simulator = try PN532Simulator(tag: .felica(try SimulatedFeliCaTag(idm: idm)))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let felica = try #require(try await reader.poll())
    #expect(felica.modulation == .felica212)
    #expect(felica.uid == idm)
    #expect(felica.kind == .type3)
    #expect(try await reader.readMemory(of: felica).count == 14 * 16)  // an empty Type 3 tag

    simulator.present(.jewel(try SimulatedJewelTag(id: jewelID)))
    let jewel = try #require(try await reader.poll())
    #expect(jewel.modulation == .jewel)
    #expect(jewel.uid == jewelID)
    #expect(jewel.atqa == [0x0C, 0x00])
    #expect(jewel.kind == .type1)
    let dump = await #expect(throws: ReaderError.self) {
      try await reader.readPages(startingAt: 0, of: jewel)
    }
    #expect(dump?.code == .unsupportedFeature)
    let apdu = await #expect(throws: ReaderError.self) {
      try await reader.exchangeAPDU([0, 0xA4, 4, 0], with: jewel)
    }
    #expect(apdu?.code == .unsupportedFeature)

    let applet = SimulatedType4Tag.Applet.handler { _ in [0x90, 0x00] }
    simulator.present(.type4B(try SimulatedType4Tag(uid: pupi, applet: applet)))
    let typeB = try #require(try await reader.poll())
    #expect(typeB.modulation == .iso14443B)
    #expect(typeB.uid == pupi)
    #expect(typeB.kind == .type4)
    #expect(try await reader.exchangeAPDU([0x00, 0xA4, 0x04, 0x00], with: typeB) == [0x90, 0x00])
    await reader.close()
  }

  @Test func readsAndWritesType3Blocks() async throws {
    let idm: [UInt8] = [0x01, 0x2E, 0x3C, 0x4D, 0x5E, 0x6F, 0x70, 0x81]
    let simulator = try PN532Simulator(
      tag: .felica(try SimulatedFeliCaTag(idm: idm, message: Fixture.textMessage)))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    #expect(tag.kind == .type3)
    let image = try await reader.readMemory(of: tag)
    guard case .felica(let served)? = simulator.tag else {
      Issue.record("no FeliCa tag")
      return
    }
    #expect(image == served.blocks.flatMap { $0 })
    #expect(image.count == 14 * 16)
    // Attribute block: version 1.0, Nbr 4, Nbw 1, NmaxB 13, Ln = 9.
    #expect(Array(image[0..<5]) == [0x10, 0x04, 0x01, 0x00, 0x0D])
    #expect(Array(image[11..<14]) == [0x00, 0x00, 0x09])
    #expect(Array(image[16..<25]) == Fixture.textMessage)
    let block: [UInt8] = (0..<16).map { UInt8($0 * 3) }
    try await reader.writeBlocks(startingAt: 2, block, to: tag)
    #expect(try await reader.readBlocks(startingAt: 2, count: 1, of: tag) == block)
    let missing = await #expect(throws: ReaderError.self) {
      try await reader.readBlocks(startingAt: 20, count: 1, of: tag)
    }
    #expect(missing?.code == .tagError)
    #expect(missing?.message.contains("01A8") == true)
    let wrongService = await #expect(throws: ReaderError.self) {
      try await reader.writeBlocks(startingAt: 1, block, to: tag, service: 0x000B)
    }
    #expect(wrongService?.code == .tagError)
    await reader.close()
  }

  @Test func readsAndWritesType1Memory() async throws {
    let tlv: [UInt8] = [0x03, UInt8(Fixture.textMessage.count)] + Fixture.textMessage + [0xFE]
    let simulator = try PN532Simulator(
      tag: .jewel(try SimulatedJewelTag(id: [0x11, 0x22, 0x33, 0x44], tlvArea: tlv)))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    #expect(tag.kind == .type1)
    let image = try await reader.readMemory(of: tag)
    guard case .jewel(let served)? = simulator.tag else {
      Issue.record("no Jewel tag")
      return
    }
    #expect(image == served.memory)
    #expect(Array(image[8..<12]) == [0xE1, 0x10, 0x0E, 0x00])
    #expect(Array(image[12..<(12 + tlv.count)]) == tlv)
    try await reader.writeType1Byte(0x5A, at: 0x30, to: tag)
    #expect(try await reader.readType1Byte(at: 0x30, of: tag) == 0x5A)
    let reserved = await #expect(throws: ReaderError.self) {
      try await reader.writeType1Byte(1, at: 0x68, to: tag)
    }
    #expect(reserved?.code == .tagError)
    await reader.close()
  }

  @Test func pollsOnlyTheConfiguredModulations() async throws {
    let simulator = try PN532Simulator(tag: .jewel(try SimulatedJewelTag(id: [1, 2, 3, 4])))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring, modulations: [.iso14443A])
    #expect(try await reader.poll() == nil)
    await reader.close()
  }

  @Test func aHungDeviceTimesOutInsteadOfHanging() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(
      connstring: simulator.connstring, exchangeTimeout: .milliseconds(200))
    let tag = try #require(try await reader.poll())
    simulator.inject(.silentDevice)
    let clock = ContinuousClock()
    let start = clock.now
    let error = await #expect(throws: ReaderError.self) { try await reader.readPages(startingAt: 0, of: tag) }
    #expect(error?.code == .timeout)
    #expect(error?.transportCodeName == "NFC_ETIMEOUT")
    #expect(try await reader.poll() == nil)  // every select times out: nothing found
    await reader.close()
    #expect(clock.now - start < .seconds(15))
  }

  @Test func releasingTheSimulatorClosesTheDevice() async throws {
    var simulator: PN532Simulator? = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    let connstring = try #require(simulator?.connstring)
    let reader = try await LibNFCReader.open(connstring: connstring)
    let tag = try #require(try await reader.poll())
    simulator = nil
    try await Task.sleep(for: .milliseconds(100))
    let error = await #expect(throws: ReaderError.self) { try await reader.readPages(startingAt: 0, of: tag) }
    #expect(error?.code == .deviceFailure)
    await reader.close()
  }

  @Test func emptyFieldPollsNil() async throws {
    let simulator = try PN532Simulator()
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    #expect(try await reader.poll() == nil)
    await reader.close()
    // Every modulation was tried: InListPassiveTarget (0x4A) five times.
    #expect(simulator.receivedCommands.filter { $0 == 0x4A }.count == 5)
  }
}
