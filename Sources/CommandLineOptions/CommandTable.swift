// SPDX-License-Identifier: Apache-2.0
import PCSCControl

/// Every `tapwire` command and subcommand with every option it takes: names, value kinds,
/// ranges, defaults and secrecy. Both executables parse with it (``ParsedCommand``), the help
/// lists options from it, and the hostile-option test drives every entry.
public enum CommandTable {
  /// The longest a reader waits for a tag, a card or an answer: a day.
  public static let longestWait = 86_400.0

  static let timeout = OptionSpec.value(
    "--timeout", .seconds(minimum: 0, maximum: longestWait, exclusiveMinimum: true), "SECONDS",
    "wait this long for a tag or card", default: "10")
  static let json = OptionSpec.flag("--json", "print JSON as in the Tapwire JSON contract")
  static let device = OptionSpec.value(
    "--device", .text(maximumBytes: 1024), "CONNSTRING",
    "a libnfc reader (pn532_uart:/dev/ttyUSB0); default the first")
  static let pcsc = OptionSpec.value(
    "--pcsc", .text(maximumBytes: 1024), "READER", "a PC/SC reader (pcscd), by name")
  static let reader = OptionSpec.value(
    "--reader", .text(maximumBytes: 1024), "NAME", "the PC/SC reader, by name; default the first with a card")
  static let readerProfile = OptionSpec.value(
    "--reader-profile", .choice(StorageCardReaderProfile.all.map(\.identifier)), "ID",
    "the PC/SC reader's quirks, when its name does not give them")
  static let keys = OptionSpec.value(
    "--keys", .inputFile, "FILE", "MIFARE Classic keys to try: 12 hex digits a line, # comments")
  static let mifareKey = OptionSpec.value(
    "--key", .mifareKey, "A|B:HEX", "a MIFARE Classic key to try (never printed)", repeatable: true,
    secret: true)
  static let reading = [device, pcsc, readerProfile, timeout, keys, mifareKey]

  /// The GlobalPlatform secure-channel options (`gp`, and scripts in a channel).
  static let secureChannel: [OptionSpec] = [
    .value(
      "--key", .secureChannelKey, "HEX|test", "one key for ENC, MAC and DEK; test: 404142...4F", secret: true),
    .value("--key-enc", .hexOneOf([16, 24, 32]), "HEX", "the ENC key", secret: true),
    .value("--key-mac", .hexOneOf([16, 24, 32]), "HEX", "the MAC key", secret: true),
    .value("--key-dek", .hexOneOf([16, 24, 32]), "HEX", "the DEK key", secret: true),
    .value(
      "--kvn", .count(0...255, hex: true), "N", "the key version (INITIALIZE UPDATE P1)",
      default: "the card's"),
    .value("--kdf", .choice(["emv", "visa2", "kdf3"]), "NAME", "diversify the keys with the card's data"),
    .value("--scp", .choice(["02", "03"]), "02|03", "require this protocol", default: "the card's"),
    .value(
      "--security", .choice(["mac", "mac+enc", "mac+rmac", "mac+enc+rmac", "all", "none"]), "LEVEL",
      "the security level", default: "mac"),
  ]

  /// The formats `decode` and `view` read.
  static let decodeFormatNames = [
    "ndef", "btsnoop", "hci", "mfc", "t2t", "t1t", "t5t", "t3t", "t4t", "bertlv", "adv", "capdu", "rapdu",
  ]
  static let decodeFormat = OptionSpec.value(
    "--as", .choice(decodeFormatNames), "FORMAT", "the input format", default: "by extension, else guessed")
  static let lenient = OptionSpec.flag(
    "--lenient", "accept what tags in the field break, and list the warnings")

  static let gpReader = [
    pcsc, .value("--reader", .text(maximumBytes: 1024), "NAME", "the PC/SC reader (as --pcsc)"), device,
    timeout,
  ]
  static let gpCommon = gpReader + secureChannel + [json]

