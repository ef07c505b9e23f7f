// SPDX-License-Identifier: Apache-2.0

import Foundation
import JSONOutput
import NFCReader
import NFCReaderPCSC
import NFCWire
import PCSCControl

/// `tapwire-nfc pcsc features|control|uid` and the reader-driven `dump --pcsc`: reader
/// control through ``NFCReaderPCSC/PCSCCard`` with the ``PCSCControl`` buffers.
///
/// Exit 0 success, 1 no pcscd or reader, no card, a refused control code (named), 2 bad usage.
enum PCSCControlCommands {
  /// The reader named by `--reader` (or `--pcsc`), else the first one pcscd lists.
  static func readerName(_ arguments: [String], _ context: PCSCContext) async -> String {
    if let named = TapwireNFC.option("--reader")
      ?? TapwireNFC.option("--pcsc")
    {
      return named
    }
    do throws(ReaderError) {
      guard let first = try await context.readers().first else {
        TapwireNFC.fail("no reader: pcscd lists no reader\n  plug a PC/SC reader in", status: 1)
      }
      return first
    } catch {
      PCSCCommands.failNoReader(error)
    }
  }

  /// A direct connection to the reader (no card needed).
  static func direct(_ arguments: [String]) async -> PCSCCard {
    let context = PCSCCommands.context()
    let reader = await readerName(arguments, context)
    do throws(ReaderError) {
      return try await context.connect(to: reader, share: .direct, protocols: [])
    } catch {
      if error.code == .noReader { PCSCCommands.failNoReader(error) }
      TapwireNFC.fail("\(error)", status: 1)
    }
  }

  /// `{"code": ..., "offset": 0, "message": ...}` for a reader error.
  static func errorJSON(_ error: ReaderError) -> JSON {
    var fields: [(String, JSON)] = [
      ("code", .string(error.code.name)), ("offset", .int(0)), ("message", .string(error.description)),
    ]
    if let name = error.transportCodeName { fields.append(("pcscCode", .string(name))) }
    return .object(fields)
  }

  static func features(_ arguments: [String]) async {
    let json = arguments.contains("--json")
    let card = await direct(arguments)
    let list: FeatureList
    let properties: TLVProperties?
    do throws(ReaderError) {
      list = try await card.features()
      properties = try await card.tlvProperties(features: list)
    } catch {
      try? await card.disconnect()
      if json {
        let failure: JSON = .object([
          ("ok", .bool(false)), ("format", .string("pcscFeatures")), ("reader", .string(card.reader)),
          ("error", errorJSON(error)),
        ])
        print(failure.serialized(.spaced))
      }
      TapwireNFC.fail("\(error)", status: 1)
    }
    try? await card.disconnect()
    if json {
      let features = list.entries.map { entry -> JSON in
        .object([
          ("tag", .int(Int(entry.feature.rawValue))), ("name", JSON(entry.feature.name)),
          ("controlCode", .string(hex32(entry.controlCode.rawValue))),
        ])
      }
      let props = properties.map { found in
        JSON.array(
          found.properties.map { property in
            .object([
              ("tag", .int(Int(property.tag.rawValue))), ("name", JSON(property.tag.name)),
              ("value", .string(Hex.string(property.value))),
              ("integer", JSON(property.integer.map { Int($0) })),
            ])
          })
      }
      let result: JSON = .object([
        ("ok", .bool(true)), ("format", .string("pcscFeatures")), ("reader", .string(card.reader)),
        ("features", .array(features)), ("properties", props ?? .null),
      ])
      print(result.serialized(.spaced))
      return
    }
    print("reader      \(card.reader)")
    if list.entries.isEmpty {
      print("features    none (the driver does not answer CM_IOCTL_GET_FEATURE_REQUEST)")
    }
    for entry in list.entries {
      let name = entry.feature.name ?? "feature 0x" + Hex.string([entry.feature.rawValue])
      print(
        "feature     \(name.padding(toLength: 34, withPad: " ", startingAt: 0)) 0x\(hex32(entry.controlCode.rawValue))"
      )
    }
    for property in properties?.properties ?? [] {
      let name = property.tag.name ?? "property \(property.tag.rawValue)"
      let value = property.integer.map { "\($0)" } ?? Hex.string(property.value)
      let text =
        property.tag == .firmwareID ? " \"\(String(decoding: property.value, as: UTF8.self))\"" : ""
      print("property    \(name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(value)\(text)")
    }
  }

