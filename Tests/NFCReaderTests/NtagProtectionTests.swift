// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCReader
import NFCReaderLibNFC
import NFCTags
import PN532Simulator
import Testing
import Type2NDEF

/// NTAG21x commands and password protection through libnfc and the PN532 simulator
/// (NTAG213/215/216 data sheet §8.8, §10).
@Suite(.serialized, .timeLimit(.minutes(1))) struct NtagProtectionTests {
  static let password = NtagPassword([0x12, 0x34, 0x56, 0x78])!
  static let wrong = NtagPassword([0x12, 0x34, 0x56, 0x79])!
  static let pack = NtagPasswordAcknowledge(0xA5, 0x5A)

  static func simulatedTag(counter: UInt32 = 0) throws -> SimulatedTag {
    guard case .type2(var tag) = try Fixture.type2(.ntag213) else { throw SimulatorError(.invalidTag, "") }
    tag.counters[2] = counter
    return .type2(tag)
  }

  static func type2(_ simulator: PN532Simulator) -> SimulatedType2Tag? {
    if case .type2(let tag)? = simulator.tag { return tag }
    return nil
  }

  @Test func infoNamesTheChipAndReadsSignatureAndCounter() async throws {
    let simulator = try PN532Simulator(tag: try Self.simulatedTag(counter: 0x01_02_03))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let ntag = Ntag(transport: try LibNFCType2Transport(reader: reader, tag: tag))
    let version = try await ntag.version()
    let signature = try await ntag.signature()
    let counter = try await ntag.counter()
    let configuration = try await ntag.configuration(of: .ntag213)
    await reader.close()
    #expect(version?.chip?.name == "NTAG213")
    #expect(signature == Self.type2(simulator)?.signature)
    #expect(counter == 0x01_02_03)
    #expect(configuration.firstProtectedPage == 0xFF)
    #expect(!configuration.isProtected(pageCount: 45))
  }

  /// An Ultralight has no GET_VERSION: `nil`, and the tag answers READ again afterwards.
  @Test func ultralightHasNoVersion() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ultralight))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let ntag = Ntag(transport: try LibNFCType2Transport(reader: reader, tag: tag))
    let version = try await ntag.version()
    let message = try await reader.readNDEF(from: tag)
    await reader.close()
    #expect(version == nil)
    #expect(message == NDEFFixture.hi)
  }

  /// Protect, refused read and write, wrong password, authenticate, write, unprotect.
  @Test func protectionEndToEnd() async throws {
    let simulator = try PN532Simulator(tag: try Self.simulatedTag())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    var tag = try #require(try await reader.poll())
    var ntag = Ntag(transport: try LibNFCType2Transport(reader: reader, tag: tag))
    let plan = try await ntag.protect(
      .ntag213, password: Self.password, acknowledge: Self.pack, firstProtectedPage: 4, readProtected: true,
      attemptLimit: 3)
    // Tearing-safe order: PWD, PACK, CFG1, CFG0 last; the description hides the password.
    #expect(plan.writes.map(\.block) == [0x2B, 0x2C, 0x2A, 0x29])
    #expect(!plan.description.contains("12345678") && !"\(plan)".contains("78"))
    let memory = try #require(Self.type2(simulator)?.memory)
    #expect(Array(memory[(0x29 * 4)..<(0x2B * 4)]) == [0x04, 0, 0, 0x04, 0x83, 0x05, 0, 0])

    // Without the password: reads and writes of protected pages are refused, typed.
    let readError = await #expect(throws: LibNFCNDEFError.self) { _ = try await reader.readNDEF(from: tag) }
    #expect(readError?.readerError?.code == .tagError)
    let writeError = await #expect(throws: ReaderError.self) {
      try await reader.writePage(4, [0, 0, 0, 0], to: tag)
    }
    #expect(writeError?.code == .tagError)

    // A wrong password is a typed refusal and counts against AUTHLIM.
    let wrongError = await #expect(throws: Type2NDEFError.self) { try await ntag.authenticate(Self.wrong) }
    #expect(wrongError?.readerCode == .tagError)
    #expect(Self.type2(simulator)?.failedAuthentications == 1)
    // A right password with the wrong expected PACK: the tag is not trusted.
    let packError = await #expect(throws: Type2NDEFError.self) {
      try await ntag.authenticate(Self.password, acknowledge: NtagPasswordAcknowledge(0, 0))
    }
    #expect(packError == .tag(NFCTagError(.passwordAcknowledgeMismatch, offset: 0)))
    #expect(Self.type2(simulator)?.failedAuthentications == 0)

    // Authenticated: write and read work.
    try await ntag.authenticate(Self.password, acknowledge: Self.pack)
    try await reader.writeNDEF(NDEFFixture.twoRecords, to: tag)
    #expect(try await reader.readNDEF(from: tag) == NDEFFixture.twoRecords)

    // Unprotect: AUTH0 FFh first; a fresh selection reads without the password.
    let removal = try await ntag.unprotect(.ntag213, password: Self.password, acknowledge: Self.pack)
    #expect(removal.writes.map(\.block) == [0x29, 0x2A, 0x2B, 0x2C])
    simulator.removeTag()
    #expect(try await reader.poll() == nil)
    simulator.representTag()
    tag = try #require(try await reader.poll())
    ntag = Ntag(transport: try LibNFCType2Transport(reader: reader, tag: tag))
    #expect(try await reader.readNDEF(from: tag) == NDEFFixture.twoRecords)
    #expect(try await ntag.configuration(of: .ntag213).firstProtectedPage == 0xFF)
    await reader.close()
    let after = try #require(Self.type2(simulator)?.memory)
    #expect(Array(after[(0x2B * 4)..<(0x2D * 4)]) == [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0])
  }

  /// AUTHLIM 2: after two wrong passwords even the right one is refused for good.
  @Test func authenticationLimitLocksTheTag() async throws {
    let simulator = try PN532Simulator(tag: try Self.simulatedTag())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let ntag = Ntag(transport: try LibNFCType2Transport(reader: reader, tag: tag))
    try await ntag.protect(
      .ntag213, password: Self.password, acknowledge: Self.pack, firstProtectedPage: 0x10,
      readProtected: false,
      attemptLimit: 2)
    // Write-only protection: pages before AUTH0 stay writable, the NDEF still reads.
    try await reader.writePage(4, [0x03, 0x00, 0xFE, 0x00], to: tag)
    #expect(try await reader.readNDEF(from: tag) == nil)
    await #expect(throws: Type2NDEFError.self) { try await ntag.authenticate(Self.wrong) }
    await #expect(throws: Type2NDEFError.self) { try await ntag.authenticate(Self.wrong) }
    #expect(Self.type2(simulator)?.failedAuthentications == 2)
    await #expect(throws: Type2NDEFError.self) { try await ntag.authenticate(Self.password) }
    await #expect(throws: ReaderError.self) { try await reader.writePage(0x10, [1, 2, 3, 4], to: tag) }
    await reader.close()
  }
}

extension Type2NDEFError {
  /// The reader error's code.
  var readerCode: ReaderError.Code? {
    if case .reader(let error) = self { return error.code }
    return nil
  }
}
