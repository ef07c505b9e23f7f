// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONOutput

/// `tapwire decode DIR`: every file in a directory (not its subdirectories, not hidden
/// files), in name order; one JSON object per file and line with `--json` (its first key
/// `"file"`), else each file's tree under a `==> path <==` line.
enum Directory {
  static func isDirectory(_ path: String) -> Bool {
    var flag: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &flag) && flag.boolValue
  }

  /// The regular files of `path`, sorted by name.
  static func files(_ path: String) -> [String]? {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return nil }
    let base = path.hasSuffix("/") ? path : path + "/"
    return names.filter { !$0.hasPrefix(".") }.sorted().map { base + $0 }.filter { !isDirectory($0) }
  }

  static func run(_ path: String, options: DecodeCommand.Options) -> Int32 {
    guard let files = files(path) else { Tapwire.fail("cannot read the directory \(path)") }
    var output = BatchOutput(total: files.count)
    var failed = false
    for (index, file) in files.enumerated() {
      output.progress.update(index + 1, label: file)
      let (entry, ok) = decodeFile(file, options: options)
      if !ok { failed = true }
      output.append(entry)
    }
    output.finish()
    return failed ? 1 : 0
  }

  /// One file's output (ending in a newline) and whether it decoded. JSON objects start with
  /// `"file"`; human output states the format and how it was chosen.
  static func decodeFile(_ file: String, options: DecodeCommand.Options) -> (String, Bool) {
    let bytes: [UInt8]
    switch Input.bytes(operand: file) {
    case .success(let value): bytes = value
    case .failure(let error):
      let failure = DecodeFailure(code: "unreadableFile", offset: 0, message: error.message)
      let json = NDEFOutput.errorJSON(
        format: options.format?.name ?? "ndef", code: failure.code, offset: 0, message: failure.message)
      return (
        options.json ? withFile(file, json).serialized + "\n" : "==> \(file) <==\nerror: \(failure.text)\n",
        false
      )
    }
    switch DecodeCommand.prepare(bytes, path: file, format: options.format) {
    case .failure(let unprepared):
      if options.json { return (withFile(file, unprepared.json).serialized + "\n", false) }
      return ("==> \(file) <==\nerror: \(unprepared.label): \(unprepared.failure.text)\n", false)
    case .success(let prepared):
      if options.json {
        let (json, ok) = prepared.format.json(prepared.bytes, options.lenient)
        return (withFile(file, json).serialized + "\n", ok)
      }
      var text = "==> \(file) <==\n"
      if let note = prepared.note { text += "(\(note))\n" }
      switch prepared.format.tree(prepared.bytes, options.lenient) {
      case .success(let tree):
        let lines = tree.lines(colour: Terminal.colours(STDOUT_FILENO))
        if let failure = tree.failure {
          return (
            text + lines.joined(separator: "\n") + "\nerror: \(prepared.format.name): \(failure.text)\n",
            false
          )
        }
        return (text + lines.joined(separator: "\n") + "\n", true)
      case .failure(let failure): return (text + "error: \(prepared.format.name): \(failure.text)\n", false)
      }
    }
  }

  /// The object with `"file": path` as its first key.
  static func withFile(_ file: String, _ json: JSON) -> JSON {
    guard case .object(let pairs) = json else { return json }
    return .object([("file", .string(file))] + pairs)
  }
}
