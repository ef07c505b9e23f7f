// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
@_exported import MonotonicTime

/// A sans-IO connection lifecycle for one card reader: discover → connect → stay connected
/// (reconnect when the link drops unexpectedly) → disconnect.
///
/// It never reads a clock or touches a radio. The caller feeds link events
/// (``linkConnected(at:)``, ``linkConnectFailed(_:at:)``, ``linkDisconnected(_:at:)``),
/// advertising reports while discovering (``receive(_:at:)``) and time (``advance(to:)``),
/// each at a `MonotonicInstant` of its clock that never goes back, and performs the
/// ``LinkAction``s each call returns. ``nextDeadline`` says when the next timer is due, so the
/// caller sleeps until then or until the next link event. So every scenario is a
/// deterministic test.
///
/// **Status.** ``ConnectionStatus/notConnected`` → ``ConnectionStatus/discovering`` →
/// ``ConnectionStatus/connecting`` → ``ConnectionStatus/connected``, and back to
/// ``ConnectionStatus/notConnected`` with a ``DisconnectReason``.
///
/// **Automatic reconnection** (``Configuration/autoReconnectOnUnexpectedDisconnect``, on by
/// default): a link that drops without the app asking gives
/// ``ConnectionEvent/reconnectStarted(reason:handle:)``, then up to
/// ``Configuration/reconnectAttempts`` attempts, attempt *n* after a backoff of
/// ``Configuration/initialBackoff`` × 2^(n−1), capped at ``Configuration/maximumBackoff``,
/// each bounded by ``Configuration/connectTimeout``. It ends with
/// ``ConnectionEvent/reconnectSucceeded``, or ``ConnectionEvent/reconnectFailed(_:)`` and
/// ``ConnectionEvent/disconnected(_:)``. ``cancelReconnect(_:at:)`` stops it at any time.
/// A requested disconnect (``disconnect(at:)``) never reconnects. With the option off, an
/// unexpected drop gives ``ConnectionEvent/disconnected(_:)`` at once.
///
/// **Reconnect at launch.** ``reconnectAtLaunch(serial:profiles:discovery:at:)`` discovers
/// in `ReaderDiscovery.Mode.reconnect(serial:)` mode and connects to the match, or ends
/// with ``ConnectionEvent/notFound`` and stops discovering.
///
/// **Reboot.** ``reboot(at:)`` sends the reader its reboot command; the link drop that
/// follows has reason ``DisconnectReason/reboot`` and reconnects like any unexpected drop.
/// With ``Configuration/dailyRebootInterval`` set, a connected reader is rebooted when that
/// long has passed since it was first connected or last rebooted.
///
/// The data of each state lives in that state (the reader while connecting, the
/// reconnection while reconnecting, the reboot deadline while a link exists), so no
/// combination of fields can disagree, as in swift-nio's state machines.
public struct ConnectionLifecycle: Sendable {
  /// Timing and policy.
  public struct Configuration: Sendable, Hashable {
    /// Reconnect after an unexpected disconnect (default on).
    public var autoReconnectOnUnexpectedDisconnect: Bool
    /// Reconnection attempts before giving up (default 5).
    public var reconnectAttempts: Int
    /// The wait before the first reconnection attempt (default 1 s); doubled for each
    /// further attempt.
    public var initialBackoff: Duration
    /// The longest wait between attempts (default 16 s).
    public var maximumBackoff: Duration
    /// How long one connection attempt may take (default 10 s).
    public var connectTimeout: Duration
    /// Reboot a connected reader this long after it was first connected or last rebooted
    /// (default `nil`: never).
    public var dailyRebootInterval: Duration?

    /// Creates a configuration.
    public init(
      autoReconnectOnUnexpectedDisconnect: Bool = true, reconnectAttempts: Int = 5,
      initialBackoff: Duration = .seconds(1), maximumBackoff: Duration = .seconds(16),
      connectTimeout: Duration = .seconds(10), dailyRebootInterval: Duration? = nil
    ) {
      self.autoReconnectOnUnexpectedDisconnect = autoReconnectOnUnexpectedDisconnect
      self.reconnectAttempts = reconnectAttempts
      self.initialBackoff = initialBackoff
      self.maximumBackoff = maximumBackoff
      self.connectTimeout = connectTimeout
      self.dailyRebootInterval = dailyRebootInterval
    }

    /// The wait before reconnection attempt `number` (1-based): ``initialBackoff`` ×
    /// 2^(number−1), capped at ``maximumBackoff``; negative settings count as zero.
    public func backoff(beforeAttempt number: Int) -> Duration {
      let cap = max(.zero, maximumBackoff)
      var delay = max(.zero, initialBackoff)
      var n = 1
      while n < number && delay < cap {
        // Compared before doubling, so the product never leaves Duration's range.
        delay = delay > cap / 2 ? cap : delay * 2
        n += 1
      }
      return min(delay, cap)
    }
  }

