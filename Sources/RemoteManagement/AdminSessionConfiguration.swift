// SPDX-License-Identifier: Apache-2.0
import ISO7816
@_exported import MonotonicTime

/// How often and when a failed POST is sent again: after a dropped connection, a timeout
/// or a 5xx status, up to ``maximumAttempts`` in all, waiting ``initialBackoff`` and then
/// ``multiplier`` times longer before each further attempt. Retries carry
/// `X-Admin-Resume: true` (Amendment B §3).
public struct AdminRetryPolicy: Sendable, Hashable {
  /// Attempts per POST, the first included (1: no retry).
  public var maximumAttempts: Int
  /// The wait before the second attempt.
  public var initialBackoff: Duration
  /// The factor applied to the wait for each further attempt.
  public var multiplier: Int
  /// The HTTP status codes that are retried (by default 500, 502, 503, 504).
  public var retriedStatusCodes: [Int]

  /// Creates a policy.
  public init(
    maximumAttempts: Int = 3, initialBackoff: Duration = .milliseconds(500), multiplier: Int = 2,
    retriedStatusCodes: [Int] = [500, 502, 503, 504]
  ) {
    self.maximumAttempts = maximumAttempts
    self.initialBackoff = initialBackoff
    self.multiplier = multiplier
    self.retriedStatusCodes = retriedStatusCodes
  }

  /// No retries.
  public static let none = AdminRetryPolicy(maximumAttempts: 1)

  /// The longest wait the policy gives (a multiplier applied many times stops here).
  public static let maximumBackoff = Duration.seconds(Int64.max / 2)

  /// The wait before attempt `attempt` (2 for the first retry): ``initialBackoff`` ×
  /// ``multiplier``^(attempt − 2), at most ``maximumBackoff``; negative settings count as
  /// zero and a multiplier below 1 as 1.
  public func backoff(beforeAttempt attempt: Int) -> Duration {
    var wait = min(max(initialBackoff, .zero), Self.maximumBackoff)
    let factor = max(multiplier, 1)
    var index = 2
    while index < attempt && wait < Self.maximumBackoff && factor > 1 {
      // Compared before multiplying, so the product never leaves Duration's range.
      wait = wait > Self.maximumBackoff / factor ? Self.maximumBackoff : wait * factor
      index += 1
    }
    return wait
  }
}

/// The settings and bounds of an ``AdminSession``.
public struct AdminSessionConfiguration: Sendable, Hashable {
  /// The absolute URI of the first POST (`http://` or `https://`).
  public var serverURI: String
  /// The `X-Admin-From` value identifying the agent (e.g. `//se-id/...`), or `nil` to omit it.
  public var agentIdentifier: String?
  /// The security domain selected before a script that names no targeted application, or
  /// `nil` to run such scripts on whatever is selected.
  public var securityDomain: ApplicationIdentifier?
  /// The most command scripts (round trips with a 200 response) accepted.
  public var maximumRoundTrips: Int
  /// The most HTTP redirections (3xx) followed for one POST.
  public var maximumRedirects: Int
  /// How long from sending a POST to its response before it counts as timed out.
  public var roundTripTimeout: Duration
  /// Retries of a failed POST.
  public var retryPolicy: AdminRetryPolicy
  /// The exchange options for every command (GET RESPONSE, chaining, ...).
  public var exchangeOptions: APDUExchangeOptions

  /// Creates a configuration.
  public init(
    serverURI: String, agentIdentifier: String? = nil, securityDomain: ApplicationIdentifier? = nil,
    maximumRoundTrips: Int = 64, maximumRedirects: Int = 5, roundTripTimeout: Duration = .seconds(30),
    retryPolicy: AdminRetryPolicy = AdminRetryPolicy(),
    exchangeOptions: APDUExchangeOptions = .standard
  ) {
    self.serverURI = serverURI
    self.agentIdentifier = agentIdentifier
    self.securityDomain = securityDomain
    self.maximumRoundTrips = maximumRoundTrips
    self.maximumRedirects = maximumRedirects
    self.roundTripTimeout = roundTripTimeout
    self.retryPolicy = retryPolicy
    self.exchangeOptions = exchangeOptions
  }
}

/// Where an interrupted session can be resumed: the URI to post to and the request that
/// was not answered (its body and script status), re-sent with `X-Admin-Resume: true`.
public struct AdminCheckpoint: Sendable, Hashable {
  /// The URI of the next POST.
  public var uri: String
  /// The body of the unanswered request (empty when the script did not finish).
  public var body: [UInt8]
  /// The script status of the unanswered request, `nil` for the first POST or a script
  /// that did not finish.
  public var scriptStatus: AdminScriptStatus?
  /// Round trips completed before the interruption.
  public var round: Int

  /// Creates a checkpoint.
  public init(uri: String, body: [UInt8] = [], scriptStatus: AdminScriptStatus? = nil, round: Int) {
    self.uri = uri
    self.body = body
    self.scriptStatus = scriptStatus
    self.round = round
  }
}
