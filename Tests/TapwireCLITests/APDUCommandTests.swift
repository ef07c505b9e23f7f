// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire apdu` end to end against the simulated PN532's Type 4 tag (an NDEF applet that
/// answers SELECT, READ BINARY and UPDATE BINARY).
@Suite("tapwire apdu", .timeLimit(.minutes(1)))
struct APDUCommandTests {
  static let selectApplication = "00A4040007D276000085010100"
  static let selectCC = "00A4000C02E103"
  static let readCC = "00B000000F"

  /// Writes `text` to a fresh file and returns its path.
  static func scriptFile(_ text: String) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tapwire-apdu-\(UUID().uuidString).txt")
    try Data(text.utf8).write(to: url)
    return url.path
  }

  static func startType4() throws -> (Process, Pipe, String) {
    try ReadCommandTests.startSimulator(image: "Corpus/ndef/seeds/uri-http-www-nfc-com.ndef", tag: "type4")
  }

  @Test func aStepExpectingAnotherStatusWordFailsByName() throws {
    let (simulator, input, connstring) = try Self.startType4()
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let path = try Self.scriptFile(
      """
      # the NDEF application, its capability container
      \(Self.selectApplication) -> 9000
      \(Self.selectCC) -> 9000
      \(Self.readCC) -> 9000
      00A4000C02E104 -> 6A82   ; the NDEF file exists, so the card answers 9000
      00B0000002 -> 9000
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["apdu", "--device", connstring, "--timeout", "10", "--script", path, "--json"])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("step 1/5 SELECT 00a4040007d276000085010100 -> 9000 ok"), "\(result.stderr)")
    #expect(result.stderr.contains("step 2/5 SELECT 00a4000c02e103 -> 9000 ok"))
    #expect(result.stderr.contains("step 3/5 READ BINARY 00b000000f -> 9000 ok"))
    #expect(
      result.stderr.contains(
        "step 4/5 SELECT 00a4000c02e104 -> 9000 failed (unexpectedStatusWord; expected 6A82)"))
    #expect(!result.stderr.contains("step 5/5"))
    #expect(result.stderr.contains("script failed at step 4/5"))
    #expect(result.stderr.contains("3 of 5 steps done"))
    let summary = try CLI.object(result.stdout)
    #expect(summary["ok"] as? Bool == false)
    #expect(summary["failedStep"] as? Int == 4)
    #expect(summary["completedSteps"] as? Int == 3)
    let steps = try #require(summary["steps"] as? [[String: Any]])
    #expect(steps.count == 4)
    // The CC file of the simulated tag: CCLEN 000F, version 2.0.
    #expect((steps[2]["data"] as? String)?.hasPrefix("000f20") == true)
    #expect(steps[3]["ok"] as? Bool == false)
  }

  @Test func aPassingScriptReportsEveryStep() throws {
    let (simulator, input, connstring) = try Self.startType4()
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let path = try Self.scriptFile(
      "\(Self.selectApplication)\n\(Self.selectCC) -> 9000\n\(Self.readCC) -> 61XX|9000\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["apdu", "--device", connstring, "--timeout", "10", "--script", path])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stderr.contains("running 3 steps on type4 tag UID 08545704"))
    #expect(result.stderr.contains("step 3/3 READ BINARY 00b000000f -> 9000 ok"))
    #expect(result.stderr.contains("script done: 3/3 steps ok"))
  }

  @Test func singleAPDUsPrintTheirResponses() throws {
    let (simulator, input, connstring) = try Self.startType4()
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let result = try CLI.run([
      "apdu", "--device", connstring, "--timeout", "10", Self.selectApplication, Self.selectCC, Self.readCC,
      "00A4000C02E1FF",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(lines.first?.hasPrefix("00a4040007d276000085010100 -> 9000 (") == true)
    #expect(lines.dropFirst(2).first?.hasPrefix("00b000000f -> 000f20") == true)
    #expect(lines.last?.hasPrefix("00a4000c02e1ff -> 6a82 (file or application not found)") == true)
    let json = try CLI.run([
      "apdu", "--device", connstring, "--json", Self.selectApplication, "00A4000C02E1FF",
    ])
    let objects = try json.stdout.split(separator: "\n").map { try CLI.object(String($0)) }
    #expect(objects.count == 2)
    #expect(objects.first?["sw"] as? String == "9000")
    #expect(objects.first?["category"] as? String == "normal")
    #expect(objects.last?["format"] as? String == "rapdu")
    #expect(objects.last?["sw"] as? String == "6a82")
    #expect(objects.last?["category"] as? String == "checkingError")
    #expect(objects.last?["data"] as? String == "")
  }

  @Test func aScriptThatDoesNotParseIsAUsageError() throws {
    let path = try Self.scriptFile("00A4 -> 9000\n00A4040000 -> 9G00\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["apdu", "--device", "pn532_uart:/dev/null-no-such-device", "--script", path])
    #expect(result.status == 2)
    #expect(!result.stderr.contains("no reader"))
  }

  @Test func noReaderIsAClearError() throws {
    let path = try Self.scriptFile("\(Self.selectApplication) -> 9000\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run([
      "apdu", "--device", "pn532_uart:/dev/null-no-such-device", "--timeout", "1", "--script", path,
    ])
    #expect(result.status == 1)
    #expect(result.stderr.contains("no reader"))
  }

  /// Two processes, one device: the second finds it busy (flock on the pty) while the first
  /// waits for an ISO-DEP tag that never comes (the simulated tag is Type 2); once the first
  /// exits, the device is free again.
  @Test func aSecondProcessFindsTheDeviceBusy() throws {
    let (simulator, input, connstring) = try ReadCommandTests.startSimulator(
      image: "Corpus/tags/seeds/t2t-ntag215-smartposter.bin")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let first = Process()
    first.executableURL = CLI.executable
    first.arguments = ["apdu", "--device", connstring, "--timeout", "4", Self.selectApplication]
    let firstError = Pipe()
    first.standardError = firstError
    first.standardOutput = Pipe()
    try first.run()
    Thread.sleep(forTimeInterval: 1.5)
    let second = try CLI.run(["read", "--device", connstring, "--timeout", "2"])
    let firstText = String(decoding: firstError.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    first.waitUntilExit()
    #expect(second.status == 1)
    #expect(second.stderr.contains("device busy"), "\(second.stderr)")
    #expect(second.stderr.contains("deviceBusy"))
    #expect(first.terminationStatus == 1)
    #expect(firstText.contains("type2 NTAG215 tag UID 04112233445566 is not an ISO-DEP tag"), "\(firstText)")
    let third = try CLI.run(["read", "--device", connstring, "--json", "--timeout", "5"])
    #expect(third.status == 0, "\(third.stderr)")
  }
}
