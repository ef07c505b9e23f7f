// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import BlueZ
import DaemonStack
import Foundation
import ReaderConnection
import Testing

/// The reconnect flow many times in this process on the mock bus, with the process's memory,
/// descriptors and threads flat (``DaemonStack/SoakRun``). Runs only with `TAPWIRE_SOAK` set
/// (`Benchmarks/run-soak.sh`, CI's soak step): alone, so no other test moves the counts.
@Suite(
  "BlueZ soak", .serialized,
  .enabled(
    if: SoakRun.isEnabled && (BlueZStack.isAvailable || BlueZStack.isRequired), "TAPWIRE_SOAK is not set"))
struct BlueZSoakTests {
  static let reader = "C0:00:00:00:00:07"
  /// Cycles per session: each session ends with a disconnect and the next one starts with
  /// discovery, so sessions (their bus connections and threads) are soaked too.
  static let cyclesPerSession = 100

  /// One cycle: the radio drops the link (`drop` on the mock), the session reconnects. 10,000
  /// cycles in full (100 sessions), 300 in CI.
  @Test func reconnectCyclesKeepMemoryDescriptorsAndThreadsFlat() async throws {
    let stack = try BlueZStack()
    defer { stack.stop() }
    try stack.send("adapter hci0")
    try stack.send("device hci0 \(Self.reader) TW-0007")
    try stack.send(
      #"set hci0 \#(Self.reader) {"RSSI": -55, "ManufacturerData": {"0xffff": "\#(makerHex(serial: "TW000007", battery: 90))"}}"#
    )
    let configuration = ConnectionLifecycle.Configuration(
      reconnectAttempts: 5, initialBackoff: .milliseconds(1), maximumBackoff: .milliseconds(50),
      connectTimeout: .seconds(5))
    var run = SoakRun("bluez reconnect", cycles: SoakRun.cycles(full: 10_000, short: 300))
    var cycle = 0
    while cycle < run.cycles {
      let session = BlueZReaderConnection(
        serial: "TW000007", profiles: [.example], scanner: BlueZScanner(busAddress: stack.address),
        configuration: configuration, discovery: .init(timeout: .seconds(15)))
      var events = session.events.makeAsyncIterator()
      try await Self.wait(for: "connected", in: &events)
      let end = min(cycle + Self.cyclesPerSession, run.cycles)
      while cycle < end {
        try stack.send("drop hci0 \(Self.reader)")
        try await Self.wait(for: "reconnectSucceeded", in: &events)
        run.finished(cycle: cycle)
        cycle += 1
      }
      session.disconnect()
      try await Self.wait(for: "disconnected", in: &events)
      await session.ended()
    }
    let problems = await run.finish()
    print(run.report)
    #expect(problems.isEmpty, "\(problems)")
  }

  /// Reads events until one whose name starts with `name`; a failure or the end of the
  /// events throws.
  static func wait(
    for name: String, in events: inout AsyncStream<BlueZConnectionEvent>.Iterator
  ) async throws {
    while let event = await events.next() {
      switch event {
      case .failed(let error): throw DaemonStackError("waiting for \(name): \(error)")
      case .lifecycle(let lifecycle):
        if "\(lifecycle)".hasPrefix(name) { return }
        if lifecycle.isSessionEnd { throw DaemonStackError("waiting for \(name): \(lifecycle)") }
      }
    }
    throw DaemonStackError("waiting for \(name): the events ended")
  }
}
