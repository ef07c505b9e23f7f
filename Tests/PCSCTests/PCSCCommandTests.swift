// SPDX-License-Identifier: Apache-2.0
import Foundation
import NFCReaderPCSC
import Testing

/// `tapwire pcsc ...` and `tapwire read --pcsc` against the same stack, in the same
/// serialized suite (one socket path and vpcd port per test process).
extension PCSCTransportTests {
  struct Run {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  static var tapwire: String {
    URL(fileURLWithPath: PCSCStack.virtualCard).deletingLastPathComponent().appendingPathComponent("tapwire")
      .path
  }

  /// Runs `tapwire` with the test's pcscd socket in its environment.
  static func tapwire(_ arguments: [String], socket: String? = nil) throws -> Run {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tapwire)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["PCSCLITE_CSOCK_NAME"] = socket ?? PCSCStack.directory + "/run/pcscd/pcscd.comm"
    process.environment = environment
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Run(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  static func object(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  static func scriptFile() throws -> String {
    let path = PCSCStack.directory + "/update.apdu"
    try """
    00A4040008A000000151000000 -> 6F0A8408A000000151000000 9000
    80CA00FE00 -> 61XX|9000
    80E60C0004C1C2C3C4 -> 6A80
    """.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  @Test func cliListsReadersAndDecodesTheATR() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    try stack.insertGlobalPlatform()
    let list = try Self.tapwire(["pcsc", "list", "--json"])
    #expect(list.status == 0)
    let readers = try #require(try Self.object(list.stdout)["readers"] as? [[String: Any]])
    #expect(readers.map { $0["name"] as? String } == [PCSCStack.reader, PCSCStack.secondReader])
    // The card may still be settling in pcscd: the atr command waits for it.
    let atr = try Self.tapwire(["pcsc", "atr", "--reader", PCSCStack.reader, "--timeout", "60", "--json"])
    #expect(atr.status == 0, "\(atr.stderr)")
    let object = try Self.object(atr.stdout)
    #expect(object["format"] as? String == "atr")
    #expect(object["atr"] as? String == "3bf81300008131fe454a434f5076323431b7")
    #expect(object["ts"] as? String == "3b")
    #expect(object["protocols"] as? [Int] == [1])
    #expect(object["historicalBytes"] as? String == "4a434f5076323431")
    #expect(object["tck"] as? String == "b7")
    let names = (object["interfaceBytes"] as? [[String: String]])?.compactMap { $0["name"] }
    #expect(names == ["TA1", "TB1", "TC1", "TD1", "TD2", "TA3", "TB3"])
    let human = try Self.tapwire(["pcsc", "atr", "--timeout", "60"])
    #expect(human.status == 0)
    #expect(human.stdout.contains("historical  4a434f5076323431 \"JCOPv241\""))
    #expect(human.stdout.contains("TCK         b7 (checked)"))
  }

  /// A storage-card ATR (PC/SC Part 3 §3.1.3.2.3) from the virtual card: the card is named
  /// from NN NN, the standard from SS.
  @Test func cliNamesAStorageCardFromItsATR() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let classic: [UInt8] = [
      0x3B, 0x8F, 0x80, 0x01, 0x80, 0x4F, 0x0C, 0xA0, 0x00, 0x00, 0x03, 0x06, 0x03, 0x00, 0x01, 0x00, 0x00,
      0x00, 0x00,
      0x6A,
    ]
    try stack.insertATR(classic)
    let atr = try Self.tapwire(["pcsc", "atr", "--reader", PCSCStack.reader, "--timeout", "60", "--json"])
    #expect(atr.status == 0, "\(atr.stderr)")
    let object = try Self.object(atr.stdout)
    #expect(object["atr"] as? String == "3b8f8001804f0ca000000306030001000000006a")
    let storage = try #require(object["storageCard"] as? [String: Any])
    #expect(storage["cardName"] as? String == "MIFARE Classic 1K")
    #expect(storage["nameCode"] as? String == "0001")
    #expect(storage["standard"] as? String == "ISO/IEC 14443 A part 3")
    #expect(storage["standardCode"] as? String == "03")
    let human = try Self.tapwire(["pcsc", "atr", "--timeout", "60"])
    #expect(human.stdout.contains("card        MIFARE Classic 1K (NN 0001)"))
    #expect(human.stdout.contains("standard    ISO/IEC 14443 A part 3 (SS 03)"))
  }

  @Test func cliRunsAScriptAndNamesTheFailedStep() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    try stack.insertGlobalPlatform()
    let run = try Self.tapwire([
      "pcsc", "script", "--reader", PCSCStack.reader, "--timeout", "60", "--json", try Self.scriptFile(),
    ])
    #expect(run.status == 1)
    let object = try Self.object(run.stdout)
    #expect(object["completedSteps"] as? Int == 2)
    #expect(object["failedStep"] as? Int == 3)
    let steps = try #require(object["steps"] as? [[String: Any]])
    #expect(steps.count == 3)
    #expect((steps[1]["data"] as? String)?.count == 600)
    #expect(
      run.stderr.contains("card in \(PCSCStack.reader), ATR 3bf81300008131fe454a434f5076323431b7 (T=1)"))
    #expect(run.stderr.contains("step 1/3 SELECT 00a4040008a000000151000000 -> 9000 ok"))
    #expect(
      run.stderr.contains(
        "step 3/3 INSTALL 80e60c0004c1c2c3c4 -> 9000 failed (unexpectedStatusWord; expected 6A80)"))
    #expect(run.stderr.contains("2 of 3 steps done"))
  }

  @Test func cliReportsACardRemovedMidScript() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    try stack.insertGlobalPlatform(leavingAfter: 4)
    let run = try Self.tapwire([
      "pcsc", "script", "--reader", PCSCStack.reader, "--timeout", "60", "--json", try Self.scriptFile(),
    ])
    #expect(run.status == 1)
    let object = try Self.object(run.stdout)
    #expect(object["completedSteps"] as? Int == 1)
    #expect(object["failedStep"] as? Int == 2)
    #expect((object["steps"] as? [Any])?.count == 1)
    #expect(run.stderr.contains("step 2/3 GET DATA 80ca00fe00: the transport failed: tagLost"))
    #expect(run.stderr.contains("SCARD_W_REMOVED_CARD"))
    #expect(run.stderr.contains("1 of 3 steps done"))
    #expect(!run.stderr.contains("step 2/3 GET DATA 80ca00fe00 -> 9000 ok"))
  }

  @Test func cliSendsAPDUsAndReadsAType4Tag() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    try stack.insertGlobalPlatform()
    let apdu = try Self.tapwire([
      "pcsc", "apdu", "--reader", PCSCStack.reader, "--timeout", "60", "--json", "00A4040008A000000151000000",
    ])
    #expect(apdu.status == 0)
    let response = try Self.object(apdu.stdout)
    #expect(response["sw"] as? String == "610c")
    #expect(response["data"] as? String == "")

    // Take the card out and wait until pcscd has seen it go, then present the tag.
    #expect(try stack.send("remove") == "removed")
    let context = try PCSCContext()
    _ = try #require(try await context.waitForRemoval(from: PCSCStack.reader, timeout: .seconds(60)))
    try stack.insertType4(message: [0xD1, 0x01, 0x08, 0x55, 0x01, 0x6E, 0x66, 0x63, 0x2E, 0x63, 0x6F, 0x6D])
    let read = try Self.tapwire(["read", "--pcsc", PCSCStack.reader, "--timeout", "60", "--json"])
    #expect(read.status == 0, "\(read.stderr)")
    let ndef = try Self.object(read.stdout)
    let records = try #require(ndef["records"] as? [[String: Any]])
    #expect(records.count == 1)
    #expect((records[0]["decoded"] as? [String: Any])?["uri"] as? String == "http://www.nfc.com")
  }

  @Test func cliWithoutPcscdSaysNoReader() throws {
    let run = try Self.tapwire(["pcsc", "list"], socket: PCSCStack.directory + "/no-such.comm")
    #expect(run.status == 1)
    #expect(run.stderr.contains("no reader:"))
    #expect(run.stderr.contains("SCARD_E_NO_SERVICE"))
    #expect(run.stderr.contains("pcscd is not running"))
  }
}
