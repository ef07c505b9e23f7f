// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire ntag` on a simulated NTAG213, end to end through `tapwire-nfc` and libnfc's
/// pn532_uart driver. The password never shows in any output.
@Suite("tapwire ntag", .timeLimit(.minutes(1)))
struct NtagCommandTests {
  static let password = "5EC2E7A1"
  static let wrong = "5EC2E7A2"

  static func everything(_ result: CLI.Result) -> String { (result.stdout + result.stderr).uppercased() }

  @Test func infoProtectRefuseAuthenticateUnprotect() throws {
    let (simulator, input, connstring) = try ReadCommandTests.startSimulator(image: nil, tag: "ntag213")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let device = ["--device", connstring, "--timeout", "10"]
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("tapwire-ntag-\(getpid()).txt")
    try (Self.password + "\n").write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }

    let info = try CLI.run(["ntag", "info"] + device)
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stdout.contains("chip: NTAG213"))
    #expect(info.stdout.contains("version: 0004040201000f03"))
    #expect(info.stdout.contains("signature: a0a1a2a3"))
    // The simulator's signature is made up: no maker key verifies it.
    #expect(info.stdout.contains("(NOT GENUINE: no maker key verifies it for UID "))
    #expect(info.stdout.contains("counter: 0"))
    #expect(info.stdout.contains("protection: none (AUTH0 ff)"))

    let protect = try CLI.run(
      ["ntag", "protect"] + device + [
        "--password-file", file.path, "--pack", "A55A", "--read-protect", "--attempts", "3",
      ])
    #expect(protect.status == 0, "\(protect.stderr)")
    #expect(protect.stdout.contains("PWD 0x2B (hidden), PACK 0x2C, CFG1 0x2A, CFG0 0x29 (AUTH0 0x04)"))
    let protected = try CLI.run(["ntag", "info"] + device)
    #expect(protected.stdout.contains("protection: on, the configuration pages are read-protected"))
    let read = try CLI.run(["read"] + device)
    #expect(read.status == 1)

    let wrong = try CLI.run(
      ["ntag", "auth"] + device + ["--password-env", "TAPWIRE_TEST_NTAG"],
      environment: ["TAPWIRE_TEST_NTAG": Self.wrong])
    #expect(wrong.status == 1)
    #expect(wrong.stderr.contains("the tag refused: a wrong password"))
    let right = try CLI.run(
      ["ntag", "auth"] + device + ["--password-env", "TAPWIRE_TEST_NTAG", "--pack", "a55a"],
      environment: ["TAPWIRE_TEST_NTAG": Self.password])
    #expect(right.status == 0, "\(right.stderr)")
    #expect(right.stdout.contains("password accepted, PACK matches"))

    // Standard input when there is no terminal (the prompt goes to standard error).
    let unprotect = try CLI.run(
      ["ntag", "unprotect"] + device + ["--pack", "A55A"], stdin: Self.password + "\n")
    #expect(unprotect.status == 0, "\(unprotect.stderr)")
    #expect(unprotect.stdout.contains("CFG0 0x29 (AUTH0 0xFF)"))
    let after = try CLI.run(["ntag", "info"] + device)
    #expect(after.stdout.contains("protection: none (AUTH0 ff)"))
    #expect(try CLI.run(["read"] + device).status == 0)

    for result in [info, protect, protected, read, wrong, right, unprotect, after] {
      #expect(!Self.everything(result).contains(Self.password))
      #expect(!Self.everything(result).contains(Self.wrong))
    }
  }

  @Test("a simulated tag with a published UID and signature pair is genuine")
  func genuineSignature() throws {
    let (simulator, input, connstring) = try ReadCommandTests.startSimulator(
      image: nil, tag: "ntag215-genuine")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let info = try CLI.run(["ntag", "info", "--device", connstring, "--timeout", "10"])
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stdout.contains("UID 04e10cda993c80"))
    #expect(info.stdout.contains("signature: 8b76052e"))
    #expect(info.stdout.contains("(genuine: NTAG21x key, NXP AN11350"))
  }

  @Test func badUsageAndBadPasswordsAreNamedWithoutTheirBytes() throws {
    let noPack = try CLI.run(["ntag", "protect", "--password-env", "X"])
    #expect(noPack.status == 2)
    #expect(noPack.stderr.contains("--pack"))
    let unknown = try CLI.run(["ntag", "info", "--password", "11223344"])
    #expect(unknown.status == 2)
    let noSubcommand = try CLI.run(["ntag"])
    #expect(noSubcommand.status == 2)
    let short = try CLI.run(
      ["ntag", "auth", "--password-env", "TAPWIRE_TEST_NTAG", "--device", "pn532_uart:/nonexistent"],
      environment: ["TAPWIRE_TEST_NTAG": "ABCDEF"])
    #expect(short.status == 2)
    #expect(short.stderr.contains("$TAPWIRE_TEST_NTAG is not a password of 8 hex digits"))
    #expect(!short.stderr.uppercased().contains("ABCDEF"))
    let help = try CLI.run(["ntag", "--help"])
    #expect(help.status == 0 && help.stdout.contains("never echoed"))
  }
}
