// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ISO7816

@Suite("GlobalPlatform")
struct GlobalPlatformTests {
  static let isd = ApplicationIdentifier.globalPlatformIssuerSecurityDomain
  static let loadFile = try! ApplicationIdentifier(hex("A0 00 00 00 62 03 01 0C 01"))
  static let module = try! ApplicationIdentifier(hex("A0 00 00 00 62 03 01 0C 01 01"))
  static let application = try! ApplicationIdentifier(hex("A0 00 00 00 62 03 01 0C 01 02"))

  func bytes(_ command: CommandAPDU) throws -> String { hexString(try command.encodedBytes()) }

  @Test("SELECT, GET STATUS, GET DATA and DELETE encode as GP 2.3 §11 shows")
  func simpleCommands() throws {
    #expect(try bytes(GlobalPlatformCommands.select(Self.isd)) == "00a4040008a00000015100000000")
    #expect(try bytes(GlobalPlatformCommands.getStatus(.applications)) == "80f24002024f0000")
    #expect(
      try bytes(GlobalPlatformCommands.getStatus(.issuerSecurityDomain, nextOccurrence: true))
        == "80f28003024f0000")
    #expect(try bytes(GlobalPlatformCommands.getData(.cardProductionLifeCycle)) == "80ca9f7f00")
    #expect(try bytes(GlobalPlatformCommands.getData(.cardData)) == "80ca006600")
    #expect(
      try bytes(GlobalPlatformCommands.delete(Self.loadFile, relatedObjects: true))
        == "80e400800b4f09a00000006203010c0100")
    #expect(
      try bytes(GlobalPlatformCommands.delete(Self.loadFile, cla: CommandClass(rawValue: 0x81)))
        == "81e400000b4f09a00000006203010c0100")
  }

  @Test("INSTALL [for load] and [for install and make selectable]")
  func install() throws {
    let forLoad = try GlobalPlatformCommands.installForLoad(loadFile: Self.loadFile, securityDomain: Self.isd)
    #expect(
      try bytes(forLoad) == "80e6020016" + "09a00000006203010c01" + "08a000000151000000" + "000000" + "00")
    let forInstall = try GlobalPlatformCommands.installForInstall(
      loadFile: Self.loadFile, module: Self.module, application: Self.application,
      privileges: [.cardReset], applicationParameters: [0x01, 0x02])
    #expect(
      try bytes(forInstall)
        == "80e60c002a" + "09a00000006203010c01" + "0aa00000006203010c0101" + "0aa00000006203010c0102"
        + "03040000" + "04c9020102" + "00" + "00")
    let installOnly = try GlobalPlatformCommands.installForInstall(
      loadFile: Self.loadFile, module: Self.module, application: Self.application, makeSelectable: false)
    #expect(installOnly.p1 == 0x04)
    #expect(throws: APDUError(.valueTooLong, offset: 0)) {
      _ = try GlobalPlatformCommands.installForLoad(loadFile: Self.loadFile, parameters: counting(256))
    }
  }

  @Test("LOAD splits C4-wrapped data into numbered blocks with the last-block flag")
  func load() throws {
    let file = counting(600)
    let commands = try GlobalPlatformCommands.load(file, blockSize: 240)
    #expect(commands.count == 3)
    let p1s: [UInt8] = commands.map(\.p1)
    let p2s: [UInt8] = commands.map(\.p2)
    let sizes: [Int] = commands.map(\.data.count)
    #expect(p1s == [0x00, 0x00, 0x80])
    #expect(p2s == [0, 1, 2])
    #expect(sizes == [240, 240, 124])
    #expect(Array(commands[0].data[0..<4]) == [0xC4, 0x82, 0x02, 0x58])
    let joined: [UInt8] = commands.flatMap(\.data)
    #expect(Array(joined[4...]) == file)
    let small = try GlobalPlatformCommands.load([1, 2, 3])
    #expect(try bytes(small[0]) == "80e8800005c40301020300")
    #expect(throws: APDUError(.tooManyLoadBlocks, offset: 0)) {
      _ = try GlobalPlatformCommands.load(counting(300), blockSize: 1, wrapsBlockNumbers: false)
    }
    #expect(throws: APDUError(.invalidBlockSize, offset: 0)) {
      _ = try GlobalPlatformCommands.load(file, blockSize: 0)
    }
    #expect(throws: APDUError(.invalidBlockSize, offset: 0)) {
      _ = try GlobalPlatformCommands.load(file, blockSize: 256)
    }
  }

  @Test("AIDs are 5 to 16 bytes")
  func aid() throws {
    #expect(throws: APDUError(.invalidAIDLength, offset: 0)) { _ = try ApplicationIdentifier([1, 2, 3, 4]) }
    #expect(throws: APDUError(.invalidAIDLength, offset: 0)) { _ = try ApplicationIdentifier(counting(17)) }
    #expect(Self.isd.rid == hex("A0 00 00 01 51"))
    #expect(Self.isd.pix == hex("00 00 00"))
  }

  static let statusResponse = hex(
    """
    E3 13 4F 08 A0 00 00 01 51 00 00 00 9F 70 01 0F C5 03 9E FE 80
    E3 1E 4F 0A A0 00 00 00 62 03 01 0C 01 02 9F 70 01 07 C5 01 00 C4 09 A0 00 00 00 62 03 01 0C 01
    E3 1F 4F 09 A0 00 00 00 62 03 01 0C 01 9F 70 01 01 CE 02 01 00 84 0A A0 00 00 00 62 03 01 0C 01 01
    """)

  @Test("GET STATUS TLV entries: AID, life cycle, privileges, load file and modules")
  func registry() throws {
    let entries = try GlobalPlatformRegistryEntry.parseStatusResponse(Self.statusResponse)
    #expect(entries.count == 3)
    #expect(entries[0].aid == Self.isd.bytes)
    #expect(entries[0].lifeCycle.name(for: .issuerSecurityDomain) == "SECURED")
    #expect(entries[0].privileges?.contains(.securityDomain) == true)
    #expect(entries[0].privileges?.contains(.cardReset) == true)
    #expect(entries[1].lifeCycle.name(for: .applications) == "SELECTABLE")
    #expect(entries[1].privileges == [])
    #expect(entries[1].loadFileAID == Self.loadFile.bytes)
    #expect(entries[2].lifeCycle.name(for: .loadFiles) == "LOADED")
    #expect(entries[2].loadFileVersion == [0x01, 0x00])
    #expect(entries[2].moduleAIDs == [Self.module.bytes])
    let reencoded = try BERTLV.encodedBytes(of: entries.map(\.tlv))
    #expect(try GlobalPlatformRegistryEntry.parseStatusResponse(reencoded) == entries)
  }

  @Test(
    "malformed GET STATUS responses",
    arguments: [
      ("E3 03 9F 70 01", "lengthExceedsInput", 4),
      ("E3 03 9F 70 00", "invalidDataObject", 2),
      ("E3 04 9F 70 01 07", "missingDataObject", 0),
      ("E3 08 4F 05 A0 00 00 00 01 C5", "truncatedLength", 10),
      ("E3 0A 4F 05 A0 00 00 00 01 C5 02 00", "lengthExceedsInput", 10),
      ("61 00", "unexpectedTag", 0),
    ] as [(String, String, Int)])
  func malformedRegistry(text: String, code: String, offset: Int) {
    do {
      _ = try GlobalPlatformRegistryEntry.parseStatusResponse(hex(text))
      Issue.record("accepted")
    } catch {
      #expect(error.code.name == code)
      #expect(error.offset == offset)
    }
  }

  @Test("CPLC fields by position")
  func cplc() throws {
    let value = counting(42)
    let cplc = try CardProductionLifeCycle(parsing: hex("9F 7F 2A") + value)
    #expect(cplc.icFabricator == 0x0001)
    #expect(cplc.icType == 0x0203)
    #expect(cplc.icSerialNumber == 0x0C0D_0E0F)
    #expect(cplc.icPersonalizationEquipment == 0x2627_2829)
    #expect(try CardProductionLifeCycle(parsing: value) == cplc)
    #expect(throws: APDUError(.invalidDataObject, offset: 2)) {
      _ = try CardProductionLifeCycle(parsing: hex("9F 7F 02 01 02"))
    }
    #expect(throws: APDUError(.unexpectedTag, offset: 0)) {
      _ = try CardProductionLifeCycle(parsing: hex("9F 7E 01 01"))
    }
  }

  @Test("card recognition data: GP version and secure channel protocols")
  func recognition() throws {
    let data = hex(
      """
      66 31 73 2F 06 07 2A 86 48 86 FC 6B 01
      60 0C 06 0A 2A 86 48 86 FC 6B 02 02 02 01
      63 09 06 07 2A 86 48 86 FC 6B 03
      64 0B 06 09 2A 86 48 86 FC 6B 04 02 55
      """)
    let crd = try CardRecognitionData(parsing: data)
    #expect(crd.globalPlatformVersion == [2, 2, 1])
    #expect(crd.cardIdentificationScheme == [1, 2, 840, 114283, 3])
    #expect(crd.secureChannelProtocols == [.init(number: 2, implementation: 0x55)])
    #expect(crd.objects.count == 4)
    #expect(throws: APDUError(.invalidDataObject, offset: 4)) {
      _ = try CardRecognitionData(parsing: hex("73 04 64 02 06 00"))
    }
    #expect(throws: APDUError(.missingDataObject, offset: 0)) {
      _ = try CardRecognitionData(parsing: hex("66 02 70 00"))
    }
  }

  @Test("SELECT response FCI with the maximum command length")
  func fci() throws {
    let fci = try FileControlInformation(parsing: BERTLVTests.fci)
    #expect(fci.dfName == Self.isd.bytes)
    #expect(fci.maximumCommandDataLength == 255)
    #expect(fci.proprietaryData.count == 1)
    #expect(throws: APDUError(.unexpectedTag, offset: 0)) {
      _ = try FileControlInformation(parsing: hex("62 00"))
    }
  }

  @Test("privileges from one or three bytes")
  func privileges() {
    #expect(GlobalPlatformPrivileges(bytes: [0x80])?.contains(.securityDomain) == true)
    #expect(GlobalPlatformPrivileges(bytes: [0x00, 0x00, 0x20]) == .contactlessActivation)
    #expect(GlobalPlatformPrivileges(bytes: [0x00, 0x00]) == nil)
    #expect(GlobalPlatformPrivileges([.securityDomain, .trustedPath]).bytes == [0x80, 0x80, 0x00])
  }
}

