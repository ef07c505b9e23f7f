// SPDX-License-Identifier: Apache-2.0
import Foundation
import ISO7816
import JSONOutput
import NFCReader
import NFCReaderLibNFC
import NFCWire

/// `tapwire-nfc apdu`: runs an applet-update script (the ISO7816 script text format) or
/// single command APDUs over ``NFCReaderLibNFC/LibNFCAPDUTransport`` on the next ISO-DEP tag.
///
/// The script runs step by step through ``ISO7816/ScriptRun`` (ISO/IEC 7816-4 §5: GET
/// RESPONSE, 6CXX and chaining handled), one progress line per step on standard error, and
/// stops at the first response its step does not accept. SIGINT or SIGTERM stops it between
/// two steps (named), the reader closed, exit 128 + the signal's number. Exit 0 all steps
/// passed, 1 no reader, no tag, a transport failure or a failed step (named), 2 bad usage or
/// a script that does not parse.
enum APDUCommand {
  static func run(_ arguments: [String]) async {
    let json = arguments.contains("--json")
    let script: Script
    if let path = TapwireNFC.option("--script") {
      guard let data = FileManager.default.contents(atPath: path) else {
        TapwireNFC.fail("cannot read \(path)")
      }
      do throws(APDUError) {
        script = try Script(parsingText: String(decoding: data, as: UTF8.self))
      } catch {
        let step = error.step.map { " at step \($0 + 1)" } ?? ""
        TapwireNFC.fail("\(path): \(error)\(step)")
      }
      await runScript(script, arguments: arguments, json: json)
    } else {
      let operands = TapwireNFC.operands
      guard !operands.isEmpty else { TapwireNFC.fail("apdu needs --script FILE or command APDUs as hex") }
      var commands: [[UInt8]] = []
      for operand in operands {
        guard let bytes = Hex.bytes(operand.filter { !$0.isWhitespace && $0 != ":" }), bytes.count >= 4 else {
          TapwireNFC.fail("'\(operand)' is not a command APDU in hex (at least CLA INS P1 P2)")
        }
        commands.append(bytes)
      }
      await sendEach(commands, arguments: arguments, json: json)
    }
  }

  /// The command's name (SELECT, READ BINARY, ...; or its INS byte) and its bytes.
  static func name(_ step: ScriptStep) -> String {
    let name = step.command.commandName ?? "INS " + Hex.string([step.command.ins.rawValue])
    let bytes = (try? step.command.encodedBytes(lengthEncoding: step.lengthEncoding)) ?? []
    return name + " " + Hex.string(bytes)
  }

  static func runScript(_ script: Script, arguments: [String], json: Bool) async {
    // openAndWait registers a stop that only marks the signal: the script stops between steps.
    let (reader, tag) = await TapwireNFC.openAndWait(arguments, kinds: "an ISO-DEP tag") { $0.kind == .type4 }
    var transport: LibNFCAPDUTransport
    do { transport = try LibNFCAPDUTransport(reader: reader, tag: tag) } catch {
      await reader.close()
      TapwireNFC.fail("\(error)", status: 1)
    }
    FileHandle.standardError.write(
      Data("running \(counted(script.steps.count, "step", "steps")) on \(TapwireNFC.describe(tag))\n".utf8))
    let outcome: Outcome
    if GlobalPlatformCommand.wantsChannel(arguments) {
      var channel = await GlobalPlatformCommand.scriptChannel(over: transport, arguments) {
        await reader.close()
      }
      outcome = await execute(script, over: &channel)
    } else {
      outcome = await execute(script, over: &transport)
    }
    await reader.close()
    finish(outcome, total: script.steps.count, json: json)
  }

  /// What a script run did: the executed steps and, when it stopped early, why and where.
  struct Outcome {
    var steps: [JSONStep] = []
    var failure: String?
    var failedStep: Int?
  }

  /// Runs `script` over any transport step by step (``ISO7816/ScriptRun``), one progress line
  /// per step on standard error, stopping at a transport failure, the first step whose
  /// response is not the expected one, or SIGINT/SIGTERM (between two steps; the caller
  /// registers a ``SignalStop/onSignal(_:)`` stop so the signal does not end the process
  /// mid-exchange).
  static func execute<Transport: APDUTransport>(_ script: Script, over transport: inout Transport) async
    -> Outcome
  {
    var run = ScriptRun(script: script)
    var outcome = Outcome()
    let total = script.steps.count
    while let bytes = run.nextCommand {
      let index = run.currentStep ?? 0
      let step = script.steps[index]
      // SIGINT or SIGTERM stops the script between steps: no command is cut off mid-exchange.
      if let signal = SignalStop.received {
        outcome.failedStep = index
        outcome.failure =
          "step \(index + 1)/\(total) \(name(step)): interrupted (\(SignalStop.name(signal))) before it was sent"
        progress(outcome.failure ?? "")
        break
      }
      let reply: [UInt8]
      do { reply = try await transport.transmit(bytes) } catch {
        outcome.failedStep = index
        outcome.failure = "step \(index + 1)/\(total) \(name(step)): the transport failed: \(error)"
        progress(outcome.failure ?? "")
        break
      }
      do {
        if let response = try run.receive(reply) {
          outcome.steps.append(JSONStep(index: index, step: step, response: response, ok: true))
          progress("step \(index + 1)/\(total) \(name(step)) -> \(response.statusWord.hexString) ok")
        }
      } catch {
        let failedIndex = error.step ?? index
        outcome.failedStep = failedIndex
        let response = run.responses.last
        let sw = response?.statusWord.hexString ?? "none"
        let expected = script.steps[failedIndex].expectedStatusWords.compactMap(\.text).joined(separator: "|")
        if let response {
          outcome.steps.append(
            JSONStep(index: failedIndex, step: script.steps[failedIndex], response: response, ok: false))
        }
        outcome.failure =
          "step \(failedIndex + 1)/\(total) \(name(script.steps[failedIndex])) -> \(sw) failed "
          + "(\(error.code.name); expected \(expected.isEmpty ? "any" : expected))"
        progress(outcome.failure ?? "")
        break
      }
    }
    return outcome
  }

