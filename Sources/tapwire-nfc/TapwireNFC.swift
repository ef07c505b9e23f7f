// SPDX-License-Identifier: Apache-2.0
import CommandLineOptions
import Foundation
import NDEF
import NFCReader
import NFCReaderLibNFC
import NFCReaderPCSC
import NFCTags
import NFCWire
import PN532Simulator
import Type2NDEF

/// `tapwire-nfc`: the commands that touch a reader (libnfc) or run the PN532 simulator.
/// `tapwire read`, `tapwire simulate` and `tapwire apdu` run it, so that `tapwire` itself
/// builds and runs without libnfc.
/// The cross-process lock on the device, held until the process exits.
nonisolated(unsafe) var heldLock: DeviceLock?

@main
struct TapwireNFC {
  static let usage = """
    usage: tapwire-nfc simulate [--tag ntag213|ntag215|ntag216|ntag215-genuine|ultralight|type4|topaz96|topaz512|felica|mifare-mini|mifare-1k|mifare-4k] [--image FILE]
           tapwire-nfc dump [--device CONNSTRING] [--timeout SECONDS] [--dump] [--lenient] [--keys FILE] [--key A|B:HEX]...
           tapwire-nfc write [--device CONNSTRING] [--timeout SECONDS] [--keys FILE] [--key A|B:HEX]... --message HEX
           tapwire-nfc format [--device CONNSTRING] [--timeout SECONDS] [--key-b HEX] [--keys FILE] [--key A|B:HEX]...
           tapwire-nfc lock [--device CONNSTRING] [--timeout SECONDS] [--keys FILE] [--key A|B:HEX]... --confirm-permanent
           tapwire-nfc ntag info|auth|protect|unprotect [--device CONNSTRING] [--password-file FILE | --password-env NAME] [...]
           tapwire-nfc apdu [--device CONNSTRING] [--timeout SECONDS] [--json] (--script FILE | HEX...)
           tapwire-nfc admin (URL | --script FILE) (--pcsc READER | --device CONNSTRING) [--aid AID] [--json]
           tapwire-nfc pcsc list|atr|apdu|script|features|control|uid [--reader NAME] [--json] ...
           tapwire-nfc dump|write|format --pcsc READER [--reader-profile ID] [--timeout SECONDS] [--keys FILE] [--key A|B:HEX]...
           tapwire-nfc discover --bluez|--btsnoop FILE [--scan|--proximity|--serial S] [--json]
           tapwire-nfc connect --bluez --serial S [--json]
           tapwire-nfc cap info [--json] [--block-size N] FILE.cap
           tapwire-nfc verify signature UID SIGNATURE [--family NAME] [--json]
           tapwire-nfc verify sun URL (--key HEX | --meta-key HEX --file-key HEX) [--json]
           tapwire-nfc verify ndef FILE --trust CERT.pem [--json]
           tapwire-nfc gp info|list|delete|lock|unlock|put-key --pcsc READER (--key HEX|test | --key-enc/--key-mac/--key-dek HEX) [...]

      simulate  run a PN532 reader on a pseudo-terminal serving a Type 2 tag, a Type 1 tag
                (topaz96 = jewel: static memory; topaz512: dynamic) or a Type 3 tag
                (felica), a MIFARE Classic card (mifare-mini, mifare-1k, mifare-4k: as
                shipped, transport keys), blank or the memory image in FILE, or a Type 4
                tag (FILE: its NDEF message); prints the device path and the libnfc connection string,
                and runs until standard input closes
      dump      wait for a tag and print its format and bytes: "t1t", "t2t" or "t3t" and
                the memory image in hex for Type 1, 2 and 3, "ndef <message hex>" for Type 4
                "mifareClassic" and the MAD, read-only state and NDEF message of a MIFARE
                Classic card ("mifareClassicImage" and its memory with --dump)
      write     wait for a Type 1, 2, 3 or 4 tag or a formatted MIFARE Classic card, write
                the NDEF message, read it back
      format    wait for a MIFARE Classic card as shipped and format it for NDEF
      lock      make a formatted MIFARE Classic card read-only for good (needs its key B)
      ntag      NTAG21x/Ultralight EV1 info, PWD_AUTH, set or remove password protection
      apdu      wait for an ISO-DEP tag, run the script (progress on standard error) or
                send each command APDU and print its response
      admin     run a GlobalPlatform Amendment B remote management session (or a local
                script) as a required update, one progress line per round trip and command
      pcsc, discover, connect, gp, verify  as `tapwire pcsc|discover|connect|gp|verify` (see `tapwire COMMAND --help`)

    `tapwire` runs these for its reader commands and checks their options first; its help
    (`tapwire COMMAND --help`) is the reference. Exit status: 0 done, 1 failed (the typed
    reason on standard error), 2 bad usage.
    """