@Suite("GlobalPlatform registry over a transport")
struct GlobalPlatformRegistryTests {
  @Test("GET STATUS continues with next occurrence while the card answers 6310")
  func nextOccurrence() async throws {
    var served = 0
    let entries = GlobalPlatformTests.statusResponse
    let card = SimulatedCard { command in
      guard command.ins == .gpGetStatus else { return ResponseAPDU(statusWord: .instructionNotSupported) }
      // First answer: the first entry and 6310; the second: the other two and 9000.
      if command.p2 & 0x01 == 0 {
        return ResponseAPDU(data: Array(entries[0..<21]), statusWord: .moreDataAvailable)
      }
      return ResponseAPDU(data: Array(entries[21...]), statusWord: .success)
    }
    var exchanger = APDUExchanger(transport: card)
    let result = try await exchanger.registryEntries(.applications)
    served = exchanger.transport.received.count
    #expect(result.count == 3)
    #expect(served == 2)
    #expect(exchanger.transport.received.map { $0[3] } == [0x02, 0x03])
  }

  @Test("6A88 on the first GET STATUS means an empty registry part; other errors throw")
  func emptyAndErrors() async throws {
    var exchanger = APDUExchanger(
      transport: SimulatedCard { _ in ResponseAPDU(statusWord: .referencedDataNotFound) })
    #expect(try await exchanger.registryEntries(.loadFiles).isEmpty)
    exchanger = APDUExchanger(
      transport: SimulatedCard { _ in ResponseAPDU(statusWord: .securityStatusNotSatisfied) })
    await #expect(throws: APDUExchangeError<Never>.self) {
      _ = try await exchanger.registryEntries(.loadFiles)
    }
    exchanger = APDUExchanger(
      transport: SimulatedCard { _ in
        ResponseAPDU(data: GlobalPlatformTests.statusResponse, statusWord: .moreDataAvailable)
      })
    await #expect(throws: APDUExchangeError<Never>.self) {
      _ = try await exchanger.registryEntries(.applications, maximumCommands: 3)
    }
    #expect(exchanger.transport.received.count == 3)
  }
}

