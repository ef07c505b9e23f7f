// SPDX-License-Identifier: Apache-2.0

import Foundation
import NFCReaderPCSC
import PCSCControl
import Testing

/// `tapwire pcsc features|control|uid` and `tapwire read --pcsc` on Tapwire's driver, and the
/// pyscard cross-check (an independent client on the same pcscd and driver).
extension PCSCTransportTests {
  static var crosscheckScript: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "pyscard-crosscheck.py"
    ).path
  }

  /// Debian's Python (where python3-pyscard lives), else a venv from .ci/install-packages.
  static var python: String? {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let candidates = ["/usr/bin/python3", root.appendingPathComponent(".build/venv/bin/python3").path]
    return candidates.first { path in
      guard FileManager.default.isExecutableFile(atPath: path) else { return false }
      let check = Process()
      check.executableURL = URL(fileURLWithPath: path)
      check.arguments = ["-c", "import smartcard.scard"]
      check.standardError = FileHandle.nullDevice
      guard (try? check.run()) != nil else { return false }
      check.waitUntilExit()
      return check.terminationStatus == 0
    }
  }

  @Test func cliFeaturesControlAndUIDOnTapwiresDriver() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let reader = PCSCStack.nfcReader
    let features = try Self.tapwire(["pcsc", "features", "--reader", reader, "--json"])
    #expect(features.status == 0, "\(features.stderr)")
    let object = try Self.object(features.stdout)
    #expect(object["format"] as? String == "pcscFeatures")
    let list = try #require(object["features"] as? [[String: Any]])
    #expect(
      list.map { $0["name"] as? String } == [
        "FEATURE_GET_TLV_PROPERTIES", "FEATURE_IFD_PIN_PROPERTIES", "FEATURE_CCID_ESC_COMMAND",
      ])
    #expect(list.map { $0["controlCode"] as? String } == ["42330012", "4233000a", "42000001"])
    let properties = try #require(object["properties"] as? [[String: Any]])
    #expect(
      properties.first { $0["name"] as? String == "sFirmwareID" }?["value"] as? String == "54617077697265")
    #expect(properties.first { $0["name"] as? String == "dwMaxAPDUDataSize" }?["integer"] as? Int == 261)
    let human = try Self.tapwire(["pcsc", "features", "--reader", reader])
    #expect(human.stdout.contains("FEATURE_CCID_ESC_COMMAND"))
    #expect(human.stdout.contains("\"Tapwire\""))

    let control = try Self.tapwire([
      "pcsc", "control", "--reader", reader, "--json", "0x42000001", "E000001800",
    ])
    #expect(control.status == 0, "\(control.stderr)")
    #expect(try Self.object(control.stdout)["output"] as? String == "e10000000754617077697265")
    let reason = try Self.tapwire(["pcsc", "control", "--reader", reader, "3603"])
    #expect(reason.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "00")
    let unknown = try Self.tapwire(["pcsc", "control", "--reader", reader, "--json", "3999", "0102"])
    #expect(unknown.status == 1)
    let error = try #require(try Self.object(unknown.stdout)["error"] as? [String: Any])
    #expect(error["code"] as? String == "unsupportedFeature")
    #expect(error["pcscCode"] as? String == "SCARD_E_UNSUPPORTED_FEATURE")
    let usage = try Self.tapwire(["pcsc", "control", "--reader", reader, "nonsense"])
    #expect(usage.status == 2)

    try stack.insertGlobalPlatform()
    let uid = try Self.tapwire(["pcsc", "uid", "--reader", reader, "--timeout", "60", "--json"])
    #expect(uid.status == 0, "\(uid.stderr)")
    let answer = try Self.object(uid.stdout)
    #expect(answer["uid"] as? String == "04a22b92c15e80")
    #expect(answer["historicalBytes"] as? String == "4a434f5076323431")
    #expect(answer["atr"] as? String == "3bf81300008131fe454a434f5076323431b7")
    let log = stack.controlLog()
    #expect(
      log.contains(
        Self.line(
          .init(rawValue: 0x4200_0001), [0xE0, 0, 0, 0x18, 0], [0xE1, 0, 0, 0, 7] + Array("Tapwire".utf8))))
    #expect(log.contains(Self.line(.pcscLite(3999), [1, 2], rc: 614)))
  }

  @Test func cliReadUsesTheReaderDrivenSession() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    try stack.insertType4(message: Self.ndefMessage)
    let read = try Self.tapwire([
      "read", "--pcsc", PCSCStack.nfcReader, "--timeout", "60", "--json", "--wait-message", "Tap it",
      "--work-message", "Hold still",
    ])
    #expect(read.status == 0, "\(read.stderr)")
    #expect(read.stderr.contains("reader-driven NFC discovery"))
    let records = try #require(try Self.object(read.stdout)["records"] as? [[String: Any]])
    #expect((records.first?["decoded"] as? [String: Any])?["uri"] as? String == "http://www.nfc.com")
    let codes = NFCControlCodes.tapwireDefaults
    #expect(
      Self.withoutReasonQueries(stack.controlLog()) == [
        Self.line(codes.startNFC, Array("Tap it".utf8) + [0] + Array("Hold still".utf8) + [0, 0]),
        Self.line(codes.stopNFC, Array("Tag read".utf8)),
      ])
    // The platform's timeout: exit 1, named.
    #expect(try stack.send("remove") == "removed")
    _ = try #require(try await PCSCContext().waitForRemoval(from: PCSCStack.nfcReader, timeout: .seconds(60)))
    try stack.script("behaviour", "timeout 1")
    let timedOut = try Self.tapwire(["read", "--pcsc", PCSCStack.nfcReader, "--timeout", "30"])
    #expect(timedOut.status == 1)
    #expect(timedOut.stderr.contains("no card in \(PCSCStack.nfcReader)"))
  }

  @Test func pyscardSeesTheSameFeaturesUIDAndControlAnswers() async throws {
    guard let python = Self.python else {
      #expect(!PCSCStack.isRequired, "pyscard is missing (.ci/install-packages installs python3-pyscard)")
      return
    }
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    try stack.insertGlobalPlatform()
    let reader = PCSCStack.nfcReader
    _ = try #require(try await PCSCContext().waitForCard(in: reader, timeout: .seconds(60)))
    let controls = [
      "42000001:e000001800", "42000001:e00000290103", "42330012:", "42000e13:", "42000f9f:0102",
    ]
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [Self.crosscheckScript, reader] + controls
    var environment = ProcessInfo.processInfo.environment
    environment["PCSCLITE_CSOCK_NAME"] = PCSCStack.directory + "/run/pcscd/pcscd.comm"
    process.environment = environment
    let out = Pipe()
    process.standardOutput = out
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let peer = try Self.object(String(decoding: data, as: UTF8.self))

    let features = try Self.object(
      try Self.tapwire(["pcsc", "features", "--reader", reader, "--json"]).stdout)
    let ours = (features["features"] as? [[String: Any]])?.map {
      "\($0["tag"] ?? "")/\($0["controlCode"] ?? "")"
    }
    let theirs = (peer["features"] as? [[String: Any]])?.map {
      "\($0["tag"] ?? "")/\($0["controlCode"] ?? "")"
    }
    #expect(ours != nil && ours == theirs)

    let uid = try Self.object(try Self.tapwire(["pcsc", "uid", "--reader", reader, "--json"]).stdout)
    #expect(uid["uid"] as? String == peer["uid"] as? String)
    #expect(uid["historicalBytes"] as? String == peer["historicalBytes"] as? String)

    let answers = try #require(peer["controls"] as? [[String: Any]])
    #expect(answers.count == controls.count)
    for (spec, answer) in zip(controls, answers) {
      let parts = spec.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
      let run = try Self.tapwire(
        ["pcsc", "control", "--reader", reader, "--json", "0x" + parts[0]]
          + (parts[1].isEmpty ? [] : [parts[1]]))
      let object = try Self.object(run.stdout)
      #expect(object["ok"] as? Bool == answer["ok"] as? Bool, "\(spec)")
      if answer["ok"] as? Bool == true {
        #expect(object["output"] as? String == answer["output"] as? String, "\(spec)")
      } else {
        let code = (object["error"] as? [String: Any]).flatMap { _ in "8010001f" }
        #expect(answer["error"] as? String == code, "\(spec)")
      }
    }
  }
}