  /// Every command, in the order the top-level usage lists them.
  public static let commands: [CommandSpec] =
    [
      CommandSpec(
        ["decode"], usage: ["tapwire decode [--as FORMAT] [--json] [--lenient] [--lines] [INPUT | DIR]"],
        summary: "decode INPUT (hex text, a file, a directory of files, or standard input)",
        options: [
          decodeFormat, json, lenient,
          .flag("--lines", "one input per line: hex, or the path of a file; one output per line"),
        ], operands: 0...1, sampleOperands: ["d00000"]),
      CommandSpec(
        ["view"], usage: ["tapwire view [--as FORMAT] [--lenient] [-o FILE.html] [INPUT]"],
        summary: "write INPUT as one HTML page: the decoded tree beside its hex, a tag's memory map",
        options: [
          .value(
            "--as", .choice(decodeFormatNames + ["apduscript"]), "FORMAT",
            "the input format (apduscript: an applet-update script)", default: "by extension, else guessed"),
          lenient,
          .value("-o", .outputFile, "FILE.html", "write the page to FILE.html", default: "standard output"),
        ], operands: 0...1, sampleOperands: ["d00000"]),
      CommandSpec(
        ["encode"], usage: ["tapwire encode [-o FILE] [--chunk N] [--image t2t:VARIANT] RECORD..."],
        summary: "build an NDEF message from records",
        options: [
          .value("-o", .outputFile, "FILE", "write the bytes to FILE", default: "hex on standard output"),
          .value("--chunk", .count(1...65_535, hex: false), "N", "split payloads into chunks of N bytes"),
          .value(
            "--image", .text(maximumBytes: 64), "t2t:VARIANT", "a formatted Type 2 image (t2t:ntag215, ...)"),
        ], operands: 1...Int.max, sampleOperands: ["uri", "https://example.com"], operandsEndOptions: true),
      CommandSpec(
        ["encode", "capdu"], usage: ["tapwire encode capdu CLA INS P1 P2 [DATA] [--le N] [--extended]"],
        summary: "build a command APDU (ISO/IEC 7816-4)",
        options: [
          .value("--le", .count(0...65_536, hex: false), "N", "the expected response length"),
          .flag("--extended", "extended length fields"),
        ], operands: 4...5, sampleOperands: ["00", "A4", "04", "00"]),
      CommandSpec(
        ["encode", "adv"],
        usage: [
          "tapwire encode adv [--flags HEX|none] [--name NAME] [--short-name NAME] [--tx-power DBM]",
          "                   [--appearance N] [--uuid16 XXXX]... [--uuid128 UUID]...",
          "                   [--service-data UUID:HEX]... [--manufacturer COMPANY:HEX]... [--extended] [-o FILE]",
        ],
        summary: "build Bluetooth LE advertising data",
        options: [
          .value("--flags", .text(maximumBytes: 8), "HEX|none", "the flags byte", default: "06"),
          .value("--name", .text(maximumBytes: 248), "NAME", "the complete local name"),
          .value("--short-name", .text(maximumBytes: 248), "NAME", "the shortened local name"),
          .value("--tx-power", .count(-128...127, hex: false), "DBM", "the TX power level"),
          .value("--appearance", .count(0...65_535, hex: false), "N", "the appearance"),
          .value("--uuid16", .hexBytes(2...2), "XXXX", "a 16-bit service UUID", repeatable: true),
          .value(
            "--uuid128", .text(maximumBytes: 36), "UUID", "a 128-bit service UUID (36 characters)",
            repeatable: true),
          .value("--service-data", .text(maximumBytes: 1024), "UUID:HEX", "service data", repeatable: true),
          .value(
            "--manufacturer", .text(maximumBytes: 1024), "COMPANY:HEX", "manufacturer data", repeatable: true),
          .flag("--extended", "allow 254 bytes (one extended advertising PDU)"),
          .value("-o", .outputFile, "FILE", "write the bytes to FILE"),
        ]),
      CommandSpec(
        ["read"],
        usage: [
          "tapwire read [--device CONNSTRING | --pcsc READER [--reader-profile ID]] [--timeout SECONDS]",
          "             [--json] [--dump] [--lenient] [--wait-message TEXT] [--work-message TEXT]",
          "             [--keys FILE] [--key A|B:HEX]...",
        ],
        summary: "read a tag on a libnfc or PC/SC reader and decode its memory",
        options: reading + [
          json, .flag("--dump", "print the bytes"),
          .flag("--lenient", "decode as field-grade (warnings listed)"),
          .value("--wait-message", .text(maximumBytes: 256), "TEXT", "the reader's message while waiting"),
          .value("--work-message", .text(maximumBytes: 256), "TEXT", "the reader's message while reading"),
        ], usesReaderBackEnd: true),
      CommandSpec(
        ["simulate"],
        usage: [
          "tapwire simulate [--tag ntag213|ntag215|ntag216|ultralight|type4|topaz96|topaz512|felica|",
          "                       mifare-mini|mifare-1k|mifare-4k] [--image FILE]",
        ],
        summary: "run a simulated PN532 reader (for testing NFC programs without hardware)",
        options: [
          .value(
            "--tag",
            .choice([
              "ntag213", "ntag215", "ntag216", "ntag215-genuine", "ultralight", "type4", "topaz96", "jewel",
              "topaz512",
              "felica",
              "mifare-mini", "mifare-1k", "mifare-4k",
            ]), "TAG", "the simulated tag", default: "ntag215"),
          .value("--image", .inputFile, "FILE", "the tag's memory image (type4: its NDEF message)"),
        ], usesReaderBackEnd: true),
      CommandSpec(
        ["write"],
        usage: [
          "tapwire write [--device CONNSTRING | --pcsc READER [--reader-profile ID]] [--timeout SECONDS]",
          "              [--keys FILE] [--key A|B:HEX]... (RECORD... | --message FILE|HEX)",
        ],
        summary: "write an NDEF message (records as for encode) to a tag and verify it",
        options: reading + [
          .value("--message", .fileOrHex(maximumBytes: 65_536), "FILE|HEX", "the encoded message")
        ], operands: 0...Int.max, sampleOperands: ["uri", "https://example.com"], operandsEndOptions: true,
        usesReaderBackEnd: true),
      CommandSpec(
        ["format"],
        usage: [
          "tapwire format [--device CONNSTRING | --pcsc READER [--reader-profile ID]] [--timeout SECONDS]",
          "               [--key-b HEX] [--keys FILE] [--key A|B:HEX]...",
        ],
        summary: "format a MIFARE Classic card as shipped (or a storage card) for NDEF",
        options: reading + [
          .value(
            "--key-b", .hexBytes(6...6), "HEX", "the NFC sectors' key B", default: "FFFFFFFFFFFF",
            secret: true)
        ], usesReaderBackEnd: true),
      CommandSpec(
        ["lock"],
        usage: [
          "tapwire lock [--device CONNSTRING] [--timeout SECONDS] [--keys FILE] [--key A|B:HEX]... --confirm-permanent"
        ],
        summary: "make a formatted MIFARE Classic card read-only for good",
        options: [
          device, timeout, keys, mifareKey, .flag("--confirm-permanent", "confirm: it cannot be undone"),
        ],
        usesReaderBackEnd: true),
    ] + ntagCommands + readerCommands + gpCommands + verifyCommands + [
      CommandSpec(
        ["help"], usage: ["tapwire help [COMMAND]"], summary: "show this text, or a command's help",
        options: [],
        operands: 0...2, sampleOperands: [])
    ]