@Suite("GlobalPlatform legacy GET STATUS format")
struct GlobalPlatformLegacyStatusTests {
  @Test("applications and load files with modules")
  func legacy() throws {
    let apps = try GlobalPlatformRegistryEntry.parseLegacyStatusResponse(
      hex("08 A0 00 00 01 51 00 00 00 0F 9E  05 A0 00 00 00 01 07 00"), subset: .applications)
    #expect(apps.map(\.aid.count) == [8, 5])
    #expect(apps[0].privileges?.contains(.securityDomain) == true)
    #expect(apps[1].lifeCycle == .selectable)
    let files = try GlobalPlatformRegistryEntry.parseLegacyStatusResponse(
      hex("05 A0 00 00 00 62 01 00 02 06 A0 00 00 00 62 01 06 A0 00 00 00 62 02"),
      subset: .loadFilesAndModules)
    #expect(files.count == 1)
    #expect(files[0].moduleAIDs == [hex("A0 00 00 00 62 01"), hex("A0 00 00 00 62 02")])
    #expect(files[0].privileges == nil)
  }

  @Test(
    "truncated legacy entries",
    arguments: [
      ("05 A0 00", "lengthExceedsInput", 0),
      ("05 A0 00 00 00 62 01", "truncatedLength", 7),
      ("05 A0 00 00 00 62 01 00", "truncatedLength", 8),
      ("05 A0 00 00 00 62 01 00 01 06 A0", "lengthExceedsInput", 9),
    ] as [(String, String, Int)])
  func truncated(text: String, code: String, offset: Int) {
    do {
      _ = try GlobalPlatformRegistryEntry.parseLegacyStatusResponse(hex(text), subset: .loadFilesAndModules)
      Issue.record("accepted")
    } catch {
      #expect(error.code.name == code)
      #expect(error.offset == offset)
    }
  }
}
