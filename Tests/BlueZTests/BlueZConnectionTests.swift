// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import BlueZ
import Foundation
import ReaderConnection
import Testing

/// Fast timings so the scenarios take a second or two each.
let fastReconnect = ConnectionLifecycle.Configuration(
  reconnectAttempts: 3, initialBackoff: .milliseconds(200), maximumBackoff: .milliseconds(400),
  connectTimeout: .seconds(3))

/// The lifecycle events of `session`, calling `react` after each, until the session ends or
/// `seconds` pass.
func lifecycle(
  _ session: BlueZReaderConnection, seconds: Double = 40,
  react: @escaping @Sendable (ConnectionEvent) throws -> Void = { _ in }
) async throws -> [BlueZConnectionEvent] {
  try await withThrowingTaskGroup(of: [BlueZConnectionEvent]?.self) { group in
    group.addTask {
      var events: [BlueZConnectionEvent] = []
      for await event in session.events {
        events.append(event)
        if case .lifecycle(let e) = event { try react(e) }
      }
      return events
    }
    group.addTask {
      try await Task.sleep(for: .seconds(seconds))
      return nil
    }
    let first = try await group.next() ?? nil
    group.cancelAll()
    session.cancel()
    return first ?? []
  }
}

/// The lifecycle events without status changes and discovery details.
func essentials(_ events: [BlueZConnectionEvent]) -> [String] {
  events.compactMap { event in
    switch event {
    case .failed(let error): return "failed \(error.code)"
    case .lifecycle(let e):
      switch e {
      case .statusChanged, .discovery, .reconnectAttempt: return nil
      case .connected(let reader): return "connected \(reader.serial ?? "")"
      case .reconnectStarted(let reason, _): return "reconnectStarted \(reason)"
      default: return "\(e)"
      }
    }
  }
}

@Suite(.serialized, .enabled(if: BlueZStack.isAvailable || BlueZStack.isRequired))
struct BlueZConnectionTests {
  static let reader = "C0:00:00:00:00:07"

  /// A stack with adapter hci0 and the example reader TW000007 advertising.
  func stackWithReader() throws -> BlueZStack {
    let stack = try BlueZStack()
    try stack.send("adapter hci0")
    try stack.send("device hci0 \(Self.reader) TW-0007")
    try stack.send(
      #"set hci0 \#(Self.reader) {"RSSI": -55, "ManufacturerData": {"0xffff": "\#(makerHex(serial: "TW000007", battery: 90))"}}"#
    )
    return stack
  }

  func session(_ stack: BlueZStack, serial: String = "TW000007", discoveryTimeout: Duration = .seconds(15))
    -> BlueZReaderConnection
  {
    BlueZReaderConnection(
      serial: serial, profiles: [.example], scanner: BlueZScanner(busAddress: stack.address),
      configuration: fastReconnect, discovery: .init(timeout: discoveryTimeout))
  }