  static func hex32(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
  }

  /// CODE: `0x...` hex or decimal; below 0x10000 a function number for pcsc-lite's
  /// `SCARD_CTL_CODE`, else the complete code.
  static func parseCode(_ text: String) -> ControlCode? {
    let value: UInt32? =
      text.lowercased().hasPrefix("0x") ? UInt32(text.dropFirst(2), radix: 16) : UInt32(text, radix: 10)
    guard let value else { return nil }
    return value < 0x1_0000 ? .pcscLite(UInt16(value)) : ControlCode(rawValue: value)
  }

  static func control(_ arguments: [String]) async {
    let json = arguments.contains("--json")
    let operands = TapwireNFC.operands
    guard (1...2).contains(operands.count), let code = parseCode(operands[0]) else {
      TapwireNFC.fail(
        "pcsc control needs CODE (0x42000D48, or 3400 for SCARD_CTL_CODE(3400)) and optional HEX")
    }
    let input: [UInt8]
    if operands.count == 2 {
      guard let bytes = Hex.bytes(operands[1].filter { !$0.isWhitespace && $0 != ":" }) else {
        TapwireNFC.fail("'\(operands[1])' is not hex")
      }
      input = bytes
    } else {
      input = []
    }
    let card = await direct(arguments)
    let head: [(String, JSON)] = [
      ("format", .string("pcscControl")), ("reader", .string(card.reader)),
      ("controlCode", .string(hex32(code.rawValue))), ("input", .string(Hex.string(input))),
    ]
    do throws(ReaderError) {
      let output = try await card.control(code, input)
      try? await card.disconnect()
      let result: JSON = .object([("ok", .bool(true))] + head + [("output", .string(Hex.string(output)))])
      print(json ? result.serialized(.spaced) : Hex.string(output))
    } catch {
      try? await card.disconnect()
      if json {
        print(JSON.object([("ok", .bool(false))] + head + [("error", errorJSON(error))]).serialized(.spaced))
      }
      TapwireNFC.fail("control 0x\(hex32(code.rawValue)): \(error)", status: 1)
    }
  }

  static func uid(_ arguments: [String]) async {
    let json = arguments.contains("--json")
    let card = await PCSCCommands.connect(arguments)
    let atr = (try? await card.atr()) ?? []
    let uid: GetDataPseudoAPDU.Answer
    let historical: GetDataPseudoAPDU.Answer
    do throws(ReaderError) {
      uid = try await card.getData(.uid)
      historical = try await card.getData(.historicalBytes)
    } catch {
      try? await card.disconnect()
      TapwireNFC.fail("\(error)", status: 1)
    }
    try? await card.disconnect()
    func field(_ answer: GetDataPseudoAPDU.Answer) -> JSON {
      JSON(answer.bytes.map(Hex.string))
    }
    func status(_ answer: GetDataPseudoAPDU.Answer) -> String {
      switch answer {
      case .complete: "9000"
      case .shorterThanRequested: "6282"
      case .notSupported: "6a81"
      case .wrongLength(let available): "6c" + Hex.string([available])
      case .failed(let sw, _): Hex.string([sw.sw1, sw.sw2])
      }
    }
    guard let bytes = uid.bytes else {
      if json {
        let failure: JSON = .object([
          ("ok", .bool(false)), ("format", .string("pcscUID")), ("reader", .string(card.reader)),
          (
            "error",
            .object([
              ("code", .string("uidNotSupported")), ("offset", .int(0)),
              ("message", .string("GET DATA answered \(status(uid))")),
            ])
          ),
        ])
        print(failure.serialized(.spaced))
      }
      TapwireNFC.fail("the reader gives no UID: GET DATA answered \(status(uid))", status: 1)
    }
    if json {
      let result: JSON = .object([
        ("ok", .bool(true)), ("format", .string("pcscUID")), ("reader", .string(card.reader)),
        ("uid", .string(Hex.string(bytes))), ("historicalBytes", field(historical)),
        ("historicalBytesStatus", .string(status(historical))), ("atr", .string(Hex.string(atr))),
      ])
      print(result.serialized(.spaced))
      return
    }
    print("reader      \(card.reader)")
    print("UID         \(Hex.string(bytes))")
    print("historical  " + (historical.bytes.map(Hex.string) ?? "none (\(status(historical)))"))
    print("ATR         \(Hex.string(atr))")
  }

