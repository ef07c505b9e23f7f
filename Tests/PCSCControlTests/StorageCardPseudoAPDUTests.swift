// SPDX-License-Identifier: Apache-2.0

import ISO7816
import PCSCControl
import Testing

@Suite("LoadKeysPseudoAPDU")
struct LoadKeysPseudoAPDUTests {
  static let key: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]

  @Test func buildsAndParsesTheVolatileAndNonVolatileForms() throws {
    // libnfc pcsc.c (Feitian): FF 82 00 01 06 key; OMNIKEY: FF 82 20 slot 06 key.
    let volatile = LoadKeysPseudoAPDU(keyStructure: .volatile, keyNumber: 0x01, key: Self.key)
    #expect(try volatile.encodedBytes() == [0xFF, 0x82, 0x00, 0x01, 0x06] + Self.key)
    let omnikey = LoadKeysPseudoAPDU(keyStructure: .nonVolatile, keyNumber: 0x00, key: Self.key)
    #expect(try omnikey.encodedBytes() == [0xFF, 0x82, 0x20, 0x00, 0x06] + Self.key)
    #expect(try LoadKeysPseudoAPDU(parsing: volatile.encodedBytes()) == volatile)
    #expect(try LoadKeysPseudoAPDU(parsing: omnikey.encodedBytes()) == omnikey)
  }

  @Test func keyStructureBits() {
    let structure = LoadKeysPseudoAPDU.KeyStructure(
      readerKey: true, secured: true, nonVolatile: true, readerKeyNumber: 0x1F)
    #expect(structure.rawValue == 0xEF)
    #expect(structure.isReaderKey && structure.isSecured && structure.isNonVolatile)
    #expect(structure.readerKeyNumber == 0x0F)
    #expect(LoadKeysPseudoAPDU.KeyStructure.volatile.otherMemory == .nonVolatile)
    #expect(LoadKeysPseudoAPDU.KeyStructure(rawValue: 0x00).isNonVolatile == false)
    #expect(LoadKeysPseudoAPDU.KeyStructure(nonVolatile: false) == .volatile)
  }

  @Test func neverShowsTheKey() {
    let command = LoadKeysPseudoAPDU(
      keyStructure: .volatile, keyNumber: 0, key: [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5])
    #expect(command.description == "LOAD KEYS P1 00 key number 00, 6-byte key")
    #expect(String(reflecting: command) == command.description)
    #expect(!"\(command)".contains("A0"))
    var dumped = ""
    dump(command, to: &dumped)
    #expect(!dumped.contains("160") && !dumped.contains("165"))
    #expect(dumped.contains("keyLength: 6"))
  }

  @Test(arguments: [
    ([UInt8](), PCSCControlError(.truncatedCommand, offset: 0)),
    ([0xFF, 0x82, 0x00, 0x00], PCSCControlError(.truncatedCommand, offset: 4)),
    ([0x00, 0x82, 0x00, 0x00, 0x01, 0x00], PCSCControlError(.wrongClass, offset: 0)),
    ([0xFF, 0x86, 0x00, 0x00, 0x01, 0x00], PCSCControlError(.wrongInstruction, offset: 1)),
    ([0xFF, 0x82, 0x00, 0x00, 0x00], PCSCControlError(.emptyValue, offset: 4)),
    ([0xFF, 0x82, 0x00, 0x00, 0x06, 0x01], PCSCControlError(.truncatedCommand, offset: 4)),
    ([0xFF, 0x82, 0x00, 0x00, 0x01, 0x01, 0x02], PCSCControlError(.lengthMismatch, offset: 4)),
  ])
  func malformed(bytes: [UInt8], error: PCSCControlError) {
    #expect(throws: error) { try LoadKeysPseudoAPDU(parsing: bytes) }
  }

  @Test func refusesKeysThatDoNotFitLc() {
    #expect(throws: PCSCControlError(.emptyValue, offset: 0)) {
      try LoadKeysPseudoAPDU(keyStructure: .volatile, keyNumber: 0, key: []).encodedBytes()
    }
    #expect(throws: PCSCControlError(.valueTooLong, offset: 255)) {
      try LoadKeysPseudoAPDU(keyStructure: .volatile, keyNumber: 0, key: Array(repeating: 0, count: 256))
        .encodedBytes()
    }
  }

  @Test(arguments: [
    (UInt16(0x9000), LoadKeysPseudoAPDU.Answer.loaded), (0x6300, .noInformation),
    (0x6982, .cardKeyNotSupported),
    (0x6983, .readerKeyNotSupported), (0x6984, .plainTransmissionNotSupported),
    (0x6985, .securedTransmissionNotSupported), (0x6986, .volatileMemoryNotAvailable),
    (0x6987, .nonVolatileMemoryNotAvailable), (0x6988, .keyNumberNotValid), (0x6989, .keyLengthNotCorrect),
    (0x6386, .volatileMemoryNotAvailable), (0x6389, .keyLengthNotCorrect), (0x6B00, .wrongParameters),
    (0x6A81, .failed(StatusWord(rawValue: 0x6A81))), (0x6981, .failed(StatusWord(rawValue: 0x6981))),
  ])
  func answers(sw: UInt16, answer: LoadKeysPseudoAPDU.Answer) throws {
    #expect(try LoadKeysPseudoAPDU.answer(parsing: [UInt8(sw >> 8), UInt8(sw & 0xFF)]) == answer)
  }

  @Test func answerNeedsAStatusWord() {
    #expect(throws: PCSCControlError(.truncatedResponse, offset: 1)) {
      try LoadKeysPseudoAPDU.answer(parsing: [0x90])
    }
  }
}

