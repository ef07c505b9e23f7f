// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising

/// A sans-IO connection lifecycle for one card reader: discover → connect → stay connected
/// (reconnect when the link drops unexpectedly) → disconnect.
///
/// It never reads a clock or touches a radio. The caller feeds link events
/// (``linkConnected(at:)``, ``linkConnectFailed(_:at:)``, ``linkDisconnected(_:at:)``),
/// advertising reports while discovering (``receive(_:at:)``) and time (``advance(to:)``;
/// µs on the caller's clock, never going back), and performs the ``LinkAction``s each call
/// returns. So every scenario is a deterministic test.
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
public struct ReaderConnection: Sendable {
  /// Timing and policy (times in µs).
  public struct Configuration: Sendable, Hashable {
    /// Reconnect after an unexpected disconnect (default on).
    public var autoReconnectOnUnexpectedDisconnect: Bool
    /// Reconnection attempts before giving up (default 5).
    public var reconnectAttempts: Int
    /// The wait before the first reconnection attempt (default 1 s); doubled for each
    /// further attempt.
    public var initialBackoff: Int64
    /// The longest wait between attempts (default 16 s).
    public var maximumBackoff: Int64
    /// How long one connection attempt may take (default 10 s).
    public var connectTimeout: Int64
    /// Reboot a connected reader this long after it was first connected or last rebooted
    /// (default `nil`: never).
    public var dailyRebootInterval: Int64?

    /// Creates a configuration.
    public init(
      autoReconnectOnUnexpectedDisconnect: Bool = true, reconnectAttempts: Int = 5,
      initialBackoff: Int64 = 1_000_000, maximumBackoff: Int64 = 16_000_000,
      connectTimeout: Int64 = 10_000_000, dailyRebootInterval: Int64? = nil
    ) {
      self.autoReconnectOnUnexpectedDisconnect = autoReconnectOnUnexpectedDisconnect
      self.reconnectAttempts = reconnectAttempts
      self.initialBackoff = initialBackoff
      self.maximumBackoff = maximumBackoff
      self.connectTimeout = connectTimeout
      self.dailyRebootInterval = dailyRebootInterval
    }

    /// The wait before reconnection attempt `number` (1-based).
    public func backoff(beforeAttempt number: Int) -> Int64 {
      let base = max(0, initialBackoff)
      let cap = max(0, maximumBackoff)
      var delay = base
      var n = 1
      while n < number && delay < cap {
        let (doubled, overflow) = delay.multipliedReportingOverflow(by: 2)
        delay = overflow ? cap : doubled
        n += 1
      }
      return min(delay, cap)
    }
  }

  enum Phase: Sendable, Hashable {
    case idle
    case discovering(connectToChosen: Bool)
    case connecting(deadline: Int64)
    case connected
    /// Waiting for reconnection attempt `attempt` (due at `due`).
    case reconnectWaiting(attempt: Int, due: Int64)
    /// Reconnection attempt `attempt` in flight.
    case reconnectConnecting(attempt: Int, deadline: Int64)
  }

  struct Reconnection: Sendable, Hashable {
    var reason: DisconnectReason
    var handle: ReconnectHandle
    var lastFailure: ConnectFailure
  }

  /// The settings.
  public let configuration: Configuration
  /// Where the connection stands.
  public private(set) var status: ConnectionStatus = .notConnected
  /// The reader being connected or connected, if any.
  public private(set) var reader: ReaderIdentity?
  /// The discovery being run, while discovering.
  public private(set) var discovery: ReaderDiscovery?
  /// When the next daily reboot is due (set at the first connection, reset by a reboot).
  public private(set) var rebootDeadline: Int64?
  /// The running reconnection's handle, if any.
  public var reconnectHandle: ReconnectHandle? { reconnection?.handle }

  var phase: Phase = .idle
  var reconnection: Reconnection?
  var rebootPending = false
  var now: Int64 = 0
  var nextHandle: UInt64 = 1

  /// Creates a connection, not connected.
  public init(configuration: Configuration = Configuration()) {
    self.configuration = configuration
  }

  // MARK: App requests

  /// Starts `discovery` (from ``ConnectionStatus/notConnected`` only; otherwise nothing
  /// happens). With `connectToChosen`, the reader it chooses (proximity and reconnect
  /// modes) is connected to at once.
  public mutating func discover(
    _ discovery: ReaderDiscovery, connectToChosen: Bool, at time: Int64
  ) -> ConnectionOutput {
    var out = advance(to: time)
    guard case .idle = phase else { return out }
    var d = discovery
    _ = d.start(at: now)
    self.discovery = d
    phase = .discovering(connectToChosen: connectToChosen)
    setStatus(.discovering, &out)
    out.actions.append(.startDiscovery)
    return out
  }

