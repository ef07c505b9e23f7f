// SPDX-License-Identifier: Apache-2.0
import CommandLineOptions
import Foundation
import JSONOutput
import NFCWire

/// `tapwire read` and `tapwire simulate`: they run the `tapwire-nfc` executable built next to
/// `tapwire` (it links libnfc; `tapwire` does not), then decode what it read here.
enum ReaderCommands {
  static let readUsage = """
    usage: tapwire read [--device CONNSTRING | --pcsc READER [--reader-profile ID]] [--timeout SECONDS]
                        [--json] [--dump] [--lenient] [--wait-message TEXT] [--work-message TEXT]
                        [--keys FILE] [--key A|B:HEX]...
           tapwire simulate [--tag ntag213|ntag215|ntag216|ntag215-genuine|ultralight|type4|topaz96|
                                   topaz512|felica|mifare-mini|mifare-1k|mifare-4k] [--image FILE]

      read      wait for a tag on a libnfc reader (the first one, or CONNSTRING such as
                pn532_uart:/dev/ttyUSB0): a Type 1, 2 or 3 tag's memory decoded like
                `decode --as t1t|t2t|t3t`, a Type 4 tag's NDEF message like `decode --as ndef`;
                --dump prints the bytes; --pcsc READER reads the tag on a PC/SC NFC reader
                (pcscd) instead, through the reader's own NFC discovery when it offers the
                START_NFC control codes (showing --wait-message while waiting and
                --work-message while reading), else by waiting for a card: a Type 4 tag by
                APDUs, a Type 2 or Type 5 tag or a MIFARE Classic card as the storage card
                its ATR names (PC/SC Part 3 pseudo-APDUs), a FeliCa (Type 3) tag by raw
                Check commands through direct transmit or the transparent session FF C2
                (a reader profile with neither is named in the error), with the quirks of
                the reader profile its name gives or --reader-profile ID (acs, hid-omnikey,
                identiv-scm, gemalto-gemprox, sony, generic). A MIFARE Classic
                card is read through its MAD: the NDEF sectors, the read-only state and the
                records, with the public MAD and NFC Forum keys and those of --keys FILE (a
                key dictionary: 12 hex digits a line, # comments) and --key A:HEX or B:HEX;
                --dump prints the blocks those keys open as the card shows them (key A
                always reads as zeros). Keys are never printed.
      simulate  run a simulated PN532 reader with a tag, print its device path and libnfc
                connection string, and serve until standard input closes

      Exit status: 0 read and decoded (simulate: standard input closed), 1 no reader (with
      what to do: plug one in, or simulate one and pass --device), no tag, or the memory
      does not decode (named), 2 bad usage.

    examples:
      sleep infinity | tapwire simulate --image Corpus/tags/seeds/t2t-ntag215-smartposter.bin &
      tapwire read --device pn532_uart:/dev/pts/3 --json   # the connection string simulate printed
    """

  /// The `tapwire-nfc` binary beside this one.
  ///
  /// Found through `/proc/self/exe`, so that a `tapwire` run from `PATH` (where its first
  /// argument is a bare name) or through a symbolic link finds its own directory.
  static var helper: URL { ownDirectory.appendingPathComponent("tapwire-nfc") }

