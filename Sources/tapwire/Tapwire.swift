// SPDX-License-Identifier: Apache-2.0
import Foundation

/// The `tapwire` command: decode NFC, smart-card and BLE wire formats.
@main
struct Tapwire {
  static let usage = """
    tapwire: decode NFC, smart-card and Bluetooth LE wire formats

    usage: tapwire decode [--as FORMAT] [--json] [--lenient] [--lines] [INPUT | DIR]
           tapwire encode [-o FILE] [--chunk N] RECORD...
           tapwire encode capdu CLA INS P1 P2 [DATA] [--le N] [--extended]
           tapwire encode adv [--name NAME] [--uuid16 XXXX] [--manufacturer COMPANY:HEX] [--extended]
           tapwire read [--device CONNSTRING] [--json] [--dump]
           tapwire simulate [--tag ntag215] [--image FILE]
           tapwire write [--device CONNSTRING] (RECORD... | --message FILE|HEX)
           tapwire format [--device CONNSTRING] [--key-b HEX]
           tapwire lock [--device CONNSTRING] --key B:HEX --confirm-permanent
           tapwire ntag info|auth|protect|unprotect [--device CONNSTRING] [--password-file FILE | --password-env NAME] ...
           tapwire apdu [--device CONNSTRING] [--json] (--script FILE | HEX...)
           tapwire pcsc list|atr|apdu|script|features|control|uid [--reader NAME] [--json] ...
           tapwire admin (URL | --script FILE) (--pcsc READER | --device CONNSTRING) [--aid AID] [--json]
           tapwire cap info [--json] FILE.cap
           tapwire verify signature UID SIGNATURE [--family NAME] [--json]
           tapwire verify sun URL (--key HEX | --meta-key HEX --file-key HEX) [--json]
           tapwire verify ndef FILE --trust CERT.pem [--json]
           tapwire discover --bluez|--btsnoop FILE [--scan|--proximity|--serial S] [--profile FILE] [--json]
           tapwire connect --bluez --serial S [--json]
           tapwire gp info|list|delete AID|lock AID|unlock AID|put-key --pcsc READER --key HEX|test [--json] ...
           tapwire help [COMMAND]

    commands:
      decode   decode INPUT (hex text, a file, a directory of files, or standard input)
      encode   build an NDEF message from records, a command APDU or BLE advertising data
      read     read a tag on a libnfc reader and decode its memory
      simulate run a simulated PN532 reader (for testing NFC programs without hardware)
      write    write an NDEF message (records as for encode) to a tag and verify it
      format   format a MIFARE Classic card as shipped for NDEF (MAD and NFC sectors)
      lock     make a formatted MIFARE Classic card read-only for good
      ntag     NTAG21x/Ultralight EV1: chip, signature, counter; set or remove a password
      apdu     run an applet-update script, or send command APDUs, to an ISO-DEP tag
      pcsc     list PC/SC readers, decode a card's ATR, send APDUs or run a script (pcscd)
      admin    run a remote applet-management session (GlobalPlatform RAM over HTTP) on a card
      cap      show a Java Card CAP file: package and applet AIDs, components, load file size
      verify   check a tag's originality signature, an NTAG 424 DNA SUN URL or NDEF signatures
      discover find card readers over BlueZ (D-Bus) or in a btsnoop capture
      connect  connect to a reader over BlueZ, reconnecting when the link drops
      gp       manage a JavaCard over a GlobalPlatform secure channel (SCP02/SCP03): list, delete, lock, keys
      help     show this text, or a command's help

    exit status (every command): 0 done, 1 failed (the typed reason on standard error, or
      "ok": false in --json output), 2 bad usage (a short usage on standard error);
      130 interrupted (SIGINT, Ctrl-C), 143 terminated (SIGTERM)
    Run `tapwire COMMAND --help` (or `tapwire help COMMAND`) for a command's options.
    Documentation/cli.md is the reference; Documentation/cli-json.md the --json contract.
    """

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

    options:
      --as FORMAT   the input format: \(Format.all.map(\.name).joined(separator: ", "))
      --json        print JSON as in the Tapwire JSON contract
      --lenient     accept what tags in the field break, and list the warnings
      --lines       one input per line: hex, or the path of a file (dump files too; its
                    JSON object then starts with "file"); one output per line, in order
      -h, --help    show this help

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

