// SPDX-License-Identifier: Apache-2.0
import Foundation
import PN532Simulator
import Testing

/// `tapwire gp --device` over libnfc: the PN532 simulator (on a pseudo-terminal, driven by
/// libnfc's `pn532_uart` in `tapwire-nfc`) serves an ISO-DEP tag whose APDUs go through a
/// ``VPCDCardBridge`` to `Tests/Tools/gp_card.py`, the GlobalPlatform card whose secure
/// channel is the independent Python implementation (`scp_oracle.py`).
@Suite("tapwire gp --device", .serialized, .timeLimit(.minutes(2)))
struct GlobalPlatformDeviceTests {
  static let tools = CLI.root.appendingPathComponent("Tests/Tools")

  /// The Python card connected to a bridge, the simulator presenting the bridge's tag, and a
  /// scratch directory.
  final class Stack {
    let directory: String
    let bridge: VPCDCardBridge
    let card = Process()
    let input = Pipe()
    let output = Pipe()
    let simulator: PN532Simulator

    init(_ arguments: [String] = []) throws {
      directory =
        FileManager.default.temporaryDirectory.appendingPathComponent(
          "tapwire-gp-device-\(UUID().uuidString.prefix(8))"
        ).path
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      bridge = try VPCDCardBridge(socketPath: directory + "/card.sock")
      card.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
      card.arguments =
        [
          "-W", "ignore", tools.appendingPathComponent("gp_card.py").path, "--unix", directory + "/card.sock",
          "--log", directory + "/card.log",
        ] + arguments
      card.standardInput = input
      card.standardOutput = output
      try card.run()
      input.fileHandleForWriting.write(Data("insert\n".utf8))
      try bridge.acceptCard(timeout: .seconds(30))
      let answer = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
      #expect(answer == "inserted\n")
      simulator = try PN532Simulator(tag: .type4(try bridge.tag(uid: [0x08, 0x47, 0x50, 0x01])))
    }

    /// The command APDUs the card received, as sent (wrapped), in upper-case hex.
    func commandsReceived() -> [String] {
      let log = (try? String(contentsOfFile: directory + "/card.log", encoding: .utf8)) ?? ""
      return log.split(separator: "\n").filter { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
    }

    func stop() {
      simulator.close()
      try? input.fileHandleForWriting.close()
      card.waitUntilExit()
      bridge.close()
      try? FileManager.default.removeItem(atPath: directory)
    }
  }

  /// list, install (CAP written by make-cap.py; LOAD at C-MAC + C-DECRYPTION with the SHA-256
  /// hash the card checks), SELECT of the instance through `tapwire apdu`, delete, all through
  /// libnfc; the card saw every command wrapped by Tapwire and unwrapped by the Python oracle.
  @Test func listInstallSelectDeleteOverLibNFC() throws {
    let stack = try Stack()
    defer { stack.stop() }
    let device = ["--device", stack.simulator.connstring, "--timeout", "10", "--key", "test"]
    let list = try CLI.run(["gp", "list"] + device)
    #expect(list.status == 0, "\(list.stderr)")
    #expect(list.stdout.contains("secure channel: SCP03, C-MAC"))
    #expect(list.stdout.contains("ISD: a000000151000000 (SECURED) privileges 9efe80"))

    let cap = stack.directory + "/hello.cap"
    let maker = Process()
    maker.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    maker.arguments = [Self.tools.appendingPathComponent("make-cap.py").path, cap, "--seed", "7"]
    maker.standardOutput = Pipe()
    try maker.run()
    maker.waitUntilExit()
    #expect(maker.terminationStatus == 0)
    let install = try CLI.run(
      ["gp", "install", cap, "--security", "mac+enc", "--hash", "--json"] + device)
    #expect(install.status == 0, "\(install.stderr)")
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(install.stdout.utf8)) as? [String: Any])
    #expect(object["package"] as? String == "d276000085010107")
    #expect(object["hash"] as? String == "SHA-256")
    #expect((object["installed"] as? [[String: Any]])?.count == 2)
    #expect((object["loadBlocks"] as? Int ?? 0) > 2)
    #expect(stack.commandsReceived().contains { $0.hasPrefix("84E88") })

    let listed = try CLI.run(["gp", "list"] + device)
    #expect(
      listed.stdout.contains("APP: d27600008501010701 (SELECTABLE) privileges 000000 from d276000085010107"))
    let select = try CLI.run([
      "apdu", "--device", stack.simulator.connstring, "--timeout", "10", "00a4040009d27600008501010701",
    ])
    #expect(select.status == 0, "\(select.stderr)")
    #expect(select.stdout.lowercased().contains("9000"), "\(select.stdout)")

    let delete = try CLI.run(["gp", "delete", "d276000085010107", "--related"] + device)
    #expect(delete.status == 0, "\(delete.stderr)")
    let after = try CLI.run(["gp", "list"] + device)
    #expect(!after.stdout.contains("APP:") && !after.stdout.contains("PKG:"), "\(after.stdout)")
  }

  /// Wrong keys over libnfc: the card cryptogram does not verify, exit 1, and EXTERNAL
  /// AUTHENTICATE never reaches the card.
  @Test func wrongKeysStopBeforeExternalAuthenticate() throws {
    let stack = try Stack(["--scp", "02"])
    defer { stack.stop() }
    let wrong = try CLI.run([
      "gp", "list", "--device", stack.simulator.connstring, "--timeout", "10", "--key",
      String(repeating: "11", count: 16),
    ])
    #expect(wrong.status == 1)
    #expect(wrong.stderr.contains("cardCryptogramMismatch"), "\(wrong.stderr)")
    #expect(stack.commandsReceived().contains { $0.hasPrefix("80500000") })
    #expect(!stack.commandsReceived().contains { $0.hasPrefix("8482") })
  }
}

extension GlobalPlatformDeviceTests {
  /// Issue 34: `tapwire apdu --script` with the `gp` key options runs the script inside a
  /// secure channel on a libnfc reader (SCP03, C-MAC + C-DECRYPTION + R-MAC + R-ENCRYPTION):
  /// the card's GET STATUS answers come back unwrapped, and it received the steps wrapped.
  @Test func apduScriptRunsInsideASecureChannelOverLibNFC() throws {
    let stack = try Stack()
    defer { stack.stop() }
    let path = stack.directory + "/status.apdu"
    try "80F28002024F00 -> 9000\n80F24002024F00 -> 6A88|9000\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    let run = try CLI.run([
      "apdu", "--device", stack.simulator.connstring, "--timeout", "10", "--key", "test", "--security", "all",
      "--script", path, "--json",
    ])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(run.stderr.contains("secure channel: SCP03"), "\(run.stderr)")
    print(
      run.stderr.split(separator: "\n").filter { $0.contains("secure channel") || $0.contains("step") }
        .joined(separator: "\n"))
    #expect(run.stdout.lowercased().contains("4f08a000000151000000"), "\(run.stdout)")
    #expect(stack.commandsReceived().filter { $0.hasPrefix("84F2") }.count == 2)
    let refused = try CLI.run([
      "apdu", "--device", stack.simulator.connstring, "--key", "test", "80F28002024F00",
    ])
    #expect(refused.status == 2)
    #expect(refused.stderr.contains("go with --script FILE"), "\(refused.stderr)")
  }
}
