// SPDX-License-Identifier: Apache-2.0
import ISO7816
import RemoteManagement
import RemoteManagementHTTP

// MARK: - The samples of the article "Running a remote management session"

/// Runs an `AdminSession` by hand: `post` stands for your HTTP client, `transmit` for your
/// link to the card (nil: the card went away), `clock` for a monotonic clock and `sleep` for
/// waiting until an instant of it. Nothing here is asynchronous, so the same loop runs on a
/// microcontroller.
func runAdminSessionByHand(
  _ configuration: AdminSessionConfiguration,
  post: (AdminRequest, Duration) -> AdminHTTPResult,
  transmit: ([UInt8]) -> [UInt8]?,
  clock: () -> MonotonicInstant,
  sleep: (MonotonicInstant) -> Void,
  onEvent: (AdminEvent) -> Void = { _ in }
) -> Result<AdminSummary, RemoteManagementError> {
  var session = AdminSession(configuration)
  while true {
    let action = session.next(at: clock())
    for event in session.takeEvents() { onEvent(event) }
    switch action {
    case .send(let request, let deadline):
      switch post(request, deadline - clock()) {
      case .response(let response): session.receive(response, at: clock())
      case .connectionFailed(let reason): session.connectionFailed(reason: reason, at: clock())
      case .timedOut: session.timedOut(at: clock())
      case .bodyTooLarge(let limit): session.bodyTooLarge(limit: limit, at: clock())
      }
    case .wait(let instant):
      sleep(instant)  // a retry's backoff
    case .transmit(let command):
      if let response = transmit(command) { session.receiveCard(response) } else { session.cardRemoved() }
    case .finished(let summary):
      return .success(summary)
    case .failed(let error):
      return .failure(error)
    }
  }
}

/// Runs a remote management session with `AdminSessionDriver`, resuming from `checkpoint`
/// when one is given; on a failure, also returns where to resume.
func runRemoteSession<Client: AdminHTTPClient, Card: APDUTransport>(
  _ configuration: AdminSessionConfiguration, resumingFrom checkpoint: AdminCheckpoint? = nil,
  client: Client, card: Card, log: (String) -> Void = { print($0) }
) async -> (result: Result<AdminSummary, RemoteManagementError>, resumeAt: AdminCheckpoint?) {
  var session =
    checkpoint.map { AdminSession(resuming: $0, configuration: configuration) } ?? AdminSession(configuration)
  var driver = AdminSessionDriver(client: client, transport: card)
  let result = await driver.run(&session) { event, progress in
    if case .commandFinished(let round, let index, let count, _, let statusWord, let accepted) = event {
      let verdict = accepted ? "ok" : "stops the script"
      let percent = Int(progress.fraction * 100)
      log("round trip \(round) command \(index + 1)/\(count) -> \(statusWord) \(verdict) (\(percent)%)")
    }
  }
  if case .failure = result { return (result, session.checkpoint) }
  return (result, nil)
}

/// The same over HTTP and HTTPS with `URLSessionAdminClient` (the system trust store).
func runRemoteSessionOverHTTP<Card: APDUTransport>(
  _ serverURI: String, card: Card
) async -> Result<AdminSummary, RemoteManagementError> {
  let configuration = AdminSessionConfiguration(
    serverURI: serverURI, agentIdentifier: "//se-id/example",
    securityDomain: .globalPlatformIssuerSecurityDomain)
  return await runRemoteSession(configuration, client: URLSessionAdminClient(), card: card).result
}

/// Applies the update policy at a connect: required updates run first (the connection is
/// `.connecting` until they are done), optional ones stay `available` to offer.
func connectApplyingUpdates<Client: AdminHTTPClient, Card: APDUTransport>(
  _ updates: [CardUpdate], at now: MonotonicInstant, runner: inout CardUpdateRunner<Client, Card>
) async -> CardUpdatePlan {
  var plan = CardUpdatePlan(updates: updates, at: now)
  await runner.run(&plan) { update, event, progress in
    if case .ended = event {
      print("  \(update.id) done (\(progress.completedCommands)/\(progress.knownCommands))")
    }
  }
  // .ready: usable, plan.available lists the optional updates; .failed: plan.failure says why.
  return plan
}

/// Installs the optional update `id` the user accepted.
func installOptionalUpdate<Client: AdminHTTPClient, Card: APDUTransport>(
  _ id: String, plan: inout CardUpdatePlan, runner: inout CardUpdateRunner<Client, Card>
) async throws(CardUpdateError) {
  try plan.request(id)  // .updating while it runs; a failed optional update goes back to available
  await runner.run(&plan)
}

// MARK: - Fakes for the checks (no network, no card)

/// An Amendment B server in memory: one answer per POST, in order; records the requests.
struct ScriptedAdminServer: AdminHTTPClient {
  var answers: [AdminHTTPResult]
  var requests: [AdminRequest] = []

