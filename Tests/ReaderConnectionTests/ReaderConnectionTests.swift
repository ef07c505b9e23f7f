// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import ReaderConnection
import Testing

let second: Int64 = 1_000_000
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
func connected(_ configuration: ReaderConnection.Configuration = .init()) -> ReaderConnection {
  var c = ReaderConnection(configuration: configuration)
  _ = c.connect(to: readerA, at: 0)
  _ = c.linkConnected(at: 0)
  return c
}

@Suite struct ReaderConnectionTests {
  @Test func connectThenRequestedDisconnect() {
    var c = ReaderConnection()
    let start = c.connect(to: readerA, at: 0)
    #expect(start.events == [.statusChanged(.connecting)])
    #expect(start.actions == [.connect(readerA)])
    let up = c.linkConnected(at: 100)
    #expect(up.events == [.statusChanged(.connected), .connected(readerA)])
    let down = c.disconnect(at: 200)
    #expect(down.events == [.statusChanged(.notConnected), .disconnected(.requestedByApp)])
    #expect(down.actions == [.disconnect(readerA)])
    // The link's own report of the drop changes nothing: no reconnection.
    #expect(c.linkDisconnected(.linkLoss, at: 300) == ConnectionOutput())
    #expect(c.advance(to: 100 * second) == ConnectionOutput())
    #expect(c.status == .notConnected)
  }

  @Test func unexpectedDisconnectReconnects() {
    var c = connected()
    let drop = c.linkDisconnected(.linkLoss, at: 5 * second)
    guard case .reconnectStarted(.linkLoss, let handle) = drop.events.last else {
      Issue.record("no reconnectStarted: \(drop.events)")
      return
    }
    #expect(drop.events.first == .statusChanged(.connecting))
    #expect(c.reconnectHandle == handle)
    // Nothing before the first backoff (1 s).
    #expect(c.advance(to: 5 * second + 999_999) == ConnectionOutput())
    let attempt = c.advance(to: 6 * second)
    #expect(attempt.events == [.reconnectAttempt(number: 1)])
    #expect(attempt.actions == [.connect(readerA)])
    let back = c.linkConnected(at: 6 * second + 10)
    #expect(back.events == [.statusChanged(.connected), .reconnectSucceeded])
    #expect(c.reconnectHandle == nil)
  }

  @Test func reconnectFailsAfterTheAttemptsWithBackoff() {
    var c = connected(.init(reconnectAttempts: 3, initialBackoff: second, maximumBackoff: 3 * second))
    _ = c.linkDisconnected(.poweredOff, at: 0)
    var log: [(Int64, ConnectionEvent)] = []
    var t: Int64 = 0
    while t <= 30 * second {
      let out = c.advance(to: t)
      log += out.events.map { (t, $0) }
      if out.actions.contains(.connect(readerA)) {
        log += c.linkConnectFailed(.transport(name: "org.bluez.Error.Failed"), at: t).events.map { (t, $0) }
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
    var c = connected(.init(reconnectAttempts: 2, initialBackoff: 0, connectTimeout: second))
    let drop = c.linkDisconnected(.linkLoss, at: 0)
    #expect(drop.actions.isEmpty)
    let first = c.advance(to: 0)
    #expect(first.actions == [.connect(readerA)])
    let timeout = c.advance(to: second)
    #expect(timeout.actions == [.cancelConnect(readerA), .connect(readerA)])
    #expect(timeout.events == [.reconnectAttempt(number: 2)])
    let end = c.advance(to: 2 * second)
    #expect(
      end.events == [
        .reconnectFailed(.attemptsExhausted(lastFailure: .timedOut)), .statusChanged(.notConnected),
        .disconnected(.linkLoss),
      ])
  }

  @Test func reconnectCancelledMidway() {
    var c = connected()
    let drop = c.linkDisconnected(.linkLoss, at: 0)
    guard case .reconnectStarted(_, let handle) = drop.events.last else {
      Issue.record("no reconnectStarted")
      return
    }
    _ = c.advance(to: second)
    // A stale handle does nothing.
    #expect(c.cancelReconnect(ReconnectHandle(id: handle.id + 1), at: second) == ConnectionOutput())
    let cancel = c.cancelReconnect(handle, at: second + 1)
    #expect(cancel.actions == [.cancelConnect(readerA)])
    #expect(
      cancel.events == [
        .reconnectFailed(.cancelled), .statusChanged(.notConnected), .disconnected(.linkLoss),
      ])
    #expect(c.linkConnected(at: second + 2) == ConnectionOutput())
  }

