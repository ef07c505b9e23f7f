// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONOutput

/// `tapwire decode`.
enum DecodeCommand {
  struct Options {
    var format: Format?
    var json = false
    var lenient = false
    var lines = false
    var operand: String?
  }

  static let flags = ["--as", "--json", "--lenient", "--lines", "--help"]

  static func parse(_ arguments: [String]) -> Options {
    var options = Options()
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      switch argument {
      case "--json": options.json = true
      case "--lenient": options.lenient = true
      case "--lines": options.lines = true
      case "-h", "--help":
        print(Tapwire.decodeUsage)
        exit(0)
      case "--as":
        index += 1
        guard index < arguments.count else { Tapwire.fail("--as needs a format") }
        let name = arguments[index]
        guard let format = Format.named(name) else {
          let known = Format.all.map(\.name)
          let hint = Suggestion.closest(to: name, among: known).map { "; did you mean '\($0)'?" } ?? ""
          Tapwire.fail("unknown format '\(name)' (known: \(known.joined(separator: ", ")))\(hint)")
        }
        options.format = format
      default:
        if argument.hasPrefix("--") {
          let hint = Suggestion.closest(to: argument, among: flags).map { "; did you mean '\($0)'?" } ?? ""
          Tapwire.fail("unknown option '\(argument)'\(hint)")
        }
        guard options.operand == nil else { Tapwire.fail("decode takes one INPUT") }
        options.operand = argument
      }
      index += 1
    }
    return options
  }

  static func run(_ arguments: [String]) -> Int32 {
    let options = parse(arguments)
    if options.lines { return runLines(options) }
    if let operand = options.operand, Directory.isDirectory(operand) {
      return Directory.run(operand, options: options)
    }
    let bytes: [UInt8]
    switch Input.bytes(operand: options.operand) {
    case .success(let value): bytes = value
    case .failure(let error): Tapwire.fail(error.message)
    }
    let path = options.operand.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
    let prepared: Prepared
    switch prepare(bytes, path: path, format: options.format) {
    case .success(let value): prepared = value
    case .failure(let failed):
      if options.json {
        print(failed.json.serialized)
      } else {
        FileHandle.standardError.write(Data("tapwire: \(failed.label): \(failed.failure.text)\n".utf8))
      }
      return 1
    }
    if let note = prepared.note { FileHandle.standardError.write(Data("tapwire: \(note)\n".utf8)) }
    let format = prepared.format
    if options.json {
      let (json, ok) = format.json(prepared.bytes, options.lenient)
      print(json.serialized)
      return ok ? 0 : 1
    }
    switch format.tree(prepared.bytes, options.lenient) {
    case .success(let tree):
      print(tree.lines(colour: Terminal.colours(STDOUT_FILENO)).joined(separator: "\n"))
      if let failure = tree.failure {
        reportFailure(failure, format: format, bytes: prepared.bytes)
        return 1
      }
      return 0
    case .failure(let failure):
      reportFailure(failure, format: format, bytes: prepared.bytes)
      return 1
    }
  }

  /// Bytes ready to decode: a dump file's page image, the format, and what to tell the user
  /// about the choice (a guess, or the dump kind).
  struct Prepared {
    var bytes: [UInt8]
    var format: Format
    var note: String?
  }

  /// Why an input could not even be handed to a decoder (a bad dump file, no bytes).
  struct Unprepared: Error {
    var label: String
    var format: String
    var failure: DecodeFailure
    var json: JSON {
      NDEFOutput.errorJSON(
        format: format, code: failure.code, offset: failure.offset, message: failure.message)
    }
  }

  /// Reads a dump file into its page image, rejects empty input and picks the format.
  static func prepare(_ input: [UInt8], path: String?, format chosen: Format?) -> Result<Prepared, Unprepared>
  {
    var bytes = input
    var format = chosen
    var note: String?
    let named = path.flatMap(Format.byExtension)
    // The dump kind by content (or `.mfd` by name), else by the extension (`.nfc`).
    let sniffed = DumpFile.kind(of: bytes, path: path)
    if let kind = sniffed ?? (named?.dump ?? nil),
      let classic = DumpFile.mifareClassicImage(bytes, kind: kind)
    {
      // A MIFARE Classic card's dump: the whole card image, decoded as mfc.
      switch classic {
      case .success(let read):
        bytes = read.image
        if format == nil {
          format = .mfc
          note = "input read as a \(kind.rawValue) of a MIFARE Classic card, decoded as mfc"
          if read.unknownBytes > 0 {
            note! += " (\(counted(read.unknownBytes, "byte", "bytes")) marked unknown, read as 00)"
          }
        }
      case .failure(let failure):
        return .failure(Unprepared(label: kind.rawValue, format: chosen?.name ?? "mfc", failure: failure))
      }
    } else if let kind = sniffed ?? (named?.dump ?? nil) {
      switch DumpFile.image(bytes, kind: kind) {
      case .success(let image):
        bytes = image
        if format == nil {
          format = .t2t
          note =
            "input read as a \(kind.rawValue) (\(counted(image.count, "byte", "bytes")) of pages), decoded as t2t"
          if sniffed == nil, let named {
            note! += " (from the file extension .\(named.fileExtension))"
          }
        }
      case .failure(let failure):
        return .failure(Unprepared(label: kind.rawValue, format: chosen?.name ?? "t2t", failure: failure))
      }
    }
    if bytes.isEmpty {
      let name = format?.name ?? "ndef"
      return .failure(
        Unprepared(
          label: name, format: name,
          failure: DecodeFailure(code: "emptyInput", offset: 0, message: "the input is empty")))
    }
    if format == nil, let named, let byName = named.format {
      format = byName
      note =
        "input decoded as \(byName.name) (from the file extension .\(named.fileExtension); use --as to choose)"
    }
    if format == nil {
      let guess = Format.guess(bytes)
      format = guess
      let source = path == nil ? "no file name" : "no known file extension"
      note = "input decoded as \(guess.name) (guessed from the content: \(source); use --as to choose)"
    }
    return .success(Prepared(bytes: bytes, format: format ?? .ndef, note: note))
  }

  static func reportFailure(_ failure: DecodeFailure, format: Format, bytes: [UInt8]) {
    var text = "tapwire: \(format.name): \(failure.code) at offset \(failure.offset): \(failure.message)"
    text = (Terminal.colours(STDERR_FILENO) ? Terminal.red + text + Terminal.reset : text) + "\n"
    text += HexDump.caret(bytes, at: failure.offset).joined(separator: "\n") + "\n"
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// `--lines`: one input per line, one output per line, in order. A line is hex bytes; a
  /// line that is not hex but names an existing file decodes that file (tag dump files
  /// included) and its JSON object starts with `"file"`.
  static func runLines(_ options: Options) -> Int32 {
    let data: [UInt8]
    if let operand = options.operand, operand != "-" {
      guard let contents = FileManager.default.contents(atPath: operand) else {
        Tapwire.fail("cannot read \(operand)")
      }
      data = [UInt8](contents)
    } else {
      data = Input.readStandardInput()
    }
    var text = String(decoding: data, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    if text.isEmpty { return 0 }
    var failed = false
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var output = BatchOutput(total: lines.count)
    for (index, line) in lines.enumerated() {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      output.progress.update(index + 1, label: trimmed)
      let bytes = Input.hexBytes(trimmed)
      if !trimmed.isEmpty, bytes == nil, FileManager.default.fileExists(atPath: trimmed),
        !Directory.isDirectory(trimmed)
      {
        let (entry, ok) = Directory.decodeFile(trimmed, options: options)
        if !ok { failed = true }
        output.append(entry)
        continue
      }
      let format = options.format ?? Format.ndef
      guard !trimmed.isEmpty, let bytes else {
        failed = true
        let code = trimmed.isEmpty ? "emptyInput" : "invalidHex"
        let message = trimmed.isEmpty ? "the input line is empty" : "the input line is not hex bytes"
        let json = NDEFOutput.errorJSON(format: format.name, code: code, offset: 0, message: message)
        output.append((options.json ? json.serialized : "error: \(code): \(message)") + "\n")
        continue
      }
      if options.json {
        let (json, ok) = format.json(bytes, options.lenient)
        if !ok { failed = true }
        output.append(json.serialized + "\n")
      } else {
        switch format.tree(bytes, options.lenient) {
        case .success(let tree):
          if let failure = tree.failure {
            failed = true
            output.append(tree.lines(colour: false).joined(separator: "\n") + "\nerror: \(failure.text)\n")
          } else {
            output.append(tree.lines(colour: false).joined(separator: "\n") + "\n")
          }
        case .failure(let failure):
          failed = true
          output.append("error: \(failure.text)\n")
        }
      }
    }
    output.finish()
    return failed ? 1 : 0
  }
}