  /// Prints `message` and exits with `status`; a usage error (status 2) also says where the
  /// command's help is.
  static func fail(_ message: String, status: Int32 = 2) -> Never {
    var text = "tapwire: \(message)\n"
    if status == 2 { text += "see `tapwire \(helpTopic.map { "\($0) --help" } ?? "help")`\n" }
    FileHandle.standardError.write(Data(text.utf8))
    SignalStop.exit(status)
  }

  /// The `tapwire` command whose help covers this run (`dump` is `tapwire read`).
  static var helpTopic: String? {
    let commands = [
      "simulate", "write", "apdu", "admin", "pcsc", "discover", "connect", "format", "lock", "cap", "gp",
      "verify",
    ]
    let command = CommandLine.arguments.dropFirst().first ?? ""
    if command == "dump" { return "read" }
    return commands.contains(command) ? command : nil
  }

  static func main() async {
    // First, before any other thread starts: SIGINT and SIGTERM go to SignalStop's thread.
    SignalStop.install()
    // libnfc logs to standard error by default (such as "Unable to find USB busses" on a
    // machine without USB, once per scan); the commands name what failed themselves. A
    // LIBNFC_LOG_LEVEL the user set (3 shows libnfc's debug log) is kept.
    setenv("LIBNFC_LOG_LEVEL", "0", 0)
    var arguments = Array(CommandLine.arguments.dropFirst())
    guard let command = arguments.first else { fail(usage) }
    arguments.removeFirst()
    if arguments.contains("-h") || arguments.contains("--help") {
      print(command == "pcsc" ? PCSCCommands.usage : usage)
      exit(0)
    }
    checkArguments(command, arguments)
    switch command {
    case "simulate": simulate(arguments)
    case "dump" where arguments.contains("--pcsc"): await PCSCControlCommands.dump(arguments)
    case "dump": await dump(arguments)
    case "pcsc": await PCSCCommands.run(arguments)
    case "write": await WriteCommand.run(arguments)
    case "format" where arguments.contains("--pcsc"): await PCSCStorageCommands.format(arguments)
    case "format": await MifareClassicCommands.format(arguments)
    case "lock": await MifareClassicCommands.lock(arguments)
    case "ntag": await NtagCommands.run(arguments)
    case "apdu": await APDUCommand.run(arguments)
    case "admin": await AdminCommand.run(arguments)
    case "discover": await DiscoverCommand.discover(arguments)
    case "connect": await DiscoverCommand.connect(arguments)
    case "cap": SignalStop.exit(CAPInfoCommand.run(arguments))
    case "verify": SignalStop.exit(VerifyCommand.run(arguments))
    case "gp": await GlobalPlatformCommand.run(arguments)
    case "-h", "--help", "help": print(usage)
    default: fail("unknown command '\(command)'\n\(usage)")
    }
    SignalStop.exit(0)
  }

  /// The arguments checked against ``CommandTable`` at start: every value valid for its kind.
  nonisolated(unsafe) static var parsed: ParsedCommand?

  /// The value of option `name`, checked at start against the table; nil when absent.
  static func option(_ name: String) -> String? { parsed?.value(name) }

  /// `--timeout`, checked at start (more than 0, at most a day); 10 s when absent.
  static var timeout: Duration { parsed?.duration("--timeout") ?? .seconds(10) }