  /// Prints the `--json` summary, then exits 1 naming the failed step, or reports success.
  static func finish(_ outcome: Outcome, total: Int, json: Bool) {
    let done = outcome.steps.filter(\.ok).count
    if json {
      print(
        JSONStep.summary(
          steps: outcome.steps, total: total, failedStep: outcome.failedStep, failure: outcome.failure))
    }
    if let failure = outcome.failure {
      TapwireNFC.fail(
        "script failed at \(failure); \(done) of \(counted(total, "step", "steps")) done", status: 1)
    }
    progress("script done: \(done)/\(counted(total, "step", "steps")) ok")
  }

  static func sendEach(_ commands: [[UInt8]], arguments: [String], json: Bool) async {
    let (reader, tag) = await TapwireNFC.openAndWait(arguments, kinds: "an ISO-DEP tag") { $0.kind == .type4 }
    var transport: LibNFCAPDUTransport
    do { transport = try LibNFCAPDUTransport(reader: reader, tag: tag) } catch {
      await reader.close()
      TapwireNFC.fail("\(error)", status: 1)
    }
    let failure = await transmitEach(commands, over: &transport, json: json)
    await reader.close()
    if let failure { TapwireNFC.fail(failure, status: 1) }
  }

  /// Sends each command APDU over any transport and prints its response (a `rapdu` object
  /// with `--json`); returns the failure message of the first APDU the transport could not
  /// exchange, or nil.
  static func transmitEach<Transport: APDUTransport>(
    _ commands: [[UInt8]], over transport: inout Transport, json: Bool
  ) async -> String? {
    for command in commands {
      do {
        let reply = try await transport.transmit(command)
        guard reply.count >= 2 else { return "APDU \(Hex.string(command)): the response has no status word" }
        let data = Array(reply.dropLast(2))
        let sw = StatusWord(sw1: reply[reply.count - 2], sw2: reply[reply.count - 1])
        if json {
          let rapdu: JSON = .object([
            ("ok", .bool(true)), ("format", .string("rapdu")), ("capdu", .string(Hex.string(command))),
            ("data", .string(Hex.string(data))), ("sw", .string(sw.hexString)),
            ("category", .string(sw.category.name)), ("meaning", .string(sw.meaning)),
          ])
          print(rapdu.serialized(.spaced))
        } else {
          let answer = data.isEmpty ? sw.hexString : Hex.string(data) + " " + sw.hexString
          print("\(Hex.string(command)) -> \(answer) (\(sw.meaning))")
        }
      } catch {
        return "APDU \(Hex.string(command)) failed: \(error)"
      }
    }
    return nil
  }

  static func progress(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}

/// One executed step in the `--json` summary.
struct JSONStep {
  var index: Int
  var step: ScriptStep
  var response: ResponseAPDU
  var ok: Bool

  init(index: Int, step: ScriptStep, response: ResponseAPDU, ok: Bool) {
    self.index = index
    self.step = step
    self.response = response
    self.ok = ok
  }

  /// `{"step", "command", "name", "data", "sw", "ok"}`.
  var object: JSON {
    let command = (try? step.command.encodedBytes(lengthEncoding: step.lengthEncoding)) ?? []
    return .object([
      ("step", .int(index + 1)), ("command", .string(Hex.string(command))),
      ("name", JSON(step.command.commandName)), ("data", .string(Hex.string(response.data))),
      ("sw", .string(response.statusWord.hexString)), ("ok", .bool(ok)),
    ])
  }

  /// `{"ok", "format": "apduScript", "totalSteps", "completedSteps", "failedStep", "steps"}`.
  static func summary(steps: [JSONStep], total: Int, failedStep: Int?, failure: String?) -> String {
    let summary: JSON = .object([
      ("ok", .bool(failure == nil)), ("format", .string("apduScript")), ("totalSteps", .int(total)),
      ("completedSteps", .int(steps.filter(\.ok).count)), ("failedStep", JSON(failedStep.map { $0 + 1 })),
      ("error", JSON(failure)), ("steps", .array(steps.map(\.object))),
    ])
    return summary.serialized(.spaced)
  }
}
