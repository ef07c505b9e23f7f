// SPDX-License-Identifier: Apache-2.0
import ISO7816
import RemoteManagement
import Testing

/// A card answering SELECT of known AIDs with 9000 (others 6A82), every other command with
/// its INS echoed as data and 9000, and INS 0xEE with 6985.
struct FakeCard {
  var applications: Set<[UInt8]> = [[0xA0, 0x00, 0x00, 0x01, 0x51, 0x00, 0x00, 0x00]]
  var received: [[UInt8]] = []
  var removeAfter: Int?

  mutating func respond(_ bytes: [UInt8]) -> [UInt8]? {
    received.append(bytes)
    if let removeAfter, received.count > removeAfter { return nil }
    guard let command = try? CommandAPDU(parsing: bytes) else { return [0x67, 0x00] }
    switch command.ins.rawValue {
    case 0xA4: return applications.contains(command.data) ? [0x90, 0x00] : [0x6A, 0x82]
    case 0xEE: return [0x69, 0x85]
    default: return [command.ins.rawValue, 0x90, 0x00]
    }
  }
}

/// The instant `milliseconds` after the test clock's origin.
func ms(_ milliseconds: Int64) -> MonotonicInstant {
  MonotonicInstant(sinceOrigin: .milliseconds(milliseconds))
}

/// A scripted server: the responses in order, each for the next POST.
struct Exchange {
  var requests: [AdminRequest] = []
  var events: [AdminEvent] = []
  var result: AdminAction?
  var waits: [Duration] = []
}

/// Drives `session` with `answer` for each POST, `card` for each APDU, a clock that moves
/// 10 ms per step (or to the wait's end), at most 10 000 steps.
func drive(
  _ session: inout AdminSession, card: inout FakeCard, answer: (Int, AdminRequest) -> AdminHTTPResult
) -> Exchange {
  var exchange = Exchange()
  var now = ms(1_000)
  for _ in 0..<10_000 {
    now = now + .milliseconds(10)
    let action = session.next(at: now)
    exchange.events += session.takeEvents()
    switch action {
    case .send(let request, _):
      exchange.requests.append(request)
      switch answer(exchange.requests.count, request) {
      case .response(let response): session.receive(response, at: now)
      case .connectionFailed: session.connectionFailed(at: now)
      case .timedOut: session.timedOut(at: now)
      case .bodyTooLarge(let limit): session.bodyTooLarge(limit: limit, at: now)
      }
    case .wait(let time):
      exchange.waits.append(time - now)
      now = time
    case .transmit(let bytes):
      if let reply = card.respond(bytes) { session.receiveCard(reply) } else { session.cardRemoved() }
    case .finished, .failed:
      exchange.result = action
      exchange.events += session.takeEvents()
      return exchange
    }
  }
  return exchange
}

/// A 200 response carrying `commands` as an `AA` template, with the Amendment B headers.
func script(
  _ commands: [[UInt8]], next: String = "/next", target: String? = nil,
  contentType: String = AdminProtocol.commandContentType
) -> AdminHTTPResult {
  let steps = commands.map { ScriptStep(command: try! CommandAPDU(parsing: $0)) }
  let body = try! RemoteCommandScript(script: Script(steps: steps)).encodedBytes()
  var headers = [
    AdminHeaderField("x-admin-protocol", AdminProtocol.protocolVersion),
    AdminHeaderField("Content-Type", contentType), AdminHeaderField("X-Admin-Next-URI", next),
  ]
  if let target { headers.append(AdminHeaderField("X-Admin-Targeted-Application", target)) }
  return .response(AdminResponse(statusCode: 200, headers: headers, body: body))
}

let done = AdminHTTPResult.response(
  AdminResponse(
    statusCode: 204, headers: [AdminHeaderField("X-Admin-Protocol", AdminProtocol.protocolVersion)]))

func failure(_ exchange: Exchange) -> RemoteManagementError? {
  if case .failed(let error) = exchange.result { return error }
  return nil
}

func summary(_ exchange: Exchange) -> AdminSummary? {
  if case .finished(let summary) = exchange.result { return summary }
  return nil
}

let isd = ApplicationIdentifier.globalPlatformIssuerSecurityDomain

