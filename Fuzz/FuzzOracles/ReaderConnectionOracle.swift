// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import ReaderConnection

/// The connection lifecycle fed with a fuzzed sequence of app requests, link events,
/// advertising reports and clock steps. Checks, besides "no trap": every session (the status
/// leaving `notConnected`) ends exactly once with one terminal event and the status back at
/// `notConnected`; no terminal event outside a session; after a requested disconnect nothing
/// reconnects or connects until the app starts a new session; reconnection attempts are
/// numbered 1, 2, ... within the configured bound and only inside a reconnection; the same
/// input gives the same output (the machine is deterministic).
///
/// Input: byte 0 picks the settings (bit 0 auto-reconnect, bits 1-2 attempts 0...3, bit 3 a
/// daily reboot interval of 30 s); then steps of `kind delay argument`: `delay` in units of
/// 100 ms, `kind % 12` one of connect, link up, connect failed, link down (reason from
/// `argument`), disconnect, cancel the current (or, odd argument, a stale) reconnection,
/// reboot, advance, reconnect at launch, a report from reader `argument % 4`, stop discovery,
/// proximity discovery.
public enum ReaderConnectionOracle {
  static let reasons: [DisconnectReason] = [
    .linkLoss, .poweredOff, .batteryLow, .reboot, .unknown, .requestedByApp,
  ]

  /// Runs the oracle on one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    let first = run(bytes)
    let second = run(bytes)
    try require(
      first.map { $0.1 } == second.map { $0.1 } && first.map { $0.2 } == second.map { $0.2 },
      "the same input gave different output")
    try require(early(bytes) == 0, "advance(to:) gave output before nextDeadline")
    let attempts = Int(((bytes.first ?? 0) >> 1) & 3)
    var inSession = false
    var requestedDown = false
    var reconnecting = false
    var lastAttempt = 0
    for (request, out, status) in first {
      if request { requestedDown = false }
      // Timers due fire before the request, so a step's own actions may precede its
      // requested disconnect: only later steps must not connect.
      let downBefore = requestedDown
      for event in out.events {
        switch event {
        case .statusChanged(let s):
          if s != .notConnected {
            if !inSession { inSession = true }
          }
        case .reconnectStarted(let reason, _):
          try require(!requestedDown, "reconnecting after a requested disconnect")
          try require(reason != .requestedByApp, "a requested disconnect reconnects")
          try require(!reconnecting, "a second reconnection inside one")
          reconnecting = true
          lastAttempt = 0
        case .reconnectAttempt(let n):
          try require(reconnecting, "an attempt outside a reconnection")
          try require(
            n == lastAttempt + 1 && n <= attempts, "attempt \(n) after \(lastAttempt) of \(attempts)")
          lastAttempt = n
        case .reconnectSucceeded, .reconnectFailed:
          try require(reconnecting, "a reconnection result without a reconnection")
          reconnecting = false
        default:
          break
        }
        if event.isSessionEnd {
          try require(inSession, "a terminal event outside a session: \(event)")
          try require(!reconnecting, "the session ended inside a reconnection")
          inSession = false
          if event == .disconnected(.requestedByApp) { requestedDown = true }
        }
      }
      if downBefore {
        for action in out.actions {
          if case .connect = action { try require(false, "a connect after a requested disconnect") }
        }
      }
      try require(inSession == (status != .notConnected), "status \(status) while in session \(inSession)")
    }
  }

  /// Runs the input: for each step, whether it was a session-starting request, the output
  /// and the status after it.
  static func run(_ bytes: [UInt8]) -> [(Bool, ConnectionOutput, ConnectionStatus)] { runCounting(bytes).log }

  /// How often an advance before the lifecycle's `nextDeadline` gave output (it must not:
  /// adapters sleep until that deadline).
  static func early(_ bytes: [UInt8]) -> Int { runCounting(bytes).early }

  /// The instant `microseconds` after the origin (the oracle's clock counts µs).
  static func instant(_ microseconds: Int64) -> MonotonicInstant {
    MonotonicInstant(sinceOrigin: .microseconds(microseconds))
  }

  /// The log of the input, and the number of advances that gave output before `nextDeadline`.
  static func runCounting(_ bytes: [UInt8]) -> (log: [(Bool, ConnectionOutput, ConnectionStatus)], early: Int)
  {
    var earlyCount = 0
    let settings = bytes.first ?? 0
    let configuration = ConnectionLifecycle.Configuration(
      autoReconnectOnUnexpectedDisconnect: settings & 1 != 0, reconnectAttempts: Int((settings >> 1) & 3),
      initialBackoff: .milliseconds(200), maximumBackoff: .milliseconds(800), connectTimeout: .seconds(1),
      dailyRebootInterval: settings & 8 != 0 ? .seconds(30) : nil)
    var c = ConnectionLifecycle(configuration: configuration)
    let discovery = ReaderDiscovery.Configuration(
      timeout: .seconds(5), lostAfter: .seconds(2), decisionDelay: .milliseconds(300))
    var log: [(Bool, ConnectionOutput, ConnectionStatus)] = []
    var time: Int64 = 0
    var i = 1
    while i + 3 <= bytes.count {
      let kind = bytes[i] % 12
      time += Int64(bytes[i + 1]) * 100_000
      let argument = Int(bytes[i + 2])
      i += 3
      let reader = ReaderIdentity(
        serial: "TW00000\(argument % 4)",
        address: BluetoothAddress(0xC0_00_00_00_00_00 | UInt64(argument % 4)),
        addressType: .randomDevice)
      var request = false
      let out: ConnectionOutput
      switch kind {
      case 0:
        request = c.status == .notConnected
        out = c.connect(to: reader, at: instant(time))
      case 1: out = c.linkConnected(at: instant(time))
      case 2: out = c.linkConnectFailed(.transport(name: "fuzz"), at: instant(time))
      case 3: out = c.linkDisconnected(reasons[argument % reasons.count], at: instant(time))
      case 4: out = c.disconnect(at: instant(time))
      case 5:
        let handle = c.reconnectHandle ?? ReconnectHandle(id: 0)
        out = c.cancelReconnect(
          argument & 1 == 0 ? handle : ReconnectHandle(id: handle.id &+ 1), at: instant(time))
      case 6: out = c.reboot(at: instant(time))
      case 7:
        let due = c.nextDeadline
        out = c.advance(to: instant(time))
        if out != ConnectionOutput() && (due.map { instant(time) < $0 } ?? true) { earlyCount += 1 }
      case 8:
        request = c.status == .notConnected
        out = c.reconnectAtLaunch(
          serial: "TW00000\(argument % 4)", profiles: [.example], discovery: discovery, at: instant(time))
      case 9:
        let data = ReaderDiscoveryOracle.advertising(serial: reader.serial ?? "", battery: 50)
        out = c.receive(
          AdvertisingReport(address: reader.address, rssi: Int8(truncatingIfNeeded: -argument), data: data),
          at: instant(time))
      case 10: out = c.stopDiscovery(at: instant(time))
      default:
        request = c.status == .notConnected
        out = c.discover(
          ReaderDiscovery(profiles: [.example], mode: .proximity, configuration: discovery),
          connectToChosen: argument & 1 == 0, at: instant(time))
      }
      log.append((request, out, c.status))
    }
    log.append((false, c.advance(to: instant(time + 60_000_000)), c.status))
    return (log, earlyCount)
  }
}