  mutating func send(_ request: AdminRequest, timeout: Duration) async -> AdminHTTPResult {
    requests.append(request)
    return requests.count <= answers.count ? answers[requests.count - 1] : .timedOut
  }

  /// A 200 response carrying `commands` as a command scripting template.
  static func script(_ commands: [[UInt8]], next: String) throws -> AdminHTTPResult {
    let steps = try commands.map { bytes in ScriptStep(command: try CommandAPDU(parsing: bytes)) }
    let body = try RemoteCommandScript(script: Script(steps: steps)).encodedBytes()
    return .response(
      AdminResponse(
        statusCode: AdminProtocol.statusOK,
        headers: [
          AdminHeaderField(AdminProtocol.protocolHeader, AdminProtocol.protocolVersion),
          AdminHeaderField(AdminProtocol.contentTypeHeader, AdminProtocol.commandContentType),
          AdminHeaderField(AdminProtocol.nextURIHeader, next),
        ], body: body))
  }

  /// 204 No Content: the session is over.
  static let done = AdminHTTPResult.response(AdminResponse(statusCode: AdminProtocol.statusNoContent))
}

/// The card went away.
struct CardGone: Error {}

/// A card that answers every command 9000 (and `E0` to `80 CA 00 FE 00`), and goes away after
/// `removeAfter` commands when that is set.
struct FakeAdminCard: APDUTransport {
  var removeAfter: Int?
  var received = 0

  mutating func transmit(_ command: [UInt8]) async throws(CardGone) -> [UInt8] {
    received += 1
    if let removeAfter, received > removeAfter { throw CardGone() }
    return command.prefix(4) == [0x80, 0xCA, 0x00, 0xFE] ? [0xE0, 0x90, 0x00] : [0x90, 0x00]
  }
}

/// A clock the checks move by hand.
final class ManualClock {
  var now = MonotonicInstant.origin
}

// MARK: - Checks

let getData: [UInt8] = [0x80, 0xCA, 0x00, 0xFE, 0x00]
let storeData: [UInt8] = [0x80, 0xE2, 0x80, 0x00, 0x02, 0x01, 0x02]

func checkRemoteManagement() {
  group("RemoteManagement: the first POST, then 204 No Content ends the session") {
    var session = AdminSession(AdminSessionConfiguration(serverURI: "http://127.0.0.1:9/start"))
    guard case .send(let request, let deadline) = session.next(at: .origin) else {
      check(false, "the first action is a POST")
      return
    }
    expectEqual(request.method, "POST", "method")
    expectEqual(request.uri, "http://127.0.0.1:9/start", "request URI")
    expectEqual(
      request.header(AdminProtocol.protocolHeader), AdminProtocol.protocolVersion, "X-Admin-Protocol")
    expectEqual(deadline, .origin + .seconds(30), "the round-trip deadline (default 30 s)")
    let answered = MonotonicInstant.origin + .milliseconds(5)
    session.receive(AdminResponse(statusCode: AdminProtocol.statusNoContent), at: answered)
    guard case .finished(let summary) = session.next(at: answered) else {
      check(false, "204 ends the session")
      return
    }
    expectEqual(summary.rounds, 0, "command scripts processed")
    expectEqual(summary.requests, 1, "POSTs sent")
    // The HTTP adapter is usable from a dependent (nothing is sent here).
    let client = URLSessionAdminClient(maximumBodySize: 4096)
    expectEqual(client.maximumBodySize, 4096, "URLSessionAdminClient body bound")
  }

  group("RemoteManagement article: by hand, a timed-out POST is retried after .wait(until:)") {
    let clock = ManualClock()
    var requests: [AdminRequest] = []
    var commands: [[UInt8]] = []
    var waits: [MonotonicInstant] = []
    let answers = [
      AdminHTTPResult.timedOut, try ScriptedAdminServer.script([getData, storeData], next: "/ram/2"),
      ScriptedAdminServer.done,
    ]
    let result = runAdminSessionByHand(
      AdminSessionConfiguration(serverURI: "https://ram.example/ram/1"),
      post: { request, _ in
        requests.append(request)
        clock.now = clock.now + .milliseconds(20)  // the round trip takes 20 ms
        return answers[requests.count - 1]
      },
      transmit: { command in
        commands.append(command)
        return command == getData ? [0xE0, 0x90, 0x00] : [0x90, 0x00]
      },
      clock: { clock.now },
      sleep: { instant in
        waits.append(instant)
        clock.now = instant
      })
    let summary = try result.get()
    print(
      "  by hand: round trips \(summary.rounds), commands \(summary.executedCommands), POSTs \(summary.requests)"
    )
    expectEqual(summary.rounds, 1, "round trips")
    expectEqual(summary.executedCommands, 2, "commands executed")
    expectEqual(summary.requests, 3, "POSTs (one retry)")
    expectEqual(waits, [.origin + .milliseconds(520)], "the retry waits 500 ms after the timeout")
    expectEqual(requests.map { $0.header(AdminProtocol.resumeHeader) }, [nil, "true", nil], "X-Admin-Resume")
    expectEqual(requests.last?.uri, "https://ram.example/ram/2", "X-Admin-Next-URI resolved")
    expectEqual(requests.last?.header(AdminProtocol.scriptStatusHeader), "ok", "X-Admin-Script-Status")
    expectEqual(commands, [getData, storeData], "the script's commands, in order")
  }
}