  @Test func requestedDisconnectDuringReconnect() {
    var c = connected()
    _ = c.linkDisconnected(.linkLoss, at: 0)
    let out = c.disconnect(at: 10)
    #expect(
      out.events == [
        .reconnectFailed(.cancelled), .statusChanged(.notConnected), .disconnected(.requestedByApp),
      ])
    #expect(c.advance(to: 60 * second) == ConnectionOutput())
  }

  @Test func autoReconnectOff() {
    var c = connected(.init(autoReconnectOnUnexpectedDisconnect: false))
    let drop = c.linkDisconnected(.batteryLow, at: second)
    #expect(drop.events == [.statusChanged(.notConnected), .disconnected(.batteryLow)])
    #expect(c.advance(to: 60 * second) == ConnectionOutput())
  }

  @Test func firstConnectFailureAndTimeout() {
    var c = ReaderConnection(configuration: .init(connectTimeout: second))
    _ = c.connect(to: readerA, at: 0)
    let failed = c.linkConnectFailed(.transport(name: "org.bluez.Error.Failed"), at: 10)
    #expect(
      failed.events == [
        .statusChanged(.notConnected), .connectFailed(.transport(name: "org.bluez.Error.Failed")),
      ])
    _ = c.connect(to: readerA, at: 20)
    let timeout = c.advance(to: 20 + second)
    #expect(timeout.actions == [.cancelConnect(readerA)])
    #expect(timeout.events == [.statusChanged(.notConnected), .connectFailed(.timedOut)])
  }

  @Test func reconnectAtLaunchFindsTheSavedSerial() {
    var c = ReaderConnection()
    let start = c.reconnectAtLaunch(serial: "TW000001", profiles: [.example], at: 0)
    #expect(start.events == [.statusChanged(.discovering)])
    #expect(start.actions == [.startDiscovery])
    let other = ReaderIdentity(
      serial: "TW000002", address: BluetoothAddress(0xC0_00_00_00_00_02), addressType: .randomDevice)
    #expect(c.receive(report(other), at: 100).actions.isEmpty)
    let found = c.receive(report(readerA), at: 200)
    #expect(found.actions == [.stopDiscovery, .connect(readerA)])
    guard case .discovery(.readerChosen(let chosen)) = found.events.first else {
      Issue.record("no readerChosen: \(found.events)")
      return
    }
    #expect(chosen.serial == "TW000001")
    #expect(found.events.last == .statusChanged(.connecting))
    #expect(c.linkConnected(at: 300).events.last == .connected(readerA))
  }

  @Test func reconnectAtLaunchMisses() {
    var c = ReaderConnection()
    _ = c.reconnectAtLaunch(
      serial: "TW000009", profiles: [.example], discovery: .init(timeout: 3 * second), at: 0)
    _ = c.receive(report(readerA), at: second)
    let end = c.advance(to: 3 * second)
    #expect(end.events == [.statusChanged(.notConnected), .notFound])
    #expect(end.actions == [.stopDiscovery])
  }

  @Test func scanDiscoveryEndsOnce() {
    var c = ReaderConnection()
    _ = c.discover(
      ReaderDiscovery(profiles: [.example], mode: .scan, configuration: .init(timeout: 2 * second)),
      connectToChosen: false, at: 0)
    let seen = c.receive(report(readerA), at: 10)
    #expect(seen.events.count == 1)
    let end = c.advance(to: 2 * second)
    #expect(end.events.count == 3)
    #expect(end.events.last == .discoveryStopped)
    #expect(c.stopDiscovery(at: 3 * second) == ConnectionOutput())
  }

  @Test func rebootReconnects() {
    var c = connected()
    let request = c.reboot(at: second)
    #expect(request.events == [.rebootRequested])
    #expect(request.actions == [.reboot(readerA)])
    // The transport reports an ordinary drop; the reason is the reboot.
    let drop = c.linkDisconnected(.linkLoss, at: 2 * second)
    guard case .reconnectStarted(.reboot, _) = drop.events.last else {
      Issue.record("no reboot reconnect: \(drop.events)")
      return
    }
    _ = c.advance(to: 3 * second)
    #expect(c.linkConnected(at: 3 * second).events.last == .reconnectSucceeded)
  }

  @Test func rebootWithoutAutoReconnectDisconnects() {
    var c = connected(.init(autoReconnectOnUnexpectedDisconnect: false))
    _ = c.reboot(at: 0)
    #expect(c.linkDisconnected(.unknown, at: 1).events.last == .disconnected(.reboot))
  }

  @Test func dailyRebootDeadlineResetByAReboot() {
    let day: Int64 = 86_400 * second
    var c = connected(.init(dailyRebootInterval: day))
    #expect(c.rebootDeadline == day)
    // A requested reboot at noon moves the deadline a day on.
    _ = c.reboot(at: day / 2)
    #expect(c.rebootDeadline == day / 2 + day)
    _ = c.linkDisconnected(.linkLoss, at: day / 2 + 1)
    _ = c.advance(to: day / 2 + 2 * second)
    _ = c.linkConnected(at: day / 2 + 2 * second)
    #expect(c.advance(to: day) == ConnectionOutput())
    let due = c.advance(to: day / 2 + day)
    #expect(due.events == [.rebootRequested])
    #expect(due.actions == [.reboot(readerA)])
    // Only once while the reboot is pending.
    #expect(c.advance(to: day / 2 + day + 1) == ConnectionOutput())
  }

  @Test(arguments: [(1, 1), (2, 2), (3, 4), (4, 8), (5, 16), (6, 16), (100, 16)])
  func defaultBackoff(attempt: Int, seconds: Int64) {
    #expect(ReaderConnection.Configuration().backoff(beforeAttempt: attempt) == seconds * second)
  }

  @Test func hostileSettingsNeverTrap() {
    var c = connected(
      .init(
        reconnectAttempts: Int.max, initialBackoff: Int64.max, maximumBackoff: Int64.max,
        connectTimeout: Int64.max, dailyRebootInterval: Int64.max))
    _ = c.linkDisconnected(.linkLoss, at: Int64.max - 1)
    _ = c.advance(to: Int64.max)
    #expect(c.status == .connecting)
  }
}
