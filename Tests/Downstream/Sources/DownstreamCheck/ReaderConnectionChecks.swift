// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import BlueZ
import ReaderConnection

// MARK: - The samples of the article "Keeping a Bluetooth reader connected"

/// What an adapter hands the lifecycle: the transport's events and the app's requests, in the
/// order they happened.
enum ReaderLinkInput: Sendable, Hashable {
  case report(AdvertisingReport)
  case connected
  case connectFailed(ConnectFailure)
  case disconnected(DisconnectReason)
  case appDisconnect
  case appReboot
}

/// The side of an adapter that touches the radio (BlueZ, CoreBluetooth, an HCI socket).
protocol ReaderLink {
  /// The current instant of the monotonic clock the lifecycle is fed.
  var now: MonotonicInstant { get }
  /// Starts what `action` asks for (a scan, a connection, a disconnect, a reboot command);
  /// its outcome comes back later as an input.
  mutating func perform(_ action: LinkAction)
  /// Waits for the next input, or returns nil when `deadline` comes first (nil: no deadline).
  mutating func nextInput(until deadline: MonotonicInstant?) async -> ReaderLinkInput?
}

/// Reconnects at launch to the reader with the saved `serial`, then keeps it connected until
/// the session ends: feed each input, perform each action, sleep until `nextDeadline`.
func keepReaderConnected<Link: ReaderLink>(
  serial: String, profiles: [ReaderProfile], link: inout Link,
  configuration: ConnectionLifecycle.Configuration = .init(),
  onEvent: (ConnectionEvent) -> Void
) async {
  var lifecycle = ConnectionLifecycle(configuration: configuration)
  var out = lifecycle.reconnectAtLaunch(serial: serial, profiles: profiles, at: link.now)
  while true {
    for event in out.events { onEvent(event) }
    for action in out.actions { link.perform(action) }
    if out.events.contains(where: \.isSessionEnd) { return }
    let input = await link.nextInput(until: lifecycle.nextDeadline)
    let now = link.now
    switch input {
    case nil: out = lifecycle.advance(to: now)  // a timer is due
    case .report(let report): out = lifecycle.receive(report, at: now)
    case .connected: out = lifecycle.linkConnected(at: now)
    case .connectFailed(let failure): out = lifecycle.linkConnectFailed(failure, at: now)
    case .disconnected(let reason): out = lifecycle.linkDisconnected(reason, at: now)
    case .appDisconnect: out = lifecycle.disconnect(at: now)
    case .appReboot: out = lifecycle.reboot(at: now)
    }
  }
}

/// Keeps the reader with `serial` connected over BlueZ until the session ends; returns the
/// last event (the terminal one, or the failure of the bus or the scan).
func keepReaderConnectedOverBlueZ(serial: String, scanner: BlueZScanner) async -> BlueZConnectionEvent? {
  let connection = BlueZReaderConnection(serial: serial, profiles: [.example], scanner: scanner)
  var last: BlueZConnectionEvent?
  for await event in connection.events {
    if case .lifecycle(.connected(let reader)) = event { print("  connected to \(reader.address)") }
    last = event  // connection.disconnect() ends the session on request; reboot() reboots
  }
  return last
}

// MARK: - A simulated radio for the checks

/// A link with a simulated clock: inputs are queued at instants; `nextInput(until:)` moves the
/// clock to the earlier of the next input and the deadline. A connect succeeds after 200 ms,
/// a reboot drops the link after 100 ms, and scanning hears the reader after 300 ms.
struct SimulatedReaderLink: ReaderLink {
  var now = MonotonicInstant.origin
  var queue: [(at: MonotonicInstant, input: ReaderLinkInput)]
  var advertising: AdvertisingReport
  var actions: [LinkAction] = []
  var deadlines: [MonotonicInstant] = []

  mutating func perform(_ action: LinkAction) {
    actions.append(action)
    switch action {
    case .startDiscovery: enqueue(.report(advertising), after: .milliseconds(300))
    case .connect: enqueue(.connected, after: .milliseconds(200))
    case .reboot: enqueue(.disconnected(.unknown), after: .milliseconds(100))
    case .stopDiscovery, .cancelConnect, .disconnect: break
    }
  }

  mutating func enqueue(_ input: ReaderLinkInput, after delay: Duration) {
    queue.append((now + delay, input))
    queue.sort { $0.at < $1.at }
  }

  mutating func nextInput(until deadline: MonotonicInstant?) async -> ReaderLinkInput? {
    if let deadline { deadlines.append(deadline) }
    guard let next = queue.first, deadline.map({ next.at <= $0 }) ?? true else {
      now = deadline ?? now
      return nil
    }
    queue.removeFirst()
    now = next.at
    return next.input
  }
}

// MARK: - Checks

