// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISO7816
import JSONOutput
import NDEF
import NFCReader
import NFCReaderPCSC
import NFCWire
import PCSCControl

/// `tapwire-nfc pcsc list|atr|apdu|script` and `tapwire-nfc dump --pcsc READER`: the same
/// APDU exchanger, Type 4 NDEF procedure and script runner as the libnfc commands, over
/// ``NFCReaderPCSC/PCSCAPDUTransport`` on any PC/SC reader (pcscd).
///
/// Exit 0 success, 1 no pcscd or reader, no card within the timeout, a transport failure or a
/// failed script step (named), 2 bad usage.
enum PCSCCommands {
  static let usage = """
    usage: tapwire-nfc pcsc list [--json]
           tapwire-nfc pcsc atr [--reader NAME] [--timeout SECONDS] [--json]
           tapwire-nfc pcsc apdu [--reader NAME] [--timeout SECONDS] [--json] HEX...
           tapwire-nfc pcsc script [--reader NAME] [--timeout SECONDS] [--json] FILE
           tapwire-nfc pcsc features [--reader NAME] [--json]
           tapwire-nfc pcsc control [--reader NAME] [--json] CODE [HEX]
           tapwire-nfc pcsc uid [--reader NAME] [--timeout SECONDS] [--json]
    """

  static func run(_ arguments: [String]) async {
    guard let subcommand = arguments.first else { TapwireNFC.fail(usage) }
    let rest = Array(arguments.dropFirst())
    switch subcommand {
    case "list": await list(rest)
    case "atr": await atr(rest)
    case "apdu": await apdu(rest)
    case "script": await script(rest)
    case "features": await PCSCControlCommands.features(rest)
    case "control": await PCSCControlCommands.control(rest)
    case "uid": await PCSCControlCommands.uid(rest)
    default: TapwireNFC.fail("unknown pcsc command '\(subcommand)'\n\(usage)")
    }
  }

  static func context() -> PCSCContext {
    do throws(ReaderError) { return try PCSCContext() } catch {
      failNoReader(error)
    }
  }

  /// Exits 1 with "no reader: " and `error` (its PC/SC name kept, for searching), then what
  /// to do next: start pcscd when it is not running, else plug a reader in.
  static func failNoReader(_ error: ReaderError) -> Never {
    let hint =
      error.transportCodeName == "SCARD_E_NO_SERVICE"
      ? "  pcscd is not running: start it with `sudo systemctl start pcscd` (or run `pcscd`)"
      : "  plug a PC/SC reader in; `tapwire pcsc list` shows the readers pcscd knows"
    TapwireNFC.fail("no reader: \(error)\n\(hint)", status: 1)
  }

  static func list(_ arguments: [String]) async {
    let json = arguments.contains("--json")
    let context = context()
    var rows: [(String, PCSCReaderState?)] = []
    do throws(ReaderError) {
      for reader in try await context.readers() {
        rows.append((reader, try? await context.state(of: reader)))
      }
    } catch {
      failNoReader(error)
    }
    if json {
      let readers = rows.map { name, state -> JSON in
        .object([
          ("name", .string(name)), ("cardPresent", .bool(state?.isCardPresent ?? false)),
          ("atr", .string(Hex.string(state?.atr ?? []))),
        ])
      }
      let list: JSON = .object([
        ("ok", .bool(true)), ("format", .string("pcscReaders")), ("readers", .array(readers)),
      ])
      print(list.serialized(.spaced))
      return
    }
    if rows.isEmpty { print("no readers") }
    for (name, state) in rows {
      let card =
        state.map { $0.isCardPresent ? "card present, ATR \(Hex.string($0.atr))" : "empty" } ?? "unknown"
      print("\(name): \(card)")
    }
  }

  /// Waits for a card in `--reader` (or in the first reader that has one) and connects.
  static func connect(_ arguments: [String]) async -> PCSCCard {
    let named =
      TapwireNFC.option("--reader") ?? TapwireNFC.option("--pcsc")
    let timeout = TapwireNFC.timeoutText
    let context = context()
    let deadline = ContinuousClock.now + TapwireNFC.timeout
    do throws(ReaderError) {
      var reader = named
      while reader == nil {
        let readers = try await context.readers()
        guard !readers.isEmpty else {
          TapwireNFC.fail("no reader: pcscd lists no reader\n  plug a PC/SC reader in", status: 1)
        }
        for name in readers where try await context.state(of: name).isCardPresent {
          reader = name
          break
        }
        if reader != nil { break }
        guard ContinuousClock.now < deadline else {
          TapwireNFC.fail("no card within \(timeout) s", status: 1)
        }
        try? await Task.sleep(for: .milliseconds(200))
      }
      let name = reader ?? ""
      guard try await context.waitForCard(in: name, timeout: deadline - ContinuousClock.now) != nil else {
        TapwireNFC.fail("no card in \(name) within \(timeout) s", status: 1)
      }
      return try await context.connect(to: name)
    } catch {
      if error.code == .noReader { failNoReader(error) }
      TapwireNFC.fail("\(error)", status: 1)
    }
  }