  /// `dump --pcsc READER`: a reader session over `PCSCReaderTransport` (reader-driven when the
  /// reader offers it) reads the tag: prints "ndef <message hex>" for a Type 4 tag, the
  /// storage cards' lines of ``PCSCStorageCommands/dumpLine(_:arguments:)`` for the others.
  static func dump(_ arguments: [String]) async {
    let context = PCSCCommands.context()
    let reader = await readerName(arguments, context)
    let timeout = TapwireNFC.timeoutText
    let messages = SessionMessages(
      waiting: TapwireNFC.option("--wait-message") ?? "Hold a tag to the reader",
      working: TapwireNFC.option("--work-message") ?? "Reading the tag",
      success: "Tag read", failure: "The tag could not be read")
    let configuration = SessionConfiguration(timeout: TapwireNFC.timeout, messages: messages)
    let transport = PCSCReaderTransport(context: context, reader: reader)
    let session = ReaderSession<PCSCReaderTransport, String>(
      transport: transport, configuration: configuration
    ) {
      (_, tag) throws(ReaderError) in
      guard let card = tag.card else { throw ReaderError(.sessionEnded, "the card is no longer connected") }
      do throws(PCSCNDEFError) {
        return try await PCSCStorageCommands.dumpLine(card, arguments: arguments)
      } catch {
        throw ReaderError(error.sessionError.code, "read failed: \(PCSCStorageCommands.explain(error))")
      }
    }
    let events: AsyncStream<ReaderSession<PCSCReaderTransport, String>.Event>
    do throws(ReaderError) { events = try session.begin() } catch { TapwireNFC.fail("\(error)", status: 1) }
    // A signal cancels the session: a reader-driven reader gets STOP with this message, a
    // card wait is aborted (SCardCancel); then the exit is 128 + the signal's number.
    SignalStop.onSignal { _ in session.cancel(message: "Cancelled") }
    var message: String?
    var lastFailure: ReaderError?
    for await event in events {
      switch event {
      case .began:
        let mode =
          session.claimedReader?.isReaderDriven == true ? "reader-driven NFC discovery" : "waiting for a card"
        APDUCommand.progress("\(reader): \(mode)")
      case .tagRead(_, let bytes): message = bytes
      case .readFailed(_, let error, _):
        APDUCommand.progress("\(error)")
        lastFailure = error
      case .ended(let ending, _):
        switch ending {
        case .firstTagRead: break
        case .timedOut:
          if let lastFailure { TapwireNFC.fail("\(reader): \(lastFailure.message)", status: 1) }
          TapwireNFC.fail("no card in \(reader) within \(timeout) s", status: 1)
        case .cancelled:
          _ = await session.ended()
          TapwireNFC.fail("\(reader): cancelled", status: 1)
        case .systemBusy(let error), .terminatedUnexpectedly(let error):
          if error.code == .noReader { PCSCCommands.failNoReader(error) }
          TapwireNFC.fail("\(error)", status: 1)
        }
      default: break
      }
    }
    guard let message else { TapwireNFC.fail("\(reader): no message read", status: 1) }
    print(message)
  }
}
