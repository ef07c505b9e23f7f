// SPDX-License-Identifier: Apache-2.0
import CommandLineOptions
import Foundation
import ISO7816
import JSONOutput
import NFCReader
import NFCReaderLibNFC
import NFCReaderPCSC
import NFCWire
import RemoteManagement
import RemoteManagementHTTP

/// `tapwire-nfc admin URL (--pcsc READER | --device CONNSTRING) [--aid AID] [--json]` and
/// `tapwire-nfc admin --script FILE ...`: a required card update at connect, from a
/// GlobalPlatform Amendment B remote management session (``RemoteManagement/AdminSession``
/// over ``RemoteManagementHTTP/URLSessionAdminClient``) or a local script, on a PC/SC or
/// libnfc reader. One progress line per round trip and per command on standard error.
/// Exit 0 done, 1 a failed round trip or command (named) or no reader or card, 2 bad usage.
enum AdminCommand {
  static func run(_ arguments: [String]) async {
    let json = arguments.contains("--json")
    let operands = TapwireNFC.operands
    var aid: ApplicationIdentifier? = .globalPlatformIssuerSecurityDomain
    if let text = TapwireNFC.option("--aid") {
      guard let bytes = Hex.bytes(text), let parsed = try? ApplicationIdentifier(bytes) else {
        TapwireNFC.fail("--aid needs 5 to 16 bytes in hex, not '\(text)'")
      }
      aid = parsed
    }
    let source: CardUpdate.Source
    let id: String
    if let path = TapwireNFC.option("--script") {
      guard operands.isEmpty else { TapwireNFC.fail("admin takes a URL or --script FILE, not both") }
      guard let data = FileManager.default.contents(atPath: path) else {
        TapwireNFC.fail("cannot read \(path)")
      }
      do throws(APDUError) {
        source = .script(try Script(parsingText: String(decoding: data, as: UTF8.self)))
      } catch {
        let step = error.step.map { " at step \($0 + 1)" } ?? ""
        TapwireNFC.fail("\(path): \(error)\(step)")
      }
      id = path
    } else {
      let resume = TapwireNFC.option("--resume")
      guard operands.count == 1, let url = operands.first else {
        TapwireNFC.fail("admin needs one URL or --script FILE")
      }
      guard url.lowercased().hasPrefix("http://") || url.lowercased().hasPrefix("https://") else {
        TapwireNFC.fail("'\(url)' is not an http:// or https:// URL")
      }
      var configuration = AdminSessionConfiguration(
        serverURI: url, agentIdentifier: TapwireNFC.option("--from") ?? "//tapwire",
        securityDomain: aid)
      if let duration = TapwireNFC.parsed?.duration("--round-trip-timeout") {
        configuration.roundTripTimeout = duration
      }
      if let retries = TapwireNFC.parsed?.count("--retries") {
        configuration.retryPolicy.maximumAttempts = retries + 1
      }
      if let rounds = TapwireNFC.parsed?.count("--max-rounds") {
        configuration.maximumRoundTrips = rounds
      }
      if let resume {
        source = .resumed(
          AdminCheckpoint(uri: AdminSession.resolve(resume, against: url), round: 0), configuration)
      } else {
        source = .remote(configuration)
      }
      id = url
    }
    let update = CardUpdate(id: id, isMandatory: true, source: source)
    if let reader = TapwireNFC.option("--pcsc")
      ?? TapwireNFC.option("--reader")
    {
      let card = await PCSCCommands.connect(["--reader", reader] + timeoutArguments(arguments))
      await PCSCCommands.announce(card)
      let code = await cancellingOnSignal {
        await apply(update, over: PCSCAPDUTransport(card: card), json: json)
      }
      try? await card.disconnect()
      SignalStop.exit(code)
    }
    let (reader, tag) = await TapwireNFC.openAndWait(arguments, kinds: "an ISO-DEP tag") { $0.kind == .type4 }
    let transport: LibNFCAPDUTransport
    do { transport = try LibNFCAPDUTransport(reader: reader, tag: tag) } catch {
      await reader.close()
      TapwireNFC.fail("\(error)", status: 1)
    }
    APDUCommand.progress("card: \(TapwireNFC.describe(tag))")
    let code = await cancellingOnSignal { await apply(update, over: transport, json: json) }
    await reader.close()
    SignalStop.exit(code)
  }

  /// Runs the update in a task that SIGINT or SIGTERM cancels: the HTTP request in flight is
  /// cancelled and the failure is reported as any other, with the resume URI.
  static func cancellingOnSignal(_ update: sending @escaping () async -> Int32) async -> Int32 {
    let task = Task { await update() }
    SignalStop.onSignal { _ in task.cancel() }
    return await task.value
  }

