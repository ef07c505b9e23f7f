// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import Testing

/// The incremental engine against ``ReferenceReaderDiscovery`` (the engine before issue #35)
/// on seeded random scenes: crowds larger than the device table (so devices are forgotten),
/// reports at the same instant, serials shared by several addresses, scan responses,
/// unmatched and name-changing advertising, missing RSSI, TX power, supplied batteries and
/// silences. After every call both give the same events, `nextDeadline`, `readers`, phase
/// and chosen reader.
@Suite("ReaderDiscovery against the reference engine")
struct ReaderDiscoveryReferenceTests {
  @Test(arguments: 0..<48)
  func sameEventsAsTheReference(run: Int) {
    let seed = testSeed("ReaderDiscoveryReference") &+ UInt64(run)
    var rng = SeededGenerator(seed: seed)
    let modes: [ReaderDiscovery.Mode] = [.scan, .proximity, .reconnect(serial: "TW000003")]
    let mode = modes[run % 3]
    let configuration = ReaderDiscovery.Configuration(
      timeout: Bool.random(using: &rng) ? nil : .milliseconds(Int.random(in: 500...20_000, using: &rng)),
      lostAfter: .milliseconds(Int.random(in: 0...3000, using: &rng)),
      decisionDelay: .milliseconds(Int.random(in: 0...1500, using: &rng)),
      minimumSamples: Int.random(in: 0...4, using: &rng), hysteresis: Int.random(in: 0...8, using: &rng),
      smoothingShift: Int.random(in: 0...3, using: &rng),
      assumedTXPower: Int.random(in: -10...10, using: &rng),
      maximumDevices: Int.random(in: 1...24, using: &rng))
    let crowd = Int.random(in: 1...40, using: &rng)
    var fast = ReaderDiscovery(profiles: [.example], mode: mode, configuration: configuration)
    var reference = ReferenceReaderDiscovery(profiles: [.example], mode: mode, configuration: configuration)
    var time: Int64 = 0
    #expect(fast.start(at: clock(0)) == reference.start(at: clock(0)))
    for step in 0..<600 {
      // A third of the steps at the same instant as the one before.
      if Int.random(in: 0..<3, using: &rng) != 0 { time += Int64.random(in: 0...120_000, using: &rng) }
      let device = Int.random(in: 0..<crowd, using: &rng)
      let serial = "TW00000\(device % 6)"
      let address = BluetoothAddress(0xC0_00_00_00_00_00 | UInt64(device))
      let rssi: Int8? =
        Int.random(in: 0..<10, using: &rng) == 0
        ? nil : Int8(clamping: -30 - device * 2 - Int.random(in: 0...12, using: &rng))
      let fastEvents: [DiscoveryEvent]
      let referenceEvents: [DiscoveryEvent]
      switch Int.random(in: 0..<20, using: &rng) {
      case 0..<12:
        let battery: UInt8? =
          Int.random(in: 0..<3, using: &rng) == 0 ? UInt8.random(in: 0...120, using: &rng) : nil
        let name = Int.random(in: 0..<8, using: &rng) == 0 ? "TW-X\(device % 3)" : nil
        let tx: Int8? = Int.random(in: 0..<4, using: &rng) == 0 ? Int8.random(in: -20...10, using: &rng) : nil
        let report = AdvertisingReport(
          address: address, rssi: rssi,
          data: exampleAdvertising(serial: serial, battery: battery, name: name, txPower: tx))
        fastEvents = fast.receive(report, at: clock(time))
        referenceEvents = reference.receive(report, at: clock(time))
      case 12..<14:
        let report = AdvertisingReport(
          address: address, rssi: rssi,
          data: exampleScanResponse(battery: UInt8.random(in: 0...110, using: &rng)),
          isScanResponse: true)
        fastEvents = fast.receive(report, at: clock(time))
        referenceEvents = reference.receive(report, at: clock(time))
      case 14:
        // Another advertiser's data: unmatched (or a reader's name lost).
        let report = AdvertisingReport(
          address: address, rssi: rssi, data: exampleAdvertising(serial: serial, name: "Other"))
        fastEvents = fast.receive(report, at: clock(time))
        referenceEvents = reference.receive(report, at: clock(time))
      case 15..<17:
        let level = Int.random(in: 0...100, using: &rng)
        fastEvents = fast.supplyBatteryLevel(level, serial: serial, at: clock(time))
        referenceEvents = reference.supplyBatteryLevel(level, serial: serial, at: clock(time))
      default:
        // Wake at the deadline, or somewhat later.
        let due = fast.nextDeadline
        let wake = max(time, due.map { _ in time + Int64.random(in: 0...500_000, using: &rng) } ?? time)
        time = wake
        fastEvents = fast.advance(to: clock(time))
        referenceEvents = reference.advance(to: clock(time))
      }
      #expect(fastEvents == referenceEvents, "seed \(seed) step \(step)")
      #expect(fast.nextDeadline == reference.nextDeadline, "seed \(seed) step \(step)")
      #expect(fast.readers == reference.readers, "seed \(seed) step \(step)")
      #expect(fast.phase == reference.phase, "seed \(seed) step \(step)")
      #expect(fast.chosen == reference.chosen, "seed \(seed) step \(step)")
      if fastEvents != referenceEvents || fast.readers != reference.readers { return }
    }
  }
}
