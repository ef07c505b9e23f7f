// SPDX-License-Identifier: Apache-2.0
import ISO7816

#if !hasFeature(Embedded)
  /// What became of one HTTP POST an ``AdminHTTPClient`` sent.
  public enum AdminHTTPResult: Sendable, Hashable {
    /// The server answered.
    case response(AdminResponse)
    /// The connection could not be made or dropped before the response (the reason).
    case connectionFailed(String)
    /// No response within the timeout.
    case timedOut
    /// The response body passed the client's limit (`limit` bytes) while it arrived: the
    /// transfer was abandoned and nothing of the body is kept.
    case bodyTooLarge(limit: Int)
  }

  /// The caller's HTTP client: sends one ``AdminRequest`` and reports what happened. It must
  /// not follow redirections itself (the session does, to detect loops).
  ///
  /// The client is where a server's bytes are bounded: the session keeps the body and headers
  /// it is handed and parses the body once. A client should refuse a body over its own limit
  /// while it arrives (``AdminHTTPResult/bodyTooLarge(limit:)``), bound the headers, and return by `timeout`
  /// whatever the server does (`RemoteManagementHTTP`'s `URLSessionAdminClient` does all three).
  public protocol AdminHTTPClient {
    /// Sends `request`, giving up after `timeout`.
    mutating func send(_ request: AdminRequest, timeout: Duration) async -> AdminHTTPResult
  }

  /// A driver's sleep handed to the unstructured task that runs it: the driver awaits that
  /// task at once, so the closure never runs while the driver does.
  private struct SleepHandOff: @unchecked Sendable {
    let sleep: (MonotonicInstant) async -> Void
  }

  /// Runs an ``AdminSession`` with an HTTP client, an APDU transport to the card and a
  /// monotonic clock, reporting each event with the progress after it.
  public struct AdminSessionDriver<Client: AdminHTTPClient, Transport: APDUTransport> {
    /// The HTTP client.
    public var client: Client
    /// The card.
    public var transport: Transport
    /// The clock: the current instant of a monotonic clock.
    public var now: () -> MonotonicInstant
    /// Sleeps until the given instant of that clock (a retry's backoff).
    public var sleep: (MonotonicInstant) async -> Void
    /// The card transport's last error, when a failure ended a script
    /// (``RemoteManagementError/Code/cardRemoved``).
    public private(set) var lastTransportError: Transport.Failure?
    /// Whether a cancelled task cancels the session (off for updates that cannot be
    /// cancelled once started). When off, a retry's backoff in a cancelled task still waits
    /// until its instant: ``sleep`` then runs in an unstructured task, which is not cancelled.
    public var honoursCancellation = true

    /// Creates a driver; by default the clock is `ContinuousClock` (its origin when the
    /// driver is made) and sleeping is `Task.sleep(until:)` on it.
    public init(
      client: Client, transport: Transport, now: (() -> MonotonicInstant)? = nil,
      sleep: ((MonotonicInstant) async -> Void)? = nil
    ) {
      self.client = client
      self.transport = transport
      let origin = ContinuousClock.now
      self.now = now ?? { MonotonicInstant(ContinuousClock.now, origin: origin) }
      self.sleep =
        sleep ?? { instant in
          try? await Task.sleep(until: instant.continuousClockInstant(origin: origin), clock: .continuous)
        }
    }

    /// Runs `session` to its end; a cancelled task cancels the session.
    ///
    /// - Returns: the summary when the server ended the session (204), or the error.
    public mutating func run(
      _ session: inout AdminSession, onEvent: (AdminEvent, AdminProgress) -> Void = { _, _ in }
    ) async -> Result<AdminSummary, RemoteManagementError> {
      while true {
        if honoursCancellation && Task.isCancelled { session.cancel() }
        let action = session.next(at: now())
        for event in session.takeEvents() { onEvent(event, session.progress) }
        switch action {
        case .send(let request, let deadline):
          let result = await client.send(request, timeout: max(deadline - now(), .milliseconds(1)))
          switch result {
          case .response(let response): session.receive(response, at: now())
          case .connectionFailed(let reason): session.connectionFailed(reason: reason, at: now())
          case .timedOut: session.timedOut(at: now())
          case .bodyTooLarge(let limit): session.bodyTooLarge(limit: limit, at: now())
          }
        case .wait(let time):
          if !honoursCancellation && Task.isCancelled {
            // `Task.sleep` returns at once in a cancelled task, and the loop would spin for the
            // whole backoff: an unstructured task is not cancelled, so the wait is real.
            let handOff = SleepHandOff(sleep: sleep)
            await Task { await handOff.sleep(time) }.value
          } else {
            await sleep(time)
          }
        case .transmit(let bytes):
          do {
            let reply = try await transport.transmit(bytes)
            session.receiveCard(reply)
          } catch {
            lastTransportError = error
            session.cardRemoved()
          }
        case .finished(let summary):
          for event in session.takeEvents() { onEvent(event, session.progress) }
          return .success(summary)
        case .failed(let error):
          for event in session.takeEvents() { onEvent(event, session.progress) }
          return .failure(error)
        }
      }
    }
  }
#endif
