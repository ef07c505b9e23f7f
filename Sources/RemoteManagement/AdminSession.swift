// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCWire

/// The agent side of a GlobalPlatform Amendment B remote administration session (Card
/// Specification v2.2 Amendment B v1.1 §3), without I/O: no socket, no clock, no card.
///
/// The session says what to do next (``next(at:)``): send an HTTP POST, wait for a
/// retry's backoff, send command APDU bytes to the card, or stop. The caller does it and
/// reports what happened. Each 200 response carries an ETSI TS 102 226 §5.2.1 command
/// scripting template; the session selects the targeted application, runs the script
/// through `ScriptRun` (GET RESPONSE and chaining as the
/// ``AdminSessionConfiguration/exchangeOptions`` say) and posts the §5.2.2 response
/// scripting template to `X-Admin-Next-URI` with `X-Admin-Script-Status`, until the
/// server answers 204 No Content.
///
/// ```swift
/// var session = AdminSession(AdminSessionConfiguration(serverURI: "https://ram.example/start"))
/// loop: while true {
///   switch session.next(at: clock()) {
///   case .send(let request, _): session.receive(try http.post(request), at: clock())
///   case .wait(let time): sleep(until: time)
///   case .transmit(let bytes): session.receiveCard(try card.transmit(bytes))
///   case .finished, .failed: break loop
///   }
/// }
/// ```
///
/// Time is the caller's: a `MonotonicInstant` of any monotonic clock, intervals as
/// `Duration`s. Every bound is in the
/// configuration: round trips, redirections, attempts per POST and the exchange's own.
///
/// What a server can make the session hold: the last response it was handed (the HTTP
/// client bounds its body and headers, see ``AdminHTTPClient``), the script parsed from that
/// body (one pass, no recursion: at most one command per 6 body bytes, each owned, so a few
/// times the body's size), the redirections visited (at most
/// ``AdminSessionConfiguration/maximumRedirects`` URIs) and the response script being built
/// (one response per command run, each as long as the card's answer). Header lookups are
/// linear in the number of headers; URI resolution linear in the URIs' lengths.
/// Events that arrive in the wrong phase (a card answer while a POST is out, anything
/// after the end) are ignored.
public struct AdminSession: Sendable {
  /// The settings and bounds.
  public let configuration: AdminSessionConfiguration
  /// Command scripts received so far (the number of the round trip whose script runs).
  public private(set) var round: Int
  /// POSTs handed out, retries included.
  public private(set) var requestCount = 0
  /// Commands executed, progress over the scripts known so far.
  public private(set) var progress = AdminProgress()
  /// Where the session can be resumed after a failure (``init(resuming:configuration:)``).
  public private(set) var checkpoint: AdminCheckpoint
  /// The application selected on the card by the session, if any.
  public private(set) var selectedApplication: ApplicationIdentifier?

  private var phase: Phase
  private var attempt = 1
  private var visited: [String] = []
  private var nextURI: String
  private var events: [AdminEvent] = []
  private var failures: [AdminCommandFailure] = []
  private var refused: [Int] = []
  private var executed = 0

  private enum Phase: Sendable {
    case ready(AdminRequest)
    case backoff(AdminRequest, until: MonotonicInstant)
    case awaiting(AdminRequest, deadline: MonotonicInstant)
    case selecting(ScriptRun, RemoteCommandScript, ApplicationIdentifier)
    case running(ScriptRun)
    case finished(AdminSummary)
    case failed(RemoteManagementError)
  }

  /// Starts a session: the first POST goes to ``AdminSessionConfiguration/serverURI``
  /// without a body.
  public init(_ configuration: AdminSessionConfiguration) {
    self.configuration = configuration
    round = 0
    nextURI = configuration.serverURI
    checkpoint = AdminCheckpoint(uri: configuration.serverURI, round: 0)
    phase = .ready(
      Self.request(configuration, uri: configuration.serverURI, body: [], status: nil, resume: false))
  }