  /// `--timeout` as the user gave it, for messages ("no tag within 2.5 s").
  static var timeoutText: String { option("--timeout") ?? "10" }

  /// Checks `arguments` (the command's words included; `dump` is `tapwire read`) against
  /// ``CommandTable`` before anything else happens; a bad value exits 2 naming the option.
  static func checkArguments(_ command: String, _ arguments: [String]) {
    do throws(UsageError) {
      let (spec, rest) = try CommandTable.resolve([command == "dump" ? "read" : command] + arguments)
      parsed = try ParsedCommand.parse(spec, rest)
    } catch {
      FileHandle.standardError.write(
        Data("\(error.message)\nsee `tapwire \(helpTopic.map { "\($0) --help" } ?? "help")`\n".utf8))
      SignalStop.exit(2)
    }
  }

  /// The operands, as the table parsed them (the words that are neither options nor their
  /// values).
  static var operands: [String] { parsed?.operands ?? [] }

  /// Locks the device node across processes (``DeviceLock``; the lock lives until the
  /// process exits) and opens the reader. Exits 1 with "device busy: ..." or
  /// "no reader: ...".
  static func openReader(_ connstring: String?) async -> LibNFCReader {
    let named = connstring ?? ProcessInfo.processInfo.environment["LIBNFC_DEVICE"]
    if let path = named.flatMap(DeviceLock.devicePath(of:)) {
      do throws(ReaderError) {
        heldLock = try DeviceLock(path: path)
      } catch {
        if error.code == .deviceBusy { fail("device busy: \(error)", status: 1) }
        failNoReader(error)
      }
    }
    do throws(ReaderError) {
      return try await LibNFCReader.open(connstring: connstring)
    } catch {
      failNoReader(error)
    }
  }

  /// What to do when no libnfc reader opens: plug one in, or simulate one.
  static let noReaderHint = """
      plug a reader in (or name it with --device CONNSTRING), or start a simulated one with
      `sleep infinity | tapwire simulate &` and pass the connection string it prints with
      --device; LIBNFC_LOG_LEVEL=3 shows libnfc's own log
    """

  /// Exits 1 with "no reader: " and `error`, then what to do next.
  static func failNoReader(_ error: ReaderError) -> Never {
    fail("no reader: \(error)\n\(noReaderHint)", status: 1)
  }

  /// `type2 NTAG215 UID 04...` or `type4 UID 08...`.
  static func describe(_ tag: LibNFCTag) -> String {
    let variant = tag.type2Variant.map { " " + $0.name } ?? ""
    return "\(tag.kind.name)\(variant) tag UID \(Hex.string(tag.uid))"
  }

  /// Opens `--device` (or the first reader) and polls every 100 ms until a tag that
  /// `accepts` takes is in the field or `--timeout` seconds (default 10) pass. Exits 1 with
  /// "no reader: ..." when the device cannot be opened, or when no such tag came.
  static func openAndWait(
    _ arguments: [String], kinds: String, accepts: (LibNFCTag) -> Bool
  ) async -> (LibNFCReader, LibNFCTag) {
    let connstring = option("--device")
    let reader = await openReader(connstring)
    let deadline = ContinuousClock.now + timeout
    var seen: LibNFCTag?
    // A signal ends the wait: the reader is closed, the exit is 128 + the signal's number.
    SignalStop.onSignal { _ in }
    while ContinuousClock.now < deadline, SignalStop.received == nil {
      do throws(ReaderError) {
        if let tag = try await reader.poll() {
          if accepts(tag) { return (reader, tag) }
          seen = tag
        }
      } catch {
        await reader.close()
        fail("polling failed: \(error)", status: 1)
      }
      try? await Task.sleep(for: .milliseconds(100))
    }
    await reader.close()
    if SignalStop.received != nil { fail("interrupted", status: 1) }
    if let seen { fail("\(describe(seen)) is not \(kinds)", status: 1) }
    fail("no tag within \(timeoutText) s", status: 1)
  }

