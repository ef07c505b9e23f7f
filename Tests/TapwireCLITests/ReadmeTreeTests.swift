// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// The README and the CLI reference (`Documentation/cli.md`) show tree output after
/// `$ tapwire decode ...` lines; each must be exactly what the command prints.
@Suite("README: tapwire tree examples")
struct ReadmeTreeTests {
  /// The files whose tree examples are checked.
  static let files = ["README.md", "Documentation/cli.md"]

  /// (arguments, expected lines) for each `$ tapwire decode` line of `path` up to its block's end.
  static func examples(in path: String) throws -> [([String], [String])] {
    let text = try String(contentsOf: CLI.root.appendingPathComponent(path), encoding: .utf8)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    var result: [([String], [String])] = []
    var index = 0
    while index < lines.count {
      let line = lines[index]
      index += 1
      guard line.hasPrefix("$ tapwire decode ") else { continue }
      let arguments = line.dropFirst("$ tapwire ".count).split(separator: " ").map(String.init)
      var expected: [String] = []
      while index < lines.count, !lines[index].hasPrefix("```") {
        expected.append(lines[index])
        index += 1
      }
      result.append((arguments, expected))
    }
    return result
  }

  @Test(arguments: files) func treeExamplesMatchTheCommand(path: String) throws {
    let examples = try Self.examples(in: path)
    #expect(examples.count >= 1, "\(path) has no tree example")
    for (arguments, expected) in examples {
      let result = try CLI.run(arguments)
      #expect(result.status == 0)
      let actual = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      #expect(actual == expected + [""], "tapwire \(arguments.joined(separator: " "))")
    }
  }
}