  /// Resumes an interrupted session: the checkpoint's request goes out again with
  /// `X-Admin-Resume: true`, and round trips count on from the checkpoint's.
  public init(resuming checkpoint: AdminCheckpoint, configuration: AdminSessionConfiguration) {
    self.configuration = configuration
    self.checkpoint = checkpoint
    round = max(checkpoint.round, 0)
    nextURI = checkpoint.uri
    phase = .ready(
      Self.request(
        configuration, uri: checkpoint.uri, body: checkpoint.body, status: checkpoint.scriptStatus,
        resume: true))
  }

  /// Whether the session has finished or failed.
  public var isDone: Bool {
    switch phase {
    case .finished, .failed: return true
    default: return false
    }
  }

  /// The events since the last call, oldest first.
  public mutating func takeEvents() -> [AdminEvent] {
    defer { events = [] }
    return events
  }

  /// What to do next at `now` on the caller's clock.
  public mutating func next(at now: MonotonicInstant) -> AdminAction {
    switch phase {
    case .ready(let request):
      requestCount += 1
      events.append(.posting(round: round + 1, attempt: attempt, uri: request.uri))
      let limit = now + max(configuration.roundTripTimeout, .zero)
      phase = .awaiting(request, deadline: limit)
      return .send(request, deadline: limit)
    case .backoff(let request, let until):
      guard now >= until else { return .wait(until: until) }
      phase = .ready(request)
      return next(at: now)
    case .awaiting(_, let deadline):
      guard now >= deadline else { return .wait(until: deadline) }
      timedOut(at: now)
      return next(at: now)
    case .selecting(let run, _, _), .running(let run):
      guard let bytes = run.nextCommand else {
        phase = .failed(RemoteManagementError(.cardFailure, round: round))
        return next(at: now)
      }
      return .transmit(bytes)
    case .finished(let summary): return .finished(summary)
    case .failed(let error): return .failed(error)
    }
  }

  /// Reports the HTTP response to the POST out, received at `now`.
  public mutating func receive(_ response: AdminResponse, at now: MonotonicInstant) {
    guard case .awaiting(let request, let deadline) = phase else { return }
    let number = round + 1
    if now > deadline {
      retryOrFail(RemoteManagementError(.roundTripTimeout, round: number), request, now: now)
      return
    }
    let status = response.statusCode
    if status >= 300 && status < 400 {
      guard let location = response.header(AdminProtocol.locationHeader), !location.isEmpty else {
        fail(RemoteManagementError(.httpStatus, round: number, httpStatus: status))
        return
      }
      let target = Self.resolve(location, against: request.uri)
      guard visited.count < configuration.maximumRedirects, target != request.uri, !visited.contains(target)
      else {
        fail(RemoteManagementError(.redirectLoop, round: number, httpStatus: status))
        return
      }
      visited.append(target)
      events.append(.redirected(round: number, uri: target))
      var moved = request
      moved.uri = target
      phase = .ready(moved)
      return
    }
    if status == AdminProtocol.statusNoContent {
      events.append(.ended(rounds: round))
      phase = .finished(
        AdminSummary(
          rounds: round, executedCommands: executed, requests: requestCount, commandFailures: failures,
          refusedScripts: refused))
      return
    }
    guard status == AdminProtocol.statusOK else {
      let error = RemoteManagementError(.httpStatus, round: number, httpStatus: status)
      if configuration.retryPolicy.retriedStatusCodes.contains(status) {
        retryOrFail(error, request, now: now)
      } else {
        fail(error)
      }
      return
    }
    guard let protocolValue = response.header(AdminProtocol.protocolHeader) else {
      fail(RemoteManagementError(.missingHeader, round: number, header: AdminProtocol.protocolHeader))
      return
    }
    guard ASCII.compacted(protocolValue) == AdminProtocol.protocolVersion else {
      fail(RemoteManagementError(.wrongProtocol, round: number, header: protocolValue))
      return
    }
    let contentType = response.header(AdminProtocol.contentTypeHeader) ?? ""
    guard ASCII.compacted(contentType) == AdminProtocol.commandContentType else {
      fail(RemoteManagementError(.wrongContentType, round: number, header: contentType))
      return
    }
    guard let next = response.header(AdminProtocol.nextURIHeader), !next.isEmpty else {
      fail(RemoteManagementError(.missingHeader, round: number, header: AdminProtocol.nextURIHeader))
      return
    }
    var application: ApplicationIdentifier? = nil
    if let targeted = response.header(AdminProtocol.targetedApplicationHeader) {
      guard let aid = Self.targetedApplication(targeted) else {
        fail(RemoteManagementError(.invalidTargetedApplication, round: number, header: targeted))
        return
      }
      application = aid
    }
    let script: RemoteCommandScript
    do { script = try RemoteCommandScript(parsing: response.body) } catch {
      fail(RemoteManagementError(.malformedScript, round: number, apduError: error))
      return
    }
    guard number <= configuration.maximumRoundTrips else {
      fail(RemoteManagementError(.tooManyRoundTrips, round: number))
      return
    }
    round = number
    attempt = 1
    visited = []
    nextURI = Self.resolve(next, against: request.uri)
    checkpoint = AdminCheckpoint(uri: nextURI, round: round - 1)
    progress.rounds = round
    progress.knownCommands += script.script.steps.count
    events.append(
      .scriptReceived(round: round, commandCount: script.script.steps.count, application: application))
    if let target = application ?? configuration.securityDomain, target != selectedApplication {
      let select = Script(steps: [
        ScriptStep(command: GlobalPlatformCommands.select(target), expectedStatusWords: [])
      ])
      phase = .selecting(ScriptRun(script: select, options: configuration.exchangeOptions), script, target)
    } else {
      startRunning(script)
    }
  }

