// SPDX-License-Identifier: Apache-2.0
import NFCWire
import Testing

@testable import ISO7816

@Suite("StatusWordPattern")
struct StatusWordPatternTests {
  @Test(
    "patterns match exactly or by nibble",
    arguments: [
      ("9000", 0x9000, true), ("9000", 0x9001, false), ("61XX", 0x6110, true),
      ("61xx", 0x6210, false), ("63CX", 0x63C2, true), ("63CX", 0x6310, false),
      ("XXXX", 0x6A82, true), ("6a82", 0x6A82, true),
    ] as [(String, UInt16, Bool)])
  func matching(text: String, raw: UInt16, matches: Bool) throws {
    let pattern = try #require(StatusWordPattern(text: Substring(text)))
    #expect(pattern.matches(StatusWord(rawValue: raw)) == matches)
    #expect(pattern.text == patternText(text))
  }

  @Test("bad patterns", arguments: ["900", "90000", "90G0", ""])
  func bad(text: String) { #expect(StatusWordPattern(text: Substring(text)) == nil) }
}

/// `text` upper-cased, as `StatusWordPattern.text` writes it.
func patternText(_ text: String) -> String { text.uppercased() }

/// The example of the text format's documentation.
let scriptTextExample = """
  # select the issuer security domain
  00A4040008A000000151000000 -> 9000
  80CA9F7F00 -> 61XX|9000        ; CPLC, possibly through GET RESPONSE

  00 20 00 80 08 24 12 34 5F FF FF FF FF -> 9000|63CX
  80CA006600 -> 66 00 XXXX        // data 66 00, any status word
  00B0000000
  """

@Suite("Script text format")
struct ScriptTextTests {
  @Test("the documented example parses")
  func example() throws {
    let script = try Script(parsingText: scriptTextExample)
    #expect(script.steps.count == 5)
    #expect(script.steps[0].command.ins == .select)
    #expect(script.steps[0].expectedStatusWords == [.success])
    #expect(script.steps[1].expectedStatusWords.count == 2)
    #expect(script.steps[2].command.data.count == 8)
    #expect(script.steps[2].expectedStatusWords[1].matches(.counter(2)))
    #expect(script.steps[3].expectedData == [0x66, 0x00])
    #expect(script.steps[3].expectedStatusWords.isEmpty)
    #expect(script.steps[4].expectedStatusWords == [.success])
    #expect(script.steps[4].command.ne == 256)
  }

  @Test("text() round trips", arguments: [scriptTextExample, "00D6000000000211 22 -> 9000\r\n"])
  func roundTrip(text: String) throws {
    let script = try Script(parsingText: text)
    let again = try script.text()
    #expect(try Script(parsingText: again) == script)
  }

  @Test(
    "errors carry the text offset and the step",
    arguments: [
      ("00A4040G", "invalidHex", 7, 0),
      ("00A40400 -> 9000\n00A404000", "invalidHex", 25, 1),
      ("00A4 -> 9000", "truncatedHeader", 5, 0),
      ("00 A4 04 00 05 01 -> 9000", "dataExceedsInput", 12, 0),
      ("00A40400 -> 90", "invalidStatusWordPattern", 12, 0),
      ("00A40400 -> 9000|6", "invalidStatusWordPattern", 17, 0),
      ("00A40400 ->", "invalidStatusWordPattern", 9, 0),
      ("# c\n -> 9000", "invalidHex", 5, 0),
      ("00A40400 -> 6F0 9000", "invalidHex", 14, 0),
    ] as [(String, String, Int, Int)])
  func errors(text: String, code: String, offset: Int, step: Int) {
    do {
      _ = try Script(parsingText: text)
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.code.name == code)
      #expect(error.offset == offset)
      #expect(error.step == step)
    }
  }

  @Test("an empty text or comments only is an empty script")
  func empty() throws {
    #expect(try Script(parsingText: "").steps.isEmpty)
    #expect(try Script(parsingText: "# nothing\n\n; more\n").steps.isEmpty)
  }
}

@Suite("Remote APDU format")
struct RemoteAPDUTests {
  static let select = hex("00 A4 04 00 08 A0 00 00 01 51 00 00 00 00")
  static let getData = hex("80 CA 9F 7F 00")

  @Test("command scripting template AA with C-APDU TLVs round trips")
  func commandScript() throws {
    let bytes = [0xAA, 0x17, 0x22, 0x0E] + Self.select + [0x22, 0x05] + Self.getData
    let parsed = try RemoteCommandScript(parsing: bytes)
    #expect(parsed.script.steps.count == 2)
    #expect(parsed.script.steps[1].command.ins == .gpGetData)
    #expect(parsed.script.steps[0].accepts(ResponseAPDU(statusWord: .counter(1))))
    #expect(!parsed.script.steps[0].accepts(ResponseAPDU(statusWord: .fileNotFound)))
    #expect(try parsed.encodedBytes() == bytes)
  }

