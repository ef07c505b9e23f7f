// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import BlueZ
import Foundation
import ReaderConnection
import Testing

/// The example profile's manufacturer data for `serial` (layout 1, serial, battery).
func makerHex(serial: String, battery: UInt8? = nil) -> String {
  ([0x01] + Array(serial.utf8) + (battery.map { [$0] } ?? [])).map { String(format: "%02x", $0) }.joined()
}

let batteryService = "0000180f-0000-1000-8000-00805f9b34fb"

/// Collects scanner updates until `done` says so (or the time runs out).
func collect(
  _ scanner: BlueZScanner, seconds: Double = 10, after start: @escaping @Sendable () throws -> Void = {},
  until done: @escaping @Sendable ([BlueZAdvertisement]) -> Bool
) async throws -> [BlueZAdvertisement] {
  try await withThrowingTaskGroup(of: [BlueZAdvertisement]?.self) { group in
    group.addTask {
      var seen: [BlueZAdvertisement] = []
      var started = false
      for try await update in scanner.advertisements() {
        seen.append(update)
        if !started {
          started = true
          try start()
        }
        if done(seen) { return seen }
      }
      return seen
    }
    group.addTask {
      try await Task.sleep(for: .seconds(seconds))
      return nil
    }
    let first = try await group.next() ?? nil
    group.cancelAll()
    return first ?? []
  }
}

@Suite(.serialized, .enabled(if: BlueZStack.isAvailable || BlueZStack.isRequired))
struct BlueZScannerTests {
  @Test func availableWhenRequired() {
    #expect(BlueZStack.unavailableReason == nil, "\(BlueZStack.unavailableReason ?? "")")
  }

  @Test func readersAppearMoveAndVanish() async throws {
    let stack = try BlueZStack()
    defer { stack.stop() }
    try stack.send("adapter hci0")
    try stack.send("device hci0 C0:00:00:00:00:01 TW-0001")
    try stack.send(
      #"set hci0 C0:00:00:00:00:01 {"RSSI": -60, "TxPower": 4, "ManufacturerData": {"0xffff": "\#(makerHex(serial: "TW000001", battery: 80))"}, "ServiceData": {"\#(batteryService)": "50"}, "AddressType": "random"}"#
    )
    let scanner = BlueZScanner(busAddress: stack.address, adapter: "hci0")
    let updates = try await collect(
      scanner,
      after: {
        try stack.send("set hci0 C0:00:00:00:00:01 {\"RSSI\": -40}")
        try stack.send("device hci0 C0:00:00:00:00:02 TW-0002")
        try stack.send(
          #"set hci0 C0:00:00:00:00:02 {"RSSI": -70, "ManufacturerData": {"0xffff": "\#(makerHex(serial: "TW000002"))"}}"#
        )
        try stack.send("remove hci0 C0:00:00:00:00:02")
        try stack.send("set hci0 C0:00:00:00:00:01 {\"RSSI\": -45}")
      }, until: { $0.last?.report.rssi == -45 })
    let first = try #require(updates.first { $0.report.address == BluetoothAddress(0xC0_00_00_00_00_01) })
    #expect(first.report.addressType == .randomDevice)
    #expect(first.report.rssi == -60)
    let data = first.report.advertising
    #expect(data.localName == "TW-0001")
    #expect(data.txPowerLevel == 4)
    #expect(data.manufacturerData(for: .testing) == Array([0x01] + Array("TW000001".utf8) + [80]))
    #expect(data.serviceData(for: BluetoothUUID(uuid16: 0x180F)) == [0x50])
    let rssis = updates.filter { $0.device.address == BluetoothAddress(0xC0_00_00_00_00_01) }.compactMap(
      \.report.rssi)
    #expect(rssis.contains(-40) && rssis.last == -45)
    #expect(
      updates.contains { $0.device.address == BluetoothAddress(0xC0_00_00_00_00_02) && $0.report.rssi == -70 }
    )

