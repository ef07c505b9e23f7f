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
}
