// SPDX-License-Identifier: Apache-2.0
import NFCReaderLibNFC
import NFCTags
import PN532Simulator
import Testing

/// libnfc's own command-line tools against the simulator.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LibNFCToolTests {
  @Test(.enabled(if: toolExists("nfc-list"), "nfc-list not found: install libnfc-bin to run this check"))
  func nfcListReportsTheSimulatedUID() throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let result = runShell("env LIBNFC_DEVICE=\(simulator.connstring) nfc-list")
    #expect(result.status == 0)
    #expect(result.output.contains("1 ISO14443A passive target(s) found"))
    #expect(result.output.contains("UID (NFCID1): 04  a1  b2  c3  d4  e5  80"))
    #expect(result.output.contains("ATQA (SENS_RES): 00  44"))
  }

  @Test(.enabled(if: toolExists("nfc-list"), "nfc-list not found: install libnfc-bin to run this check"))
  func nfcListReportsATSOfAType4Tag() throws {
    let simulator = try PN532Simulator(tag: try Fixture.type4())
    defer { simulator.close() }
    let result = runShell("env LIBNFC_DEVICE=\(simulator.connstring) nfc-list -t 1")
    #expect(result.output.contains("08  12  34  56"))
    #expect(result.output.contains("ATS: 78  80  70  02"))
  }

  @Test(
    .enabled(
      if: toolExists("nfc-mfultralight"), "nfc-mfultralight not found: install libnfc-bin to run this check"))
  func nfcMfultralightDumpMatchesTheImage() throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    let path = "/tmp/tapwire-mfu-\(simulator.devicePath.split(separator: "/").last ?? "x").mfd"
    let result = runShell("env LIBNFC_DEVICE=\(simulator.connstring) nfc-mfultralight r \(path)")
    let dump = runShell("od -An -v -tx1 \(path) && rm -f \(path)").output
    let hex = dump.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined()
    let memory = Fixture.memory(simulator) ?? []
    let expected = memory.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    #expect(result.status == 0)
    #expect(hex == expected)
  }

  @Test(
    .enabled(
      if: toolExists("nfc-mfultralight"), "nfc-mfultralight not found: install libnfc-bin to run this check"))
  func nfcMfultralightWritesWithCompatibilityWrite() throws {
    let simulator = try PN532Simulator(tag: try Fixture.type2(.ntag213))
    defer { simulator.close() }
    var image = Fixture.memory(simulator) ?? []
    for index in 16..<160 { image[index] = UInt8(truncatingIfNeeded: index * 7) }
    let path = "/tmp/tapwire-mfu-w-\(simulator.devicePath.split(separator: "/").last ?? "x").mfd"
    #expect(writeFile(path, image))
    let result = runShell(
      "sh -c 'printf \"n\\nn\\nn\\nn\\n\" | env LIBNFC_DEVICE=\(simulator.connstring) nfc-mfultralight w \(path)'"
    )
    _ = runShell("rm -f \(path)")
    #expect(result.status == 0)
    #expect(result.output.contains("pages failed"))
    let memory = Fixture.memory(simulator) ?? []
    // Pages 4-39 were written (0x28 holds the dynamic lock bytes and is skipped).
    #expect(Array(memory[16..<160]) == Array(image[16..<160]))
    #expect(simulator.receivedCommands.contains(0x40))
  }

  @Test(
    .enabled(
      if: toolExists("nfc-read-forum-tag3"),
      "nfc-read-forum-tag3 not found: install libnfc-bin to run this check"))
  func nfcReadForumTag3ReadsTheNDEFMessage() throws {
    let idm: [UInt8] = [0x01, 0x2E, 0x3C, 0x4D, 0x5E, 0x6F, 0x70, 0x81]
    let simulator = try PN532Simulator(
      tag: .felica(try SimulatedFeliCaTag(idm: idm, message: Fixture.textMessage)))
    defer { simulator.close() }
    let path = "/tmp/tapwire-t3-\(simulator.devicePath.split(separator: "/").last ?? "x").ndef"
    let result = runShell("env LIBNFC_DEVICE=\(simulator.connstring) nfc-read-forum-tag3 -o \(path)")
    let dump = runShell("od -An -v -tx1 \(path) && rm -f \(path)").output
    let hex = dump.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined()
    let expected = Fixture.textMessage.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    #expect(result.status == 0)
    #expect(result.output.contains("Checksum: ok"))
    #expect(hex == expected)
  }

  @Test(.enabled(if: toolExists("nfc-jewel"), "nfc-jewel not found: install libnfc-bin to run this check"))
  func nfcJewelDumpMatchesTheImage() throws {
    let simulator = try PN532Simulator(tag: .jewel(try SimulatedJewelTag(id: [0x11, 0x22, 0x33, 0x44])))
    defer { simulator.close() }
    let path = "/tmp/tapwire-jewel-\(simulator.devicePath.split(separator: "/").last ?? "x").jwd"
    let result = runShell("env LIBNFC_DEVICE=\(simulator.connstring) nfc-jewel r \(path)")
    let dump = runShell("od -An -v -tx1 \(path) && rm -f \(path)").output
    let hex = dump.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined()
    guard case .jewel(let served)? = simulator.tag else {
      Issue.record("no Jewel tag")
      return
    }
    let expected = served.memory.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    #expect(result.status == 0)
    #expect(hex == expected)
  }

  /// The bytes of a file as lowercase hex (through od), the file then removed.
  static func hexOfFile(_ path: String) -> String {
    let dump = runShell("od -An -v -tx1 \(path) && rm -f \(path)").output
    return dump.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined()
  }

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }

  /// After a tearing-safe NDEF write through the adapter, nfc-jewel's dump (READ per
  /// byte) is the image the adapter reads back.
  @Test(.enabled(if: toolExists("nfc-jewel"), "nfc-jewel not found: install libnfc-bin to run this check"))
  func nfcJewelAgreesWithAnNDEFWriteToATopaz96() async throws {
    let simulator = try PN532Simulator(tag: try TagFixture.topaz96())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    try await reader.writeNDEF(NDEFFixture.twoRecords, to: tag)
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    let path = "/tmp/tapwire-jewel-ndef-\(simulator.devicePath.split(separator: "/").last ?? "x").jwd"
    let result = runShell("env LIBNFC_DEVICE=\(simulator.connstring) nfc-jewel r \(path)")
    #expect(result.status == 0, "\(result.output)")
    #expect(Self.hexOfFile(path) == Self.hex(image))
  }

  /// nfc-jewel writes a seed image's blocks 1-C byte by byte with WRITE-E; the adapter
  /// reads the seed's NDEF message from the tag.
  @Test(.enabled(if: toolExists("nfc-jewel"), "nfc-jewel not found: install libnfc-bin to run this check"))
  func theAdapterReadsWhatNfcJewelWrote() async throws {
    let seed = try TagFixture.seed("t1t-static-uri.bin")
    let blank = try SimulatedJewelTag(
      memory: try Type1Tag.formattedImage(memorySize: 120, uid: Array(seed[0..<7])))
    let simulator = try PN532Simulator(tag: .jewel(blank))
    defer { simulator.close() }
    let path = "/tmp/tapwire-jewel-w-\(simulator.devicePath.split(separator: "/").last ?? "x").jwd"
    #expect(writeFile(path, seed))
    let result = runShell(
      "sh -c 'printf \"n\\nn\\n\" | env LIBNFC_DEVICE=\(simulator.connstring) nfc-jewel w \(path)'")
    _ = runShell("rm -f \(path)")
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("blocks written"))
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let message = try await reader.readNDEF(from: tag)
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    #expect(image == seed)
    #expect(message != nil)
    #expect(message == (try TagFixture.lenientMessage(seed, type1: true)))
  }

  /// nfc-jewel knows only static memory: on a Topaz 512 it reads blocks 0-E with READ,
  /// the first 120 bytes of the image the adapter reads with RSEG.
  @Test(.enabled(if: toolExists("nfc-jewel"), "nfc-jewel not found: install libnfc-bin to run this check"))
  func nfcJewelReadsTheStaticPartOfATopaz512() async throws {
    let seed = try TagFixture.seed("t1t-dynamic-topaz512-spanning.bin")
    let simulator = try PN532Simulator(tag: .jewel(try SimulatedJewelTag(memory: seed)))
    defer { simulator.close() }
    let path = "/tmp/tapwire-jewel-512-\(simulator.devicePath.split(separator: "/").last ?? "x").jwd"
    let result = runShell("env LIBNFC_DEVICE=\(simulator.connstring) nfc-jewel r \(path)")
    #expect(result.status == 0, "\(result.output)")
    #expect(Self.hexOfFile(path) == Self.hex(Array(seed.prefix(120))))
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let image = try await reader.readMemoryImage(from: tag)
    await reader.close()
    #expect(image == seed)
  }

  /// After an NDEF write through the adapter (WriteFlag ON, blocks, WriteFlag OFF),
  /// nfc-read-forum-tag3 finds the checksum right and reads the new message.
  @Test(
    .enabled(
      if: toolExists("nfc-read-forum-tag3"),
      "nfc-read-forum-tag3 not found: install libnfc-bin to run this check"))
  func nfcReadForumTag3ReadsWhatTheAdapterWrote() async throws {
    let simulator = try PN532Simulator(tag: try TagFixture.felica())
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let message = NDEFFixture.text(String(repeating: "tag3 ", count: 10))
    try await reader.writeNDEF(message, to: tag)
    await reader.close()
    let path = "/tmp/tapwire-t3w-\(simulator.devicePath.split(separator: "/").last ?? "x").ndef"
    let result = runShell("env LIBNFC_DEVICE=\(simulator.connstring) nfc-read-forum-tag3 -o \(path)")
    #expect(result.status == 0, "\(result.output)")
    #expect(result.output.contains("Checksum: ok"))
    #expect(Self.hexOfFile(path) == Self.hex(try message.encodedBytes()))
  }
}