  /// Reports that the POST out could not be sent or its connection dropped at `now`;
  /// `reason` (the HTTP client's message) is kept in the error.
  public mutating func connectionFailed(reason: String? = nil, at now: MonotonicInstant) {
    guard case .awaiting(let request, _) = phase else { return }
    retryOrFail(RemoteManagementError(.transportFailed, round: round + 1, detail: reason), request, now: now)
  }

  /// Reports that the response to the POST out had a body over the HTTP client's limit of
  /// `limit` bytes (refused while it arrived). Not retried: the session fails with
  /// ``RemoteManagementError/Code/bodyTooLarge`` (detail `response body over N bytes`).
  public mutating func bodyTooLarge(limit: Int, at now: MonotonicInstant) {
    guard case .awaiting = phase else { return }
    fail(RemoteManagementError(.bodyTooLarge, round: round + 1, detail: "response body over \(limit) bytes"))
  }

  /// Reports that the POST out had no response by its deadline.
  public mutating func timedOut(at now: MonotonicInstant) {
    guard case .awaiting(let request, _) = phase else { return }
    retryOrFail(RemoteManagementError(.roundTripTimeout, round: round + 1), request, now: now)
  }

  /// Reports the card's response to the bytes of the last ``AdminAction/transmit(_:)``.
  public mutating func receiveCard(_ bytes: [UInt8]) {
    switch phase {
    case .selecting(var run, let script, let target):
      do { _ = try run.receive(bytes) } catch {
        fail(RemoteManagementError(.cardFailure, round: round, apduError: error))
        return
      }
      guard run.isFinished else {
        phase = .selecting(run, script, target)
        return
      }
      let sw = run.responses.last?.statusWord ?? .success
      if StatusWordPattern.remoteAPDUNonError.contains(where: { $0.matches(sw) }) {
        selectedApplication = target
        startRunning(script)
      } else {
        selectedApplication = nil
        let status = Self.scriptStatus(refusing: sw)
        events.append(.applicationRefused(round: round, statusWord: sw, status: status))
        refused.append(round)
        progress.knownCommands -= script.script.steps.count
        post(body: [], status: status)
      }
    case .running(var run):
      let index = run.currentStep ?? 0
      let count = run.script.steps.count
      do {
        if let response = try run.receive(bytes) {
          progress.completedCommands += 1
          events.append(
            .commandFinished(
              round: round, index: index, count: count, command: run.script.steps[index].command,
              statusWord: response.statusWord, accepted: true))
        }
      } catch {
        guard error.code == .unexpectedStatusWord || error.code == .unexpectedResponseData,
          let response = run.responses.last
        else {
          fail(RemoteManagementError(.cardFailure, round: round, step: index, apduError: error))
          return
        }
        progress.completedCommands += 1
        let command = run.script.steps[index].command
        failures.append(
          AdminCommandFailure(round: round, step: index, command: command, statusWord: response.statusWord))
        events.append(
          .commandFinished(
            round: round, index: index, count: count, command: command, statusWord: response.statusWord,
            accepted: false))
      }
      if run.isFinished {
        finishScript(run)
      } else {
        phase = .running(run)
      }
    default: return
    }
  }