@Suite("Authenticate pseudo-APDUs")
struct AuthenticatePseudoAPDUTests {
  @Test func generalAuthenticateAsPartThreeAndLibnfcSendIt() throws {
    // libnfc pcsc.c: FF 86 00 00 05 01 00 blk 60|61 01.
    let command = GeneralAuthenticatePseudoAPDU(block: 0x0004, keyType: .keyA, keyNumber: 0x01)
    #expect(command.encodedBytes() == [0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x04, 0x60, 0x01])
    #expect(try GeneralAuthenticatePseudoAPDU(parsing: command.encodedBytes()) == command)
    let high = GeneralAuthenticatePseudoAPDU(block: 0x01FF, keyType: .keyB, keyNumber: 0x00)
    #expect(try GeneralAuthenticatePseudoAPDU(parsing: high.encodedBytes()) == high)
  }

  @Test(arguments: [
    ([UInt8](arrayLiteral: 0xFF, 0x86, 0x00), PCSCControlError(.truncatedCommand, offset: 3)),
    (
      [0xFF, 0x86, 0x01, 0x00, 0x05, 0x01, 0x00, 0x04, 0x60, 0x01],
      PCSCControlError(.invalidParameters, offset: 2)
    ),
    (
      [0xFF, 0x86, 0x00, 0x01, 0x05, 0x01, 0x00, 0x04, 0x60, 0x01],
      PCSCControlError(.invalidParameters, offset: 3)
    ),
    ([0xFF, 0x86, 0x00, 0x00, 0x01, 0x01], PCSCControlError(.lengthMismatch, offset: 4)),
    ([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, 0x04, 0x60], PCSCControlError(.truncatedCommand, offset: 4)),
    (
      [0xFF, 0x86, 0x00, 0x00, 0x05, 0x02, 0x00, 0x04, 0x60, 0x01],
      PCSCControlError(.unsupportedVersion, offset: 5)
    ),
    (
      [0xFF, 0x88, 0x00, 0x00, 0x05, 0x01, 0x00, 0x04, 0x60, 0x01],
      PCSCControlError(.wrongInstruction, offset: 1)
    ),
  ])
  func malformedGeneralAuthenticate(bytes: [UInt8], error: PCSCControlError) {
    #expect(throws: error) { try GeneralAuthenticatePseudoAPDU(parsing: bytes) }
  }