  static func simulate(_ arguments: [String]) {
    let products: [String: Type2Product] = [
      "ntag213": .ntag213, "ntag215": .ntag215, "ntag216": .ntag216, "ultralight": .ultralight,
    ]
    let classic: [String: MifareClassicProduct] = [
      "mifare-mini": .mini, "mifare-1k": .classic1K, "mifare-4k": .classic4K,
    ]
    let others =
      ["ntag215-genuine", "type4", "topaz96", "jewel", "topaz512", "felica"] + classic.keys.sorted()
    let name = option("--tag") ?? "ntag215"
    let image: [UInt8]?
    if let path = option("--image") {
      guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
      image = [UInt8](data)
    } else {
      image = nil
    }
    let tag: SimulatedTag
    do throws(SimulatorError) {
      switch name {
      case "type4":
        // For a Type 4 tag, --image is the NDEF message held in its NDEF file.
        let system = Type4FileSystem.ndef(message: image ?? [0xD0, 0x00, 0x00])
        tag = .type4(try SimulatedType4Tag(uid: [0x08, 0x54, 0x57, 0x04], applet: .fileSystem(system)))
      case "topaz96", "jewel", "topaz512":
        tag = .jewel(try type1Tag(name, image: image))
      case "ntag215-genuine":
        // proxmark3's published NTAG21x pair (tools/recover_pk.py): a UID with the originality
        // signature NXP made for it, so `ntag info` and `verify signature` find it genuine.
        var type2 =
          if let image {
            try SimulatedType2Tag(product: .ntag215, memory: image)
          } else {
            try SimulatedType2Tag(product: .ntag215, uid: [0x04, 0xE1, 0x0C, 0xDA, 0x99, 0x3C, 0x80])
          }
        type2.signature = [
          0x8B, 0x76, 0x05, 0x2E, 0xE4, 0x2F, 0x55, 0x67, 0xBE, 0xB5, 0x32, 0x38, 0xB3, 0xE3, 0xF9, 0x95,
          0x07, 0x07, 0xC0, 0xDC, 0xC9, 0x56, 0xB5, 0xC5, 0xEF, 0xCF, 0xDB, 0x70, 0x9B, 0x2D, 0x82, 0xB3,
        ]
        tag = .type2(type2)
      case "felica":
        let idm: [UInt8] = [0x01, 0x2E, 0x54, 0x57, 0x00, 0x00, 0x00, 0x03]
        if let image {
          tag = .felica(try SimulatedFeliCaTag(idm: idm, memory: image))
        } else {
          tag = .felica(try SimulatedFeliCaTag(idm: idm))
        }
      case _ where classic[name] != nil:
        let product = classic[name] ?? .classic1K
        if let image {
          tag = .mifareClassic(try SimulatedMifareClassicTag(product: product, memory: image))
        } else {
          tag = .mifareClassic(
            try SimulatedMifareClassicTag(product: product, uid: [0x4D, 0x46, 0x43, 0x31]))
        }
      default:
        guard let product = products[name] else {
          fail("unknown tag '\(name)' (\((products.keys.sorted() + others).joined(separator: ", ")))")
        }
        if let image {
          tag = .type2(try SimulatedType2Tag(product: product, memory: image))
        } else {
          tag = .type2(
            try SimulatedType2Tag(product: product, uid: [0x04, 0x54, 0x57, 0x01, 0x02, 0x03, 0x04]))
        }
      }
    } catch {
      fail("\(error)", status: 1)
    }
    let simulator: PN532Simulator
    do throws(SimulatorError) {
      simulator = try PN532Simulator(tag: tag)
    } catch {
      fail("\(error)", status: 1)
    }
    // A signal closes the simulator (its pseudo-terminal) and exits 128 + its number.
    SignalStop.onSignal { _ in
      simulator.close()
      SignalStop.exit(0)
    }
    FileHandle.standardOutput.write(Data("\(simulator.devicePath)\n\(simulator.connstring)\n".utf8))
    // Serve until standard input closes (the caller stops us by closing it, or by PID).
    _ = FileHandle.standardInput.readDataToEndOfFile()
    simulator.close()
  }

