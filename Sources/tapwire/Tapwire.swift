// SPDX-License-Identifier: Apache-2.0
import CommandLineOptions
import Foundation

/// The `tapwire` command: decode NFC, smart-card and BLE wire formats.
@main
struct Tapwire {
  /// The top-level usage: every command's usage lines and summary, from ``CommandTable``.
  static var usage: String {
    """
    tapwire: decode NFC, smart-card and Bluetooth LE wire formats

    \(HelpText.synopsis)

    \(HelpText.commandList)

    exit status (every command): 0 done, 1 failed (the typed reason on standard error, or
      "ok": false in --json output), 2 bad usage (`tapwire COMMAND: --OPTION: why` and the
      command's usage on standard error); 130 interrupted (SIGINT, Ctrl-C), 143 terminated (SIGTERM)
    Run `tapwire COMMAND --help` (or `tapwire help COMMAND`) for a command's options.
    Documentation/cli.md is the reference; Documentation/cli-json.md the --json contract.
    """
  }

  static let decodeUsage = """
    usage: tapwire decode [--as FORMAT] [--json] [--lenient] [--lines] [INPUT | DIR]

    Decodes INPUT: hex text (spaces, colons and 0x allowed), a file (binary or hex text),
    or standard input when INPUT is absent or "-". Without --as, a file's extension decides
    the format when it names one (.ndef, .t2t, .capdu, .apdu, .tlv, .btsnoop, .nfc, .mfd, ...);
    otherwise the format is guessed from the content. Standard error says which.
    Tag dump files are read into their page image and decoded as t2t: Flipper Zero .nfc
    files (NTAG/Ultralight), Proxmark3 JSON dumps (FileType mfu) and libnfc .mfd images.
    MIFARE Classic dumps (libnfc .mfd and Proxmark3 binary of 320, 1024 or 4096 bytes,
    Flipper Zero .nfc files of Mifare Classic cards, Proxmark3 JSON with 16-byte blocks)
    are read into the card image and decoded as mfc: sectors, trailers with their access
    conditions, the MAD and the NDEF message.
    t4t input is a Type 4 CC file, optionally followed by the NDEF file (NLEN, message).
    A directory DIR decodes each file in it, in name order: with --json one object per
    line whose first key is "file", else each tree under a "==> FILE <==" line.

    The tree shows every field: its offset, its raw bytes (cut with … after 8), its name,
    its value and what it means. On a terminal (and not with NO_COLOR or TERM=dumb) the
    tree is coloured, and a directory or a --lines batch shows [n/total] progress on
    standard error; never in a pipe.

    exit status: 0 every input decoded, 1 an input did not decode (the error code, offset
      and a caret under the bad byte), 2 bad usage

    examples:
      tapwire decode d1010855016e66632e636f6d
      tapwire decode --json Corpus/ndef/seeds/uri-100-records.ndef
      tapwire decode --as capdu 00A4040007D276000085010100
      tapwire decode --as t4t 000F20003B00340406E10400FF0000
      tapwire decode Corpus/tags/dumps/t2t-ntag215-smartposter.nfc
      tapwire decode Corpus/mfc/seeds/mfc-1k-uri.mfd
      tapwire decode --json Corpus/tags/dumps
      printf 'd00000\\nd1\\n' | tapwire decode --lines --json
      find dumps -name '*.nfc' | tapwire decode --lines --json
    """

