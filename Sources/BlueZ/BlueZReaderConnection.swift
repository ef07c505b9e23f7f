// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import Foundation
import ReaderConnection

/// What a ``BlueZReaderConnection`` session reports.
public enum BlueZConnectionEvent: Sendable, Hashable {
  /// A lifecycle event of the `ConnectionLifecycle` it runs.
  case lifecycle(ConnectionEvent)
  /// Scanning, the link or the bus failed; the session is over.
  case failed(BlueZError)
}

/// Runs a `ConnectionLifecycle` over BlueZ: the scanner for discovery, ``BlueZLink`` for
/// `Connect`/`Disconnect` and link events, the monotonic clock (``BlueZScanner/now()``) for
/// its timers: after each step it sleeps until the machine's `nextDeadline` or the next
/// event, whichever comes first (no polling). A reboot action disconnects the device
/// (rebooting a reader is a vendor command; the drop that follows has reason `reboot`).
///
/// Every task it starts is its own and ends with the session: each connection attempt
/// carries its number (a late answer to an abandoned attempt is ignored), an abandoned
/// attempt is cancelled and BlueZ's own attempt aborted with `Disconnect`, and before the
/// session ends the `Disconnect` it asked for is sent and answered, or times out after
/// ``disconnectBound``. Cancelling the task that iterates ``events``, or ``cancel()``, ends
/// the session the same way (a connected reader is disconnected), without a terminal event.
/// The other side going away ends the session with ``BlueZConnectionEvent/failed(_:)``
/// naming what happened, in discovery, connecting, connected or reconnecting:
/// ``BlueZError/Code/blueZExited`` (bluetoothd exited or restarted), ``BlueZError/Code/adapterRemoved``,
/// ``BlueZError/Code/poweredOff``, ``BlueZError/Code/noBus`` (the link's bus closed).
public final class BlueZReaderConnection: Sendable {
  enum Input: Sendable {
    case report(AdvertisingReport)
    case scanFailed(BlueZError)
    case link(BlueZLinkEvent)
    /// The link's bus connection closed (its event stream ended).
    case linkClosed
    /// The answer to connection attempt `attempt`.
    case connectResult(attempt: UInt64, BlueZError?)
    /// The deadline the timer was set for has come.
    case deadline
    case disconnect
    case cancelReconnect(ReconnectHandle)
    case reboot
  }

  /// How long ending a session waits for BlueZ to answer the `Disconnect` it sends.
  public static let disconnectBound: Duration = .seconds(3)

  /// The session's events, ending after its terminal event (or a failure).
  public let events: AsyncStream<BlueZConnectionEvent>
  let inputs: AsyncStream<Input>.Continuation
  let runner: Task<Void, Never>

  /// Starts reconnect at launch for `serial`: discover it with the BlueZ scanner, connect,
  /// keep connected per `configuration`.
  public init(
    serial: String, profiles: [ReaderProfile], scanner: BlueZScanner,
    configuration: ConnectionLifecycle.Configuration = .init(),
    discovery: ReaderDiscovery.Configuration = .init()
  ) {
    let (events, output) = AsyncStream<BlueZConnectionEvent>.makeStream()
    let (inputStream, inputs) = AsyncStream<Input>.makeStream()
    self.events = events
    self.inputs = inputs
    let runner = Task {
      let session = Runner(
        scanner: scanner, configuration: configuration, inputs: inputs, output: output)
      await session.run(inputStream, serial: serial, profiles: profiles, discovery: discovery)
      await session.teardown()
    }
    self.runner = runner
    // A cancelled listener ends the session (the runner tears down what it started).
    output.onTermination = { termination in
      if case .cancelled = termination { runner.cancel() }
    }
  }

  /// Asks for a disconnect (never reconnected).
  public func disconnect() { inputs.yield(.disconnect) }

  /// Cancels the running reconnection.
  public func cancelReconnect(_ handle: ReconnectHandle) { inputs.yield(.cancelReconnect(handle)) }

