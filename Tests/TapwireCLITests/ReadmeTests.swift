// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// The README's examples are real: its Swift example is the one compiled in a test, and
/// its `tapwire decode` command lines run, as do those of the CLI reference
/// (`Documentation/cli.md`), where the README's reference moved.
@Suite("README")
struct ReadmeTests {
  static func text(_ path: String) throws -> String {
    try String(contentsOf: CLI.root.appendingPathComponent(path), encoding: .utf8)
  }

  static func block(_ text: String) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    guard let start = lines.firstIndex(of: "// README example begins"),
      let end = lines.firstIndex(of: "// README example ends")
    else { return [] }
    return Array(lines[start...end])
  }

  @Test func swiftExampleMatchesTheTest() throws {
    let readme = Self.block(try Self.text("README.md"))
    let test = Self.block(try Self.text("Tests/NDEFTests/ReadmeExampleTests.swift"))
    #expect(readme.count > 5)
    // Compared without white space: swift-format may wrap the test's copy differently.
    let squeeze = { (lines: [String]) in lines.joined().filter { !$0.isWhitespace } }
    #expect(squeeze(readme) == squeeze(test))
  }

  /// The arguments of each `... tapwire decode ...` line of `text` (up to a `#` comment; lines
  /// with a pipe are left out).
  static func decodeCommands(_ text: String) -> [[String]] {
    text.split(separator: "\n").compactMap { line -> [String]? in
      let parts = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
      guard let index = parts.firstIndex(where: { $0.hasSuffix("tapwire") }), parts.count > index + 1,
        parts[index + 1] == "decode", !line.contains("|")
      else { return nil }
      let arguments = parts[(index + 1)...].prefix { !$0.hasPrefix("#") }
      return Array(arguments)
    }
  }

  @Test func decodeCommandsRun() throws {
    let readme = Self.decodeCommands(try Self.text("README.md"))
    let reference = Self.decodeCommands(try Self.text("Documentation/cli.md"))
    #expect(readme.count >= 2)
    #expect(reference.count >= 3)
    for arguments in readme + reference {
      let result = try CLI.run(arguments)
      #expect(result.status == 0, "tapwire \(arguments.joined(separator: " ")): \(result.stderr)")
      #expect(!result.stdout.isEmpty)
    }
  }
}