  static func timeoutArguments(_ arguments: [String]) -> [String] {
    TapwireNFC.option("--timeout").map { ["--timeout", $0] } ?? []
  }

  /// Runs `update` as the one required update of a connect; prints progress and the result.
  static func apply<Transport: APDUTransport>(_ update: CardUpdate, over transport: Transport, json: Bool)
    async
    -> Int32
  {
    var plan = CardUpdatePlan(updates: [update], at: .origin)
    APDUCommand.progress("connecting: required update \(update.id)")
    let driver = AdminSessionDriver(client: URLSessionAdminClient(), transport: transport)
    var runner = CardUpdateRunner(driver: driver)
    var commands = 0
    var rounds = 0
    var requests = 0
    var events: [JSON] = []
    await runner.run(&plan) { _, event, progress in
      let percent = Int((progress.fraction * 100).rounded())
      switch event {
      case .posting(let round, let attempt, let uri):
        requests += 1
        APDUCommand.progress(
          "round trip \(round): POST \(uri)" + (attempt > 1 ? " (attempt \(attempt))" : ""))
      case .scriptReceived(let round, let count, let application):
        rounds = round
        let target = application.map { " for \($0.hexString)" } ?? ""
        APDUCommand.progress(
          "round trip \(round): \(counted(count, "command", "commands"))\(target) (\(percent)% of \(progress.knownCommands) known)"
        )
      case .redirected(let round, let uri):
        APDUCommand.progress("round trip \(round): redirected to \(uri)")
      case .commandFinished(let round, let index, let count, let command, let sw, let accepted):
        commands += 1
        let name = command.commandName ?? "INS " + Hex.string([command.ins.rawValue])
        let bytes = (try? command.encodedBytes()) ?? []
        let line =
          "round trip \(round) command \(index + 1)/\(count) \(name) \(Hex.string(bytes)) -> \(sw.hexString)"
          + (accepted ? " ok" : " FAILED") + " (\(percent)%)"
        APDUCommand.progress(line)
        events.append(
          .object([
            ("round", .int(round)), ("command", .int(index + 1)), ("apdu", .string(Hex.string(bytes))),
            ("sw", .string(sw.hexString.lowercased())), ("ok", .bool(accepted)),
          ]))
      case .applicationRefused(let round, let sw, let status):
        APDUCommand.progress("round trip \(round): SELECT answered \(sw.hexString): \(status.rawValue)")
      case .retrying(let round, let attempt, _, let reason):
        let detail = reason.detail.map { " (\($0))" } ?? ""
        APDUCommand.progress(
          "round trip \(round): \(reason.code.name)\(detail), retrying (attempt \(attempt))")
      case .ended(let total):
        APDUCommand.progress("all scripts done after \(counted(total, "round trip", "round trips"))")
      }
    }
    let list = JSON.array(events)
    let resumeURI = runner.lastCheckpoint?.uri
    if plan.state == .ready {
      if json {
        let result: JSON = .object([
          ("ok", .bool(true)), ("format", .string("admin")), ("update", .string(update.id)),
          ("rounds", .int(rounds)), ("requests", .int(requests)), ("commands", list),
        ])
        print(result.serialized(.spaced))
      } else {
        print(
          "update done: \(counted(rounds, "round trip", "round trips")), \(counted(commands, "command", "commands"))"
        )
      }
      return 0
    }
    let error = plan.failure ?? CardUpdateError(.sessionFailed, updateID: update.id)
    let message = describe(error)
    if json {
      let code = error.session?.code.name ?? error.code.name
      let failure: JSON = .object([
        ("ok", .bool(false)), ("format", .string("admin")), ("update", .string(update.id)),
        ("rounds", .int(rounds)), ("requests", .int(requests)), ("commands", list),
        (
          "error",
          .object([
            ("code", .string(code)), ("round", JSON(error.round)),
            ("command", JSON(error.step.map { $0 + 1 })),
            ("offset", .int(error.session?.apduError?.offset ?? 0)), ("message", .string(message)),
          ])
        ),
        ("resumeURI", JSON(resumeURI)),
      ])
      print(failure.serialized(.spaced))
    }
    if let resumeURI { APDUCommand.progress("resume with: --resume \(resumeURI)") }
    FileHandle.standardError.write(Data("tapwire: update failed: \(message)\n".utf8))
    return 1
  }

  static func describe(_ error: CardUpdateError) -> String {
    if let session = error.session { return "\(session)" }
    var text = error.code.name
    if let round = error.round { text += " in round trip \(round)" }
    if let step = error.step { text += " at command \(step + 1)" }
    if let sw = error.statusWord { text += ": status \(sw.hexString)" }
    return text
  }
}