  @Test("indefinite-length AE template and action TLVs")
  func indefinite() throws {
    let bytes = [0xAE, 0x80, 0x81, 0x01, 0x10, 0x22, 0x05] + Self.getData + [0x00, 0x00]
    let parsed = try RemoteCommandScript(parsing: bytes)
    #expect(parsed.immediateAction == [0x10])
    #expect(parsed.script.steps.count == 1)
    let definite = try parsed.encodedBytes()
    #expect(definite == [0xAA, 0x0A, 0x81, 0x01, 0x10, 0x22, 0x05] + Self.getData)
  }

  @Test(
    "malformed command templates",
    arguments: [
      ("AB 00", "unexpectedTag", 0),
      ("AA 04 22 01 00", "lengthExceedsInput", 1),
      ("AA 03 22 01 00", "truncatedHeader", 5),
      ("AA 03 22 02 00", "lengthExceedsInput", 3),
      ("AA 04 22 02 00 A4", "truncatedHeader", 6),
      ("AA 02 24 00", "unexpectedTag", 2),
      ("AA 00 00", "trailingData", 2),
      ("AE 80 22 04 00 A4 04 00", "truncatedTag", 8),
      ("AE 00", "invalidDataObject", 1),
      ("", "truncatedTag", 0),
    ] as [(String, String, Int)])
  func malformed(text: String, code: String, offset: Int) {
    do {
      _ = try RemoteCommandScript(parsing: hex(text))
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.code.name == code)
      #expect(error.offset == offset)
    }
  }

  @Test("response scripting template AB: executed count and R-APDUs")
  func responseScript() throws {
    let response = RemoteResponseScript(
      executedCount: 2,
      responses: [ResponseAPDU(statusWord: .success), ResponseAPDU(data: [1, 2], statusWord: .fileNotFound)])
    let bytes = response.encodedBytes()
    #expect(bytes == hex("AB 0D 80 01 02 23 02 90 00 23 04 01 02 6A 82"))
    #expect(try RemoteResponseScript(parsing: bytes) == response)
    let many = RemoteResponseScript(executedCount: 300, responses: [])
    #expect(try RemoteResponseScript(parsing: many.encodedBytes()).executedCount == 300)
    #expect(throws: APDUError(.missingDataObject, offset: 0)) {
      _ = try RemoteResponseScript(parsing: hex("AB 04 23 02 90 00"))
    }
    #expect(throws: APDUError(.truncatedStatusWord, offset: 7)) {
      _ = try RemoteResponseScript(parsing: hex("AB 06 80 01 01 23 01 90"))
    }
    #expect(try RemoteResponseScript(parsing: hex("AF 80 80 01 00 00 00")).executedCount == 0)
  }
}

@Suite("Script runner")
struct ScriptRunnerTests {
  static let isd = ApplicationIdentifier.globalPlatformIssuerSecurityDomain
  static let loadFile = try! ApplicationIdentifier(hex("A0 00 00 00 62 03 01 0C 01"))
  static let module = try! ApplicationIdentifier(hex("A0 00 00 00 62 03 01 0C 01 01"))
  static let application = try! ApplicationIdentifier(hex("A0 00 00 00 62 03 01 0C 01 02"))

  /// SELECT ISD, INSTALL [for load], LOAD blocks, INSTALL [for install and make selectable].
  static func updateScript(fileSize: Int) throws -> Script {
    var commands = [GlobalPlatformCommands.select(isd)]
    commands.append(try GlobalPlatformCommands.installForLoad(loadFile: loadFile, securityDomain: isd))
    commands += try GlobalPlatformCommands.load(counting(fileSize), blockSize: 240)
    commands.append(
      try GlobalPlatformCommands.installForInstall(
        loadFile: loadFile, module: module, application: application))
    return Script(commands: commands)
  }

  @Test("a 64 KB LOAD script runs against an in-memory card with per-step progress")
  func largeLoad() async throws {
    let script = try Self.updateScript(fileSize: 65536)
    // C4 82 01 00 00 + 65536 bytes = 65540 bytes in 240-byte blocks: 274 LOADs.
    #expect(script.steps.count == 3 + 274)
    let blockNumbers: [UInt8] = script.steps[2..<(2 + 274)].map(\.command.p2)
    #expect(blockNumbers[255] == 0xFF && blockNumbers[256] == 0x00 && blockNumbers[273] == 17)
    var runner = ScriptRunner(transport: InMemoryCard())
    var seen: [Int] = []
    var totals: Set<Int> = []
    let result = try await runner.run(script) { progress in
      seen.append(progress.completedSteps)
      totals.insert(progress.totalSteps)
    }
    #expect(result.executedCount == script.steps.count)
    #expect(result.failure == nil)
    #expect(seen == Array(1...script.steps.count))
    #expect(totals == [script.steps.count])
    #expect(runner.transport.loadedFiles[Self.loadFile.bytes] == counting(65536))
    #expect(runner.transport.applications == [Self.application.bytes])
  }