  /// Reconnect at launch: discovers the reader with the saved `serial` and connects to it,
  /// or ends with ``ConnectionEvent/notFound`` at the discovery timeout.
  public mutating func reconnectAtLaunch(
    serial: String, profiles: [ReaderProfile],
    discovery configuration: ReaderDiscovery.Configuration = .init(), at time: Int64
  ) -> ConnectionOutput {
    discover(
      ReaderDiscovery(profiles: profiles, mode: .reconnect(serial: serial), configuration: configuration),
      connectToChosen: true, at: time)
  }

  /// Stops discovering (``ConnectionEvent/discoveryStopped``).
  public mutating func stopDiscovery(at time: Int64) -> ConnectionOutput {
    var out = advance(to: time)
    guard case .discovering = phase else { return out }
    endDiscovery(.discoveryStopped, &out)
    return out
  }

  /// Connects to `reader` (from ``ConnectionStatus/notConnected`` or while discovering,
  /// which stops; otherwise nothing happens).
  public mutating func connect(to reader: ReaderIdentity, at time: Int64) -> ConnectionOutput {
    var out = advance(to: time)
    switch phase {
    case .idle: break
    case .discovering:
      out.actions.append(.stopDiscovery)
      discovery = nil
    default: return out
    }
    startConnecting(reader, &out)
    return out
  }

  /// The app asks for the link to close: ``ConnectionEvent/disconnected(_:)`` with
  /// ``DisconnectReason/requestedByApp`` at once, and no reconnection. While discovering, it
  /// stops discovery instead.
  public mutating func disconnect(at time: Int64) -> ConnectionOutput {
    var out = advance(to: time)
    guard let reader else {
      if case .discovering = phase { endDiscovery(.discoveryStopped, &out) }
      return out
    }
    switch phase {
    case .connected:
      out.actions.append(.disconnect(reader))
    case .connecting, .reconnectConnecting:
      out.actions.append(.cancelConnect(reader))
    default:
      break
    }
    if reconnection != nil { out.events.append(.reconnectFailed(.cancelled)) }
    end(.disconnected(.requestedByApp), &out)
    return out
  }

  /// Cancels the reconnection `handle` names: ``ConnectionEvent/reconnectFailed(_:)``
  /// (``ReconnectFailure/cancelled``), then ``ConnectionEvent/disconnected(_:)`` with the
  /// drop's reason. A stale handle does nothing.
  public mutating func cancelReconnect(_ handle: ReconnectHandle, at time: Int64) -> ConnectionOutput {
    var out = advance(to: time)
    guard let r = reconnection, r.handle == handle, let reader else { return out }
    if case .reconnectConnecting = phase { out.actions.append(.cancelConnect(reader)) }
    out.events.append(.reconnectFailed(.cancelled))
    end(.disconnected(r.reason), &out)
    return out
  }

  /// Asks a connected reader to reboot; the drop that follows has reason
  /// ``DisconnectReason/reboot``. Resets the daily reboot deadline.
  public mutating func reboot(at time: Int64) -> ConnectionOutput {
    var out = advance(to: time)
    guard case .connected = phase else { return out }
    requestReboot(&out)
    return out
  }

  // MARK: Transport events

  /// An advertising report heard while discovering.
  public mutating func receive(_ report: AdvertisingReport, at time: Int64) -> ConnectionOutput {
    var out = advance(to: time)
    guard case .discovering = phase, var d = discovery else { return out }
    let events = d.receive(report, at: now)
    discovery = d
    handleDiscovery(events, &out)
    return out
  }

  /// The link requested by the last ``LinkAction/connect(_:)`` is up.
  public mutating func linkConnected(at time: Int64) -> ConnectionOutput {
    var out = advance(to: time)
    guard let reader else { return out }
    switch phase {
    case .connecting:
      phase = .connected
      setStatus(.connected, &out)
      out.events.append(.connected(reader))
    case .reconnectConnecting, .reconnectWaiting:
      phase = .connected
      reconnection = nil
      setStatus(.connected, &out)
      out.events.append(.reconnectSucceeded)
    default:
      return out
    }
    if rebootDeadline == nil, let interval = configuration.dailyRebootInterval {
      rebootDeadline = now.addingClamped(interval)
    }
    return out
  }

  /// The last connection attempt failed.
  public mutating func linkConnectFailed(_ failure: ConnectFailure, at time: Int64) -> ConnectionOutput {
    var out = advance(to: time)
    attemptFailed(failure, &out)
    return out
  }