  /// Asks for a reboot.
  public func reboot() { inputs.yield(.reboot) }

  /// Stops the session at once (no terminal event); a connected reader is disconnected.
  public func cancel() { runner.cancel() }

  /// Waits until the session has ended and torn down everything it started.
  public func ended() async { await runner.value }
}

/// The adapter's state, used only inside its runner task.
private final class Runner {
  let scanner: BlueZScanner
  let configuration: ConnectionLifecycle.Configuration
  let inputs: AsyncStream<BlueZReaderConnection.Input>.Continuation
  let output: AsyncStream<BlueZConnectionEvent>.Continuation
  var machine: ConnectionLifecycle
  var scan: Task<Void, Never>?
  var link: BlueZLink?
  var linkEvents: Task<Void, Never>?
  /// The link as its last event said (nil: no event yet).
  var linkIsUp: Bool?
  /// Wakes the loop at the machine's next deadline; re-armed when that deadline changes.
  var timer = DeadlineTimer()
  /// The connection attempt in flight, by number.
  var connecting: (attempt: UInt64, call: Task<Void, Never>)?
  var attempts: UInt64 = 0
  /// `Disconnect` calls sent, awaited (bounded) before the session ends.
  var disconnects: [Task<Void, Never>] = []

  init(
    scanner: BlueZScanner, configuration: ConnectionLifecycle.Configuration,
    inputs: AsyncStream<BlueZReaderConnection.Input>.Continuation,
    output: AsyncStream<BlueZConnectionEvent>.Continuation
  ) {
    self.scanner = scanner
    self.configuration = configuration
    self.inputs = inputs
    self.output = output
    self.machine = ConnectionLifecycle(configuration: configuration)
  }

  /// Runs the machine until its terminal event, a failure, or cancellation.
  func run(
    _ inputStream: AsyncStream<BlueZReaderConnection.Input>, serial: String, profiles: [ReaderProfile],
    discovery: ReaderDiscovery.Configuration
  ) async {
    var iterator = inputStream.makeAsyncIterator()
    var out = machine.reconnectAtLaunch(
      serial: serial, profiles: profiles, discovery: discovery, at: BlueZScanner.now())
    while true {
      var ended = false
      for event in out.events {
        output.yield(.lifecycle(event))
        if event.isSessionEnd { ended = true }
      }
      for action in out.actions {
        if let failure = await perform(action) {
          output.yield(.failed(failure))
          return
        }
      }
      if ended { return }
      rearm()
      // Nil when the task is cancelled (the events were dropped, or cancel()).
      guard let input = await iterator.next() else { return }
      let now = BlueZScanner.now()
      switch input {
      case .report(let report): out = machine.receive(report, at: now)
      case .scanFailed(let error):
        output.yield(.failed(error))
        return
      case .link(.connected):
        // The link is up: the attempt in flight did its job (its late answer is ignored).
        linkIsUp = true
        connecting = nil
        out = machine.linkConnected(at: now)
      case .link(.disconnected(let reason)):
        linkIsUp = false
        out = machine.linkDisconnected(reason, at: now)
      case .linkClosed:
        // BlueZ exited or restarted, the adapter went away or off, or the bus closed.
        output.yield(
          .failed(link?.failure ?? BlueZError(.noBus, message: "the link's bus connection closed")))
        return
      case .connectResult(let attempt, let error):
        // An answer to an attempt given up on (timed out, cancelled) counts for nothing.
        guard attempt == connecting?.attempt else {
          out = ConnectionOutput()
          continue
        }
        connecting = nil
        if error == nil { linkIsUp = true }
        if let error {
          out = machine.linkConnectFailed(
            .transport(name: error.name.isEmpty ? error.code.name : error.name), at: now)
        } else {
          out = machine.linkConnected(at: now)
        }
      case .deadline:
        timer.fired()
        out = machine.advance(to: now)
      case .disconnect: out = machine.disconnect(at: now)
      case .cancelReconnect(let handle): out = machine.cancelReconnect(handle, at: now)
      case .reboot: out = machine.reboot(at: now)
      }
    }
  }