  /// Reports that the card went away while a script ran: the session fails with
  /// ``RemoteManagementError/Code/cardRemoved``; ``checkpoint`` resumes at the script's
  /// round trip (the server is expected to send the script again).
  public mutating func cardRemoved() {
    switch phase {
    case .selecting:
      selectedApplication = nil
      fail(RemoteManagementError(.cardRemoved, round: round, step: nil))
    case .running(let run):
      selectedApplication = nil
      fail(RemoteManagementError(.cardRemoved, round: round, step: run.currentStep))
    default: return
    }
  }

  /// Ends the session at once with ``RemoteManagementError/Code/cancelled``.
  public mutating func cancel() {
    guard !isDone else { return }
    fail(RemoteManagementError(.cancelled, round: round))
  }

  // MARK: - Steps

  private mutating func startRunning(_ script: RemoteCommandScript) {
    let run = ScriptRun(script: script.script, options: configuration.exchangeOptions)
    if run.isFinished {
      finishScript(run)
    } else {
      phase = .running(run)
    }
  }

  private mutating func finishScript(_ run: ScriptRun) {
    if let failure = run.failure,
      failure.code != .unexpectedStatusWord && failure.code != .unexpectedResponseData
    {
      // A command that could not even be encoded for the exchange.
      fail(RemoteManagementError(.cardFailure, round: round, step: failure.step, apduError: failure))
      return
    }
    let result = run.result
    executed += result.executedCount
    progress.knownCommands -= run.script.steps.count - result.executedCount
    post(body: result.responseScript().encodedBytes(), status: .ok)
  }

  private mutating func post(body: [UInt8], status: AdminScriptStatus) {
    checkpoint = AdminCheckpoint(uri: nextURI, body: body, scriptStatus: status, round: round)
    phase = .ready(Self.request(configuration, uri: nextURI, body: body, status: status, resume: false))
  }

  private mutating func retryOrFail(
    _ error: RemoteManagementError, _ request: AdminRequest, now: MonotonicInstant
  ) {
    guard attempt < configuration.retryPolicy.maximumAttempts else {
      fail(error)
      return
    }
    attempt += 1
    let wait = configuration.retryPolicy.backoff(beforeAttempt: attempt)
    let time = now + wait
    var again = request
    if again.header(AdminProtocol.resumeHeader) == nil {
      again.headers.append(AdminHeaderField(AdminProtocol.resumeHeader, "true"))
    }
    events.append(.retrying(round: round + 1, attempt: attempt, at: time, reason: error))
    phase = .backoff(again, until: time)
  }

  private mutating func fail(_ error: RemoteManagementError) {
    phase = .failed(error)
  }

  // MARK: - Wire helpers