  static func main() {
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else {
      FileHandle.standardError.write(Data((usage + "\n").utf8))
      exit(2)
    }
    arguments.removeFirst()
    // The reader commands run tapwire-nfc and pass SIGINT and SIGTERM on to it; set up before
    // any thread starts.
    if [
      "read", "simulate", "write", "apdu", "pcsc", "admin", "discover", "connect", "format", "lock", "cap",
      "gp", "ntag", "verify",
    ]
    .contains(
      command)
    {
      SignalForwarding.install()
    }
    switch command {
    case "decode":
      exit(DecodeCommand.run(arguments))
    case "encode":
      exit(EncodeCommand.run(arguments))
    case "read":
      exit(ReaderCommands.read(arguments))
    case "simulate":
      exit(ReaderCommands.simulate(arguments))
    case "write":
      exit(ReaderCommands.write(arguments))
    case "apdu":
      exit(ReaderCommands.apdu(arguments))
    case "format", "lock":
      exit(ReaderCommands.formatOrLock(command, arguments))
    case "ntag":
      exit(ReaderCommands.ntag(arguments))
    case "pcsc":
      exit(ReaderCommands.pcsc(arguments))
    case "admin":
      exit(ReaderCommands.admin(arguments))
    case "discover", "connect":
      exit(ReaderCommands.discover(command, arguments))
    case "cap":
      exit(CAPForwarding.run(arguments))
    case "gp":
      exit(ReaderCommands.gp(arguments))
    case "verify":
      exit(VerifyForwarding.run(arguments))
    case "help", "-h", "--help":
      guard let topic = arguments.first, !["-h", "--help"].contains(topic) else {
        print(usage)
        exit(0)
      }
      guard let text = texts[topic] else { failUnknownCommand(topic) }
      print(text)
      exit(0)
    default:
      failUnknownCommand(command)
    }
  }

  /// Each command's help text, by command name (`encode adv` has its own, under encode's).
  static let texts = [
    "decode": decodeUsage, "encode": EncodeCommand.usage, "read": ReaderCommands.readUsage,
    "simulate": ReaderCommands.readUsage, "write": ReaderCommands.writeUsage,
    "apdu": ReaderCommands.apduUsage, "pcsc": ReaderCommands.pcscUsage, "admin": ReaderCommands.adminUsage,
    "cap": CAPForwarding.usage, "gp": ReaderCommands.gpUsage,
    "discover": ReaderCommands.discoverUsage, "connect": ReaderCommands.discoverUsage, "help": usage,
    "format": ReaderCommands.formatUsage, "lock": ReaderCommands.formatUsage,
    "ntag": ReaderCommands.ntagUsage, "verify": VerifyForwarding.usage,
  ]

  static let commands = [
    "decode", "encode", "read", "simulate", "write", "apdu", "pcsc", "admin", "discover", "connect", "format",
    "lock", "ntag", "cap", "gp", "verify", "help",
  ]

  static func failUnknownCommand(_ command: String) -> Never {
    let suggestion = Suggestion.closest(to: command, among: commands)
    fail("unknown command '\(command)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""))
  }

  /// The `usage:` lines of `text` (up to its first blank line).
  static func synopsis(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false)
      .drop { !$0.hasPrefix("usage:") }
      .prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
      .joined(separator: "\n")
  }

  /// The usage-error text for `message`: the message, the command's usage lines and where its
  /// help is (the command is the first argument, when it is a known one).
  static func usageError(_ message: String) -> String {
    let command = CommandLine.arguments.dropFirst().first.flatMap { texts[$0] == nil ? nil : $0 }
    guard let command, command != "help", let text = texts[command] else {
      return "tapwire: \(message)\nsee `tapwire help`\n"
    }
    return "tapwire: \(message)\n\(synopsis(text))\nsee `tapwire \(command) --help`\n"
  }

  /// Prints a usage error (the message, the command's usage lines, where its help is) and
  /// exits with status 2.
  static func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data(usageError(message).utf8))
    exit(2)
  }
}

/// Suggests the closest known word for a mistyped one (edit distance at most 2).
enum Suggestion {
  static func closest(to word: String, among candidates: [String]) -> String? {
    let scored = candidates.map { ($0, distance(Array(word), Array($0))) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
    return best.0
  }

  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, ca) in a.enumerated() {
      var current = [i + 1]
      for (j, cb) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