  @Test func legacyAuthenticate() throws {
    // py-acr122u / ACR122U: FF 88 00 blk 60 keyNumber.
    let command = LegacyAuthenticatePseudoAPDU(block: 0x04, keyType: .keyA, keyNumber: 0x00)
    #expect(command.encodedBytes() == [0xFF, 0x88, 0x00, 0x04, 0x60, 0x00])
    #expect(try LegacyAuthenticatePseudoAPDU(parsing: command.encodedBytes()) == command)
    #expect(throws: PCSCControlError(.truncatedCommand, offset: 5)) {
      try LegacyAuthenticatePseudoAPDU(parsing: [0xFF, 0x88, 0x00, 0x04, 0x60])
    }
    #expect(throws: PCSCControlError(.invalidParameters, offset: 2)) {
      try LegacyAuthenticatePseudoAPDU(parsing: [0xFF, 0x88, 0x01, 0x04, 0x60, 0x00])
    }
    #expect(throws: PCSCControlError(.trailingData, offset: 6)) {
      try LegacyAuthenticatePseudoAPDU(parsing: [0xFF, 0x88, 0x00, 0x04, 0x60, 0x00, 0x00])
    }
  }

  @Test(arguments: [
    (UInt16(0x9000), GeneralAuthenticatePseudoAPDU.Answer.authenticated), (0x6300, .noInformation),
    (0x6581, .addressDoesNotExist), (0x6982, .securityStatusNotSatisfied),
    (0x6983, .authenticationCannotBeDone),
    (0x6984, .referenceKeyNotUsable), (0x6986, .keyTypeNotKnown), (0x6988, .keyNumberNotValid),
    (0x6A81, .failed(StatusWord(rawValue: 0x6A81))),
  ])
  func answers(sw: UInt16, answer: GeneralAuthenticatePseudoAPDU.Answer) throws {
    #expect(try GeneralAuthenticatePseudoAPDU.answer(parsing: [UInt8(sw >> 8), UInt8(sw & 0xFF)]) == answer)
  }
}

@Suite("READ BINARY / UPDATE BINARY")
struct BinaryPseudoAPDUTests {
  @Test func type2PagesAsTheACSManualShowsThem() throws {
    // ACR122T API §5.3: FF B0 00 04 10 reads pages 4-7; FF D6 00 page 04 data writes one page.
    let read = try #require(ReadBinaryPseudoAPDU(block: 4, addressing: .type2Page, expectedLength: 0x10))
    #expect(read.encodedBytes() == [0xFF, 0xB0, 0x00, 0x04, 0x10])
    #expect(try ReadBinaryPseudoAPDU(parsing: read.encodedBytes()) == read)
    let write = try #require(UpdateBinaryPseudoAPDU(block: 5, addressing: .type2Page, data: [1, 2, 3, 4]))
    #expect(try write.encodedBytes() == [0xFF, 0xD6, 0x00, 0x05, 0x04, 1, 2, 3, 4])
    #expect(try UpdateBinaryPseudoAPDU(parsing: write.encodedBytes()) == write)
    #expect(StorageCardAddressing.type2ReadLength == 16 && StorageCardAddressing.type2WriteLength == 4)
  }

  @Test(arguments: [
    (StorageCardAddressing.mifareClassicBlock, 0xFF, UInt16(0x00FF)), (.type2Page, 0x2C, 0x002C),
    (.blockInP1, 0x1B, 0x1B00), (.blockInP1P2, 0x0123, 0x0123), (.byteAddress(blockSize: 4), 0x10, 0x0040),
    (.byteAddress(blockSize: 8), 0x1FFF, 0xFFF8),
  ])
  func addressing(addressing: StorageCardAddressing, block: Int, parameters: UInt16) throws {
    #expect(addressing.parameters(forBlock: block) == parameters)
    #expect(addressing.block(forParameters: parameters) == block)
    let read = try #require(ReadBinaryPseudoAPDU(block: block, addressing: addressing, expectedLength: 4))
    #expect(read.encodedBytes()[2...3].elementsEqual([UInt8(parameters >> 8), UInt8(parameters & 0xFF)]))
  }

