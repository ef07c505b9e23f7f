import Foundation
import NFCWire

/// `tapwire read` and `tapwire simulate`: they run the `tapwire-nfc` executable built next to
/// `tapwire` (it links libnfc; `tapwire` does not), then decode what it read here.
enum ReaderCommands {
  static let readUsage = """
    usage: tapwire read [--device CONNSTRING] [--timeout SECONDS] [--json] [--dump] [--lenient]
           tapwire simulate [--tag ntag213|ntag215|ntag216|ultralight|type4] [--image FILE]

      read      wait for a tag on a libnfc reader (the first one, or CONNSTRING such as
                pn532_uart:/dev/ttyUSB0): a Type 2 tag's memory decoded like `decode --as t2t`,
                a Type 4 tag's NDEF message like `decode --as ndef`; --dump prints the bytes
      simulate  run a simulated PN532 reader with a tag, print its device path and libnfc
                connection string, and serve until standard input closes

    examples:
      tapwire simulate --image Corpus/tags/seeds/t2t-ntag215-smartposter.bin &
      tapwire read --device pn532_uart:/dev/pts/3 --json
    """

  /// The `tapwire-nfc` binary beside this one.
  static var helper: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
      .appendingPathComponent("tapwire-nfc")
  }

  static func requireHelper() {
    guard FileManager.default.isExecutableFile(atPath: helper.path) else {
      FileHandle.standardError.write(
        Data(
          "tapwire: the reader commands need tapwire-nfc next to tapwire (swift build --product tapwire-nfc; it needs libnfc-dev)\n"
            .utf8))
      exit(2)
    }
  }

  static func simulate(_ arguments: [String]) -> Int32 {
    if arguments.contains("--help") || arguments.contains("-h") {
      print(readUsage)
      return 0
    }
    requireHelper()
    let process = Process()
    process.executableURL = helper
    process.arguments = ["simulate"] + arguments
    do { try process.run() } catch { Tapwire.fail("cannot run \(helper.path): \(error)") }
    process.waitUntilExit()
    return process.terminationStatus
  }

  static func read(_ arguments: [String]) -> Int32 {
    var passed: [String] = []
    var json = false
    var dumpOnly = false
    var lenient = false
    var rest = arguments[...]
    while let argument = rest.popFirst() {
      switch argument {
      case "--json": json = true
      case "--dump": dumpOnly = true
      case "--lenient": lenient = true
      case "--device", "--timeout":
        guard let value = rest.popFirst() else { Tapwire.fail("\(argument) needs a value") }
        passed += [argument, value]
      case "-h", "--help":
        print(readUsage)
        return 0
      default:
        let hint =
          Suggestion.closest(to: argument, among: ["--device", "--timeout", "--json", "--dump", "--lenient"])
          .map {
            "; did you mean '\($0)'?"
          } ?? ""
        Tapwire.fail("unknown option '\(argument)'\(hint)")
      }
    }
    requireHelper()
    let process = Process()
    process.executableURL = helper
    process.arguments = ["dump"] + passed
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch { Tapwire.fail("cannot run \(helper.path): \(error)") }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return process.terminationStatus }
    let line = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
    guard parts.count == 2, let format = Format.named(parts[0]), let image = Hex.bytes(parts[1]) else {
      FileHandle.standardError.write(Data("tapwire: unexpected answer from tapwire-nfc\n".utf8))
      return 1
    }
    if dumpOnly {
      print(
        json
          ? JSON.object([("format", .string(format.name)), ("image", .string(Hex.string(image)))]).serialized
          : HexDump.lines(image).joined(separator: "\n"))
      return 0
    }
    if json {
      let (object, ok) = format.json(image, lenient)
      print(object.serialized)
      return ok ? 0 : 1
    }
    switch format.human(image, lenient) {
    case .success(let lines):
      print(lines.joined(separator: "\n"))
      return 0
    case .failure(let failure):
      DecodeCommand.reportFailure(failure, format: format, bytes: image)
      return 1
    }
  }
}