  @Test func reconnectAtLaunchFindsThenUnexpectedDropReconnects() async throws {
    let stack = try stackWithReader()
    defer { stack.stop() }
    let s = session(stack)
    let drops = Counter()
    let events = try await lifecycle(s) { event in
      switch event {
      case .connected: try stack.send("drop hci0 \(Self.reader)")
      case .reconnectSucceeded:
        if drops.increment() == 1 { s.disconnect() }
      default: break
      }
    }
    #expect(
      essentials(events) == [
        "connected TW000007", "reconnectStarted linkLoss", "reconnectSucceeded",
        "disconnected(ReaderConnection.DisconnectReason.requestedByApp)",
      ])
    // The order around the drop: started, attempt 1, succeeded.
    let kinds = events.compactMap { event -> String? in
      guard case .lifecycle(let e) = event else { return nil }
      switch e {
      case .reconnectStarted: return "started"
      case .reconnectAttempt(let n): return "attempt \(n)"
      case .reconnectSucceeded: return "succeeded"
      default: return nil
      }
    }
    #expect(kinds == ["started", "attempt 1", "succeeded"])
  }

  @Test func reconnectAtLaunchMisses() async throws {
    let stack = try stackWithReader()
    defer { stack.stop() }
    let events = try await lifecycle(
      session(stack, serial: "TW000099", discoveryTimeout: .milliseconds(1_500)))
    #expect(essentials(events) == ["notFound"])
  }

  @Test func reconnectFailsAfterTheAttempts() async throws {
    let stack = try stackWithReader()
    defer { stack.stop() }
    let events = try await lifecycle(session(stack)) { event in
      if case .connected = event {
        try stack.send("refuse hci0 \(Self.reader)")
        try stack.send("drop hci0 \(Self.reader)")
      }
    }
    let failure = ConnectFailure.transport(name: "org.bluez.Error.Failed")
    #expect(
      essentials(events) == [
        "connected TW000007", "reconnectStarted linkLoss",
        "\(ConnectionEvent.reconnectFailed(.attemptsExhausted(lastFailure: failure)))",
        "disconnected(ReaderConnection.DisconnectReason.linkLoss)",
      ])
    let attempts = events.filter { if case .lifecycle(.reconnectAttempt) = $0 { true } else { false } }
    #expect(attempts.count == 3)
  }

  @Test func reconnectCancelledMidway() async throws {
    let stack = try stackWithReader()
    defer { stack.stop() }
    let s = session(stack)
    let events = try await lifecycle(s) { event in
      switch event {
      case .connected:
        try stack.send("refuse hci0 \(Self.reader)")
        try stack.send("drop hci0 \(Self.reader)")
      case .reconnectAttempt(number: 2): s.cancelReconnect(ReconnectHandle(id: 1))
      default: break
      }
    }
    #expect(
      essentials(events) == [
        "connected TW000007", "reconnectStarted linkLoss",
        "reconnectFailed(ReaderConnection.ReconnectFailure.cancelled)",
        "disconnected(ReaderConnection.DisconnectReason.linkLoss)",
      ])
  }

  @Test func requestedDisconnectDoesNotReconnect() async throws {
    let stack = try stackWithReader()
    defer { stack.stop() }
    let s = session(stack)
    let events = try await lifecycle(s) { event in
      if case .connected = event { s.disconnect() }
    }
    #expect(
      essentials(events) == [
        "connected TW000007", "disconnected(ReaderConnection.DisconnectReason.requestedByApp)",
      ])
  }

  @Test func poweredOffIsAFailure() async throws {
    let stack = try stackWithReader()
    defer { stack.stop() }
    try stack.send("power hci0 0")
    let events = try await lifecycle(session(stack))
    #expect(essentials(events) == ["failed poweredOff"])
  }
}

final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  /// The count now.
  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }
  func increment() -> Int {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    return count
  }
}

extension BlueZConnectionTests {
  /// Issue 35: a requested disconnect reaches BlueZ. The adapter used to start `Disconnect`
  /// in a detached task and close the bus first, so the call was never sent; now the session
  /// ends after BlueZ answered it. Checked on the mock's side (its call log), not only by the
  /// events.
  @Test func aRequestedDisconnectReachesBlueZ() async throws {
    let stack = try stackWithReader()
    defer { stack.stop() }
    let s = session(stack)
    let events = try await lifecycle(s) { event in
      if case .connected = event { s.disconnect() }
    }
    await s.ended()
    #expect(essentials(events).last == "disconnected(ReaderConnection.DisconnectReason.requestedByApp)")
    // The mock's Device1 calls, in order: the session's last one is the Disconnect.
    let calls = try stack.send("calls hci0 \(Self.reader)").split(separator: " ").dropFirst()
    #expect(calls.first == "Connect")
    #expect(calls.last == "Disconnect")
  }

  /// Cancelling the task that listens to the events ends the session: the connected reader
  /// is disconnected on BlueZ's side and the runner ends within the disconnect bound.
  @Test func cancellingTheListenerDisconnects() async throws {
    let stack = try stackWithReader()
    defer { stack.stop() }
    let s = session(stack)
    let connected = Counter()
    let listener = Task {
      for await event in s.events {
        if case .lifecycle(.connected) = event { _ = connected.increment() }
      }
    }
    for _ in 0..<400 where connected.value == 0 { try await Task.sleep(for: .milliseconds(25)) }
    #expect(connected.value == 1)
    listener.cancel()
    let clock = ContinuousClock()
    let start = clock.now
    await s.ended()
    #expect(start.duration(to: clock.now) < BlueZReaderConnection.disconnectBound + .seconds(2))
    let calls = try stack.send("calls hci0 \(Self.reader)").split(separator: " ").dropFirst()
    #expect(calls.first == "Connect")
    #expect(calls.last == "Disconnect")
  }

  /// `org.bluez.Error.AlreadyConnected` answers Connect when the device is connected already
  /// (another client connected it): that is the state wanted, so the session is connected.
  /// The mock answers as real BlueZ does (the device's `Connected` is true and Connect fails).
  @Test func alreadyConnectedIsConnected() async throws {
    let stack = try stackWithReader()
    defer { stack.stop() }
    try stack.send("already hci0 \(Self.reader)")
    let s = session(stack)
    let events = try await lifecycle(s) { event in
      if case .connected = event { s.disconnect() }
    }
    #expect(essentials(events).first == "connected TW000007")
  }
}