  @Test func blocksThatDoNotFit() {
    #expect(StorageCardAddressing.mifareClassicBlock.parameters(forBlock: 256) == nil)
    #expect(StorageCardAddressing.type2Page.parameters(forBlock: -1) == nil)
    #expect(StorageCardAddressing.blockInP1.parameters(forBlock: 256) == nil)
    #expect(StorageCardAddressing.blockInP1P2.parameters(forBlock: 0x10000) == nil)
    #expect(StorageCardAddressing.byteAddress(blockSize: 4).parameters(forBlock: 0x4000) == nil)
    #expect(StorageCardAddressing.byteAddress(blockSize: 0).parameters(forBlock: 1) == nil)
    #expect(StorageCardAddressing.byteAddress(blockSize: 4).parameters(forBlock: Int.max) == nil)
    #expect(StorageCardAddressing.type2Page.block(forParameters: 0x0100) == nil)
    #expect(StorageCardAddressing.blockInP1.block(forParameters: 0x0101) == nil)
    #expect(StorageCardAddressing.byteAddress(blockSize: 4).block(forParameters: 0x0041) == nil)
    #expect(StorageCardAddressing.byteAddress(blockSize: -4).block(forParameters: 0x0040) == nil)
    #expect(ReadBinaryPseudoAPDU(block: 300, addressing: .mifareClassicBlock, expectedLength: 16) == nil)
    #expect(UpdateBinaryPseudoAPDU(block: 300, addressing: .type2Page, data: [0]) == nil)
  }

  @Test(arguments: [
    ([UInt8](arrayLiteral: 0xFF, 0xB0, 0x00, 0x04), PCSCControlError(.truncatedCommand, offset: 4)),
    ([0xFE, 0xB0, 0x00, 0x04, 0x10], PCSCControlError(.wrongClass, offset: 0)),
    ([0xFF, 0xD6, 0x00, 0x04, 0x10], PCSCControlError(.wrongInstruction, offset: 1)),
    ([0xFF, 0xB0, 0x00, 0x04, 0x10, 0x00], PCSCControlError(.trailingData, offset: 5)),
  ])
  func malformedRead(bytes: [UInt8], error: PCSCControlError) {
    #expect(throws: error) { try ReadBinaryPseudoAPDU(parsing: bytes) }
  }

  @Test(arguments: [
    ([UInt8](arrayLiteral: 0xFF, 0xD6, 0x00, 0x04, 0x00), PCSCControlError(.emptyValue, offset: 4)),
    ([0xFF, 0xD6, 0x00, 0x04, 0x04, 0x01], PCSCControlError(.truncatedCommand, offset: 4)),
    ([0xFF, 0xD6, 0x00, 0x04, 0x01, 0x01, 0x02], PCSCControlError(.lengthMismatch, offset: 4)),
    ([0xFF, 0xB0, 0x00, 0x04, 0x01, 0x01], PCSCControlError(.wrongInstruction, offset: 1)),
  ])
  func malformedUpdate(bytes: [UInt8], error: PCSCControlError) {
    #expect(throws: error) { try UpdateBinaryPseudoAPDU(parsing: bytes) }
  }

  @Test(arguments: [
    ([UInt8](arrayLiteral: 1, 2, 0x90, 0x00), BinaryPseudoAPDUAnswer.complete([1, 2])),
    ([0x90, 0x00], .complete([])),
    ([1, 0x62, 0x81], .dataMayBeCorrupted([1])), ([1, 2, 0x62, 0x82], .endReached([1, 2])),
    ([0x63, 0x00], .noInformation), ([0x69, 0x81], .commandIncompatible), ([0x69, 0x82], .notAuthenticated),
    ([0x69, 0x86], .commandNotAllowed), ([0x6A, 0x81], .notSupported), ([0x6A, 0x82], .addressDoesNotExist),
    ([0x6B, 0x00], .wrongParameters), ([0x6C, 0x10], .wrongLength(available: 0x10)),
    ([7, 0x64, 0x00], .failed(StatusWord(rawValue: 0x6400), [7])),
  ])
  func answers(response: [UInt8], answer: BinaryPseudoAPDUAnswer) throws {
    #expect(try ReadBinaryPseudoAPDU.answer(parsing: response) == answer)
    #expect(try UpdateBinaryPseudoAPDU.answer(parsing: response) == answer)
  }

