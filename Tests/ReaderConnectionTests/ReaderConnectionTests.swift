// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import ReaderConnection
import Testing

/// The tests count time in µs on one clock: one second of it.
let second: Int64 = 1_000_000

/// The instant `microseconds` after the test clock's origin.
func clock(_ microseconds: Int64) -> MonotonicInstant {
  MonotonicInstant(sinceOrigin: .microseconds(microseconds))
}

/// An interval of `microseconds`.
func interval(_ microseconds: Int64) -> Duration { .microseconds(microseconds) }
let readerA = ReaderIdentity(
  serial: "TW000001", address: BluetoothAddress(0xC0_00_00_00_00_01), addressType: .randomDevice)

/// The example profile's advertising for `serial`.
func advertising(serial: String, battery: UInt8? = nil) -> [UInt8] {
  var maker: [UInt8] = [0x01] + Array(serial.utf8)
  if let battery { maker.append(battery) }
  let values: [ADValue] = [
    .flags([.leGeneralDiscoverable, .brEDRNotSupported]), .manufacturerData(.testing, maker),
    .localName("TW-\(serial.suffix(4))", complete: true),
  ]
  return (try? AdvertisingData(values: values).encodedBytes(budget: .legacy)) ?? []
}

func report(_ identity: ReaderIdentity, rssi: Int8 = -50) -> AdvertisingReport {
  AdvertisingReport(address: identity.address, rssi: rssi, data: advertising(serial: identity.serial ?? ""))
}

/// A connection brought to `connected` with reader A at time 0.
func connected(_ configuration: ConnectionLifecycle.Configuration = .init()) -> ConnectionLifecycle {
  var c = ConnectionLifecycle(configuration: configuration)
  _ = c.connect(to: readerA, at: clock(0))
  _ = c.linkConnected(at: clock(0))
  return c
}

@Suite struct ReaderConnectionTests {
  @Test func connectThenRequestedDisconnect() {
    var c = ConnectionLifecycle()
    let start = c.connect(to: readerA, at: clock(0))
    #expect(start.events == [.statusChanged(.connecting)])
    #expect(start.actions == [.connect(readerA)])
    let up = c.linkConnected(at: clock(100))
    #expect(up.events == [.statusChanged(.connected), .connected(readerA)])
    let down = c.disconnect(at: clock(200))
    #expect(down.events == [.statusChanged(.notConnected), .disconnected(.requestedByApp)])
    #expect(down.actions == [.disconnect(readerA)])
    // The link's own report of the drop changes nothing: no reconnection.
    #expect(c.linkDisconnected(.linkLoss, at: clock(300)) == ConnectionOutput())
    #expect(c.advance(to: clock(100 * second)) == ConnectionOutput())
    #expect(c.status == .notConnected)
  }

  @Test func unexpectedDisconnectReconnects() {
    var c = connected()
    let drop = c.linkDisconnected(.linkLoss, at: clock(5 * second))
    guard case .reconnectStarted(.linkLoss, let handle) = drop.events.last else {
      Issue.record("no reconnectStarted: \(drop.events)")
      return
    }
    #expect(drop.events.first == .statusChanged(.connecting))
    #expect(c.reconnectHandle == handle)
    // Nothing before the first backoff (1 s).
    #expect(c.advance(to: clock(5 * second + 999_999)) == ConnectionOutput())
    let attempt = c.advance(to: clock(6 * second))
    #expect(attempt.events == [.reconnectAttempt(number: 1)])
    #expect(attempt.actions == [.connect(readerA)])
    let back = c.linkConnected(at: clock(6 * second + 10))
    #expect(back.events == [.statusChanged(.connected), .reconnectSucceeded])
    #expect(c.reconnectHandle == nil)
  }