  @Test("64 KB in 240-byte blocks: more than 256 blocks is refused without wrapping")
  func tooLarge() {
    #expect(throws: APDUError(.tooManyLoadBlocks, offset: 0)) {
      _ = try GlobalPlatformCommands.load(counting(65536), blockSize: 240, wrapsBlockNumbers: false)
    }
  }

  @Test("the run stops at the first unexpected status word, naming the step")
  func stopsAtFailure() async throws {
    let script = try Self.updateScript(fileSize: 2000)
    var card = InMemoryCard()
    card.failAt = 4
    var runner = ScriptRunner(transport: card)
    do {
      _ = try await runner.run(script)
      Issue.record("no failure")
    } catch {
      guard case .apdu(let failure) = error else { Issue.record("transport"); return }
      #expect(failure.code == .unexpectedStatusWord)
      #expect(failure.step == 4)
      #expect(failure.statusWord == .incorrectData)
    }
    #expect(runner.lastResult.executedCount == 5)
    #expect(runner.transport.commandCount == 5)
    let response = runner.lastResult.responseScript()
    #expect(response.responses.last?.statusWord == .incorrectData)
  }

  @Test("expected data is checked")
  func expectedData() async throws {
    let script = try Script(parsingText: "00A4040008A000000151000000 -> 6F00 9000")
    var runner = ScriptRunner(transport: InMemoryCard())
    await #expect(throws: APDUExchangeError<Never>.self) { _ = try await runner.run(script) }
    #expect(runner.lastResult.failure?.code == .unexpectedResponseData)
    let good = try Script(parsingText: "00A4040008A000000151000000 -> \(hexString(BERTLVTests.fci)) 9000")
    #expect(try await runner.run(good).responses.first?.data == BERTLVTests.fci)
  }

  @Test("the sans-IO run goes through GET RESPONSE and counts transmissions")
  func sansIO() throws {
    var card = SimulatedCard { _ in ResponseAPDU(data: counting(20), statusWord: .success) }
    card.getResponseChunk = 8
    let script = try Script(parsingText: "00B0000000 -> 9000\n00B0000000 -> 9000 # again")
    var run = ScriptRun(script: script)
    #expect(run.currentStep == 0)
    var guardCount = 0
    while let bytes = run.nextCommand, guardCount < 100 {
      try run.receive(card.process(bytes))
      guardCount += 1
    }
    #expect(run.isFinished)
    #expect(run.result.responses.map(\.data) == [counting(20), counting(20)])
    #expect(run.transmissionCount == 8)
    #expect(throws: APDUError(.exchangeFinished, offset: 0)) { try run.receive([0x90, 0x00]) }
  }
}

@Suite("Script session")
struct ScriptSessionTests {
  /// A server that sends the update in batches of `batchSize` C-APDUs.
  struct Server {
    var steps: [ScriptStep]
    var batchSize: Int
    var sent = 0
    mutating func nextBatch() throws -> [UInt8] {
      let end = min(sent + batchSize, steps.count)
      let batch = Script(steps: Array(steps[sent..<end]))
      sent = end
      return try RemoteCommandScript(script: batch).encodedBytes()
    }
  }

  @Test("a multi-round-trip update session end to end")
  func endToEnd() async throws {
    let script = try ScriptRunnerTests.updateScript(fileSize: 30_000)
    var server = Server(steps: script.steps, batchSize: 50)
    var session = ScriptSession(transport: InMemoryCard())
    var rounds: Set<Int> = []
    var executed = 0
    while true {
      let batch = try server.nextBatch()
      let reply = try await session.respond(to: batch) { rounds.insert($0.round) }
      let response = try RemoteResponseScript(parsing: reply)
      executed += response.executedCount
      if session.state == .finished { break }
      #expect(response.responses.allSatisfy { $0.statusWord == .success })
    }
    #expect(executed == script.steps.count)
    #expect(session.executedCount == script.steps.count)
    let batches = (script.steps.count + 49) / 50
    #expect(batches == 3)
    #expect(session.roundCount == batches + 1)
    #expect(rounds == Set(1...batches))
    #expect(session.runner.transport.applications == [ScriptRunnerTests.application.bytes])
    await #expect(throws: APDUExchangeError<Never>.self) {
      _ = try await session.respond(to: [0xAA, 0x00])
    }
  }

  @Test("a failing command is reported in the response template, not thrown")
  func failureReported() async throws {
    var card = InMemoryCard()
    card.failAt = 2
    var session = ScriptSession(transport: card, listsOnlyLastResponse: true)
    let batch = try RemoteCommandScript(script: try ScriptRunnerTests.updateScript(fileSize: 1000))
      .encodedBytes()
    let reply = try RemoteResponseScript(parsing: try await session.respond(to: batch))
    #expect(reply.executedCount == 3)
    #expect(reply.responses == [ResponseAPDU(statusWord: .incorrectData)])
    #expect(session.lastFailure?.step == 2)
    #expect(session.state == .active)
    session.finish()
    #expect(session.state == .finished)
  }
}