  /// A link to one reader, from the first connection attempt to the end of the session.
  struct Link: Sendable, Hashable {
    var reader: ReaderIdentity
    /// When the next daily reboot is due (set at the first connection, reset by a reboot).
    var rebootDeadline: MonotonicInstant?
  }

  /// A reconnection after an unexpected drop.
  struct Reconnection: Sendable, Hashable {
    var reason: DisconnectReason
    var handle: ReconnectHandle
    /// The attempt waited for or in flight (1-based).
    var attempt: Int
  }

  enum State: Sendable {
    case idle
    case discovering(ReaderDiscovery, connectToChosen: Bool)
    /// The first connection attempt, failing at `deadline`.
    case connecting(Link, deadline: MonotonicInstant)
    /// Connected; `rebootPending` once a reboot was sent and the drop not yet seen.
    case connected(Link, rebootPending: Bool)
    /// Waiting for the reconnection's next attempt, due at `due`.
    case reconnectWaiting(Link, Reconnection, due: MonotonicInstant)
    /// A reconnection attempt in flight, failing at `deadline`.
    case reconnectConnecting(Link, Reconnection, deadline: MonotonicInstant)
  }

  /// The settings.
  public let configuration: Configuration
  var state: State = .idle
  /// The latest instant the caller has given.
  var now: MonotonicInstant = .origin
  var nextHandle: UInt64 = 1

