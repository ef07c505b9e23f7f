// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCReader
import NFCReaderLibNFC
import PN532Simulator
import Testing

/// ISO7816's exchanger over the libnfc APDU transport and a simulated ISO-DEP card.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LibNFCAPDUTransportTests {
  @Test func exchangerFollowsGetResponseOverLibNFC() async throws {
    let applet = SimulatedType4Tag.Applet.handler { apdu in
      if apdu == [0x00, 0xCA, 0x00, 0x66, 0x00] { return [0x61, 0x03] }
      if apdu.count >= 2 && apdu[1] == 0xC0 { return [0x01, 0x02, 0x03, 0x90, 0x00] }
      return [0x6D, 0x00]
    }
    let simulator = try PN532Simulator(
      tag: .type4(try SimulatedType4Tag(uid: [0x08, 0x01, 0x02, 0x03], applet: applet)))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    var exchanger = APDUExchanger(transport: try LibNFCAPDUTransport(reader: reader, tag: tag))
    let response = try await exchanger.send(try CommandAPDU(parsing: [0x00, 0xCA, 0x00, 0x66, 0x00]))
    #expect(response.data == [0x01, 0x02, 0x03])
    #expect(response.statusWord == .success)
    #expect(exchanger.transmissionCount == 2)
    await reader.close()
  }

  @Test func refusesATagThatIsNotISODEP() async throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let error = #expect(throws: ReaderError.self) { _ = try LibNFCAPDUTransport(reader: reader, tag: tag) }
    #expect(error?.code == .unsupportedFeature)
    await reader.close()
  }
}