  static let ntagReader = [device, pcsc, readerProfile, timeout]
  static let password: [OptionSpec] = [
    .value("--password-file", .inputFile, "FILE", "the password: the first line of FILE (8 hex digits)"),
    .value("--password-env", .environmentName, "NAME", "the password: the environment variable NAME"),
    .value("--pack", .hexBytes(2...2), "HEX", "the PACK the tag must answer the password with"),
  ]

  static let ntagCommands: [CommandSpec] = [
    CommandSpec(
      ["ntag", "info"], usage: ["tapwire ntag info [READER] [--timeout SECONDS]"],
      summary: "NTAG21x/Ultralight EV1: chip, signature, counter, protection", options: ntagReader,
      usesReaderBackEnd: true),
    CommandSpec(
      ["ntag", "auth"], usage: ["tapwire ntag auth [READER] [PASSWORD] [--pack HEX]"],
      summary: "NTAG21x: PWD_AUTH", options: ntagReader + password, usesReaderBackEnd: true),
    CommandSpec(
      ["ntag", "protect"],
      usage: [
        "tapwire ntag protect [READER] [PASSWORD] --pack HEX [--from PAGE] [--read-protect] [--attempts N]"
      ],
      summary: "NTAG21x: set password protection",
      options: ntagReader + password + [
        .value("--from", .count(0...255, hex: false), "PAGE", "the first protected page", default: "4"),
        .value(
          "--attempts", .count(0...7, hex: false), "N", "wrong passwords before the tag refuses", default: "0"
        ),
        .flag("--read-protect", "protect reads too"),
      ], usesReaderBackEnd: true),
    CommandSpec(
      ["ntag", "unprotect"], usage: ["tapwire ntag unprotect [READER] [PASSWORD] [--pack HEX]"],
      summary: "NTAG21x: remove password protection", options: ntagReader + password, usesReaderBackEnd: true),
  ]

