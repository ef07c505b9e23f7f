// SPDX-License-Identifier: Apache-2.0
import ISO7816
import RemoteManagement

/// The Amendment B session fed with server responses and card answers taken from the input:
/// for each POST one byte picks the response (a script, 204, a redirection, an error
/// status, a dropped connection, a timeout, headers missing or wrong) with its bytes from
/// the input; for each APDU a length byte and that many answer bytes (0xFF: card removed).
/// It must never trap, end with a summary or a typed error once the input is used up (then
/// the server says 204 and the card 9000), and stay within its bounds.
public enum AdminSessionOracle {
  static let configuration = AdminSessionConfiguration(
    serverURI: "https://ram.example/start", agentIdentifier: "//fuzz",
    securityDomain: .globalPlatformIssuerSecurityDomain, maximumRoundTrips: 8, maximumRedirects: 3,
    roundTripTimeout: .seconds(1),
    retryPolicy: AdminRetryPolicy(maximumAttempts: 3, initialBackoff: .milliseconds(10), multiplier: 2))

  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    var input = bytes[...]
    var session = AdminSession(configuration)
    var now = MonotonicInstant.origin
    var steps = 0
    let stepBound = 4 * bytes.count + 10_000
    while true {
      steps += 1
      try require(steps <= stepBound, "the session does not end (\(steps) steps)")
      now = now + .milliseconds(Int64(input.popFirst() ?? 1))
      let action = session.next(at: now)
      _ = session.takeEvents()
      try require(session.round <= configuration.maximumRoundTrips, "round \(session.round) over the bound")
      switch action {
      case .send(let request, let deadline):
        try require(request.method == "POST", "not a POST")
        try require(
          request.header(AdminProtocol.protocolHeader) == AdminProtocol.protocolVersion, "no protocol")
        try require(deadline >= now, "a deadline in the past")
        respond(&session, &input, now: now)
      case .wait(let time):
        try require(time >= now, "a wait into the past")
        now = time
      case .transmit(let command):
        try require(command.count >= 4, "a command APDU under 4 bytes")
        guard let length = input.popFirst() else {
          session.receiveCard([0x90, 0x00])
          continue
        }
        if length == 0xFF {
          session.cardRemoved()
        } else {
          let answer = Array(input.prefix(Int(length % 64)))
          input = input.dropFirst(answer.count)
          session.receiveCard(answer)
        }
      case .finished(let summary):
        try require(summary.rounds <= configuration.maximumRoundTrips, "summary over the bound")
        return
      case .failed:
        return
      }
    }
  }

  private static func take(_ input: inout ArraySlice<UInt8>, _ count: Int) -> [UInt8] {
    let bytes = Array(input.prefix(count))
    input = input.dropFirst(bytes.count)
    return bytes
  }

  private static func respond(
    _ session: inout AdminSession, _ input: inout ArraySlice<UInt8>, now: MonotonicInstant
  ) {
    guard let choice = input.popFirst() else {
      session.receive(AdminResponse(statusCode: 204), at: now)
      return
    }
    let valid = [
      AdminHeaderField("X-Admin-Protocol", AdminProtocol.protocolVersion),
      AdminHeaderField("Content-Type", AdminProtocol.commandContentType),
      AdminHeaderField("X-Admin-Next-URI", "/next/\(choice)"),
    ]
    switch choice % 9 {
    case 0:
      session.receive(AdminResponse(statusCode: 204), at: now)
    case 1:
      let length = Int(input.popFirst() ?? 0)
      session.receive(AdminResponse(statusCode: 200, headers: valid, body: take(&input, length)), at: now)
    case 2:
      let location = String(decoding: take(&input, Int((input.popFirst() ?? 0) % 16)), as: UTF8.self)
      session.receive(
        AdminResponse(statusCode: 300 + Int(choice % 9), headers: [AdminHeaderField("Location", location)]),
        at: now)
    case 3:
      let code = take(&input, 2).reduce(0) { $0 << 8 | Int($1) }
      session.receive(AdminResponse(statusCode: code % 600), at: now)
    case 4: session.connectionFailed(at: now)
    case 5: session.timedOut(at: now)
    case 6:
      // Some of the headers, possibly a targeted application.
      let flags = input.popFirst() ?? 0
      var headers = valid.enumerated().filter { flags & (1 << $0.offset) != 0 }.map(\.element)
      if flags & 0x08 != 0 {
        let text = String(decoding: take(&input, Int(flags >> 4)), as: UTF8.self)
        headers.append(AdminHeaderField("X-Admin-Targeted-Application", "//aid/" + text))
      }
      let body = take(&input, Int(input.popFirst() ?? 0))
      session.receive(AdminResponse(statusCode: 200, headers: headers, body: body), at: now)
    case 7:
      // A well-formed script of up to 7 commands, each INS from the input.
      let count = Int((input.popFirst() ?? 0) % 8)
      let steps = take(&input, count).map {
        ScriptStep(command: CommandAPDU(cla: 0x80, ins: $0, p1: 0, p2: 0, ne: 256))
      }
      let body = (try? RemoteCommandScript(script: Script(steps: steps)).encodedBytes()) ?? []
      session.receive(AdminResponse(statusCode: 200, headers: valid, body: body), at: now)
    default:
      // Late: after the deadline.
      session.receive(AdminResponse(statusCode: 204), at: now + .seconds(5))
    }
  }
}