func checkReaderConnection() {
  group("ConnectionLifecycle: an unexpected drop reconnects, a requested disconnect does not") {
    let reader = ReaderIdentity(
      serial: "TW000001", address: BluetoothAddress(0xC0_FF_EE_00_00_01), addressType: .randomDevice)
    var connection = ConnectionLifecycle()
    // The caller's clock: here, instants after an origin.
    let start = MonotonicInstant.origin
    var out = connection.connect(to: reader, at: start)
    expectEqual(out.actions, [.connect(reader)], "connect action")
    expectEqual(connection.nextDeadline, start + .seconds(10), "the attempt's timeout (default 10 s)")
    out = connection.linkConnected(at: start + .milliseconds(100))
    check(out.events.contains(.connected(reader)), "connected event")
    expectEqual(connection.status, .connected, "status after the link is up")
    out = connection.linkDisconnected(.linkLoss, at: start + .seconds(1))
    let started = out.events.contains { event in
      if case .reconnectStarted(reason: .linkLoss, handle: _) = event { return true }
      return false
    }
    check(started, "reconnectStarted(linkLoss) (auto-reconnect is on by default)")
    // Sleep until the next deadline: the first attempt's backoff ends and the transport is
    // asked to connect.
    guard let due = connection.nextDeadline else {
      check(false, "a reconnection attempt is scheduled")
      return
    }
    expectEqual(due, start + .seconds(2), "the first backoff (default 1 s)")
    out = connection.advance(to: due)
    check(out.actions.contains(.connect(reader)), "reconnect attempt connects")
    out = connection.linkConnected(at: due + .milliseconds(500))
    check(out.events.contains(.reconnectSucceeded), "reconnectSucceeded")
    out = connection.disconnect(at: due + .seconds(1))
    check(out.events.contains(.disconnected(.requestedByApp)), "disconnected(requestedByApp)")
    expectEqual(connection.nextDeadline, nil, "nothing is due after the session ends")
    out = connection.advance(to: start + .seconds(1_000))
    check(!out.actions.contains(.connect(reader)), "no reconnection after a requested disconnect")
  }
}

func checkReaderConnectionAdapter() async {
  await group("ReaderConnection article: an adapter loop reconnects after a drop and a reboot") {
    let address = BluetoothAddress(0xC0_00_00_00_00_01)
    let data = try exampleReaderAdvertising(serial: "TW000001", battery: 80)
    var link = SimulatedReaderLink(
      queue: [
        (.origin + .seconds(5), .disconnected(.linkLoss)),
        (.origin + .seconds(20), .appReboot),
        (.origin + .seconds(60), .appDisconnect),
      ],
      advertising: AdvertisingReport(address: address, rssi: -60, data: data))
    var events: [ConnectionEvent] = []
    await keepReaderConnected(serial: "TW000001", profiles: [.example], link: &link) { event in
      switch event {
      case .statusChanged, .discovery: break
      default: events.append(event)
      }
    }
    let reader = ReaderIdentity(serial: "TW000001", address: address, addressType: .randomDevice)
    let handles = events.compactMap { event -> ReconnectHandle? in
      if case .reconnectStarted(_, let handle) = event { return handle }
      return nil
    }
    guard handles.count == 2 else {
      check(false, "two reconnections, got \(events)")
      return
    }
    print("  adapter loop: \(events.count) events, \(link.actions.count) link actions, ends at \(link.now)")
    expectEqual(
      events,
      [
        .connected(reader),
        .reconnectStarted(reason: .linkLoss, handle: handles[0]), .reconnectAttempt(number: 1),
        .reconnectSucceeded,
        .rebootRequested, .reconnectStarted(reason: .reboot, handle: handles[1]),
        .reconnectAttempt(number: 1), .reconnectSucceeded,
        .disconnected(.requestedByApp),
      ], "events")
    expectEqual(
      link.actions,
      [
        .startDiscovery, .stopDiscovery, .connect(reader), .connect(reader), .reboot(reader),
        .connect(reader),
        .disconnect(reader),
      ], "link actions")
    // The loop slept until the lifecycle's deadlines: the backoff of 1 s after each drop.
    check(link.deadlines.contains(.origin + .seconds(6)), "woke at the backoff after the drop at 5 s")
    check(
      link.deadlines.contains(.origin + .seconds(20) + .milliseconds(1_100)),
      "woke at the backoff after the reboot's drop")
    expectEqual(link.now, .origin + .seconds(60), "the session ends at the requested disconnect")
  }

  await group("ReaderConnection article: BlueZReaderConnection without a bus ends with a typed failure") {
    let last = await keepReaderConnectedOverBlueZ(
      serial: "TW000001", scanner: BlueZScanner(busAddress: "unix:path=/nonexistent/tapwire-downstream"))
    guard case .failed(let error) = last else {
      check(false, "the session ends with .failed, got \(String(describing: last))")
      return
    }
    check(error.code == .noBus || error.code == .noBlueZ, "noBus or noBlueZ, got \(error.code)")
  }
}

func checkBlueZ() async {
  await group("BlueZ: no bus at the address is a typed error") {
    let scanner = BlueZScanner(busAddress: "unix:path=/nonexistent/tapwire-downstream")
    do throws(BlueZError) {
      _ = try await scanner.adapters()
      check(false, "adapters() on a missing bus must throw")
    } catch {
      check(error.code == .noBus || error.code == .noBlueZ, "noBus or noBlueZ, got \(error.code)")
    }
  }
}