  static func atr(_ arguments: [String]) async {
    let json = arguments.contains("--json")
    let card = await connect(arguments)
    let bytes: [UInt8]
    do throws(ReaderError) { bytes = try await card.atr() } catch { TapwireNFC.fail("\(error)", status: 1) }
    try? await card.disconnect()
    do throws(APDUError) {
      let atr = try AnswerToReset(parsing: bytes)
      print(
        json
          ? atrJSON(atr, bytes: bytes, reader: card.reader) : atrLines(atr, bytes: bytes, reader: card.reader)
      )
    } catch {
      if json {
        let failure: JSON = .object([
          ("ok", .bool(false)), ("format", .string("atr")), ("reader", .string(card.reader)),
          ("atr", .string(Hex.string(bytes))),
          (
            "error",
            .object([
              ("code", .string(error.code.name)), ("offset", .int(error.offset)),
              ("message", .string(error.code.message)),
            ])
          ),
        ])
        print(failure.serialized(.spaced))
      }
      TapwireNFC.fail("ATR \(Hex.string(bytes)) does not decode: \(error)", status: 1)
    }
  }

  /// The interface bytes by name (`TA1`, ..., `TD1`, ...) with their values, in order.
  static func interfaceBytes(_ atr: AnswerToReset) -> [(String, UInt8)] {
    guard let bytes = try? atr.encodedBytes() else { return [] }
    var result: [(String, UInt8)] = []
    var index = 2
    for (i, group) in atr.interfaceGroups.enumerated() {
      for (letter, value) in [("A", group.ta), ("B", group.tb), ("C", group.tc)] where value != nil {
        result.append(("T\(letter)\(i + 1)", bytes[index]))
        index += 1
      }
      if i + 1 < atr.interfaceGroups.count {
        result.append(("TD\(i + 1)", bytes[index]))
        index += 1
      }
    }
    return result
  }

  static func protocolNames(_ atr: AnswerToReset) -> String {
    atr.protocols.map { $0 == 15 ? "T=15 (global)" : "T=\($0)" }.joined(separator: ", ")
  }

  /// The ATR as a few aligned lines for people.
  static func atrLines(_ atr: AnswerToReset, bytes: [UInt8], reader: String) -> String {
    let convention = atr.convention == .direct ? "direct" : "inverse"
    let t0 = atr.formatCharacter
    var lines = [
      "reader      \(reader)",
      "ATR         \(Hex.string(bytes))",
      "TS          \(Hex.string([atr.convention.rawValue])) (\(convention) convention)",
      "T0          \(Hex.string([t0])) (Y1 \(String(t0 >> 4, radix: 2)), \(atr.historicalBytes.count) historical bytes)",
    ]
    let interface = interfaceBytes(atr)
    if !interface.isEmpty {
      lines.append("interface   " + interface.map { "\($0.0) \(Hex.string([$0.1]))" }.joined(separator: "  "))
    }
    if let (fi, di) = atr.clockRateConversion {
      lines.append("TA1         Fi index \(fi), Di index \(di)")
    }
    lines.append("protocols   \(protocolNames(atr))")
    let printable = atr.historicalBytes.allSatisfy { (0x20...0x7E).contains($0) }
    let text =
      printable && !atr.historicalBytes.isEmpty
      ? " \"\(String(decoding: atr.historicalBytes, as: UTF8.self))\"" : ""
    lines.append(
      "historical  \(atr.historicalBytes.isEmpty ? "none" : Hex.string(atr.historicalBytes))\(text)")
    lines.append(
      "TCK         " + (atr.checkCharacter.map { "\(Hex.string([$0])) (checked)" } ?? "absent (T=0 only)"))
    lines += storageCardLines(bytes)
    return lines.joined(separator: "\n")
  }

  /// `{"ok": true, "format": "atr", ...}`.
  static func atrJSON(_ atr: AnswerToReset, bytes: [UInt8], reader: String) -> String {
    let interface = interfaceBytes(atr).map { name, value -> JSON in
      .object([("name", .string(name)), ("value", .string(Hex.string([value])))])
    }
    let result: JSON = .object([
      ("ok", .bool(true)), ("format", .string("atr")), ("reader", .string(reader)),
      ("atr", .string(Hex.string(bytes))), ("ts", .string(Hex.string([atr.convention.rawValue]))),
      ("convention", .string(atr.convention == .direct ? "direct" : "inverse")),
      ("t0", .string(Hex.string([atr.formatCharacter]))), ("interfaceBytes", .array(interface)),
      ("protocols", .array(atr.protocols.map { .int(Int($0)) })),
      ("historicalBytes", .string(Hex.string(atr.historicalBytes))),
      ("tck", JSON(atr.checkCharacter.map { Hex.string([$0]) })),
      ("storageCard", storageCardJSON(bytes)),
    ])
    return result.serialized(.spaced)
  }