  /// The link went down without the app asking (the transport's best reason).
  public mutating func linkDisconnected(_ reason: DisconnectReason, at time: Int64) -> ConnectionOutput {
    var out = advance(to: time)
    switch phase {
    case .connected:
      let cause = rebootPending ? DisconnectReason.reboot : reason
      rebootPending = false
      if configuration.autoReconnectOnUnexpectedDisconnect && cause != .requestedByApp
        && configuration.reconnectAttempts > 0
      {
        let handle = ReconnectHandle(id: nextHandle)
        nextHandle &+= 1
        reconnection = Reconnection(reason: cause, handle: handle, lastFailure: .timedOut)
        setStatus(.connecting, &out)
        out.events.append(.reconnectStarted(reason: cause, handle: handle))
        scheduleAttempt(1)
      } else {
        end(.disconnected(cause), &out)
      }
    case .connecting, .reconnectConnecting:
      attemptFailed(.transport(name: "link dropped while connecting"), &out)
    default:
      break
    }
    return out
  }

  /// Lets time pass to `time`: fires the discovery, connect-timeout, backoff and daily
  /// reboot timers that are due.
  public mutating func advance(to time: Int64) -> ConnectionOutput {
    if time > now { now = time }
    var out = ConnectionOutput()
    switch phase {
    case .discovering:
      if var d = discovery {
        let events = d.advance(to: now)
        discovery = d
        handleDiscovery(events, &out)
      }
    case .connecting(let deadline), .reconnectConnecting(_, let deadline):
      if now >= deadline {
        if let reader { out.actions.append(.cancelConnect(reader)) }
        attemptFailed(.timedOut, &out)
        // A new attempt may be due at once (zero backoff).
        out.append(advance(to: now))
      }
    case .reconnectWaiting(let attempt, let due):
      if now >= due, let reader {
        phase = .reconnectConnecting(
          attempt: attempt, deadline: now.addingClamped(max(0, configuration.connectTimeout)))
        out.events.append(.reconnectAttempt(number: attempt))
        out.actions.append(.connect(reader))
        if configuration.connectTimeout <= 0 { out.append(advance(to: now)) }
      }
    case .connected:
      if let deadline = rebootDeadline, now >= deadline, !rebootPending {
        requestReboot(&out)
      }
    case .idle:
      break
    }
    return out
  }

  // MARK: Internals

  mutating func setStatus(_ new: ConnectionStatus, _ out: inout ConnectionOutput) {
    guard new != status else { return }
    status = new
    out.events.append(.statusChanged(new))
  }

  mutating func startConnecting(_ reader: ReaderIdentity, _ out: inout ConnectionOutput) {
    self.reader = reader
    phase = .connecting(deadline: now.addingClamped(max(0, configuration.connectTimeout)))
    setStatus(.connecting, &out)
    out.actions.append(.connect(reader))
  }

  mutating func requestReboot(_ out: inout ConnectionOutput) {
    guard let reader else { return }
    rebootPending = true
    if let interval = configuration.dailyRebootInterval { rebootDeadline = now.addingClamped(interval) }
    out.events.append(.rebootRequested)
    out.actions.append(.reboot(reader))
  }

  mutating func scheduleAttempt(_ attempt: Int) {
    phase = .reconnectWaiting(
      attempt: attempt, due: now.addingClamped(configuration.backoff(beforeAttempt: attempt)))
  }

  mutating func attemptFailed(_ failure: ConnectFailure, _ out: inout ConnectionOutput) {
    switch phase {
    case .connecting:
      end(.connectFailed(failure), &out)
    case .reconnectConnecting(let attempt, _):
      reconnection?.lastFailure = failure
      if attempt >= configuration.reconnectAttempts, let r = reconnection {
        out.events.append(.reconnectFailed(.attemptsExhausted(lastFailure: failure)))
        end(.disconnected(r.reason), &out)
      } else {
        scheduleAttempt(attempt + 1)
      }
    default:
      break
    }
  }

  mutating func handleDiscovery(_ events: [DiscoveryEvent], _ out: inout ConnectionOutput) {
    guard case .discovering(let connectToChosen) = phase else { return }
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
      discovery = nil
      startConnecting(ReaderIdentity(chosen), &out)
    }
  }

  mutating func endDiscovery(_ terminal: ConnectionEvent, _ out: inout ConnectionOutput) {
    out.actions.append(.stopDiscovery)
    end(terminal, &out)
  }

  /// Ends the session with `terminal`.
  mutating func end(_ terminal: ConnectionEvent, _ out: inout ConnectionOutput) {
    phase = .idle
    discovery = nil
    reader = nil
    reconnection = nil
    rebootPending = false
    rebootDeadline = nil
    setStatus(.notConnected, &out)
    out.events.append(terminal)
  }
}

extension Int64 {
  /// `self + other`, clamped to the range (caller settings never trap).
  func addingClamped(_ other: Int64) -> Int64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }
}