  static let pcscTimeout = [reader, timeout, json]
  static let readerCommands: [CommandSpec] = [
    CommandSpec(
      ["apdu"],
      usage: [
        "tapwire apdu [--device CONNSTRING] [--timeout SECONDS] [--json] [CHANNEL OPTIONS] --script FILE",
        "tapwire apdu [--device CONNSTRING] [--timeout SECONDS] [--json] HEX...",
      ],
      summary: "run an applet-update script, or send command APDUs, to an ISO-DEP tag",
      options: [device, timeout, json, .value("--script", .inputFile, "FILE", "the applet-update script")]
        + secureChannel,
      operands: 0...Int.max, sampleOperands: ["00A4040000"], usesReaderBackEnd: true),
    CommandSpec(
      ["pcsc", "list"], usage: ["tapwire pcsc list [--json]"], summary: "list PC/SC readers",
      options: [json, reader, timeout], usesReaderBackEnd: true),
    CommandSpec(
      ["pcsc", "atr"], usage: ["tapwire pcsc atr [--reader NAME] [--timeout SECONDS] [--json]"],
      summary: "decode a card's answer to reset", options: pcscTimeout, usesReaderBackEnd: true),
    CommandSpec(
      ["pcsc", "apdu"], usage: ["tapwire pcsc apdu [--reader NAME] [--timeout SECONDS] [--json] HEX..."],
      summary: "send command APDUs through pcscd", options: pcscTimeout, operands: 1...Int.max,
      sampleOperands: ["00A4040000"], usesReaderBackEnd: true),
    CommandSpec(
      ["pcsc", "script"],
      usage: ["tapwire pcsc script [--reader NAME] [--timeout SECONDS] [--json] [CHANNEL OPTIONS] FILE"],
      summary: "run an applet-update script through pcscd", options: pcscTimeout + secureChannel,
      operands: 1...1,
      sampleOperands: ["sample.cap"], usesReaderBackEnd: true),
    CommandSpec(
      ["pcsc", "features"], usage: ["tapwire pcsc features [--reader NAME] [--json]"],
      summary: "a reader's PC/SC Part 10 features", options: pcscTimeout, usesReaderBackEnd: true),
    CommandSpec(
      ["pcsc", "control"], usage: ["tapwire pcsc control [--reader NAME] [--json] CODE [HEX]"],
      summary: "send one reader control code", options: pcscTimeout, operands: 1...2,
      sampleOperands: ["3400"],
      usesReaderBackEnd: true),
    CommandSpec(
      ["pcsc", "uid"], usage: ["tapwire pcsc uid [--reader NAME] [--timeout SECONDS] [--json]"],
      summary: "a card's UID and historical bytes", options: pcscTimeout, usesReaderBackEnd: true),
    CommandSpec(
      ["admin"],
      usage: [
        "tapwire admin URL (--pcsc READER | --device CONNSTRING) [--aid AID] [--json]",
        "tapwire admin --script FILE (--pcsc READER | --device CONNSTRING) [--json]",
      ],
      summary: "run a remote applet-management session (GlobalPlatform RAM over HTTP) on a card",
      options: [
        pcsc, .value("--reader", .text(maximumBytes: 1024), "NAME", "the PC/SC reader (as --pcsc)"), device,
        .value(
          "--aid", .aid, "AID", "the security domain for scripts that name no application",
          default: "A000000151000000"),
        .value("--script", .inputFile, "FILE", "run a local applet-update script instead"),
        timeout,
        .value(
          "--round-trip-timeout", .seconds(minimum: 0, maximum: longestWait, exclusiveMinimum: true),
          "SECONDS",
          "wait this long for each HTTP response", default: "30"),
        .value(
          "--retries", .count(0...100, hex: false), "N", "send a failed POST again up to N times",
          default: "2"),
        .value(
          "--max-rounds", .count(1...100_000, hex: false), "N", "accept at most N command scripts",
          default: "64"),
        .value("--from", .text(maximumBytes: 1024), "ID", "the X-Admin-From value", default: "//tapwire"),
        .value("--resume", .text(maximumBytes: 4096), "URI", "resume an interrupted session at URI"),
        json,
      ], operands: 0...1, sampleOperands: ["http://127.0.0.1:9/start"], usesReaderBackEnd: true),
    CommandSpec(
      ["cap", "info"], usage: ["tapwire cap info [--json] [--block-size N] FILE.cap"],
      summary: "show a Java Card CAP file: package and applet AIDs, components, load file size",
      options: [
        json,
        .value(
          "--block-size", .count(1...255, hex: false), "N", "plain bytes per LOAD block", default: "223"),
      ], operands: 1...1, sampleOperands: ["sample.cap"], usesReaderBackEnd: true),
    CommandSpec(
      ["discover"],
      usage: [
        "tapwire discover --bluez [--adapter hci0] [--bus ADDRESS] [--scan|--proximity|--serial S]",
        "                 [--timeout SECONDS] [--profile FILE]... [--json]",
        "tapwire discover --btsnoop FILE [--scan|--proximity|--serial S] [--timeout SECONDS] [--profile FILE]... [--json]",
      ],
      summary: "find card readers over BlueZ (D-Bus) or in a btsnoop capture", options: discoverOptions,
      usesReaderBackEnd: true),
    CommandSpec(
      ["connect"],
      usage: [
        "tapwire connect --bluez --serial S [--adapter hci0] [--bus ADDRESS] [--timeout SECONDS] [--profile FILE]... [--json]"
      ],
      summary: "connect to a reader over BlueZ, reconnecting when the link drops", options: discoverOptions,
      usesReaderBackEnd: true),
  ]

