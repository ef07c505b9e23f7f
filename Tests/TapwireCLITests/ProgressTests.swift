// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire decode DIR`, `--lines` over file paths, and the progress display on a terminal.
@Suite("tapwire decode: directories, file lists and progress")
struct ProgressTests {
  static let dumps = "Corpus/tags/dumps"
  static let names = [
    "t2t-ntag215-smartposter.json", "t2t-ntag215-smartposter.mfd", "t2t-ntag215-smartposter.nfc",
  ]

  /// One JSON object per file, in name order, each starting with `"file"` and otherwise
  /// the object `decode FILE --json` prints.
  @Test func directoryAsJSONLines() throws {
    let result = try CLI.run(["decode", "--json", Self.dumps])
    #expect(result.status == 0)
    #expect(result.stderr.isEmpty)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.count == Self.names.count)
    for (line, name) in zip(lines, Self.names) {
      let path = "\(Self.dumps)/\(name)"
      #expect(line.hasPrefix("{\"file\":\"\(path)\",\"ok\":true,\"format\":\"t2t\""))
      let single = try CLI.run(["decode", "--json", path])
      #expect("{\"file\":\"\(path)\"," + single.stdout.dropFirst() == line + "\n")
    }
  }

  @Test func directoryAsTrees() throws {
    let result = try CLI.run(["decode", Self.dumps])
    #expect(result.status == 0)
    let lines = result.stdout.split(separator: "\n").map(String.init)
    #expect(lines.first == "==> \(Self.dumps)/\(Self.names[0]) <==")
    #expect(lines.filter { $0.hasPrefix("==> ") }.count == 3)
    #expect(lines.contains("(input read as a Flipper Zero NFC file (540 bytes of pages), decoded as t2t)"))
    #expect(lines.filter { $0 == "NFC Forum Type 2 tag memory (t2t), 540 bytes" }.count == 3)
  }

  /// A file that does not decode gives an error object and exit status 1; the others still decode.
  @Test func directoryWithABadFile() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapwire-dir-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data([0xD1, 0x01, 0x09, 0x55]).write(to: directory.appendingPathComponent("a-bad.ndef"))
    try Data("d00000\n".utf8).write(to: directory.appendingPathComponent("b-good.hex"))
    let result = try CLI.run(["decode", "--as", "ndef", "--json", directory.path])
    #expect(result.status == 1)
    let objects = try result.stdout.split(separator: "\n").map { try CLI.object(String($0)) }
    #expect(objects.count == 2)
    #expect(objects[0]["ok"] as? Bool == false)
    #expect((objects[0]["error"] as? [String: Any])?["code"] as? String == "payloadLengthExceedsInput")
    #expect(objects[1]["ok"] as? Bool == true)
    #expect(objects[1]["file"] as? String == directory.appendingPathComponent("b-good.hex").path)
  }

  /// `--lines`: hex lines decode as before; a line naming a file decodes the file (dump files too).
  @Test func linesMixHexAndFiles() throws {
    let input = "\(Self.dumps)/\(Self.names[2])\nd00000\nnot-a-file\n"
    let result = try CLI.run(["decode", "--lines", "--json"], stdin: input)
    #expect(result.status == 1)
    let objects = try result.stdout.split(separator: "\n").map { try CLI.object(String($0)) }
    #expect(objects.count == 3)
    #expect(objects[0]["file"] as? String == "\(Self.dumps)/\(Self.names[2])")
    #expect(objects[0]["format"] as? String == "t2t")
    #expect(objects[1]["format"] as? String == "ndef")
    #expect(objects[1]["file"] == nil)
    #expect((objects[2]["error"] as? [String: Any])?["code"] as? String == "invalidHex")
  }

  /// Runs `command` under `script`, which gives it a pseudo-terminal; returns what it wrote there.
  static func onTerminal(_ command: String, term: String = "xterm", noColor: String? = nil) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    process.arguments = ["-qec", command, "/dev/null"]
    var environment = ProcessInfo.processInfo.environment
    environment["TERM"] = term
    environment["NO_COLOR"] = noColor
    process.environment = environment
    process.currentDirectoryURL = CLI.root
    let out = Pipe()
    process.standardOutput = out
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return String(decoding: data, as: UTF8.self)
  }

  /// On a terminal, standard error shows `[n/total] file` redrawn in place and erased at the end.
  @Test func progressOnlyOnATerminal() throws {
    #expect(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "util-linux script is needed")
    let tapwire = CLI.executable.path
    let shown = try Self.onTerminal("\(tapwire) decode --json \(Self.dumps) >/dev/null")
    #expect(shown.contains("\r\u{1B}[K[1/3] \(Self.dumps)/\(Self.names[0])"))
    #expect(shown.contains("\r\u{1B}[K[3/3] \(Self.dumps)/\(Self.names[2])"))
    #expect(shown.hasSuffix("\r\u{1B}[K"))
    let lines = try Self.onTerminal(
      "printf 'd00000\\nd00000\\n' | \(tapwire) decode --lines --json >/dev/null")
    #expect(lines.contains("[2/2] d00000"))
    let dumb = try Self.onTerminal("\(tapwire) decode --json \(Self.dumps) >/dev/null", term: "dumb")
    #expect(!dumb.contains("[1/3]"))
    let noColor = try Self.onTerminal("\(tapwire) decode --json \(Self.dumps) >/dev/null", noColor: "1")
    #expect(!noColor.contains("[1/3]"))
    // In a pipe (the test's own Pipe for standard error) nothing but decoding output appears.
    let piped = try CLI.run(["decode", "--json", Self.dumps], environment: ["TERM": "xterm"])
    #expect(piped.stderr.isEmpty)
  }
}