  /// Does one link action; a failure that ends the session is returned.
  func perform(_ action: LinkAction) async -> BlueZError? {
    switch action {
    case .startDiscovery:
      let inputs = inputs
      let scanner = scanner
      scan = Task {
        do throws(BlueZError) {
          for try await update in scanner.advertisements() { inputs.yield(.report(update.report)) }
        } catch {
          inputs.yield(.scanFailed(error))
        }
      }
    case .stopDiscovery:
      scan?.cancel()
    case .connect(let reader):
      if link == nil {
        do throws(BlueZError) {
          let opened = try await BlueZLink.open(
            busAddress: scanner.busAddress, adapter: scanner.adapter, device: reader.address)
          link = opened
          let inputs = inputs
          linkEvents = Task {
            for await event in opened.events { inputs.yield(.link(event)) }
            if !Task.isCancelled { inputs.yield(.linkClosed) }
          }
        } catch {
          return error
        }
      }
      guard let link else { return nil }
      attempts += 1
      let attempt = attempts
      let timeout = max(configuration.connectTimeout, .milliseconds(1))
      let inputs = inputs
      connecting?.call.cancel()
      connecting = (
        attempt,
        Task {
          do throws(BlueZError) {
            try await link.connect(timeout: timeout)
            inputs.yield(.connectResult(attempt: attempt, nil))
          } catch {
            inputs.yield(.connectResult(attempt: attempt, error))
          }
        }
      )
    case .cancelConnect:
      connecting?.call.cancel()
      connecting = nil
      // BlueZ goes on trying to connect after its caller gave up; Disconnect aborts that.
      sendDisconnect()
    case .disconnect, .reboot:
      sendDisconnect()
    }
    return nil
  }

  func sendDisconnect() {
    guard let link else { return }
    disconnects.append(Task { try? await link.disconnect(timeout: BlueZReaderConnection.disconnectBound) })
  }

  func rearm() {
    let inputs = inputs
    timer.arm(for: machine.nextDeadline) { inputs.yield(.deadline) }
  }

  /// Ends everything the session started: the timer, the scan (its `StopDiscovery`), a
  /// connection attempt; a link that is up or coming up is disconnected; every `Disconnect`
  /// is awaited (each bounded by ``BlueZReaderConnection/disconnectBound``) before the link's
  /// bus closes. Runs even when the task was cancelled.
  func teardown() async {
    // Awaiting a task's value does not depend on this task's cancellation, and every call
    // below runs in a task of its own (unstructured tasks are not cancelled with this one).
    timer.cancel()
    scan?.cancel()
    if let attempt = connecting {
      attempt.call.cancel()
      connecting = nil
      sendDisconnect()
    } else if linkIsUp == true && disconnects.isEmpty {
      sendDisconnect()
    }
    for call in disconnects { await call.value }
    if let scan { await Self.awaitBounded(scan, within: Self.stopBound) }
    timer.cancel()
    linkEvents?.cancel()
    link?.close()
    if let linkEvents { await Self.awaitBounded(linkEvents, within: Self.stopBound) }
    inputs.finish()
    output.finish()
  }

  /// How long teardown waits for the scan (its `StopDiscovery`) and the link's event task.
  static let stopBound: Duration = .seconds(2)

  /// Waits for `task` to end, at most `bound` (also from a cancelled task: the wait runs in a
  /// task of its own).
  static func awaitBounded(_ task: Task<Void, Never>, within bound: Duration) async {
    await Task {
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await task.value }
        group.addTask { try? await Task.sleep(for: bound) }
        await group.next()
        group.cancelAll()
      }
    }.value
  }
}