  /// The command being run, once the table has resolved it (for usage errors).
  nonisolated(unsafe) static var current: CommandSpec?

  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else {
      FileHandle.standardError.write(Data((usage + "\n").utf8))
      exit(2)
    }
    if ["help", "-h", "--help"].contains(command) {
      let topic: [String]
      do throws(UsageError) {
        let helpSpec = try CommandTable.resolve(["help"]).0
        topic = try ParsedCommand.parse(helpSpec, Array(arguments.dropFirst())).operands
      } catch {
        fail(error)
      }
      guard !topic.isEmpty else {
        print(usage)
        exit(0)
      }
      do throws(UsageError) {
        print(help(for: try CommandTable.resolve(topic).0))
      } catch {
        guard let spec = CommandTable.commands.first(where: { $0.path[0] == topic[0] }) else { fail(error) }
        print(help(for: spec))
      }
      exit(0)
    }
    // Every value of every option is checked here, against the one table, before anything
    // else happens: no reader opened, no file written, no process started.
    let spec: CommandSpec
    let parsed: ParsedCommand
    do throws(UsageError) {
      let (resolved, rest) = try CommandTable.resolve(arguments)
      spec = resolved
      current = resolved
      parsed = try ParsedCommand.parse(resolved, rest)
    } catch {
      fail(error)
    }
    if parsed.helpRequested {
      print(help(for: spec))
      exit(0)
    }
    // The reader commands run tapwire-nfc and pass SIGINT and SIGTERM on to it; set up before
    // any thread starts.
    if spec.usesReaderBackEnd { SignalForwarding.install() }
    let rest = Array(arguments.dropFirst())
    switch spec.path[0] {
    case "decode": exit(DecodeCommand.run(rest))
    case "view": exit(ViewCommand.run(parsed))
    case "encode": exit(EncodeCommand.run(rest))
    case "read": exit(ReaderCommands.read(parsed))
    case "write": exit(ReaderCommands.write(parsed))
    case "lock": exit(ReaderCommands.lock(parsed, arguments))
    case "ntag": exit(ReaderCommands.ntag(parsed, arguments))
    case "apdu": exit(ReaderCommands.apdu(parsed, arguments))
    case "admin": exit(ReaderCommands.admin(parsed, arguments))
    case "discover", "connect": exit(ReaderCommands.discover(parsed, arguments))
    default: exit(ReaderCommands.passThrough(arguments))
    }
  }

  /// A command's help: its text, then the options section generated from the table (a
  /// group's text lists the options of every one of its commands that has no text of its own).
  static func help(for spec: CommandSpec) -> String {
    guard spec.path[0] != "help" else { return usage }
    let own = texts[spec.name]
    let text = own ?? texts[spec.path[0]] ?? HelpText.usage(of: spec)
    var listed = spec
    if own == nil || spec.path.count == 1 {
      for member in CommandTable.commands where member.path[0] == spec.path[0] && texts[member.name] == nil {
        for option in member.options where listed.option(option.name) == nil { listed.options.append(option) }
      }
    }
    return text + "\n" + HelpText.options(of: listed)
  }

  /// Each command's help text, by command name (`encode adv` has its own, under encode's).
  static let texts = [
    "decode": decodeUsage, "encode": EncodeCommand.usage, "encode adv": EncodeCommand.advertisingUsage,
    "encode capdu": EncodeCommand.usage, "read": ReaderCommands.readUsage,
    "simulate": ReaderCommands.readUsage, "write": ReaderCommands.writeUsage,
    "apdu": ReaderCommands.apduUsage, "pcsc": ReaderCommands.pcscUsage, "admin": ReaderCommands.adminUsage,
    "cap": CAPForwarding.usage, "gp": ReaderCommands.gpUsage,
    "discover": ReaderCommands.discoverUsage, "connect": ReaderCommands.discoverUsage, "help": usage,
    "format": ReaderCommands.formatUsage, "lock": ReaderCommands.formatUsage,
    "ntag": ReaderCommands.ntagUsage, "verify": VerifyForwarding.usage, "view": ViewCommand.usage,
  ]

  /// The `usage:` lines of `text` (up to its first blank line).
  static func synopsis(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { !$0.hasPrefix("usage:") }
      .prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      .joined(separator: "\n")
  }

  /// The usage-error text for `error`: `tapwire CMD: --OPTION: why`, the command's usage
  /// lines and where its help is.
  static func usageError(_ error: UsageError) -> String {
    guard let name = error.command else { return "\(error.message)\nsee `tapwire help`\n" }
    // A command's own usage lines; for a group word (`pcsc`), those of every command in it.
    let specs =
      CommandTable.commands.first(where: { $0.name == name }).map { [$0] }
      ?? CommandTable.commands.filter { $0.path[0] == name }
    guard let first = specs.first else { return "\(error.message)\nsee `tapwire help`\n" }
    var lines: [String] = []
    for spec in specs { lines += spec.usage }
    let usage = lines.enumerated().map { ($0.offset == 0 ? "usage: " : "       ") + $0.element }
    return "\(error.message)\n\(usage.joined(separator: "\n"))\nsee `tapwire \(first.path[0]) --help`\n"
  }

  /// Prints a usage error and exits with status 2.
  static func fail(_ error: UsageError) -> Never {
    FileHandle.standardError.write(Data(usageError(error).utf8))
    exit(2)
  }

  /// Prints a usage error of the current command (the message, its usage lines, where its
  /// help is) and exits with status 2.
  static func fail(_ message: String) -> Never {
    fail(UsageError(command: current?.name, option: nil, reason: message))
  }
}

/// Suggests the closest known word for a mistyped one (edit distance at most 2), as the
/// option table does for options.
enum Suggestion {
  static func closest(to word: String, among candidates: [String]) -> String? {
    OptionKind.closest(to: word, among: candidates)
  }
}