  @Test func reconnectFailsAfterTheAttemptsWithBackoff() {
    var c = connected(
      .init(reconnectAttempts: 3, initialBackoff: interval(second), maximumBackoff: interval(3 * second)))
    _ = c.linkDisconnected(.poweredOff, at: clock(0))
    var log: [(Int64, ConnectionEvent)] = []
    var t: Int64 = 0
    while t <= 30 * second {
      let out = c.advance(to: clock(t))
      log += out.events.map { (t, $0) }
      if out.actions.contains(.connect(readerA)) {
        log += c.linkConnectFailed(.transport(name: "org.bluez.Error.Failed"), at: clock(t)).events.map {
          (t, $0)
        }
      }
      t += 100_000
    }
    let failure = ConnectFailure.transport(name: "org.bluez.Error.Failed")
    // Attempts after 1 s, 2 s, 3 s (capped) waits.
    #expect(log.map(\.0) == [1, 3, 6, 6, 6, 6].map { $0 * second })
    #expect(
      log.map(\.1) == [
        .reconnectAttempt(number: 1), .reconnectAttempt(number: 2), .reconnectAttempt(number: 3),
        .reconnectFailed(.attemptsExhausted(lastFailure: failure)), .statusChanged(.notConnected),
        .disconnected(.poweredOff),
      ])
  }

  @Test func attemptTimeoutsCountAsFailures() {
    var c = connected(
      .init(reconnectAttempts: 2, initialBackoff: interval(0), connectTimeout: interval(second)))
    let drop = c.linkDisconnected(.linkLoss, at: clock(0))
    #expect(drop.actions.isEmpty)
    let first = c.advance(to: clock(0))
    #expect(first.actions == [.connect(readerA)])
    let timeout = c.advance(to: clock(second))
    #expect(timeout.actions == [.cancelConnect(readerA), .connect(readerA)])
    #expect(timeout.events == [.reconnectAttempt(number: 2)])
    let end = c.advance(to: clock(2 * second))
    #expect(
      end.events == [
        .reconnectFailed(.attemptsExhausted(lastFailure: .timedOut)), .statusChanged(.notConnected),
        .disconnected(.linkLoss),
      ])
  }

  @Test func reconnectCancelledMidway() {
    var c = connected()
    let drop = c.linkDisconnected(.linkLoss, at: clock(0))
    guard case .reconnectStarted(_, let handle) = drop.events.last else {
      Issue.record("no reconnectStarted")
      return
    }
    _ = c.advance(to: clock(second))
    // A stale handle does nothing.
    #expect(c.cancelReconnect(ReconnectHandle(id: handle.id + 1), at: clock(second)) == ConnectionOutput())
    let cancel = c.cancelReconnect(handle, at: clock(second + 1))
    #expect(cancel.actions == [.cancelConnect(readerA)])
    #expect(
      cancel.events == [
        .reconnectFailed(.cancelled), .statusChanged(.notConnected), .disconnected(.linkLoss),
      ])
    #expect(c.linkConnected(at: clock(second + 2)) == ConnectionOutput())
  }

  @Test func requestedDisconnectDuringReconnect() {
    var c = connected()
    _ = c.linkDisconnected(.linkLoss, at: clock(0))
    let out = c.disconnect(at: clock(10))
    #expect(
      out.events == [
        .reconnectFailed(.cancelled), .statusChanged(.notConnected), .disconnected(.requestedByApp),
      ])
    #expect(c.advance(to: clock(60 * second)) == ConnectionOutput())
  }

  @Test func autoReconnectOff() {
    var c = connected(.init(autoReconnectOnUnexpectedDisconnect: false))
    let drop = c.linkDisconnected(.batteryLow, at: clock(second))
    #expect(drop.events == [.statusChanged(.notConnected), .disconnected(.batteryLow)])
    #expect(c.advance(to: clock(60 * second)) == ConnectionOutput())
  }

  @Test func firstConnectFailureAndTimeout() {
    var c = ConnectionLifecycle(configuration: .init(connectTimeout: interval(second)))
    _ = c.connect(to: readerA, at: clock(0))
    let failed = c.linkConnectFailed(.transport(name: "org.bluez.Error.Failed"), at: clock(10))
    #expect(
      failed.events == [
        .statusChanged(.notConnected), .connectFailed(.transport(name: "org.bluez.Error.Failed")),
      ])
    _ = c.connect(to: readerA, at: clock(20))
    let timeout = c.advance(to: clock(20 + second))
    #expect(timeout.actions == [.cancelConnect(readerA)])
    #expect(timeout.events == [.statusChanged(.notConnected), .connectFailed(.timedOut)])
  }

  @Test func reconnectAtLaunchFindsTheSavedSerial() {
    var c = ConnectionLifecycle()
    let start = c.reconnectAtLaunch(serial: "TW000001", profiles: [.example], at: clock(0))
    #expect(start.events == [.statusChanged(.discovering)])
    #expect(start.actions == [.startDiscovery])
    let other = ReaderIdentity(
      serial: "TW000002", address: BluetoothAddress(0xC0_00_00_00_00_02), addressType: .randomDevice)
    #expect(c.receive(report(other), at: clock(100)).actions.isEmpty)
    let found = c.receive(report(readerA), at: clock(200))
    #expect(found.actions == [.stopDiscovery, .connect(readerA)])
    guard case .discovery(.readerChosen(let chosen)) = found.events.first else {
      Issue.record("no readerChosen: \(found.events)")
      return
    }
    #expect(chosen.serial == "TW000001")
    #expect(found.events.last == .statusChanged(.connecting))
    #expect(c.linkConnected(at: clock(300)).events.last == .connected(readerA))
  }

  @Test func reconnectAtLaunchMisses() {
    var c = ConnectionLifecycle()
    _ = c.reconnectAtLaunch(
      serial: "TW000009", profiles: [.example], discovery: .init(timeout: interval(3 * second)), at: clock(0))
    _ = c.receive(report(readerA), at: clock(second))
    let end = c.advance(to: clock(3 * second))
    #expect(end.events == [.statusChanged(.notConnected), .notFound])
    #expect(end.actions == [.stopDiscovery])
  }

  @Test func scanDiscoveryEndsOnce() {
    var c = ConnectionLifecycle()
    _ = c.discover(
      ReaderDiscovery(profiles: [.example], mode: .scan, configuration: .init(timeout: interval(2 * second))),
      connectToChosen: false, at: clock(0))
    let seen = c.receive(report(readerA), at: clock(10))
    #expect(seen.events.count == 1)
    let end = c.advance(to: clock(2 * second))
    #expect(end.events.count == 3)
    #expect(end.events.last == .discoveryStopped)
    #expect(c.stopDiscovery(at: clock(3 * second)) == ConnectionOutput())
  }

  @Test func rebootReconnects() {
    var c = connected()
    let request = c.reboot(at: clock(second))
    #expect(request.events == [.rebootRequested])
    #expect(request.actions == [.reboot(readerA)])
    // The transport reports an ordinary drop; the reason is the reboot.
    let drop = c.linkDisconnected(.linkLoss, at: clock(2 * second))
    guard case .reconnectStarted(.reboot, _) = drop.events.last else {
      Issue.record("no reboot reconnect: \(drop.events)")
      return
    }
    _ = c.advance(to: clock(3 * second))
    #expect(c.linkConnected(at: clock(3 * second)).events.last == .reconnectSucceeded)
  }

  @Test func rebootWithoutAutoReconnectDisconnects() {
    var c = connected(.init(autoReconnectOnUnexpectedDisconnect: false))
    _ = c.reboot(at: clock(0))
    #expect(c.linkDisconnected(.unknown, at: clock(1)).events.last == .disconnected(.reboot))
  }

  @Test func dailyRebootDeadlineResetByAReboot() {
    let day: Int64 = 86_400 * second
    var c = connected(.init(dailyRebootInterval: interval(day)))
    #expect(c.rebootDeadline == clock(day))
    #expect(c.nextDeadline == clock(day))
    // A requested reboot at noon moves the deadline a day on.
    _ = c.reboot(at: clock(day / 2))
    #expect(c.rebootDeadline == clock(day / 2 + day))
    _ = c.linkDisconnected(.linkLoss, at: clock(day / 2 + 1))
    _ = c.advance(to: clock(day / 2 + 2 * second))
    _ = c.linkConnected(at: clock(day / 2 + 2 * second))
    #expect(c.advance(to: clock(day)) == ConnectionOutput())
    let due = c.advance(to: clock(day / 2 + day))
    #expect(due.events == [.rebootRequested])
    #expect(due.actions == [.reboot(readerA)])
    // Only once while the reboot is pending, and no deadline meanwhile.
    #expect(c.nextDeadline == nil)
    #expect(c.advance(to: clock(day / 2 + day + 1)) == ConnectionOutput())
  }

  @Test(arguments: [(1, 1), (2, 2), (3, 4), (4, 8), (5, 16), (6, 16), (100, 16)])
  func defaultBackoff(attempt: Int, seconds: Int64) {
    #expect(ConnectionLifecycle.Configuration().backoff(beforeAttempt: attempt) == .seconds(seconds))
  }

  @Test func hostileSettingsNeverTrap() {
    var c = connected(
      .init(
        reconnectAttempts: Int.max, initialBackoff: interval(Int64.max), maximumBackoff: interval(Int64.max),
        connectTimeout: interval(Int64.max), dailyRebootInterval: interval(Int64.max)))
    _ = c.linkDisconnected(.linkLoss, at: clock(Int64.max - 1))
    _ = c.advance(to: clock(Int64.max))
    #expect(c.status == .connecting)
    // The largest durations there are: deadlines saturate at the distant future.
    let huge = Duration.seconds(Int64.max) * 8
    var d = connected(
      .init(
        reconnectAttempts: 3, initialBackoff: huge, maximumBackoff: huge, connectTimeout: huge,
        dailyRebootInterval: huge))
    #expect(d.nextDeadline == .distantFuture)
    _ = d.linkDisconnected(.linkLoss, at: .distantFuture)
    #expect(d.nextDeadline == .distantFuture)
    #expect(d.advance(to: .distantFuture).events == [.reconnectAttempt(number: 1)])
    #expect(d.status == .connecting)
  }

  /// `nextDeadline` in each state: exactly the instant at which `advance(to:)` acts, and
  /// nothing before it.
  @Test func nextDeadlineIsWhenTheNextTimerFires() {
    let configuration = ConnectionLifecycle.Configuration(
      reconnectAttempts: 2, initialBackoff: .seconds(1), maximumBackoff: .seconds(4),
      connectTimeout: .seconds(10))
    var c = ConnectionLifecycle(configuration: configuration)
    #expect(c.nextDeadline == nil)
    // Connecting: the attempt's timeout.
    _ = c.connect(to: readerA, at: clock(second))
    #expect(c.nextDeadline == clock(11 * second))
    #expect(c.advance(to: clock(10 * second)) == ConnectionOutput())
    // Connected without a daily reboot: nothing is due.
    _ = c.linkConnected(at: clock(10 * second))
    #expect(c.nextDeadline == nil)
    // Reconnecting: the backoff (1 s), the attempt's timeout (10 s), the second backoff (2 s).
    _ = c.linkDisconnected(.linkLoss, at: clock(12 * second))
    #expect(c.nextDeadline == clock(13 * second))
    #expect(c.advance(to: clock(13 * second - 1)) == ConnectionOutput())
    #expect(c.advance(to: clock(13 * second)).actions == [.connect(readerA)])
    #expect(c.nextDeadline == clock(23 * second))
    #expect(c.advance(to: clock(23 * second)).actions == [.cancelConnect(readerA)])
    #expect(c.nextDeadline == clock(25 * second))
    #expect(c.advance(to: clock(25 * second)).actions == [.connect(readerA)])
    _ = c.linkConnectFailed(.linkDropped, at: clock(26 * second))
    #expect(c.status == .notConnected)
    #expect(c.nextDeadline == nil)
    // Discovering: the discovery's own deadline (its timeout here).
    _ = c.discover(
      ReaderDiscovery(profiles: [.example], mode: .scan, configuration: .init(timeout: .seconds(5))),
      connectToChosen: false, at: clock(30 * second))
    #expect(c.nextDeadline == clock(35 * second))
  }

  /// A link that drops while an attempt is in flight fails it as `linkDropped` (a code, not
  /// prose).
  @Test func linkDroppedWhileConnecting() {
    var c = ConnectionLifecycle()
    _ = c.connect(to: readerA, at: clock(0))
    let out = c.linkDisconnected(.linkLoss, at: clock(1))
    #expect(out.events == [.statusChanged(.notConnected), .connectFailed(.linkDropped)])
  }
}