  /// The directory of this executable, symbolic links resolved.
  static var ownDirectory: URL {
    if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      return URL(fileURLWithPath: path).deletingLastPathComponent()
    }
    return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent()
  }

  static func requireHelper() {
    guard FileManager.default.isExecutableFile(atPath: helper.path) else {
      FileHandle.standardError.write(
        Data(
          "tapwire: the reader commands need tapwire-nfc next to tapwire (swift build --product tapwire-nfc; it needs libnfc-dev)\n"
            .utf8))
      exit(1)
    }
  }

  /// The exit status to pass on for a finished `tapwire-nfc`: its own, or 128 + the signal
  /// number when a signal ended it (the shell's convention: 130 for SIGINT, 143 for SIGTERM),
  /// where Foundation reports the bare signal number (2 for SIGINT, the usage status).
  static func exitStatus(of process: Process) -> Int32 {
    process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
  }

  /// `tapwire read`: `tapwire-nfc dump` reads, this decodes.
  static func read(_ options: ParsedCommand) -> Int32 {
    var passed: [String] = []
    for name in [
      "--device", "--timeout", "--pcsc", "--wait-message", "--work-message", "--keys", "--reader-profile",
    ] {
      if let value = options.value(name) { passed += [name, value] }
    }
    for key in options.values("--key") { passed += ["--key", key] }
    let json = options.has("--json")
    let dumpOnly = options.has("--dump")
    let lenient = options.has("--lenient")
    // MIFARE Classic is read differently with --dump (its blocks, not the NDEF area).
    if dumpOnly { passed.append("--dump") }
    if lenient { passed.append("--lenient") }
    requireHelper()
    let process = Process()
    process.executableURL = helper
    process.arguments = ["dump"] + passed
    let output = Pipe()
    process.standardOutput = output
    SignalForwarding.start(process)
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return exitStatus(of: process) }
    let answer = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    // The memory line, then for a Type 2 tag with GET_VERSION READ_SIG's verdict line.
    let answerLines = answer.split(separator: "\n")
    let line = answerLines.first.map(String.init) ?? ""
    let originality = answerLines.dropFirst().lazy.compactMap(OriginalityLine.init).first
    if line.hasPrefix("mifareClassic") {
      return MifareClassicReadOutput.print(line, json: json, lenient: lenient)
    }
    let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
    guard parts.count == 2, let format = Format.named(parts[0]), let image = Hex.bytes(parts[1]) else {
      FileHandle.standardError.write(Data("tapwire: unexpected answer from tapwire-nfc\n".utf8))
      return 1
    }
    let originalityField = originality.map { [("originality", $0.json)] } ?? []
    if dumpOnly {
      print(
        json
          ? JSON.object(
            [("format", .string(format.name)), ("image", .string(Hex.string(image)))] + originalityField
          ).serialized
          : (HexDump.lines(image) + [originality?.humanLine].compactMap { $0 }).joined(separator: "\n"))
      return 0
    }
    if json {
      var (object, ok) = format.json(image, lenient)
      if case .object(let fields) = object { object = .object(fields + originalityField) }
      print(object.serialized)
      return ok ? 0 : 1
    }
    switch format.human(image, lenient) {
    case .success(let lines):
      print((lines + [originality?.humanLine].compactMap { $0 }).joined(separator: "\n"))
      return 0
    case .failure(let failure):
      DecodeCommand.reportFailure(failure, format: format, bytes: image)
      return 1
    }
  }

  static let writeUsage = """
    usage: tapwire write [--device CONNSTRING | --pcsc READER [--reader-profile ID]] [--timeout SECONDS]
                         [--keys FILE] [--key A|B:HEX]... RECORD...
           tapwire write [--device CONNSTRING | --pcsc READER [--reader-profile ID]] [--timeout SECONDS]
                         [--keys FILE] [--key A|B:HEX]... --message FILE|HEX

      Waits for a Type 1, 2, 3 or 4 tag or a formatted MIFARE Classic card, writes the NDEF
      message (records as `tapwire encode` takes them, or the encoded message in FILE or HEX),
      reads it back and verifies it. MIFARE Classic: the NFC sectors the MAD names, with the
      public keys and those of --keys/--key, every sector checked before the first write.
      Type 1 bytes or blocks and Type 2 pages are written in the tearing-safe order (NDEF
      length 0 first, the length last); Type 3 blocks with the WriteFlag set first and cleared
      last; Type 4 tags through the NDEF update procedure. --pcsc READER writes on a PC/SC
      NFC reader: Type 4 by APDUs; Type 2, Type 5 and MIFARE Classic through the PC/SC Part 3
      storage-card pseudo-APDUs (UPDATE BINARY per page or block, LOAD KEYS and GENERAL
      AUTHENTICATE per sector) in the same orders, Type 3 (FeliCa) by raw Update commands
      through direct transmit or the transparent session FF C2; a reader that cannot do it
      (6A81, or a profile with no raw-frame route) is named in the error.
      Exit status: 0 written and verified, 1 no reader, no tag, the message does not fit,
      a read-only tag or a failed verification, 2 bad usage.

    examples:
      tapwire write --device pn532_uart:/dev/pts/3 uri https://example.com text "Hello"
      tapwire write --message poster.ndef
    """

  static let formatUsage = """
    usage: tapwire format [--device CONNSTRING] [--timeout SECONDS] [--key-b HEX] [--keys FILE] [--key A|B:HEX]...
           tapwire format --pcsc READER [--reader-profile ID] [--timeout SECONDS] [--key-b HEX] [--keys FILE] [--key A|B:HEX]...
           tapwire lock [--device CONNSTRING] [--timeout SECONDS] [--keys FILE] [--key A|B:HEX]... --confirm-permanent

      format    waits for a MIFARE Classic card as shipped (transport keys) and formats it
                for NDEF (NXP AN1304/AN10787): every sector but the MAD ones becomes an NFC
                sector (key A D3F7D3F7D3F7, access bits 7F 07 88, key B from --key-b, else the
                transport key FFFFFFFFFFFF) holding an empty NDEF message, then the MAD
                (key A A0A1A2A3A4A5, 78 77 88; MAD2 on a 4K card) is written last.
                With --pcsc READER, on a PC/SC NFC reader: a MIFARE Classic card the same
                way through the PC/SC Part 3 pseudo-APDUs; a Type 2, Type 3 or Type 5 tag gets
                an empty NDEF message (a Type 2 tag without a CC first gets its product's CC;
                a FeliCa tag needs its NDEF system and Attribute Information Block already).
      lock      makes a formatted card read-only for good (access bits 07 8F 0F in every NFC
                and MAD sector); it needs each sector's key B (--key B:HEX) and
                --confirm-permanent, since it cannot be undone.

      Keys are never printed. Exit status: 0 done, 1 no reader, no card, a key that does not
      open a sector (the sector and key slot named) or a refused write, 2 bad usage.

    examples:
      tapwire format --device pn532_uart:/dev/pts/3 --key-b 0123456789AB
      tapwire lock --device pn532_uart:/dev/pts/3 --key B:0123456789AB --confirm-permanent
    """

  /// `tapwire lock`: only with --confirm-permanent; runs `tapwire-nfc lock`.
  static func lock(_ options: ParsedCommand, _ arguments: [String]) -> Int32 {
    if !options.has("--confirm-permanent") {
      Tapwire.fail("lock makes the card read-only for good: add --confirm-permanent to do it")
    }
    return passThrough(arguments)
  }

  static let ntagUsage = """
    usage: tapwire ntag info [READER] [--timeout SECONDS]
           tapwire ntag auth [READER] [PASSWORD] [--pack HEX]
           tapwire ntag protect [READER] [PASSWORD] --pack HEX [--from PAGE] [--read-protect] [--attempts N]
           tapwire ntag unprotect [READER] [PASSWORD] [--pack HEX]

      Waits for an NTAG21x or MIFARE Ultralight EV1 tag (NTAG213/215/216 data sheet §8.8, §10).
      READER: --device CONNSTRING (libnfc), or --pcsc READER [--reader-profile ID] for a
      PC/SC reader (pcscd): pages through READ/UPDATE BINARY, the tag's own commands
      through the reader's direct transmit (ACS) or transparent session (FF C2); a reader
      with neither (or one that answers 6A81) gives an error that says so.
      info       the exact chip from GET_VERSION, the originality signature (READ_SIG) and
                 its verdict against the makers' keys (as `tapwire verify signature`), the NFC
                 counter (READ_CNT) and the password protection state
      auth       PWD_AUTH; with --pack, the tag's answer must be that PACK
      protect    writes PWD, PACK, then CFG1 (PROT, AUTHLIM) and CFG0 (AUTH0) last, so a write
                 cut short leaves the tag unprotected: pages from --from (default 4) need the
                 password for writes, and with --read-protect for reads too; --attempts N
                 (1-7) refuses the tag for good after N wrong passwords (default 0: no limit)
      unprotect  authenticates, then writes AUTH0 FFh first, CFG1, and PWD and PACK back to
                 FFFFFFFF and 0000

      PASSWORD (8 hex digits, never an argument, never echoed or printed):
        --password-file FILE   the first line of FILE
        --password-env NAME    the environment variable NAME
        (neither)              a prompt on the terminal with echo off

    examples:
      tapwire ntag info --device pn532_uart:/dev/pts/3
      tapwire ntag protect --device pn532_uart:/dev/pts/3 --password-file pwd.txt --pack A55A --read-protect --attempts 5
      tapwire ntag info --pcsc "ACS ACR122U PICC Interface 00 00"
    """

  /// `tapwire ntag`: protect needs --pack; runs `tapwire-nfc ntag`.
  static func ntag(_ options: ParsedCommand, _ arguments: [String]) -> Int32 {
    if options.spec.name == "ntag protect" && !options.has("--pack") {
      Tapwire.fail("protect needs --pack HEX (the 2 bytes the tag answers the right password with)")
    }
    return passThrough(arguments)
  }

  static let apduUsage = """
    usage: tapwire apdu [--device CONNSTRING] [--timeout SECONDS] [--json] [CHANNEL OPTIONS] --script FILE
           tapwire apdu [--device CONNSTRING] [--timeout SECONDS] [--json] HEX...

      Waits for an ISO-DEP tag and runs the applet-update script in FILE (one command APDU
      per line, `-> [DATA] SW` for the expected response; see Documentation/cli.md), printing one
      progress line per step on standard error and stopping at the first step whose response
      is not the expected one; or sends each command APDU given in hex and prints its response.
      --json prints a summary object (format "apduScript") or one "rapdu" object per APDU.
      CHANNEL OPTIONS (--key HEX|test or --key-enc/--key-mac/--key-dek, --kvn, --kdf, --scp,
      --security, as for `tapwire gp`) run the script inside a GlobalPlatform secure channel
      to the card's issuer security domain: each command wrapped, each answer unwrapped and
      checked; keys shown only as check values.
      Exit status: 0 every step passed, 1 no reader, no tag, a secure-channel failure or a
      failed step (named), 2 bad usage.

    examples:
      tapwire apdu --device pn532_uart:/dev/pts/3 --script update.apdu
      tapwire apdu --device pn532_uart:/dev/pts/3 --key test --security mac+enc --script gp.apdu
      tapwire apdu 00A4040007D276000085010100 00B0000002
    """

  /// Runs `tapwire-nfc` with `arguments`, its output and errors passed through, SIGINT and
  /// SIGTERM passed on to it (``SignalForwarding``).
  static func passThrough(_ arguments: [String]) -> Int32 {
    requireHelper()
    let process = Process()
    process.executableURL = helper
    process.arguments = arguments
    return SignalForwarding.run(process)
  }

  /// `tapwire write`: the message is built by `tapwire encode` (run as a child of this
  /// executable, so the record syntax is exactly encode's), then written by `tapwire-nfc write`.
  static func write(_ options: ParsedCommand) -> Int32 {
    var passed: [String] = []
    for name in ["--device", "--timeout", "--pcsc", "--keys", "--reader-profile"] {
      if let value = options.value(name) { passed += [name, value] }
    }
    for key in options.values("--key") { passed += ["--key", key] }
    let records = options.operands
    let message = options.value("--message")
    let bytes: [UInt8]
    if let message {
      guard records.isEmpty else { Tapwire.fail("give records or --message, not both") }
      switch Input.bytes(operand: message) {
      case .success(let read): bytes = read
      case .failure(let error): Tapwire.fail(error.message)
      }
    } else {
      guard !records.isEmpty else {
        Tapwire.fail("write needs records (as for encode) or --message FILE|HEX")
      }
      guard let encoded = encode(records) else { return 2 }
      bytes = encoded
    }
    return passThrough(["write"] + passed + ["--message", Hex.string(bytes)])
  }

  /// The message `tapwire encode RECORDS...` prints, or nil after encode reported an error
  /// (on standard error, inherited).
  static func encode(_ records: [String]) -> [UInt8]? {
    let process = Process()
    process.executableURL = ownDirectory.appendingPathComponent("tapwire")
    process.arguments = ["encode"] + records
    let output = Pipe()
    process.standardOutput = output
    do { try process.run() } catch { Tapwire.fail("cannot run encode: \(error)") }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return Hex.bytes(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }

  /// `tapwire apdu`: a script or APDUs, the channel options only with a script.
  static func apdu(_ options: ParsedCommand, _ arguments: [String]) -> Int32 {
    let script = options.has("--script")
    guard script != !options.operands.isEmpty else {
      Tapwire.fail("apdu needs either --script FILE or command APDUs as hex")
    }
    let channel = ["--key", "--key-enc", "--key-mac", "--key-dek", "--kvn", "--kdf", "--scp", "--security"]
    if !script && channel.contains(where: options.has) {
      Tapwire.fail("the secure channel options (--key ...) go with --script FILE")
    }
    return passThrough(arguments)
  }
}
