// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONOutput
import Testing

/// The CLI speaks one way: every command answers `--help`, `-h` and `tapwire help COMMAND`
/// with its usage on standard output (exit 0); a usage error prints the command's usage lines
/// and where its help is on standard error (exit 2); a failure says what to do next (exit 1).
@Suite("tapwire: help, usage errors and exit statuses")
struct HelpAndExitStatusTests {
  static let commands: [[String]] = [
    ["decode"], ["encode"], ["encode", "capdu"], ["encode", "adv"], ["read"], ["simulate"], ["write"],
    ["apdu"], ["pcsc"], ["pcsc", "list"], ["pcsc", "atr"], ["pcsc", "apdu"], ["pcsc", "script"],
    ["pcsc", "features"], ["pcsc", "control"], ["pcsc", "uid"], ["admin"], ["discover"], ["connect"],
    ["cap"], ["cap", "info"], ["gp"], ["help"],
  ]

  @Test(arguments: commands)
  func everyCommandAnswersHelp(_ command: [String]) throws {
    for flag in ["--help", "-h"] {
      let result = try CLI.run(command + [flag])
      #expect(result.status == 0, "\(command) \(flag): \(result.stderr)")
      #expect(result.stdout.contains("usage:"), "\(command) \(flag)")
      #expect(result.stderr.isEmpty, "\(command) \(flag)")
    }
    let help = try CLI.run(["help", command[0]])
    #expect(help.status == 0)
    #expect(help.stdout.contains("usage:"))
  }

  /// Every help names its exit statuses.
  @Test(arguments: [
    "decode", "encode", "read", "write", "apdu", "pcsc", "admin", "discover", "cap", "gp", "",
  ])
  func everyHelpNamesItsExitStatuses(_ command: String) throws {
    let result = try CLI.run(command.isEmpty ? ["help"] : ["help", command])
    #expect(result.stdout.lowercased().contains("exit status"), "\(command)")
    #expect(result.stdout.contains("2 bad usage"), "\(command)")
  }

  /// `tapwire-nfc` (run by the reader commands) answers `--help` for each of its commands.
  @Test(arguments: ["simulate", "dump", "write", "apdu", "admin", "pcsc", "discover", "connect", "gp"])
  func theReaderToolAnswersHelp(_ command: String) throws {
    let result = try CLI.run([command, "--help"], program: CLI.helper)
    #expect(result.status == 0, "\(command): \(result.stderr)")
    #expect(result.stdout.contains("usage:"))
  }

  @Test(arguments: [
    (["decode", "--jsno", "d00000"], "decode"),
    (["decode", "--as"], "decode"),
    (["encode"], "encode"),
    (["encode", "capdu", "00"], "encode"),
    (["encode", "adv", "--nmae", "x"], "encode"),
    (["read", "--bogus"], "read"),
    (["read", "--device"], "read"),
    (["simulate", "--tga", "type4"], "simulate"),
    (["write"], "write"),
    (["apdu"], "apdu"),
    (["pcsc"], "pcsc"),
    (["pcsc", "lst"], "pcsc"),
    (["pcsc", "atr", "--redaer", "x"], "pcsc"),
    (["admin"], "admin"),
    (["discover"], "discover"),
    (["discover", "--bluez", "--timeout", "0"], "discover"),
    (["connect", "--bluez"], "connect"),
    (["gp"], "gp"),
    (["gp", "lst"], "gp"),
    (["gp", "list", "--kee", "x"], "gp"),
  ])
  func aUsageErrorExitsTwoAndNamesTheHelp(_ entry: ([String], String)) throws {
    let result = try CLI.run(entry.0)
    #expect(result.status == 2, "\(entry.0): \(result.stderr)")
    #expect(result.stdout.isEmpty, "\(entry.0)")
    #expect(result.stderr.contains("usage: tapwire"), "\(entry.0): \(result.stderr)")
    #expect(result.stderr.contains("see `tapwire \(entry.1) --help`"), "\(entry.0): \(result.stderr)")
  }

  /// An unknown command (or help topic) points at `tapwire help`.
  @Test(arguments: [["decodr"], ["help", "bogus"]])
  func anUnknownCommandNamesTheHelp(_ arguments: [String]) throws {
    let result = try CLI.run(arguments)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("see `tapwire help`"))
  }

  /// A usage error found by `tapwire-nfc` (a bad AID) also names the command's help.
  @Test func aUsageErrorOfTheReaderToolNamesTheHelp() throws {
    let result = try CLI.run(["admin", "http://h/a", "--pcsc", "x", "--aid", "A0"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("see `tapwire admin --help`"))
  }

  @Test(arguments: [
    (0, "0 commands"), (1, "1 command"), (2, "2 commands"), (1_000, "1000 commands"),
  ])
  func countsAgreeWithTheirNoun(_ entry: (Int, String)) {
    #expect(counted(entry.0, "command", "commands") == entry.1)
  }

  /// The decode summary line uses the helper: "1 record", not "1 records".
  @Test func theSummaryLineIsSingularForOne() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "d00000"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("3 bytes, 1 record"), "\(result.stdout)")
    #expect(!result.stdout.contains("1 records"))
  }

  /// On a machine with no reader (the test machine has none on USB), `tapwire read` says
  /// what to do next, without libnfc's own log, and exits 1.
  @Test func readWithNoReaderSaysWhatToDo() throws {
    let result = try CLI.run(["read", "--timeout", "1"], unset: ["LIBNFC_DEVICE", "LIBNFC_LOG_LEVEL"])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.contains("noReader"), "\(result.stderr)")
    #expect(!result.stderr.contains("deviceBusy"))
    #expect(result.stderr.contains("tapwire simulate"))
    #expect(result.stderr.contains("LIBNFC_LOG_LEVEL=3"))
    #expect(!result.stderr.contains("Unable to find USB busses"))
  }

  /// Without pcscd, `tapwire pcsc list` says pcscd is not running and how to start it,
  /// keeping the PC/SC name, and exits 1.
  @Test func pcscListWithoutPcscdSaysToStartIt() throws {
    let socket = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tapwire-no-pcscd-\(UUID().uuidString).comm")
    let result = try CLI.run(["pcsc", "list"], environment: ["PCSCLITE_CSOCK_NAME": socket.path])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(result.stderr.contains("SCARD_E_NO_SERVICE"), "\(result.stderr)")
    #expect(result.stderr.contains("pcscd is not running"))
    #expect(result.stderr.contains("sudo systemctl start pcscd"))
  }
}
