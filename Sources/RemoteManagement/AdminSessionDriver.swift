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
  }

  /// The caller's HTTP client: sends one ``AdminRequest`` and reports what happened. It must
  /// not follow redirections itself (the session does, to detect loops).
  public protocol AdminHTTPClient {
    /// Sends `request`, giving up after `timeout` milliseconds.
    mutating func send(_ request: AdminRequest, timeout: Int64) async -> AdminHTTPResult
  }

  /// Runs an ``AdminSession`` with an HTTP client, an APDU transport to the card and a
  /// clock (milliseconds), reporting each event with the progress after it.
  public struct AdminSessionDriver<Client: AdminHTTPClient, Transport: APDUTransport> {
    /// The HTTP client.
    public var client: Client
    /// The card.
    public var transport: Transport
    /// The clock: milliseconds on a monotonic clock.
    public var now: () -> Int64
    /// Sleeps for the given milliseconds (a retry's backoff).
    public var sleep: (Int64) async -> Void
    /// The card transport's last error, when a failure ended a script
    /// (``RemoteManagementError/Code/cardRemoved``).
    public private(set) var lastTransportError: Transport.Failure?
    /// Whether a cancelled task cancels the session (off for updates that cannot be
    /// cancelled once started).
    public var honoursCancellation = true

    /// Creates a driver; by default the clock is `ContinuousClock` and sleeping is
    /// `Task.sleep`.
    public init(
      client: Client, transport: Transport, now: (() -> Int64)? = nil, sleep: ((Int64) async -> Void)? = nil
    ) {
      self.client = client
      self.transport = transport
      let start = ContinuousClock.now
      self.now =
        now ?? {
          let elapsed = ContinuousClock.now - start
          return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        }
      self.sleep = sleep ?? { milliseconds in try? await Task.sleep(for: .milliseconds(milliseconds)) }
    }

    /// Runs `session` to its end; a cancelled task cancels the session.
    ///
    /// - Returns: the summary when the server ended the session (204), or the error.
    public mutating func run(
      _ session: inout AdminSession, onEvent: (AdminEvent, AdminProgress) -> Void = { _, _ in }
    ) async -> Result<AdminSummary, RemoteManagementError> {
      while true {
        if honoursCancellation && Task.isCancelled { session.cancel() }
        let action = session.next(now: now())
        for event in session.takeEvents() { onEvent(event, session.progress) }
        switch action {
        case .send(let request, let deadline):
          let result = await client.send(request, timeout: max(deadline - now(), 1))
          switch result {
          case .response(let response): session.receive(response, now: now())
          case .connectionFailed(let reason): session.connectionFailed(now: now(), reason: reason)
          case .timedOut: session.timedOut(now: now())
          }
        case .wait(let time):
          await sleep(max(time - now(), 0))
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