  /// Creates a connection lifecycle, not connected.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
  }

  // MARK: What the app reads

  /// Where the connection stands.
  public var status: ConnectionStatus {
    switch state {
    case .idle: .notConnected
    case .discovering: .discovering
    case .connecting, .reconnectWaiting, .reconnectConnecting: .connecting
    case .connected: .connected
    }
  }

  /// The reader being connected or connected, if any.
  public var reader: ReaderIdentity? { link?.reader }

  /// The discovery being run, while discovering.
  public var discovery: ReaderDiscovery? {
    if case .discovering(let discovery, _) = state { return discovery }
    return nil
  }

  /// When the next daily reboot is due (set at the first connection, reset by a reboot).
  public var rebootDeadline: MonotonicInstant? { link?.rebootDeadline }

  /// The running reconnection's handle, if any.
  public var reconnectHandle: ReconnectHandle? {
    switch state {
    case .reconnectWaiting(_, let r, _), .reconnectConnecting(_, let r, _): r.handle
    default: nil
    }
  }

  /// The earliest instant at which ``advance(to:)`` has something to do: the discovery's
  /// next deadline, a connection attempt's timeout, the next reconnection attempt or the
  /// daily reboot. `nil` when only a link event or an app request can change anything.
  public var nextDeadline: MonotonicInstant? {
    switch state {
    case .idle: nil
    case .discovering(let discovery, _): discovery.nextDeadline
    case .connecting(_, let deadline), .reconnectConnecting(_, _, let deadline): deadline
    case .reconnectWaiting(_, _, let due): due
    case .connected(let link, let rebootPending): rebootPending ? nil : link.rebootDeadline
    }
  }

  var link: Link? {
    switch state {
    case .idle, .discovering: nil
    case .connecting(let link, _), .connected(let link, _), .reconnectWaiting(let link, _, _),
      .reconnectConnecting(let link, _, _):
      link
    }
  }

  // MARK: App requests

  /// Starts `discovery` (from ``ConnectionStatus/notConnected`` only; otherwise nothing
  /// happens). With `connectToChosen`, the reader it chooses (proximity and reconnect
  /// modes) is connected to at once.
  public mutating func discover(
    _ discovery: ReaderDiscovery, connectToChosen: Bool, at time: MonotonicInstant
  ) -> ConnectionOutput {
    var out = advance(to: time)
    guard case .idle = state else { return out }
    var d = discovery
    _ = d.start(at: now)
    enter(.discovering(d, connectToChosen: connectToChosen), &out)
    out.actions.append(.startDiscovery)
    return out
  }

  /// Reconnect at launch: discovers the reader with the saved `serial` and connects to it,
  /// or ends with ``ConnectionEvent/notFound`` at the discovery timeout.
  public mutating func reconnectAtLaunch(
    serial: String, profiles: [ReaderProfile],
    discovery configuration: ReaderDiscovery.Configuration = .init(), at time: MonotonicInstant
  ) -> ConnectionOutput {
    discover(
      ReaderDiscovery(profiles: profiles, mode: .reconnect(serial: serial), configuration: configuration),
      connectToChosen: true, at: time)
  }

  /// Stops discovering (``ConnectionEvent/discoveryStopped``).
  public mutating func stopDiscovery(at time: MonotonicInstant) -> ConnectionOutput {
    var out = advance(to: time)
    guard case .discovering = state else { return out }
    endDiscovery(.discoveryStopped, &out)
    return out
  }

  /// Connects to `reader` (from ``ConnectionStatus/notConnected`` or while discovering,
  /// which stops; otherwise nothing happens).
  public mutating func connect(to reader: ReaderIdentity, at time: MonotonicInstant) -> ConnectionOutput {
    var out = advance(to: time)
    switch state {
    case .idle: break
    case .discovering: out.actions.append(.stopDiscovery)
    default: return out
    }
    startConnecting(reader, &out)
    return out
  }

  /// The app asks for the link to close: ``ConnectionEvent/disconnected(_:)`` with
  /// ``DisconnectReason/requestedByApp`` at once, and no reconnection. While discovering, it
  /// stops discovery instead.
  public mutating func disconnect(at time: MonotonicInstant) -> ConnectionOutput {
    var out = advance(to: time)
    switch state {
    case .idle:
      return out
    case .discovering:
      endDiscovery(.discoveryStopped, &out)
      return out
    case .connected(let link, _):
      out.actions.append(.disconnect(link.reader))
    case .connecting(let link, _):
      out.actions.append(.cancelConnect(link.reader))
    case .reconnectConnecting(let link, _, _):
      out.actions.append(.cancelConnect(link.reader))
      out.events.append(.reconnectFailed(.cancelled))
    case .reconnectWaiting:
      out.events.append(.reconnectFailed(.cancelled))
    }
    end(.disconnected(.requestedByApp), &out)
    return out
  }

  /// Cancels the reconnection `handle` names: ``ConnectionEvent/reconnectFailed(_:)``
  /// (``ReconnectFailure/cancelled``), then ``ConnectionEvent/disconnected(_:)`` with the
  /// drop's reason. A stale handle does nothing.
  public mutating func cancelReconnect(_ handle: ReconnectHandle, at time: MonotonicInstant)
    -> ConnectionOutput
  {
    var out = advance(to: time)
    switch state {
    case .reconnectConnecting(let link, let r, _) where r.handle == handle:
      out.actions.append(.cancelConnect(link.reader))
      out.events.append(.reconnectFailed(.cancelled))
      end(.disconnected(r.reason), &out)
    case .reconnectWaiting(_, let r, _) where r.handle == handle:
      out.events.append(.reconnectFailed(.cancelled))
      end(.disconnected(r.reason), &out)
    default:
      break
    }
    return out
  }

  /// Asks a connected reader to reboot; the drop that follows has reason
  /// ``DisconnectReason/reboot``. Resets the daily reboot deadline.
  public mutating func reboot(at time: MonotonicInstant) -> ConnectionOutput {
    var out = advance(to: time)
    guard case .connected(let link, _) = state else { return out }
    requestReboot(link, &out)
    return out
  }

  // MARK: Transport events

  /// An advertising report heard while discovering.
  public mutating func receive(_ report: AdvertisingReport, at time: MonotonicInstant) -> ConnectionOutput {
    var out = advance(to: time)
    guard case .discovering(var d, let connectToChosen) = state else { return out }
    // Out of `state` while it runs, so the discovery's tables are not copied on write (a
    // copy per report would cost O(devices) in a crowd).
    state = .idle
    let events = d.receive(report, at: now)
    state = .discovering(d, connectToChosen: connectToChosen)
    handleDiscovery(events, &out)
    return out
  }

  /// The link requested by the last ``LinkAction/connect(_:)`` is up.
  public mutating func linkConnected(at time: MonotonicInstant) -> ConnectionOutput {
    var out = advance(to: time)
    let event: ConnectionEvent
    var link: Link
    switch state {
    case .connecting(let l, _):
      (link, event) = (l, .connected(l.reader))
    case .reconnectConnecting(let l, _, _), .reconnectWaiting(let l, _, _):
      (link, event) = (l, .reconnectSucceeded)
    default:
      return out
    }
    if link.rebootDeadline == nil, let interval = configuration.dailyRebootInterval {
      link.rebootDeadline = now + interval
    }
    enter(.connected(link, rebootPending: false), &out)
    out.events.append(event)
    return out
  }

  /// The last connection attempt failed.
  public mutating func linkConnectFailed(_ failure: ConnectFailure, at time: MonotonicInstant)
    -> ConnectionOutput
  {
    var out = advance(to: time)
    attemptFailed(failure, &out)
    return out
  }

  /// The link went down without the app asking (the transport's best reason).
  public mutating func linkDisconnected(_ reason: DisconnectReason, at time: MonotonicInstant)
    -> ConnectionOutput
  {
    var out = advance(to: time)
    switch state {
    case .connected(let link, let rebootPending):
      let cause = rebootPending ? DisconnectReason.reboot : reason
      if configuration.autoReconnectOnUnexpectedDisconnect && cause != .requestedByApp
        && configuration.reconnectAttempts > 0
      {
        let handle = ReconnectHandle(id: nextHandle)
        nextHandle &+= 1
        let r = Reconnection(reason: cause, handle: handle, attempt: 1)
        enter(.reconnectWaiting(link, r, due: now + configuration.backoff(beforeAttempt: 1)), &out)
        out.events.append(.reconnectStarted(reason: cause, handle: handle))
      } else {
        end(.disconnected(cause), &out)
      }
    case .connecting, .reconnectConnecting:
      attemptFailed(.linkDropped, &out)
    default:
      break
    }
    return out
  }

  /// Lets time pass to `time`: fires the discovery, connect-timeout, backoff and daily
  /// reboot timers that are due.
  public mutating func advance(to time: MonotonicInstant) -> ConnectionOutput {
    if time > now { now = time }
    var out = ConnectionOutput()
    switch state {
    case .discovering(var d, let connectToChosen):
      state = .idle
      let events = d.advance(to: now)
      state = .discovering(d, connectToChosen: connectToChosen)
      handleDiscovery(events, &out)
    case .connecting(let link, let deadline), .reconnectConnecting(let link, _, let deadline):
      if now >= deadline {
        out.actions.append(.cancelConnect(link.reader))
        attemptFailed(.timedOut, &out)
        // A new attempt may be due at once (zero backoff).
        out.append(advance(to: now))
      }
    case .reconnectWaiting(let link, let r, let due):
      if now >= due {
        state = .reconnectConnecting(link, r, deadline: now + max(.zero, configuration.connectTimeout))
        out.events.append(.reconnectAttempt(number: r.attempt))
        out.actions.append(.connect(link.reader))
        if configuration.connectTimeout <= .zero { out.append(advance(to: now)) }
      }
    case .connected(let link, let rebootPending):
      if let deadline = link.rebootDeadline, now >= deadline, !rebootPending {
        requestReboot(link, &out)
      }
    case .idle:
      break
    }
    return out
  }

  // MARK: Internals

  /// Moves to `new`, reporting the status when it changes.
  mutating func enter(_ new: State, _ out: inout ConnectionOutput) {
    let old = status
    state = new
    if status != old { out.events.append(.statusChanged(status)) }
  }

  mutating func startConnecting(_ reader: ReaderIdentity, _ out: inout ConnectionOutput) {
    let link = Link(reader: reader, rebootDeadline: nil)
    enter(.connecting(link, deadline: now + max(.zero, configuration.connectTimeout)), &out)
    out.actions.append(.connect(reader))
  }

  mutating func requestReboot(_ link: Link, _ out: inout ConnectionOutput) {
    var link = link
    if let interval = configuration.dailyRebootInterval { link.rebootDeadline = now + interval }
    state = .connected(link, rebootPending: true)
    out.events.append(.rebootRequested)
    out.actions.append(.reboot(link.reader))
  }

  mutating func attemptFailed(_ failure: ConnectFailure, _ out: inout ConnectionOutput) {
    switch state {
    case .connecting:
      end(.connectFailed(failure), &out)
    case .reconnectConnecting(let link, var r, _):
      if r.attempt >= configuration.reconnectAttempts {
        out.events.append(.reconnectFailed(.attemptsExhausted(lastFailure: failure)))
        end(.disconnected(r.reason), &out)
      } else {
        r.attempt += 1
        state = .reconnectWaiting(link, r, due: now + configuration.backoff(beforeAttempt: r.attempt))
      }
    default:
      break
    }
  }

  mutating func handleDiscovery(_ events: [DiscoveryEvent], _ out: inout ConnectionOutput) {
    guard case .discovering(_, let connectToChosen) = state else { return }
    var chosen: DiscoveredReader?
    for event in events {
      switch event {
      case .notFound:
        endDiscovery(.notFound, &out)
        return
      case .scanEnded:
        out.events.append(.discovery(event))
        endDiscovery(.discoveryStopped, &out)
        return
      case .readerChosen(let reader):
        out.events.append(.discovery(event))
        if chosen == nil { chosen = reader }
      default:
        out.events.append(.discovery(event))
      }
    }
    if connectToChosen, let chosen {
      out.actions.append(.stopDiscovery)
      startConnecting(ReaderIdentity(chosen), &out)
    }
  }

  mutating func endDiscovery(_ terminal: ConnectionEvent, _ out: inout ConnectionOutput) {
    out.actions.append(.stopDiscovery)
    end(terminal, &out)
  }

  /// Ends the session with `terminal`.
  mutating func end(_ terminal: ConnectionEvent, _ out: inout ConnectionOutput) {
    enter(.idle, &out)
    out.events.append(terminal)
  }
}