  static let discoverOptions: [OptionSpec] = [
    .flag("--bluez", "BlueZ over D-Bus"),
    .value("--btsnoop", .inputFile, "FILE", "a btsnoop capture instead of BlueZ"),
    .value("--adapter", .text(maximumBytes: 64), "NAME", "the BlueZ adapter", default: "hci0"),
    .value("--bus", .text(maximumBytes: 1024), "ADDRESS", "a D-Bus address instead of the system bus"),
    .flag("--scan", "print the refreshed list as it changes (the default)"),
    .flag("--proximity", "the nearest reader"),
    .value("--serial", .text(maximumBytes: 64), "S", "the reader with serial S"),
    timeout,
    .value("--profile", .inputFile, "FILE", "a reader-profile file (JSON)", repeatable: true),
    json,
  ]

  static let gpCommands: [CommandSpec] = [
    CommandSpec(
      ["gp", "info"], usage: ["tapwire gp info (--pcsc READER | --device CONNSTRING) KEY OPTIONS [--json]"],
      summary: "GlobalPlatform: the card's data and registry", options: gpCommon, usesReaderBackEnd: true),
    CommandSpec(
      ["gp", "list"], usage: ["tapwire gp list (--pcsc READER | --device CONNSTRING) KEY OPTIONS [--json]"],
      summary: "GlobalPlatform: the registry", options: gpCommon, usesReaderBackEnd: true),
    CommandSpec(
      ["gp", "install"],
      usage: [
        "tapwire gp install FILE.cap [--applet AID] [--instance AID] [--privileges HEX] [--params HEX]",
        "                   [--block-size N] [--hash] [--load-only] (--pcsc READER | --device CONNSTRING) KEY OPTIONS",
      ],
      summary: "GlobalPlatform: load and install a CAP file",
      options: gpCommon + [
        .value("--applet", .aid, "AID", "install this applet only"),
        .value("--instance", .aid, "AID", "the instance AID", default: "the applet's"),
        .value("--privileges", .hexOneOf([1, 3]), "HEX", "the privileges (GPCS 2.3 §11.1.2)", default: "00"),
        .value("--params", .hexBytes(1...255), "HEX", "the C9 application parameters"),
        .value("--block-size", .count(1...255, hex: false), "N", "cap the plain bytes of a LOAD block"),
        .flag("--hash", "send the load file data block hash"), .flag("--load-only", "stop after LOAD"),
      ], operands: 1...1, sampleOperands: ["sample.cap"], usesReaderBackEnd: true),
    CommandSpec(
      ["gp", "delete"],
      usage: ["tapwire gp delete AID [--related] (--pcsc READER | --device CONNSTRING) KEY OPTIONS"],
      summary: "GlobalPlatform: delete a load file or application",
      options: gpCommon + [.flag("--related", "a load file with its applications")], operands: 1...1,
      sampleOperands: ["A000000151000001"], usesReaderBackEnd: true),
    CommandSpec(
      ["gp", "lock"], usage: ["tapwire gp lock AID (--pcsc READER | --device CONNSTRING) KEY OPTIONS"],
      summary: "GlobalPlatform: lock an application", options: gpCommon, operands: 1...1,
      sampleOperands: ["A000000151000001"], usesReaderBackEnd: true),
    CommandSpec(
      ["gp", "unlock"], usage: ["tapwire gp unlock AID (--pcsc READER | --device CONNSTRING) KEY OPTIONS"],
      summary: "GlobalPlatform: make a locked application selectable", options: gpCommon, operands: 1...1,
      sampleOperands: ["A000000151000001"], usesReaderBackEnd: true),
    CommandSpec(
      ["gp", "put-key"],
      usage: [
        "tapwire gp put-key (--new-key HEX | --new-key-enc HEX --new-key-mac HEX --new-key-dek HEX) [--new-kvn N]",
        "                   (--pcsc READER | --device CONNSTRING) KEY OPTIONS",
      ],
      summary: "GlobalPlatform: replace the key set",
      options: gpCommon + [
        .value(
          "--new-key", .hexOneOf([16, 24, 32]), "HEX", "one new key for ENC, MAC and DEK", secret: true),
        .value("--new-key-enc", .hexOneOf([16, 24, 32]), "HEX", "the new ENC key", secret: true),
        .value("--new-key-mac", .hexOneOf([16, 24, 32]), "HEX", "the new MAC key", secret: true),
        .value("--new-key-dek", .hexOneOf([16, 24, 32]), "HEX", "the new DEK key", secret: true),
        .value("--new-kvn", .count(1...127, hex: true), "N", "the new key version", default: "the same"),
      ], usesReaderBackEnd: true),
  ]