  @Test func answerBytes() throws {
    #expect(try BinaryPseudoAPDUAnswer(parsing: [9, 0x62, 0x82]).bytes == [9])
    #expect(try BinaryPseudoAPDUAnswer(parsing: [0x69, 0x82]).bytes == nil)
    #expect(throws: PCSCControlError(.truncatedResponse, offset: 0)) {
      try BinaryPseudoAPDUAnswer(parsing: [])
    }
  }
}

@Suite("Transparent session and direct transmit")
struct TransparentSessionTests {
  @Test func switchProtocolToFeliCaAsTheRustToolSendsIt() throws {
    let command = TransparentSessionPseudoAPDU(
      function: .switchProtocol, objects: [.switchProtocol(standard: 0x03, layer: 0x00)])
    #expect(try command.encodedBytes() == [0xFF, 0xC2, 0x00, 0x02, 0x04, 0x8F, 0x02, 0x03, 0x00])
    #expect(try TransparentSessionPseudoAPDU(parsing: command.encodedBytes()) == command)
  }

  @Test func manageSessionObjects() throws {
    let command = TransparentSessionPseudoAPDU(
      function: .manageSession,
      objects: [.startSession, .rfOn, .timer(microseconds: 0x0001_86A0), .endSession, .rfOff])
    #expect(
      try command.encodedBytes() == [
        0xFF, 0xC2, 0x00, 0x00, 0x0F, 0x81, 0x00, 0x84, 0x00, 0x5F, 0x46, 0x04, 0x00, 0x01, 0x86, 0xA0, 0x82,
        0x00,
        0x83, 0x00,
      ])
    #expect(try TransparentSessionPseudoAPDU(parsing: command.encodedBytes()) == command)
  }

  @Test func transceiveWithFramingAndLongFrames() throws {
    let getVersion = TransparentSessionPseudoAPDU.transceive([0x60])
    #expect(try getVersion.encodedBytes() == [0xFF, 0xC2, 0x00, 0x01, 0x03, 0x95, 0x01, 0x60])
    let framed = TransparentSessionPseudoAPDU(
      function: .transparentExchange,
      objects: [
        .transmissionFlags(0x0000), .transmitBitFraming(7), .receiveBitFraming(0), .transceive([0x26]),
      ])
    #expect(try TransparentSessionPseudoAPDU(parsing: framed.encodedBytes()) == framed)
    let long = TransparentSessionPseudoAPDU.transceive(Array(repeating: 0xAB, count: 200))
    let bytes = try long.encodedBytes()
    #expect(bytes[4] == 203 && bytes[5...7].elementsEqual([0x95, 0x81, 200]))
    #expect(try TransparentSessionPseudoAPDU(parsing: bytes) == long)
    #expect(throws: PCSCControlError(.valueTooLong, offset: 255)) {
      try TransparentSessionPseudoAPDU.transceive(Array(repeating: 0, count: 300)).encodedBytes()
    }
    #expect(
      try TransparentDataObject.encode([
        TransparentDataObject(tag: 0x97, value: Array(repeating: 1, count: 300))
      ]).count == 304)
  }

  @Test(arguments: [
    (
      [UInt8](arrayLiteral: 0xFF, 0xC2, 0x01, 0x00, 0x02, 0x81, 0x00),
      PCSCControlError(.invalidParameters, offset: 2)
    ),
    ([0xFF, 0xC2, 0x00, 0x00, 0x01, 0x5F], PCSCControlError(.truncatedDataObject, offset: 5)),
    ([0xFF, 0xC2, 0x00, 0x00, 0x02, 0x5F, 0x46], PCSCControlError(.truncatedDataObject, offset: 5)),
    ([0xFF, 0xC2, 0x00, 0x01, 0x03, 0x95, 0x02, 0x60], PCSCControlError(.dataObjectExceedsInput, offset: 6)),
    (
      [0xFF, 0xC2, 0x00, 0x01, 0x03, 0x95, 0x83, 0x60], PCSCControlError(.invalidDataObjectLength, offset: 6)
    ),
    ([0xFF, 0xC2, 0x00, 0x01, 0x03, 0x95, 0x82, 0x00], PCSCControlError(.truncatedDataObject, offset: 5)),
    ([0xFF, 0xC2, 0x00, 0x01, 0x00], PCSCControlError(.emptyValue, offset: 4)),
  ])
  func malformedCommands(bytes: [UInt8], error: PCSCControlError) {
    #expect(throws: error) { try TransparentSessionPseudoAPDU(parsing: bytes) }
  }

  @Test func answers() throws {
    // GET_VERSION through a transparent exchange: C0 03 00 90 00, 92 01 00, 96 02 00 00, 97 08 version.
    let version: [UInt8] = [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03]
    let ok: [UInt8] =
      [0xC0, 0x03, 0x00, 0x90, 0x00, 0x92, 0x01, 0x00, 0x96, 0x02, 0x00, 0x00, 0x97, 0x08] + version
    guard case .completed(let response) = try TransparentSessionPseudoAPDU.answer(parsing: ok + [0x90, 0x00])
    else {
      Issue.record("not completed")
      return
    }
    #expect(response.cardData == version)
    #expect(response.receivedBits == 0)
    #expect(response.responseStatus == 0)
    #expect(
      try TransparentSessionPseudoAPDU.answer(parsing: [0xC0, 0x03, 0x01, 0x64, 0x01, 0x90, 0x00])
        == .objectFailed(index: 1, StatusWord(rawValue: 0x6401)))
    #expect(
      try TransparentSessionPseudoAPDU.answer(parsing: [0x6A, 0x81]) == .failed(StatusWord(rawValue: 0x6A81)))
    #expect(throws: PCSCControlError(.missingGenericErrorStatus, offset: 3)) {
      try TransparentSessionPseudoAPDU.answer(parsing: [0x92, 0x01, 0x00, 0x90, 0x00])
    }
    #expect(throws: PCSCControlError(.invalidGenericErrorStatus, offset: 3)) {
      try TransparentSessionPseudoAPDU.answer(parsing: [0x92, 0x01, 0x00, 0xC0, 0x02, 0x90, 0x00, 0x90, 0x00])
    }
    #expect(throws: PCSCControlError(.dataObjectExceedsInput, offset: 1)) {
      try TransparentSessionPseudoAPDU.answer(parsing: [0x97, 0x05, 0x00, 0x90, 0x00])
    }
    #expect(throws: PCSCControlError(.truncatedResponse, offset: 1)) {
      try TransparentSessionPseudoAPDU.answer(parsing: [0x90])
    }
  }

  @Test func directTransmit() throws {
    // libnfc acr122_pcsc.c: FF 00 00 00 Lc D4 ... (PN532 InDataExchange for tag 1).
    let command = DirectTransmitPseudoAPDU(payload: [0xD4, 0x40, 0x01, 0x60])
    #expect(try command.encodedBytes() == [0xFF, 0x00, 0x00, 0x00, 0x04, 0xD4, 0x40, 0x01, 0x60])
    #expect(try DirectTransmitPseudoAPDU(parsing: command.encodedBytes()) == command)
    #expect(throws: PCSCControlError(.invalidParameters, offset: 2)) {
      try DirectTransmitPseudoAPDU(parsing: [0xFF, 0x00, 0x48, 0x00, 0x01, 0x00])
    }
    #expect(throws: PCSCControlError(.invalidParameters, offset: 3)) {
      try DirectTransmitPseudoAPDU(parsing: [0xFF, 0x00, 0x00, 0x01, 0x01, 0x00])
    }
    #expect(throws: PCSCControlError(.emptyValue, offset: 0)) {
      try DirectTransmitPseudoAPDU(payload: []).encodedBytes()
    }
  }
}