    // The same updates through ReaderDiscovery in scan mode: both readers listed, then the
    // second one gone once silent.
    var discovery = ReaderDiscovery(
      profiles: [.example], mode: .scan, configuration: .init(timeout: nil, lostAfter: .seconds(2)))
    _ = discovery.start(at: updates[0].report.timestampInstant ?? .origin)
    var lists: [[String]] = []
    for update in updates {
      for case .readersChanged(let list) in discovery.receive(
        update.report, at: update.report.timestampInstant ?? .origin)
      {
        lists.append(list.map(\.serial))
      }
    }
    #expect(lists.contains(["TW000001", "TW000002"]))
    // Reader 1 heard again 2.5 s later; reader 2 (removed) was not.
    var again = try #require(updates.last).report
    again.timestamp = (again.timestamp ?? 0) + 2_500_000
    for case .readersChanged(let list) in discovery.receive(again, at: again.timestampInstant ?? .origin) {
      lists.append(list.map(\.serial))
    }
    #expect(lists.last == ["TW000001"])
  }

  @Test func serialOnlyFirstThenDetails() async throws {
    let stack = try BlueZStack()
    defer { stack.stop() }
    try stack.send("adapter hci0")
    try stack.send("device hci0 C0:00:00:00:00:03 TW-0003")
    try stack.send(
      #"set hci0 C0:00:00:00:00:03 {"RSSI": -50, "ManufacturerData": {"0xffff": "\#(makerHex(serial: "TW000003"))"}}"#
    )
    let scanner = BlueZScanner(busAddress: stack.address)
    let updates = try await collect(
      scanner,
      after: {
        for rssi in [-51, -52, -50] { try stack.send("set hci0 C0:00:00:00:00:03 {\"RSSI\": \(rssi)}") }
        try stack.send(#"set hci0 C0:00:00:00:00:03 {"ServiceData": {"\#(batteryService)": "4b"}}"#)
      }, until: { $0.last?.report.advertising.serviceData(for: BluetoothUUID(uuid16: 0x180F)) == [0x4B] })
    var discovery = ReaderDiscovery(
      profiles: [.example], mode: .proximity, configuration: .init(decisionDelay: .zero, minimumSamples: 1))
    _ = discovery.start(at: updates.first?.report.timestampInstant ?? .origin)
    var events: [DiscoveryEvent] = []
    for update in updates {
      events += discovery.receive(update.report, at: update.report.timestampInstant ?? .origin)
    }
    guard case .readerChosen(let chosen) = events.first else {
      Issue.record("no reader chosen: \(events)")
      return
    }
    #expect(chosen.serial == "TW000003")
    #expect(chosen.batteryLevel == nil)
    #expect(events.contains { if case .readerDetails(let r) = $0 { r.batteryLevel == 75 } else { false } })
    #expect(!events.dropFirst().contains { if case .readerChosen = $0 { true } else { false } })
  }

  @Test func poweredOffAdapter() async throws {
    let stack = try BlueZStack()
    defer { stack.stop() }
    try stack.send("adapter hci0")
    try stack.send("power hci0 0")
    let scanner = BlueZScanner(busAddress: stack.address)
    await #expect(throws: BlueZError(.poweredOff, message: "hci0 is powered off")) {
      for try await _ in scanner.advertisements() {}
    }
    let adapters = try await scanner.adapters()
    #expect(adapters.map(\.name) == ["hci0"])
    #expect(adapters.first?.isPowered == false)
  }

  @Test func discoveryInProgressKeepsTheBlueZName() async throws {
    let stack = try BlueZStack()
    defer { stack.stop() }
    try stack.send("adapter hci0")
    try stack.send("busy hci0")
    do {
      for try await _ in BlueZScanner(busAddress: stack.address).advertisements() {}
      Issue.record("no error")
    } catch {
      #expect(error.code == .inProgress)
      #expect(error.name == "org.bluez.Error.InProgress")
    }
  }

  @Test func noAdapter() async throws {
    let stack = try BlueZStack()
    defer { stack.stop() }
    do {
      for try await _ in BlueZScanner(busAddress: stack.address, adapter: "hci1").advertisements() {}
      Issue.record("no error")
    } catch {
      #expect(error.code == .noAdapter)
    }
  }

  @Test func noBlueZOnTheBus() async throws {
    let stack = try BlueZStack(mock: false)
    defer { stack.stop() }
    do {
      _ = try await BlueZScanner(busAddress: stack.address).adapters()
      Issue.record("no error")
    } catch {
      #expect(error.code == .noBlueZ)
      #expect(error.name == "org.freedesktop.DBus.Error.ServiceUnknown")
    }
  }

  @Test func noBus() async throws {
    do {
      _ = try await BlueZScanner(busAddress: "unix:path=/nonexistent/tapwire-bus").adapters()
      Issue.record("no error")
    } catch {
      #expect(error.code == .noBus)
      #expect(!error.name.isEmpty)
    }
  }
}