  /// The originality-signature families `verify signature --family` takes (TagTrust's key
  /// table; `tapwire` does not link TagTrust, so TagTrustTests compares the two lists).
  public static let signatureFamilies = [
    "NTAG21x", "NTAG210", "NTAG212", "NTAG213", "NTAG215", "NTAG216", "UltralightEV1", "NXPTagInfo",
    "MIFAREClassicEV1", "MIFAREClassicQL88", "UltralightAES",
    "UltralightAESAlt", "NTAG22xDNA", "NTAG424DNA", "DESFireEV2", "DESFireLight", "DESFireEV1", "NTAG413DNA",
    "DESFireEV2XL", "DESFireEV3", "MIFAREPlusEV1", "MIFAREPlusEV2", "MIFAREPlusTroika", "NTAG5", "ICODE",
    "ICODESLIX2", "ICODEDNA", "ICODE3", "ST25TA", "ST25TN", "ST25TV", "VivoKeySpark1",
  ]

  static let sunParameter = OptionKind.text(maximumBytes: 64)
  static let verifyCommands: [CommandSpec] = [
    CommandSpec(
      ["verify", "signature"], usage: ["tapwire verify signature UID SIGNATURE [--family NAME] [--json]"],
      summary: "check a tag's originality signature against the makers' keys",
      options: [
        .value("--family", .choiceIgnoringCase(signatureFamilies), "NAME", "check only this family's keys"),
        json,
      ],
      operands: 2...2, sampleOperands: ["04E10CDA993C80", "00"], usesReaderBackEnd: true),
    CommandSpec(
      ["verify", "sun"],
      usage: [
        "tapwire verify sun URL (--key HEX | --meta-key HEX --file-key HEX) [--mac-input FROM]",
        "                   [--picc-param NAME] [--enc-param NAME] [--mac-param NAME] [--uid-param NAME]",
        "                   [--ctr-param NAME] [--json]",
      ],
      summary: "check an NTAG 424 DNA SUN URL (AES or LRP mode)",
      options: [
        .value("--key", .hexBytes(16...16), "HEX", "the AES-128 key for both SDM roles", secret: true),
        .value(
          "--meta-key", .hexBytes(16...16), "HEX", "the SDMMetaReadKey (decrypts the PICC data)", secret: true
        ),
        .value(
          "--file-key", .hexBytes(16...16), "HEX", "the SDMFileReadKey (SDMMAC, file data)", secret: true),
        .value(
          "--mac-input", .text(maximumBytes: 32), "FROM",
          "where the SDMMAC input starts: auto, none, picc, enc, uid, ctr or a byte offset", default: "auto"),
        .value(
          "--picc-param", sunParameter, "NAME", "the PICC data's query parameter", default: "picc_data or e"),
        .value("--enc-param", sunParameter, "NAME", "the encrypted file data's parameter", default: "enc"),
        .value("--mac-param", sunParameter, "NAME", "the SDMMAC's parameter", default: "cmac or c"),
        .value("--uid-param", sunParameter, "NAME", "the plain UID mirror's parameter", default: "uid"),
        .value("--ctr-param", sunParameter, "NAME", "the plain counter mirror's parameter", default: "ctr"),
        json,
      ], operands: 1...1, sampleOperands: ["https://example.com/?e=00&c=00"], usesReaderBackEnd: true),
    CommandSpec(
      ["verify", "ndef"], usage: ["tapwire verify ndef FILE --trust CERT.pem [--trust CERT.pem...] [--json]"],
      summary: "check the Signature records (RTD 2.0) of an NDEF message",
      options: [
        .value("--trust", .inputFile, "CERT.pem", "a trust anchor (PEM)", repeatable: true), json,
      ], operands: 1...1, sampleOperands: ["sample.cap"], usesReaderBackEnd: true),
  ]