  /// The PC/SC Part 3 storage-card reading of an ATR (§3.1.3.2.3): `nil` when the ATR does
  /// not start with the storage-card bytes, else the decoded ATR or why it does not decode.
  static func storageCard(_ bytes: [UInt8]) -> Result<StorageCardATR, PCSCControlError>? {
    guard StorageCardATR.hasStorageCardPrefix(bytes) else { return nil }
    do throws(PCSCControlError) { return .success(try StorageCardATR(parsing: bytes)) } catch {
      return .failure(error)
    }
  }

  /// `card        MIFARE Classic 1K (NN 0001)` and `standard    ISO/IEC 14443 A part 3 (SS 03)`
  /// for a storage-card ATR; nothing for another ATR.
  static func storageCardLines(_ bytes: [UInt8]) -> [String] {
    switch storageCard(bytes) {
    case nil: return []
    case .failure(let error):
      return ["card        storage-card ATR that does not decode: \(error.code) at \(error.offset)"]
    case .success(let storage):
      let code = Hex.string([UInt8(storage.cardName.rawValue >> 8), UInt8(storage.cardName.rawValue & 0xFF)])
      let standard = Hex.string([storage.standard.rawValue])
      return [
        "card        \(storage.cardName.name ?? "unknown storage card") (NN \(code))",
        "standard    \(storage.standard.label ?? "unknown") (SS \(standard))",
      ]
    }
  }

  /// `{"cardName": "MIFARE Classic 1K", "nameCode": "0001", "standard": "ISO/IEC 14443 A
  /// part 3", "standardCode": "03"}`, an `error` object for a storage-card ATR that does not
  /// decode, `null` for another ATR.
  static func storageCardJSON(_ bytes: [UInt8]) -> JSON {
    switch storageCard(bytes) {
    case nil: return .null
    case .failure(let error):
      return .object([
        ("error", .object([("code", .string(error.code.name)), ("offset", .int(error.offset))]))
      ])
    case .success(let storage):
      return .object([
        ("cardName", JSON(storage.cardName.name)),
        (
          "nameCode",
          .string(
            Hex.string([UInt8(storage.cardName.rawValue >> 8), UInt8(storage.cardName.rawValue & 0xFF)]))
        ),
        ("standard", JSON(storage.standard.label)),
        ("standardCode", .string(Hex.string([storage.standard.rawValue]))),
      ])
    }
  }

  /// One line on standard error naming the card: `card in READER, ATR ..., T=1`.
  static func announce(_ card: PCSCCard) async {
    let bytes = (try? await card.atr()) ?? []
    let protocols = (try? AnswerToReset(parsing: bytes)).map(protocolNames) ?? "ATR does not decode"
    APDUCommand.progress("card in \(card.reader), ATR \(Hex.string(bytes)) (\(protocols))")
  }

  static func apdu(_ arguments: [String]) async {
    let json = arguments.contains("--json")
    let operands = TapwireNFC.operands
    guard !operands.isEmpty else { TapwireNFC.fail("pcsc apdu needs command APDUs as hex") }
    var commands: [[UInt8]] = []
    for operand in operands {
      guard let bytes = Hex.bytes(operand.filter { !$0.isWhitespace && $0 != ":" }), bytes.count >= 4 else {
        TapwireNFC.fail("'\(operand)' is not a command APDU in hex (at least CLA INS P1 P2)")
      }
      commands.append(bytes)
    }
    let card = await connect(arguments)
    await announce(card)
    var transport = PCSCAPDUTransport(card: card)
    let failure = await APDUCommand.transmitEach(commands, over: &transport, json: json)
    try? await card.disconnect()
    if let failure { TapwireNFC.fail(failure, status: 1) }
  }

  static func script(_ arguments: [String]) async {
    let json = arguments.contains("--json")
    let operands = TapwireNFC.operands
    guard operands.count == 1, let path = operands.first else {
      TapwireNFC.fail("pcsc script needs one FILE")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      TapwireNFC.fail("cannot read \(path)")
    }
    let script: Script
    do throws(APDUError) {
      script = try Script(parsingText: String(decoding: data, as: UTF8.self))
    } catch {
      let step = error.step.map { " at step \($0 + 1)" } ?? ""
      TapwireNFC.fail("\(path): \(error)\(step)")
    }
    let card = await connect(arguments)
    // A signal stops the script between two steps; the card is then disconnected (released
    // in pcscd) and the exit is 128 + the signal's number.
    SignalStop.onSignal { _ in }
    await announce(card)
    APDUCommand.progress("running \(counted(script.steps.count, "step", "steps")) on \(card.reader)")
    var transport = PCSCAPDUTransport(card: card)
    let outcome: APDUCommand.Outcome
    if GlobalPlatformCommand.wantsChannel(arguments) {
      var channel = await GlobalPlatformCommand.scriptChannel(over: transport, arguments) {
        try? await card.disconnect()
      }
      outcome = await APDUCommand.execute(script, over: &channel)
    } else {
      outcome = await APDUCommand.execute(script, over: &transport)
    }
    try? await card.disconnect()
    APDUCommand.finish(outcome, total: script.steps.count, json: json)
  }
}