func checkRemoteManagementDriver() async {
  await group("RemoteManagement article: the driver fails when the card goes, the checkpoint resumes") {
    let configuration = AdminSessionConfiguration(serverURI: "https://ram.example/ram/1", retryPolicy: .none)
    var server = ScriptedAdminServer(answers: [
      try ScriptedAdminServer.script([getData, storeData], next: "2")
    ])
    var lines: [String] = []
    let first = await runRemoteSession(
      configuration, client: server, card: FakeAdminCard(removeAfter: 1), log: { lines.append($0) })
    guard case .failure(let error) = first.result, let checkpoint = first.resumeAt else {
      check(false, "a card removed mid-script fails with a checkpoint")
      return
    }
    print("  failed: \(error.code) in round trip \(error.round); resume at \(checkpoint.uri)")
    expectEqual(error.code, .cardRemoved, "error code")
    expectEqual(lines, ["round trip 1 command 1/2 -> 9000 ok (50%)"], "progress lines")
    expectEqual(checkpoint, AdminCheckpoint(uri: "https://ram.example/ram/2", round: 0), "checkpoint")

    server = ScriptedAdminServer(answers: [
      try ScriptedAdminServer.script([getData, storeData], next: "3"), ScriptedAdminServer.done,
    ])
    let second = await runRemoteSession(
      configuration, resumingFrom: checkpoint, client: server, card: FakeAdminCard(), log: { _ in })
    let summary = try second.result.get()
    expectEqual(summary.rounds, 1, "round trips after resuming")
    expectEqual(summary.executedCommands, 2, "commands after resuming")
    expectEqual(second.resumeAt, nil, "no checkpoint after success")
  }

  group("RemoteManagement article: a resumed POST carries X-Admin-Resume") {
    // The driver holds its own copy of the client; a by-hand POST shows the header.
    var session = AdminSession(
      resuming: AdminCheckpoint(uri: "https://ram.example/ram/2", round: 0),
      configuration: AdminSessionConfiguration(serverURI: "https://ram.example/ram/1"))
    guard case .send(let request, _) = session.next(at: .origin) else {
      check(false, "a resumed session posts first")
      return
    }
    expectEqual(request.uri, "https://ram.example/ram/2", "resumed URI")
    expectEqual(request.header(AdminProtocol.resumeHeader), "true", "X-Admin-Resume")
  }

  await group("RemoteManagement article: required updates at connect, optional ones on request") {
    let connect = MonotonicInstant.origin + .seconds(100)
    let updates = [
      CardUpdate(
        id: "wallet-1.2", estimatedDuration: .seconds(5), isMandatory: true,
        source: .script(Script(steps: [ScriptStep(command: try CommandAPDU(parsing: storeData))]))),
      CardUpdate(
        id: "loyalty-2.0", requiredAt: connect + .seconds(86_400),
        source: .remote(
          AdminSessionConfiguration(serverURI: "https://ram.example/loyalty", retryPolicy: .none))),
    ]
    let server = ScriptedAdminServer(answers: [
      try ScriptedAdminServer.script([getData], next: "/loyalty/2"), ScriptedAdminServer.done,
    ])
    var runner = CardUpdateRunner(driver: AdminSessionDriver(client: server, transport: FakeAdminCard()))
    var plan = await connectApplyingUpdates(updates, at: connect, runner: &runner)
    expectEqual(plan.state, .ready, "state after the required update")
    expectEqual(plan.completed, ["wallet-1.2"], "completed at connect")
    expectEqual(plan.available.map(\.id), ["loyalty-2.0"], "offered")
    try await installOptionalUpdate("loyalty-2.0", plan: &plan, runner: &runner)
    expectEqual(plan.state, .ready, "state after the optional update")
    expectEqual(plan.completed, ["wallet-1.2", "loyalty-2.0"], "completed after the request")
    // A day later the optional update is required at connect.
    let later = CardUpdatePlan(updates: updates, at: connect + .seconds(86_400))
    expectEqual(later.state, .connecting, "both required a day later")
    expectEqual(later.available, [], "nothing optional a day later")
  }
}