  /// A Type 1 tag for `simulate`: a Topaz 96 (`topaz96`, `jewel`) or Topaz 512 from the
  /// memory image, or blank and formatted (T1T 1.2 §6: CC, empty NDEF TLV; the Topaz 512
  /// with its shipped Lock and Memory Control TLVs).
  static func type1Tag(_ name: String, image: [UInt8]?) throws(SimulatorError) -> SimulatedJewelTag {
    let uid: [UInt8] = [0x01, 0x54, 0x57, 0x31, 0x00, 0x00, 0x00]
    let size = name == "topaz512" ? 512 : 120
    if let image {
      guard image.count == size else {
        throw SimulatorError(.invalidTag, "a \(name) image has \(size) bytes, got \(image.count)")
      }
      return try SimulatedJewelTag(memory: image)
    }
    do {
      return try SimulatedJewelTag(memory: try Type1Tag.formattedImage(memorySize: size, uid: uid))
    } catch {
      throw SimulatorError(.invalidTag, "\(error)")
    }
  }

  /// "t1t", "t2t" or "t3t" and the memory image for a Type 1, 2 or 3 tag, "ndef <message>"
  /// for a Type 4 tag (read through the Type 4 NDEF procedure; an empty tag gives the Empty
  /// record).
  static func read(_ tag: LibNFCTag, with reader: LibNFCReader) async throws(ReaderError) -> String {
    switch tag.kind {
    case .type1:
      return "t1t " + Hex.string(try await reader.readMemory(of: tag))
    case .type2:
      let image = try await reader.readMemory(of: tag)
      var line = "t2t " + Hex.string(image)
      // READ_SIG's answer and verdict, when GET_VERSION answered at poll time (a refusal is
      // noted, not fatal).
      if let transport = try? LibNFCType2Transport(reader: reader, tag: tag),
        let originality = await NtagCommands.originalityLine(
          Ntag(transport: transport), version: tag.version.flatMap { try? NtagVersion(parsing: $0) },
          header: image.count >= 8 ? Array(image[0..<8]) : nil)
      {
        line += "\n" + originality
      }
      return line
    case .type3:
      return "t3t " + Hex.string(try await reader.readMemory(of: tag))
    case .type4:
      do throws(LibNFCNDEFError) {
        let message = try await reader.readNDEF(from: tag)
        return "ndef " + Hex.string((try? message?.encodedBytes()) ?? [0xD0, 0x00, 0x00])
      } catch {
        if let readerError = error.readerError { throw readerError }
        throw ReaderError(.tagError, "\(error)")
      }
    default:
      throw ReaderError(
        .unsupportedFeature,
        "tag \(Hex.string(tag.uid)) is \(tag.kind.name); only Type 1, 2, 3 and 4 tags are read here")
    }
  }

  static func dump(_ arguments: [String]) async {
    let connstring = option("--device")
    let reader = await openReader(connstring)
    let deadline = ContinuousClock.now + timeout
    SignalStop.onSignal { _ in }
    while ContinuousClock.now < deadline, SignalStop.received == nil {
      do throws(ReaderError) {
        if let tag = try await reader.poll() {
          if tag.kind == .mifareClassic {
            do throws(LibNFCNDEFError) {
              let line = try await MifareClassicCommands.dumpLine(tag, with: reader, arguments: arguments)
              await reader.close()
              print(line)
              return
            } catch {
              await reader.close()
              fail("read failed: \(MifareClassicCommands.explain(error))", status: 1)
            }
          }
          let line = try await read(tag, with: reader)
          await reader.close()
          print(line)
          return
        }
      } catch {
        await reader.close()
        fail("read failed: \(error)", status: 1)
      }
      try? await Task.sleep(for: .milliseconds(100))
    }
    await reader.close()
    if SignalStop.received != nil { fail("interrupted", status: 1) }
    fail("no tag within \(timeoutText) s", status: 1)
  }
}
