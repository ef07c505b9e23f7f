// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCReader
import NFCReaderLibNFC
import NFCTags
import PN532Simulator
import Testing
import Type2NDEF

/// Type 2 fixtures for the round-trip counts.
enum Type2Fixture {
  /// A MIME `text/plain` message whose encoding is exactly `size` bytes (size > 271).
  static func filling(_ size: Int) throws -> [UInt8] {
    let type = Array("text/plain".utf8)
    let payload = (0..<(size - 6 - type.count)).map { UInt8(truncatingIfNeeded: 0x41 + $0 % 26) }
    return try NDEFMessage(records: [NDEFRecord(typeNameFormat: .media, type: type, payload: payload)])
      .encodedBytes()
  }

  /// An NTAG216 whose 872-byte data area is filled by one NDEF TLV (03 FF 03 64 + 868).
  static func filledNTAG216() throws -> (tag: SimulatedTag, message: [UInt8]) {
    let message = try filling(868)
    let tag = try SimulatedType2Tag(
      product: .ntag216, uid: Fixture.uid, tlvArea: [0x03, 0xFF, 0x03, 0x64] + message)
    return (.type2(tag), message)
  }

  /// The RF round trips the simulated PN532 carried since `start`: InDataExchange (`40`)
  /// and InCommunicateThru (`42`) frames.
  static func roundTrips(_ simulator: PN532Simulator, since start: Int) -> [UInt8] {
    simulator.receivedCommands.dropFirst(start).filter { $0 == 0x40 || $0 == 0x42 }
  }
}

/// The Type 2 NDEF read through libnfc and the PN532 simulator, round trips counted.
@Suite(.serialized, .timeLimit(.minutes(1))) struct Type2NDEFProcedureTests {
  /// NTAG216 filled: pages 3-221 (219 pages) in FAST_READs of 62 pages are 4 round trips;
  /// in READs of 4 pages 55 (nfcpy's 16 bytes per read from page 0: 56).
  @Test(arguments: [(62, 4, UInt8(0x42)), (4, 55, UInt8(0x40))])
  func filledNTAG216(fastReadPages: Int, expected: Int, command: UInt8) async throws {
    let (tag, message) = try Type2Fixture.filledNTAG216()
    let simulator = try PN532Simulator(tag: tag)
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let found = try #require(try await reader.poll())
    let start = simulator.receivedCommands.count
    let transport = try LibNFCType2Transport(reader: reader, tag: found, maximumFastReadPages: fastReadPages)
    #expect(transport.chip?.name == "NTAG216")
    #expect(transport.variant == .ntag216)
    let read = try await Type2NDEFProcedure(transport: transport).read()
    let trips = Type2Fixture.roundTrips(simulator, since: start)
    await reader.close()
    #expect(read.readCount == expected)
    #expect(trips == [UInt8](repeating: command, count: expected))
    #expect(try read.messageBytes() == message)
  }

  /// `readNDEF` takes the same path: an NTAG213 "hi" is one FAST_READ (pages 3-39).
  @Test func readNDEFUsesOneFastRead() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let start = simulator.receivedCommands.count
    let message = try await reader.readNDEF(from: tag)
    let trips = Type2Fixture.roundTrips(simulator, since: start)
    let (_, read) = try await reader.readType2NDEF(from: tag)
    await reader.close()
    #expect(message == NDEFFixture.hi)
    #expect(trips == [0x42])
    #expect(read.readCount == 1)
  }

  /// A MIFARE Ultralight has no GET_VERSION: READ only, and "hi" fits pages 3-6 (one READ).
  @Test func ultralightWithoutGetVersion() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ultralight))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let transport = try LibNFCType2Transport(reader: reader, tag: tag)
    #expect(transport.chip == nil && transport.variant == nil && transport.maximumPagesPerRead == 4)
    let start = simulator.receivedCommands.count
    let message = try await Type2NDEFProcedure(transport: transport).readMessage()
    let trips = Type2Fixture.roundTrips(simulator, since: start)
    await reader.close()
    #expect(message == NDEFFixture.hi)
    #expect(trips == [0x40])
  }

  /// A write through the procedure, read back through `readNDEF`.
  @Test func writeThenRead() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag215))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let procedure = Type2NDEFProcedure(transport: try LibNFCType2Transport(reader: reader, tag: tag))
    let plan = try await procedure.write(NDEFFixture.twoRecords)
    let back = try await reader.readNDEF(from: tag)
    await reader.close()
    #expect(back == NDEFFixture.twoRecords)
    // Tearing-safe: the page with the NDEF length is written first and last.
    #expect(plan.writes.first?.block == 4 && plan.writes.last?.block == 4)
  }

  /// A CC without the NDEF magic: a typed error at offset 12 after one read.
  @Test func notFormatted() async throws {
    var type2 = try SimulatedType2Tag(product: .ntag213, uid: Fixture.uid)
    type2.memory[12] = 0x00
    let simulator = try PN532Simulator(tag: .type2(type2))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    await #expect(throws: LibNFCNDEFError.tag(NFCTagError(.invalidMagic, offset: 12))) {
      _ = try await reader.readNDEF(from: tag)
    }
    await reader.close()
  }
}