  /// The command groups: a first word whose second word picks the command.
  public static var groups: [String] {
    var seen: [String] = []
    for spec in commands where spec.path.count == 2 && !seen.contains(spec.path[0]) {
      seen.append(spec.path[0])
    }
    return seen
  }

  /// Every first word `tapwire` takes.
  public static var names: [String] {
    var seen: [String] = []
    for spec in commands where !seen.contains(spec.path[0]) { seen.append(spec.path[0]) }
    return seen
  }

  /// The command `arguments` names (its first one or two words) and the arguments after
  /// them; a group word without a known second word is a usage error naming the choices.
  /// `-h`/`--help` as the second word gives the group's first command with help asked.
  public static func resolve(_ arguments: [String]) throws(UsageError) -> (CommandSpec, [String]) {
    guard let first = arguments.first else {
      throw UsageError(command: nil, option: nil, reason: "needs a command")
    }
    let family = commands.filter { $0.path[0] == first }
    guard !family.isEmpty else {
      let hint = OptionKind.closest(to: first, among: names).map { "; did you mean '\($0)'?" } ?? ""
      throw UsageError(command: nil, option: nil, reason: "unknown command \(OptionKind.shown(first))\(hint)")
    }
    let whole = family.first { $0.path.count == 1 }
    let subcommands = family.filter { $0.path.count == 2 }
    if let second = arguments.dropFirst().first, let spec = subcommands.first(where: { $0.path[1] == second })
    {
      return (spec, Array(arguments.dropFirst(2)))
    }
    if let whole { return (whole, Array(arguments.dropFirst())) }
    let words = subcommands.map { $0.path[1] }
    guard let second = arguments.dropFirst().first else {
      throw UsageError(
        command: first, option: nil, reason: "needs a command: \(words.joined(separator: ", "))")
    }
    if second == "-h" || second == "--help" { return (subcommands[0], ["--help"]) }
    let hint = OptionKind.closest(to: second, among: words).map { "; did you mean '\($0)'?" } ?? ""
    throw UsageError(
      command: first, option: nil, reason: "unknown \(first) command \(OptionKind.shown(second))\(hint)")
  }
}
