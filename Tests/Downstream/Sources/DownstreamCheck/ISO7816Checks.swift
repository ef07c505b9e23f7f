// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCTags

/// Runs an applet-update script over any APDU transport, printing one line per step
/// (article "Running an applet-update script over PC/SC"; there the transport is a
/// `PCSCAPDUTransport`).
func runUpdate<Transport: APDUTransport>(_ text: String, over transport: Transport) async throws
  -> ScriptResult
{
  let script = try Script(parsingText: text)
  var runner = ScriptRunner(transport: transport)
  do {
    return try await runner.run(script) { progress in
      print("  step \(progress.completedSteps)/\(progress.totalSteps) -> \(progress.statusWord)")
    }
  } catch .apdu(let failure) {
    // The first unexpected answer: the step is named, and lastResult keeps what ran.
    print("  step \((failure.step ?? 0) + 1) failed: \(failure.code); ran \(runner.lastResult.executedCount)")
    throw failure
  }
}

/// A card in this process: the NFCTags Type 4 tag simulator behind the APDUTransport protocol.
struct SimulatedCard: APDUTransport {
  var tag: Type4TagSimulator

  mutating func transmit(_ command: [UInt8]) async throws(Never) -> [UInt8] {
    tag.respond(to: command)
  }
}

/// The script of the article: select the NDEF application, its CC file, read the CC.
let updateScript = """
  # select the NDEF tag application, then the capability container
  00A4040007D276000085010100 -> 9000
  00A4000C02E103 -> 9000
  00B000000F -> 9000      ; READ BINARY, 15 bytes of CC
  """

func checkISO7816() {
  group("ISO7816: command APDU encode, view and owned model") {
    let select = CommandAPDU(
      cla: 0x00, ins: 0xA4, p1: 0x04, p2: 0x00, data: [0xA0, 0x00, 0x00, 0x01, 0x51, 0x00, 0x00, 0x00],
      ne: 256)
    let bytes = try select.encodedBytes()
    expectEqual(
      bytes, [0x00, 0xA4, 0x04, 0x00, 0x08, 0xA0, 0x00, 0x00, 0x01, 0x51, 0x00, 0x00, 0x00, 0x00], "SELECT")
    let view = try CommandAPDUView(validating: bytes.span)
    expectEqual(view.nc, 8, "Nc")
    expectEqual(view.commandName, "SELECT", "command name")
    expectEqual(CommandAPDU(view), select, "view to model")
    let response = try ResponseAPDU(parsing: [0x6A, 0x82])
    expectEqual(response.statusWord, StatusWord(sw1: 0x6A, sw2: 0x82), "status word")
    expectEqual(response.encodedBytes(), [0x6A, 0x82], "response re-encodes")
  }

  group("ISO7816: script text parses and prints") {
    let script = try Script(parsingText: updateScript)
    expectEqual(script.steps.count, 3, "steps")
    expectEqual(try Script(parsingText: try script.text()), script, "text round trip")
  }
}

func checkScriptOverATransport() async {
  await group("ISO7816: applet-update script over a caller's transport") {
    let card = SimulatedCard(tag: Type4TagSimulator(message: [0xD0, 0x00, 0x00]))
    let result = try await runUpdate(updateScript, over: card)
    expectEqual(result.executedCount, 3, "steps run")
    expectEqual(result.responses.last?.data.count, 15, "CC bytes read")
    // A step whose answer is not the expected one stops the script and names the step.
    let failing = updateScript + "\n00A4000C02E1FF -> 9000\n"
    do {
      _ = try await runUpdate(failing, over: card)
      check(false, "the fourth step must fail (no file E1FF)")
    } catch let error as APDUError {
      expectEqual(error.step, 3, "failing step")
      expectEqual(error.code, .unexpectedStatusWord, "failure code")
    }
  }
}
