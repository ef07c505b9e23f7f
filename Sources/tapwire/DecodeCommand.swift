import Foundation

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
    var bytes: [UInt8]
    switch Input.bytes(operand: options.operand) {
    case .success(let value): bytes = value
    case .failure(let error): Tapwire.fail(error.message)
    }
    var chosen = options.format
    let path = options.operand.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
    if let kind = DumpFile.kind(of: bytes, path: path) {
      switch DumpFile.image(bytes, kind: kind) {
      case .success(let image):
        bytes = image
        if chosen == nil {
          chosen = .t2t
          FileHandle.standardError.write(
            Data(
              "tapwire: input read as a \(kind.rawValue) (\(image.count) bytes of pages), decoded as t2t\n"
                .utf8))
        }
      case .failure(let failure):
        let name = chosen?.name ?? "t2t"
        if options.json {
          print(
            NDEFOutput.errorJSON(
              format: name, code: failure.code, offset: failure.offset, message: failure.message
            )
            .serialized)
        } else {
          FileHandle.standardError.write(
            Data(
              "tapwire: \(kind.rawValue): \(failure.code) at offset \(failure.offset): \(failure.message)\n"
                .utf8))
        }
        return 1
      }
    }
    if bytes.isEmpty {
      let name = chosen?.name ?? "ndef"
      if options.json {
        print(
          NDEFOutput.errorJSON(format: name, code: "emptyInput", offset: 0, message: "the input is empty")
            .serialized)
      } else {
        FileHandle.standardError.write(
          Data("tapwire: \(name): emptyInput at offset 0: the input is empty\n".utf8))
      }
      return 1
    }
    let format = chosen ?? guessed(bytes)
    if options.json {
      let (json, ok) = format.json(bytes, options.lenient)
      print(json.serialized)
      return ok ? 0 : 1
    }
    switch format.human(bytes, options.lenient) {
    case .success(let lines):
      print((Terminal.colours(STDOUT_FILENO) ? Terminal.highlighted(lines) : lines).joined(separator: "\n"))
      return 0
    case .failure(let failure):
      reportFailure(failure, format: format, bytes: bytes)
      return 1
    }
  }

  static func guessed(_ bytes: [UInt8]) -> Format {
    let format = Format.guess(bytes)
    FileHandle.standardError.write(
      Data("tapwire: input decoded as \(format.name) (guessed; use --as to choose)\n".utf8))
    return format
  }

  static func reportFailure(_ failure: DecodeFailure, format: Format, bytes: [UInt8]) {
    var text = "tapwire: \(format.name): \(failure.code) at offset \(failure.offset): \(failure.message)"
    text = (Terminal.colours(STDERR_FILENO) ? Terminal.red + text + Terminal.reset : text) + "\n"
    text += HexDump.caret(bytes, at: failure.offset).joined(separator: "\n") + "\n"
    FileHandle.standardError.write(Data(text.utf8))
  }

  /// `--lines`: one hex input per line, one output per line, in order.
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
    var output = ""
    output.reserveCapacity(data.count * 4)
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      let format = options.format ?? Format.ndef
      guard !trimmed.isEmpty, let bytes = Input.hexBytes(trimmed) else {
        failed = true
        let code = trimmed.isEmpty ? "emptyInput" : "invalidHex"
        let message = trimmed.isEmpty ? "the input line is empty" : "the input line is not hex bytes"
        let json = NDEFOutput.errorJSON(format: format.name, code: code, offset: 0, message: message)
        output += (options.json ? json.serialized : "error: \(code): \(message)") + "\n"
        continue
      }
      if options.json {
        let (json, ok) = format.json(bytes, options.lenient)
        if !ok { failed = true }
        output += json.serialized + "\n"
      } else {
        switch format.human(bytes, options.lenient) {
        case .success(let lines): output += lines.joined(separator: "\n") + "\n"
        case .failure(let failure):
          failed = true
          output += "error: \(failure.code) at offset \(failure.offset): \(failure.message)\n"
        }
      }
      if output.utf8.count > 1 << 16 {
        FileHandle.standardOutput.write(Data(output.utf8))
        output = ""
      }
    }
    FileHandle.standardOutput.write(Data(output.utf8))
    return failed ? 1 : 0
  }
}