@Suite struct AdminSessionTests {
  let configuration = AdminSessionConfiguration(
    serverURI: "http://127.0.0.1:8080/ram/start?card=1", agentIdentifier: "//se-id/tapwire",
    securityDomain: isd,
    retryPolicy: .none)

  @Test func threeRoundsEachPostingTheResponsesOfThePrevious() throws {
    var session = AdminSession(configuration)
    var card = FakeCard()
    let exchange = drive(&session, card: &card) { index, _ in
      switch index {
      case 1: return script([[0x80, 0x10, 0, 0], [0x80, 0x11, 0, 0]], next: "/ram/r2")
      case 2: return script([[0x80, 0x20, 0, 0]], next: "r3")
      case 3: return script([[0x80, 0x30, 0, 0], [0x80, 0x31, 0, 0]], next: "http://other:81/end")
      default: return done
      }
    }
    let result = try #require(summary(exchange))
    #expect(result.rounds == 3)
    #expect(result.executedCommands == 5)
    #expect(result.requests == 4)
    #expect(result.commandFailures.isEmpty)
    #expect(
      exchange.requests.map(\.uri) == [
        "http://127.0.0.1:8080/ram/start?card=1", "http://127.0.0.1:8080/ram/r2",
        "http://127.0.0.1:8080/ram/r3",
        "http://other:81/end",
      ])
    let first = exchange.requests[0]
    #expect(first.method == "POST")
    #expect(first.body.isEmpty)
    #expect(first.header("x-admin-protocol") == "globalplatform-remote-admin/1.0")
    #expect(first.header("X-Admin-From") == "//se-id/tapwire")
    #expect(first.header("Content-Type") == nil)
    #expect(first.header("X-Admin-Script-Status") == nil)
    #expect(first.header("X-Admin-Resume") == nil)
    let second = exchange.requests[1]
    #expect(
      second.header("Content-Type") == "application/vnd.globalplatform.card-content-mgt-response;version=1.0")
    #expect(second.header("X-Admin-Script-Status") == "ok")
    let response = try RemoteResponseScript(parsing: second.body)
    #expect(response.executedCount == 2)
    #expect(response.responses.map(\.data) == [[0x10], [0x11]])
    // The security domain is selected once, before the first script.
    #expect(card.received.first == [0x00, 0xA4, 0x04, 0x00, 0x08] + isd.bytes + [0x00])
    #expect(card.received.count == 6)
    #expect(session.progress == AdminProgress(rounds: 3, completedCommands: 5, knownCommands: 5))
    #expect(session.progress.fraction == 1)
    #expect(exchange.events.last == .ended(rounds: 3))
  }

  @Test func noContentAtOnceEndsWithoutRounds() throws {
    var session = AdminSession(configuration)
    var card = FakeCard()
    let exchange = drive(&session, card: &card) { _, _ in done }
    #expect(summary(exchange) == AdminSummary(rounds: 0, executedCommands: 0, requests: 1))
    #expect(card.received.isEmpty)
  }

  @Test func aFailingCommandStopsItsScriptAndIsReportedToTheServer() throws {
    var session = AdminSession(configuration)
    var card = FakeCard()
    let exchange = drive(&session, card: &card) { index, _ in
      index == 1 ? script([[0x80, 0x10, 0, 0], [0x80, 0xEE, 0, 0], [0x80, 0x12, 0, 0]]) : done
    }
    let result = try #require(summary(exchange))
    #expect(result.commandFailures.map(\.step) == [1])
    #expect(result.commandFailures.first?.statusWord == .conditionsOfUseNotSatisfied)
    let response = try RemoteResponseScript(parsing: exchange.requests[1].body)
    #expect(response.executedCount == 2)
    #expect(response.responses.last?.statusWord == .conditionsOfUseNotSatisfied)
    #expect(session.progress.completedCommands == 2)
    #expect(session.progress.knownCommands == 2)
  }

  @Test func anUnknownTargetedApplicationIsAnsweredWithoutABody() throws {
    var session = AdminSession(configuration)
    var card = FakeCard()
    let exchange = drive(&session, card: &card) { index, _ in
      index == 1 ? script([[0x80, 0x10, 0, 0]], target: "//aid/A000000999/0102") : done
    }
    let result = try #require(summary(exchange))
    #expect(result.refusedScripts == [1])
    #expect(exchange.requests[1].header("X-Admin-Script-Status") == "unknown-application")
    #expect(exchange.requests[1].body.isEmpty)
    #expect(
      card.received == [[0x00, 0xA4, 0x04, 0x00, 0x07, 0xA0, 0x00, 0x00, 0x09, 0x99, 0x01, 0x02, 0x00]])
  }

  @Test(arguments: [
    ("//aid/A000000151/000000", "A000000151000000"), ("//AID/a000000003", "A000000003"),
    ("//aid/A0000001", ""), ("aid/A000000151/00", ""), ("//aid/A000000151/0", ""),
  ])
  func targetedApplicationValues(value: String, aid: String) {
    #expect(AdminSession.targetedApplication(value)?.hexString.uppercased() ?? "" == aid)
  }

  @Test func targetedApplicationValueRoundTrips() {
    #expect(AdminSession.targetedApplicationValue(isd) == "//aid/A000000151/000000")
  }

  @Test(arguments: [
    ("/a", "http://h:1/x/y?q", "http://h:1/a"), ("b", "http://h:1/x/y?q", "http://h:1/x/b"),
    ("b", "http://h", "http://h/b"), ("HTTPS://z/1", "http://h/x", "HTTPS://z/1"),
  ])
  func uriResolution(reference: String, base: String, expected: String) {
    #expect(AdminSession.resolve(reference, against: base) == expected)
  }

  @Test func anHTTPErrorStatusFails() {
    var session = AdminSession(configuration)
    var card = FakeCard()
    let exchange = drive(&session, card: &card) { _, _ in .response(AdminResponse(statusCode: 404)) }
    #expect(failure(exchange) == RemoteManagementError(.httpStatus, round: 1, httpStatus: 404))
  }

  @Test func notAmendmentBResponsesFail() {
    var card = FakeCard()
    var session = AdminSession(configuration)
    var exchange = drive(&session, card: &card) { _, _ in script([], contentType: "text/html") }
    #expect(failure(exchange) == RemoteManagementError(.wrongContentType, round: 1, header: "text/html"))
    session = AdminSession(configuration)
    exchange = drive(&session, card: &card) { _, _ in
      .response(
        AdminResponse(
          statusCode: 200, headers: [AdminHeaderField("Content-Type", AdminProtocol.commandContentType)],
          body: [0xAA, 0x00]))
    }
    #expect(failure(exchange) == RemoteManagementError(.missingHeader, round: 1, header: "X-Admin-Protocol"))
    session = AdminSession(configuration)
    exchange = drive(&session, card: &card) { _, _ in
      .response(
        AdminResponse(
          statusCode: 200,
          headers: [
            AdminHeaderField("X-Admin-Protocol", "globalplatform-remote-admin/1.0"),
            AdminHeaderField("Content-Type", "application/vnd.globalplatform.card-content-mgt; version=1.0"),
          ], body: [0xAA, 0x00]))
    }
    #expect(failure(exchange) == RemoteManagementError(.missingHeader, round: 1, header: "X-Admin-Next-URI"))
  }

  @Test func aMalformedScriptNamesTheParserCodeAndOffset() throws {
    var session = AdminSession(configuration)
    var card = FakeCard()
    let exchange = drive(&session, card: &card) { _, _ in
      .response(
        AdminResponse(
          statusCode: 200,
          headers: [
            AdminHeaderField("X-Admin-Protocol", AdminProtocol.protocolVersion),
            AdminHeaderField("Content-Type", AdminProtocol.commandContentType),
            AdminHeaderField("X-Admin-Next-URI", "/n"),
          ], body: [0xAA, 0x05, 0x22, 0x09, 0x80]))
    }
    let error = try #require(failure(exchange))
    #expect(error.code == .malformedScript)
    #expect(error.apduError?.code == .lengthExceedsInput)
    #expect(error.apduError?.offset == 1)
  }

  @Test func roundTripsAreBounded() {
    var bounded = configuration
    bounded.maximumRoundTrips = 4
    var session = AdminSession(bounded)
    var card = FakeCard()
    let exchange = drive(&session, card: &card) { _, _ in script([[0x80, 0x10, 0, 0]]) }
    #expect(failure(exchange) == RemoteManagementError(.tooManyRoundTrips, round: 5))
    #expect(exchange.requests.count == 5)
  }

  @Test func redirectionsAreFollowedAndLoopsDetected() throws {
    var session = AdminSession(configuration)
    var card = FakeCard()
    var exchange = drive(&session, card: &card) { index, _ in
      index == 1
        ? .response(AdminResponse(statusCode: 307, headers: [AdminHeaderField("Location", "/moved")])) : done
    }
    #expect(summary(exchange) != nil)
    #expect(exchange.requests.map(\.uri).last == "http://127.0.0.1:8080/moved")
    session = AdminSession(configuration)
    exchange = drive(&session, card: &card) { index, _ in
      .response(
        AdminResponse(statusCode: 302, headers: [AdminHeaderField("Location", index % 2 == 0 ? "/a" : "/b")]))
    }
    #expect(failure(exchange) == RemoteManagementError(.redirectLoop, round: 1, httpStatus: 302))
    #expect(exchange.requests.count == 3)
  }

  @Test func failedPostsAreRetriedWithBackoffAndResume() throws {
    var retrying = configuration
    retrying.retryPolicy = AdminRetryPolicy(
      maximumAttempts: 3, initialBackoff: .milliseconds(100), multiplier: 3)
    var session = AdminSession(retrying)
    var card = FakeCard()
    var exchange = drive(&session, card: &card) { index, _ in
      switch index {
      case 1: return .timedOut
      case 2: return .response(AdminResponse(statusCode: 503))
      default: return done
      }
    }
    #expect(summary(exchange)?.requests == 3)
    // The driver's clock moves 10 ms between reporting the failure and asking again.
    #expect(exchange.waits == [.milliseconds(90), .milliseconds(290)])
    #expect(exchange.requests.map { $0.header("X-Admin-Resume") } == [nil, "true", "true"])
    session = AdminSession(retrying)
    exchange = drive(&session, card: &card) { _, _ in .connectionFailed("refused") }
    #expect(failure(exchange) == RemoteManagementError(.transportFailed, round: 1))
    #expect(exchange.requests.count == 3)
    session = AdminSession(retrying)
    exchange = drive(&session, card: &card) { _, _ in .timedOut }
    #expect(failure(exchange) == RemoteManagementError(.roundTripTimeout, round: 1))
  }

  /// A body the client refused over its limit fails the session at once: the server would
  /// send it again, so the retry policy does not apply (unlike a failed connection).
  @Test func aBodyOverTheClientsLimitFailsWithoutARetry() {
    var retrying = configuration
    retrying.retryPolicy = AdminRetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(100))
    var session = AdminSession(retrying)
    var card = FakeCard()
    let exchange = drive(&session, card: &card) { _, _ in .bodyTooLarge(limit: 4096) }
    let error = failure(exchange)
    #expect(error == RemoteManagementError(.bodyTooLarge, round: 1, detail: "response body over 4096 bytes"))
    #expect(error?.code.name == "bodyTooLarge")
    #expect(error?.description == "bodyTooLarge in round trip 1 (response body over 4096 bytes)")
    #expect(exchange.requests.count == 1)
    #expect(exchange.waits.isEmpty)
  }

  @Test func aLateResponseCountsAsATimeout() {
    var session = AdminSession(configuration)
    guard case .send(_, let deadline) = session.next(at: ms(0)) else {
      Issue.record("no request")
      return
    }
    #expect(deadline == ms(30_000))
    session.receive(AdminResponse(statusCode: 204), at: ms(30_001))
    #expect(session.next(at: ms(30_002)) == .failed(RemoteManagementError(.roundTripTimeout, round: 1)))
  }

  @Test func aCardRemovedMidScriptFailsAndTheCheckpointResumes() throws {
    var session = AdminSession(configuration)
    var card = FakeCard(removeAfter: 2)
    let exchange = drive(&session, card: &card) { index, _ in
      index == 1 ? script([[0x80, 0x10, 0, 0], [0x80, 0x11, 0, 0]], next: "/ram/r2") : done
    }
    #expect(failure(exchange) == RemoteManagementError(.cardRemoved, round: 1, step: 1))
    let checkpoint = session.checkpoint
    #expect(checkpoint == AdminCheckpoint(uri: "http://127.0.0.1:8080/ram/r2", round: 0))
    var resumed = AdminSession(resuming: checkpoint, configuration: configuration)
    var fresh = FakeCard()
    let again = drive(&resumed, card: &fresh) { index, _ in
      index == 1 ? script([[0x80, 0x10, 0, 0], [0x80, 0x11, 0, 0]], next: "/ram/r3") : done
    }
    #expect(again.requests.first?.header("X-Admin-Resume") == "true")
    #expect(again.requests.first?.uri == "http://127.0.0.1:8080/ram/r2")
    #expect(summary(again)?.rounds == 1)
  }

  @Test func aCardThatBreaksTheProtocolIsACardFailure() throws {
    var session = AdminSession(configuration)
    var card = FakeCard()
    card.applications = []
    var exchange = drive(&session, card: &card) { index, _ in
      index == 1 ? script([[0x80, 0x10, 0, 0]], target: "//aid/A000000151") : done
    }
    #expect(summary(exchange)?.refusedScripts == [1])
    // A one-byte answer is not a response APDU.
    let reply = try #require(script([[0x80, 0x10, 0, 0]]).response)
    session = AdminSession(AdminSessionConfiguration(serverURI: "http://h/"))
    var calls = 0
    var now = ms(0)
    exchange = Exchange()
    while !session.isDone && calls < 20 {
      calls += 1
      now = now + .milliseconds(1)
      switch session.next(at: now) {
      case .send: session.receive(reply, at: now)
      case .transmit: session.receiveCard([0x90])
      default: break
      }
    }
    let error = try #require(session.next(at: now).failure)
    #expect(error.code == .cardFailure)
    #expect(error.apduError?.code == .truncatedStatusWord)
  }

  @Test func cancelEndsTheSession() {
    var session = AdminSession(configuration)
    _ = session.next(at: ms(0))
    session.cancel()
    #expect(session.next(at: ms(1)) == .failed(RemoteManagementError(.cancelled, round: 1 - 1)))
  }

  @Test func backoffGrowsByTheMultiplier() {
    let policy = AdminRetryPolicy(maximumAttempts: 5, initialBackoff: .milliseconds(250), multiplier: 2)
    #expect((2...5).map(policy.backoff(beforeAttempt:)) == [250, 500, 1000, 2000].map { .milliseconds($0) })
  }

  /// Hostile settings saturate instead of trapping: the wait stops at the policy's maximum and
  /// the deadlines at the clock's distant future.
  @Test func hostileTimingNeverTraps() {
    let policy = AdminRetryPolicy(
      maximumAttempts: 200, initialBackoff: .seconds(Int64.max), multiplier: Int.max)
    #expect(policy.backoff(beforeAttempt: 2) == AdminRetryPolicy.maximumBackoff)
    #expect(policy.backoff(beforeAttempt: 200) == AdminRetryPolicy.maximumBackoff)
    let growing = AdminRetryPolicy(maximumAttempts: 200, initialBackoff: .nanoseconds(1), multiplier: Int.max)
    #expect(growing.backoff(beforeAttempt: 3) == .nanoseconds(Int64.max))
    #expect(growing.backoff(beforeAttempt: 200) == AdminRetryPolicy.maximumBackoff)
    var slow = configuration
    slow.roundTripTimeout = .seconds(Int64.max) * 4
    var session = AdminSession(slow)
    guard case .send(_, let deadline) = session.next(at: ms(5)) else {
      Issue.record("no request")
      return
    }
    #expect(deadline == .distantFuture)
  }
}

extension AdminHTTPResult {
  var response: AdminResponse? {
    if case .response(let response) = self { return response }
    return nil
  }
}

extension AdminAction {
  var failure: RemoteManagementError? {
    if case .failed(let error) = self { return error }
    return nil
  }
}