  static func request(
    _ configuration: AdminSessionConfiguration, uri: String, body: [UInt8], status: AdminScriptStatus?,
    resume: Bool
  ) -> AdminRequest {
    var headers = [AdminHeaderField(AdminProtocol.protocolHeader, AdminProtocol.protocolVersion)]
    if let from = configuration.agentIdentifier {
      headers.append(AdminHeaderField(AdminProtocol.fromHeader, from))
    }
    if !body.isEmpty {
      headers.append(AdminHeaderField(AdminProtocol.contentTypeHeader, AdminProtocol.responseContentType))
    }
    if let status { headers.append(AdminHeaderField(AdminProtocol.scriptStatusHeader, status.rawValue)) }
    if resume { headers.append(AdminHeaderField(AdminProtocol.resumeHeader, "true")) }
    return AdminRequest(uri: uri, headers: headers, body: body)
  }

  /// The script status for a targeted application whose SELECT answered `sw`: 6A82 (not
  /// found) `unknown-application`; 6982, 6985 (security status, conditions of use)
  /// `security-error`; anything else `not-a-security-domain`.
  static func scriptStatus(refusing sw: StatusWord) -> AdminScriptStatus {
    if sw == .fileNotFound { return .unknownApplication }
    if sw == .securityStatusNotSatisfied || sw == .conditionsOfUseNotSatisfied { return .securityError }
    return .notASecurityDomain
  }

  /// The AID of an `X-Admin-Targeted-Application` value `//aid/RID/PIX` (RID and PIX in
  /// hex, PIX optional), or `nil`.
  public static func targetedApplication(_ value: String) -> ApplicationIdentifier? {
    let bytes = Array(value.utf8)
    let prefix = Array("//aid/".utf8)
    guard bytes.count > prefix.count else { return nil }
    for index in 0..<prefix.count where ASCII.lower(bytes[index]) != prefix[index] { return nil }
    let rest = bytes[prefix.count...]
    let parts = rest.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
    guard parts.count == 1 || parts.count == 2 else { return nil }
    guard let rid = Hex.bytes(String(decoding: parts[0], as: UTF8.self)), rid.count == 5 else { return nil }
    var aid = rid
    if parts.count == 2 {
      guard let pix = Hex.bytes(String(decoding: parts[1], as: UTF8.self)) else { return nil }
      aid += pix
    }
    return try? ApplicationIdentifier(aid)
  }

  /// The `X-Admin-Targeted-Application` value of `aid`: `//aid/RID/PIX` in uppercase hex.
  public static func targetedApplicationValue(_ aid: ApplicationIdentifier) -> String {
    let pix = aid.pix
    return "//aid/" + upperHex(aid.rid) + (pix.isEmpty ? "" : "/" + upperHex(pix))
  }

  private static func upperHex(_ bytes: [UInt8]) -> String { Hex.uppercaseString(bytes) }

  /// `reference` (absolute, absolute-path or relative) resolved against the absolute `base`.
  public static func resolve(_ reference: String, against base: String) -> String {
    let ref = Array(reference.utf8)
    if startsWithScheme(ref) { return reference }
    let text = Array(base.utf8)
    var originEnd = text.count
    if let scheme = find(Array("://".utf8), in: text) {
      originEnd = text[(scheme + 3)...].firstIndex(of: UInt8(ascii: "/")) ?? text.count
    }
    if ref.first == UInt8(ascii: "/") {
      return String(decoding: text[..<originEnd], as: UTF8.self) + reference
    }
    var pathEnd =
      text[originEnd...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? text.count
    while pathEnd > originEnd && text[pathEnd - 1] != UInt8(ascii: "/") { pathEnd -= 1 }
    let directory = String(decoding: text[..<pathEnd], as: UTF8.self)
    return directory + (pathEnd == originEnd ? "/" : "") + reference
  }

  private static func startsWithScheme(_ bytes: [UInt8]) -> Bool {
    for scheme in ["http://", "https://"] {
      let s = Array(scheme.utf8)
      if bytes.count >= s.count && (0..<s.count).allSatisfy({ ASCII.lower(bytes[$0]) == s[$0] }) {
        return true
      }
    }
    return false
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    for start in 0...(haystack.count - needle.count)
    where (0..<needle.count).allSatisfy({ haystack[start + $0] == needle[$0] }) {
      return start
    }
    return nil
  }
}
