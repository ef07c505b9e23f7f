// SPDX-License-Identifier: Apache-2.0
import MifareClassicNDEF
import NDEF
import NFCReader
import NFCReaderLibNFC
import NFCTags
import PN532Simulator
import Testing

/// An independent implementation against the same simulated cards: Debian's
/// libfreefare-bin 0.4.0 (`mifare-classic-read-ndef`, `-write-ndef`, `-format`) over
/// libnfc's pn532_uart driver. What Tapwire formats and writes, libfreefare reads back
/// byte for byte; what libfreefare writes, Tapwire reads.
@Suite(
  .serialized, .timeLimit(.minutes(1)),
  .enabled(
    if: toolExists("mifare-classic-read-ndef"),
    "libfreefare-bin not found: install it to run this cross-check"))
struct LibFreefareCrossCheckTests {
  static func file(_ simulator: PN532Simulator, _ name: String) -> String {
    "/tmp/tapwire-freefare-\(simulator.devicePath.split(separator: "/").last ?? "x")-\(name)"
  }

  static func readFile(_ path: String) -> [UInt8] {
    let hex = runShell("od -An -v -tx1 \(path)").output.split(whereSeparator: { $0 == " " || $0 == "\n" })
    return hex.compactMap { UInt8($0, radix: 16) }
  }

  /// Runs a libfreefare tool on the simulator's device (the adapter closed meanwhile).
  static func freefare(_ simulator: PN532Simulator, _ arguments: String) -> (status: Int32, output: String) {
    runShell("env LIBNFC_DEVICE=\(simulator.connstring) \(arguments)", seconds: 30)
  }

  @Test func libfreefareReadsWhatTapwireFormatsAndWrites() async throws {
    let simulator = try PN532Simulator(tag: .mifareClassic(try ClassicFixture.blank(.classic1K)))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    try await reader.formatMifareClassic(tag, keyB: ClassicFixture.keyB)
    try await reader.writeNDEF(NDEFFixture.twoRecords, to: tag)
    await reader.close()
    let path = Self.file(simulator, "read.ndef")
    let result = Self.freefare(simulator, "mifare-classic-read-ndef -y -o \(path)")
    let bytes = Self.readFile(path)
    _ = runShell("rm -f \(path)")
    #expect(result.status == 0, "\(result.output)")
    #expect(bytes == (try NDEFFixture.bytes(NDEFFixture.twoRecords)))
  }

  @Test func tapwireReadsWhatLibfreefareWrites() async throws {
    let simulator = try PN532Simulator(tag: .mifareClassic(try ClassicFixture.blank(.classic1K)))
    defer { simulator.close() }
    let message = try NDEFFixture.bytes(NDEFFixture.twoRecords)
    let path = Self.file(simulator, "write.ndef")
    #expect(writeFile(path, message))
    let result = Self.freefare(simulator, "mifare-classic-write-ndef -y -i \(path)")
    _ = runShell("rm -f \(path)")
    #expect(result.status == 0, "\(result.output)")
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    let content = try await reader.readMifareClassic(from: tag)
    await reader.close()
    #expect(content.message == message)
    // libfreefare writes the MAD trailer `79 67 88` (block 0 C=000), not AN10787's
    // `78 77 88`: both leave the MAD readable with key A, which is all a reader needs.
    #expect(ClassicFixture.block(LibNFCMifareClassicTests.memory(simulator), 3)[6...8] == [0x79, 0x67, 0x88])
  }

  /// libfreefare's format resets a card Tapwire formatted (with key B given to it as the
  /// transport key) to transport trailers; Tapwire then formats it again.
  @Test func libfreefareFormatUndoesTapwiresFormat() async throws {
    let simulator = try PN532Simulator(tag: .mifareClassic(try ClassicFixture.blank(.classic1K)))
    defer { simulator.close() }
    var reader = try await LibNFCReader.open(connstring: simulator.connstring)
    var tag = try #require(try await reader.poll())
    try await reader.formatMifareClassic(tag, keyB: .transport)
    await reader.close()
    let result = Self.freefare(simulator, "mifare-classic-format -y")
    #expect(result.status == 0, "\(result.output)")
    let memory = LibNFCMifareClassicTests.memory(simulator)
    for sector in 0..<16 {
      #expect(ClassicFixture.block(memory, sector * 4 + 3) == MifareClassicCardModel.transportTrailer)
    }
    reader = try await LibNFCReader.open(connstring: simulator.connstring)
    tag = try #require(try await reader.poll())
    try await reader.formatMifareClassic(tag, keyB: ClassicFixture.keyB)
    try await reader.writeNDEF(NDEFFixture.hi, to: tag)
    #expect(try await reader.readNDEF(from: tag) == NDEFFixture.hi)
    await reader.close()
  }

  /// libfreefare 0.4.0 is wrong on 4K cards: `mifare_application_find` does not skip sector
  /// 0x10, so after NFC sector 15 it counts the MAD2 sector 16 as an NDEF sector, tries the
  /// NFC Forum key on it (it holds the MAD key) and gives up (src libfreefare
  /// `mifare_application.c` `count_aids`/`mifare_application_find`). Run here with
  /// `LIBNFC_LOG_LEVEL=3`: after `D4 40 01 60 34|38|3C D3F7D3F7D3F7 4D464331` (sectors
  /// 13-15) it sends `D4 40 01 60 40 D3F7D3F7D3F7 4D464331` (block 0x40, sector 16), the
  /// card refuses, and it prints "No NFC Forum application." and exits 1. (Its own 4K
  /// writes allocate the large sectors first and do not hit this.)
  /// The 4K layout is checked against AN10787/AN1304 instead (MAD2 CRC E8, GPB C2, NFC
  /// sectors 1-15 and 17-39) in `MifareClassicProcedureTests`.
  @Test func libfreefareFailsOnA4KCardAsItsSourceSays() async throws {
    let simulator = try PN532Simulator(tag: .mifareClassic(try ClassicFixture.blank(.classic4K)))
    defer { simulator.close() }
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    let tag = try #require(try await reader.poll())
    try await reader.formatMifareClassic(tag, keyB: ClassicFixture.keyB)
    try await reader.writeNDEF(NDEFFixture.hi, to: tag)
    #expect(try await reader.readNDEF(from: tag) == NDEFFixture.hi)
    await reader.close()
    let path = Self.file(simulator, "read4k.ndef")
    let result = Self.freefare(simulator, "mifare-classic-read-ndef -y -o \(path)")
    _ = runShell("rm -f \(path)")
    #expect(result.status != 0, "\(result.output)")
  }
}
