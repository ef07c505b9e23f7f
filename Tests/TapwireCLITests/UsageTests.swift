// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Every `tapwire` command rejects a mistyped option with exit status 2 and the closest
/// known spelling, and `--help` prints usage with examples.
@Suite("tapwire: usage errors and help")
struct UsageTests {
  @Test(arguments: [
    (["decode", "--jsno", "d00000"], "unknown option '--jsno'; did you mean '--json'?"),
    (["decode", "--as", "ndfe", "d00000"], "did you mean 'ndef'?"),
    (["encode", "--chnk", "3", "uri", "x"], "unknown option '--chnk'; did you mean '--chunk'?"),
    (["encode", "urj", "x"], "unknown record kind 'urj'; did you mean 'uri'?"),
    (["encode", "smartposter", "http://a", "--titel", "en:x"], "did you mean '--title'?"),
    (
      ["encode", "capdu", "00", "a4", "04", "00", "--el", "3"],
      "tapwire encode capdu: unknown option '--el'; did you mean '--le'?"
    ),
    (["encode", "adv", "--nmae", "x"], "did you mean '--name'?"),
    (["decodr", "d00000"], "unknown command 'decodr'; did you mean 'decode'?"),
    (["simulate", "--tga", "type4"], "unknown option '--tga'; did you mean '--tag'?"),
    (["simulate", "--bogus"], "unknown option '--bogus'"),
    (["read", "--jsn"], "unknown option '--jsn'; did you mean '--json'?"),
    (["write", "--mesage", "d00000"], "unknown option '--mesage'; did you mean '--message'?"),
    (["apdu", "--scrpt", "x.apdu"], "unknown option '--scrpt'; did you mean '--script'?"),
    (["pcsc", "atr", "--redaer", "x"], "unknown option '--redaer'; did you mean '--reader'?"),
    (["pcsc", "lst"], "unknown pcsc command 'lst'; did you mean 'list'?"),
    (["read", "--pcs", "x"], "unknown option '--pcs'; did you mean '--pcsc'?"),
  ])
  func mistypedOptionsGetASuggestion(_ entry: ([String], String)) throws {
    let result = try CLI.run(entry.0)
    #expect(result.status == 2, "\(entry.0)")
    #expect(result.stderr.contains(entry.1), "\(entry.0): \(result.stderr)")
    #expect(result.stdout.isEmpty)
  }

  @Test(arguments: [
    ["decode", "--help"], ["help", "decode"], ["encode", "--help"], ["encode", "adv", "--help"],
    ["write", "--help"], ["apdu", "--help"], ["read", "--help"], ["simulate", "--help"], ["pcsc", "--help"],
  ])
  func helpHasExamples(_ arguments: [String]) throws {
    let result = try CLI.run(arguments)
    #expect(result.status == 0)
    #expect(result.stdout.contains("usage: tapwire"))
    let command = arguments.first { $0 != "help" } ?? ""
    // read and simulate share one usage text; every text has an examples section.
    #expect(result.stdout.contains("tapwire \(command == "simulate" ? "read" : command) "))
    #expect(result.stdout.contains("example"))
  }

  /// The decode help names the directory form and the --lines file paths.
  @Test func decodeHelpDescribesDirectoriesAndLines() throws {
    let result = try CLI.run(["decode", "--help"])
    #expect(result.stdout.contains("[INPUT | DIR]"))
    #expect(result.stdout.contains("tapwire decode --json Corpus/tags/dumps"))
    #expect(result.stdout.contains("one input per line: hex, or the path of a file"))
  }
}
