// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Runs the built `tapwire` executable, as a user would.
enum CLI {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The `tapwire` binary next to the test bundle (SwiftPM builds it for this target).
  /// `TAPWIRE_BIN_DIR` names another directory (CI runs these tests against the release build).
  static var executable: URL {
    if let directory = ProcessInfo.processInfo.environment["TAPWIRE_BIN_DIR"] {
      return URL(fileURLWithPath: directory).appendingPathComponent("tapwire")
    }
    var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    // Swift Testing may run from inside the .xctest bundle on some layouts.
    for _ in 0..<3 {
      let candidate = directory.appendingPathComponent("tapwire")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      directory = directory.deletingLastPathComponent()
    }
    return root.appendingPathComponent(".build/debug/tapwire")
  }

  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String
  }

  /// The `tapwire-nfc` binary next to `tapwire`.
  static var helper: URL {
    executable.deletingLastPathComponent().appendingPathComponent("tapwire-nfc")
  }

  /// Runs `tapwire` (or `program`) with `arguments` in the repository root, feeding `stdin`,
  /// with `environment` added to this process's environment and `unset` removed from it.
  static func run(
    _ arguments: [String], stdin: String? = nil, environment: [String: String] = [:], unset: [String] = [],
    program: URL? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = program ?? executable
    process.arguments = arguments
    if !environment.isEmpty || !unset.isEmpty {
      var merged = ProcessInfo.processInfo.environment.merging(environment) { $1 }
      for name in unset { merged[name] = nil }
      process.environment = merged
    }
    process.currentDirectoryURL = root
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    process.standardOutput = out
    process.standardError = err
    process.standardInput = input
    try process.run()
    if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
    try input.fileHandleForWriting.close()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }

  /// Parses one JSON object.
  static func object(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [String: Any])
  }

  /// Runs `decode --as FORMAT --json HEX`, checks exit status 1 and `"ok": false` with
  /// `error` of `code` at `offset`, and returns the object.
  static func failedObject(_ format: String, _ hex: String, code: String, offset: Int) throws -> [String: Any]
  {
    let result = try run(["decode", "--as", format, "--json", hex])
    #expect(result.status == 1)
    let object = try object(result.stdout)
    #expect(object["ok"] as? Bool == false)
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == code)
    #expect(error["offset"] as? Int == offset)
    return object
  }

  /// Runs `decode --as FORMAT HEX` (the tree), checks exit status 1 and an
  /// `error: CODE at offset N` line with its caret two lines below, and returns the lines
  /// and that line's index.
  static func treeError(_ format: String, _ hex: String, code: String, offset: Int) throws
    -> (lines: [String], index: Int)
  {
    let tree = try run(["decode", "--as", format, hex])
    #expect(tree.status == 1)
    let lines = tree.stdout.split(separator: "\n").map(String.init)
    let index = try #require(lines.firstIndex { $0.contains("error: \(code) at offset \(offset)") })
    #expect(lines.count > index + 2 && lines[index + 2].contains("^^ offset \(offset)"))
    return (lines, index)
  }
}
