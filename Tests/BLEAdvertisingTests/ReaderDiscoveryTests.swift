// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

/// A simulated reader in a scan: where it is (mean RSSI over time) and what it sends.
struct SimulatedReader {
  var address: BluetoothAddress
  var serial: String
  /// Mean RSSI (dBm) at a time (µs).
  var rssi: (Int64) -> Int
  /// Advertises while this holds.
  var on: (Int64) -> Bool = { _ in true }
  var battery: UInt8? = nil
  var txPower: Int8? = nil
  var scanResponseBattery: UInt8? = nil
}

/// The instant `microseconds` after the test clock's origin (the tests count µs).
func clock(_ microseconds: Int64) -> MonotonicInstant {
  MonotonicInstant(sinceOrigin: .microseconds(microseconds))
}

/// An interval of `microseconds`.
func interval(_ microseconds: Int64) -> Duration { .microseconds(microseconds) }

/// Runs a simulated scan: every 100 ms each reader that is on sends its advertising (and
/// scan response, if any) with uniform noise of ±noise dB from a seeded generator.
func simulate(
  _ readers: [SimulatedReader], mode: ReaderDiscovery.Mode,
  configuration: ReaderDiscovery.Configuration = .init(), until end: Int64, noise: Int = 6,
  seed: UInt64, feed: ((Int64, inout ReaderDiscovery) -> [DiscoveryEvent])? = nil
) -> [(Int64, DiscoveryEvent)] {
  var rng = SeededGenerator(seed: seed)
  var discovery = ReaderDiscovery(profiles: [.example], mode: mode, configuration: configuration)
  var log: [(Int64, DiscoveryEvent)] = discovery.start(at: clock(0)).map { (0, $0) }
  var t: Int64 = 0
  while t <= end {
    for r in readers where r.on(t) {
      let value = r.rssi(t) + Int.random(in: -noise...noise, using: &rng)
      let adv = exampleAdvertising(serial: r.serial, battery: r.battery, txPower: r.txPower)
      let report = AdvertisingReport(
        timestamp: t, address: r.address, rssi: Int8(clamping: value), data: adv)
      log += discovery.receive(report, at: clock(t)).map { (t, $0) }
      if let b = r.scanResponseBattery {
        let scan = AdvertisingReport(
          timestamp: t, address: r.address, rssi: Int8(clamping: value),
          data: exampleScanResponse(battery: b), isScanResponse: true)
        log += discovery.receive(scan, at: clock(t)).map { (t, $0) }
      }
    }
    if let feed { log += feed(t, &discovery).map { (t, $0) } }
    log += discovery.advance(to: clock(t)).map { (t, $0) }
    t += 100_000
  }
  return log
}

func chosenSerials(_ log: [(Int64, DiscoveryEvent)]) -> [String] {
  log.compactMap { if case .readerChosen(let r) = $0.1 { return r.serial } else { return nil } }
}

func names(_ log: [(Int64, DiscoveryEvent)]) -> [String] {
  log.map {
    switch $0.1 {
    case .readersChanged(let list): return "list\(list.count)"
    case .readerChosen(let r): return "chosen:\(r.serial)"
    case .readerDetails(let r): return "details:\(r.serial):\(r.batteryLevel ?? -1)"
    case .readerLost(let r): return "lost:\(r.serial)"
    case .notFound: return "notFound"
    case .scanEnded(let list): return "ended\(list.count)"
    }
  }
}

let addressA = BluetoothAddress(0xC0_00_00_00_00_0A)
let addressB = BluetoothAddress(0xC0_00_00_00_00_0B)
let addressC = BluetoothAddress(0xC0_00_00_00_00_0C)

@Suite("ReaderDiscovery")
struct ReaderDiscoveryTests {
  @Test func smoothingIsAnIntegerEMA() {
    var discovery = ReaderDiscovery(
      profiles: [.example], mode: .scan, configuration: .init(timeout: nil))
    _ = discovery.start(at: clock(0))
    let adv = exampleAdvertising(serial: "00000001")
    var values: [Int] = []
    for (i, rssi) in [-60, -60, -80, -80, -80, -80].enumerated() {
      _ = discovery.receive(
        AdvertisingReport(address: addressA, rssi: Int8(rssi), data: adv), at: clock(Int64(i) * 1000))
      values.append(discovery.readers.first?.rssi ?? 0)
    }
    // α = 1/4: -60, -60, -65, -68.75, -71.56, -73.67 (rounded to whole dB).
    #expect(values == [-60, -60, -65, -69, -72, -74])
    #expect(discovery.readers.first?.pathLoss == 74)
  }

  /// A report whose data equals the last of its kind is not parsed again (no allocation):
  /// what was derived from the data stays, and a change of the data, either way, is seen.
  @Test func repeatedAndChangedDataOfATrackedDevice() {
    var discovery = ReaderDiscovery(
      profiles: [.example], mode: .scan, configuration: .init(timeout: nil))
    _ = discovery.start(at: clock(0))
    let full = exampleAdvertising(serial: "00000001", battery: 50, txPower: -4)
    let lower = exampleAdvertising(serial: "00000001", battery: 40, txPower: -8)
    var batteries: [Int] = []
    var txPowers: [Int] = []
    for (i, data) in [full, full, lower, lower, full].enumerated() {
      _ = discovery.receive(
        AdvertisingReport(address: addressA, rssi: -60, data: data), at: clock(Int64(i) * 1000))
      batteries.append(discovery.readers.first?.batteryLevel ?? -1)
      txPowers.append(discovery.readers.first?.txPower ?? 0)
    }
    #expect(batteries == [50, 50, 40, 40, 50])
    #expect(txPowers == [-4, -4, -8, -8, -4])
    // A scan response is remembered apart from the advertising data: repeating the
    // advertising after it keeps the scan response's battery.
    _ = discovery.receive(
      AdvertisingReport(
        address: addressA, rssi: -60, data: exampleAdvertising(serial: "00000001"), isScanResponse: false),
      at: clock(5000))
    _ = discovery.receive(
      AdvertisingReport(
        address: addressA, rssi: -60, data: exampleScanResponse(battery: 77), isScanResponse: true),
      at: clock(6000))
    _ = discovery.receive(
      AdvertisingReport(address: addressA, rssi: -60, data: exampleAdvertising(serial: "00000001")),
      at: clock(7000))
    #expect(discovery.readers.first?.batteryLevel == 77)
    #expect(discovery.readers.first?.serial == "00000001")
  }

  @Test func scanModeListsReadersAndEnds() {
    let readers = [
      SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -60 }),
      SimulatedReader(address: addressB, serial: "00000002", rssi: { _ in -70 }, on: { $0 >= 500_000 }),
      SimulatedReader(address: addressC, serial: "00000003", rssi: { _ in -80 }, on: { $0 < 2_000_000 }),
    ]
    let log = simulate(
      readers, mode: .scan,
      configuration: .init(timeout: interval(10_000_000), lostAfter: interval(3_000_000)),
      until: 11_000_000, seed: testSeed("scanModeListsReadersAndEnds"))
    #expect(names(log) == ["list1", "list2", "list3", "list2", "ended2"])
    // C is last heard at 1.9 s and dropped 3 s later.
    #expect(log.map { $0.0 } == [0, 0, 500_000, 4_900_000, 10_000_000])
    if case .scanEnded(let list)? = log.last?.1 {
      #expect(list.map { $0.serial } == ["00000001", "00000002"])
    } else {
      Issue.record("no scanEnded")
    }
  }

  @Test func scanModeNothingFound() {
    let log = simulate(
      [], mode: .scan, configuration: .init(timeout: interval(2_000_000)), until: 3_000_000, seed: 1)
    #expect(names(log) == ["notFound"])
    #expect(log.first?.0 == 2_000_000)
  }

  @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6, 7, 8])
  func proximityPicksNearestDespiteNoise(run: UInt64) {
    let readers = [
      SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -72 }),
      SimulatedReader(address: addressB, serial: "00000002", rssi: { _ in -58 }),
      SimulatedReader(address: addressC, serial: "00000003", rssi: { _ in -66 }),
    ]
    let seed = testSeed("proximityPicksNearestDespiteNoise") &+ run
    let log = simulate(readers, mode: .proximity, until: 5_000_000, noise: 8, seed: seed)
    #expect(chosenSerials(log) == ["00000002"], "seed \(seed)")
    #expect(!names(log).contains("notFound"), "seed \(seed)")
  }

  @Test func readerMovingCloserAfterChoiceDoesNotTakeOver() {
    let readers = [
      SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -65 }),
      // B starts far away and comes very near after A has been chosen.
      SimulatedReader(address: addressB, serial: "00000002", rssi: { $0 < 2_000_000 ? -85 : -45 }),
    ]
    let log = simulate(readers, mode: .proximity, until: 8_000_000, seed: testSeed("movingCloser"))
    #expect(chosenSerials(log) == ["00000001"])
  }

  @Test func readerMovingCloserWhileChoosingWins() {
    let readers = [
      SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -65 }),
      // B comes near 500 ms in, before the 1 s decision delay of A's lead is over.
      SimulatedReader(address: addressB, serial: "00000002", rssi: { $0 < 500_000 ? -85 : -45 }),
    ]
    let log = simulate(readers, mode: .proximity, until: 4_000_000, seed: testSeed("closerWhileChoosing"))
    #expect(chosenSerials(log) == ["00000002"])
  }

  @Test func hysteresisKeepsTheLeaderAgainstASmallerMargin() {
    // B is 3 dB nearer than A only after A leads; below the 6 dB hysteresis A is kept.
    let readers = [
      SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -60 }),
      SimulatedReader(address: addressB, serial: "00000002", rssi: { $0 < 300_000 ? -80 : -57 }),
    ]
    let log = simulate(readers, mode: .proximity, until: 3_000_000, noise: 0, seed: 9)
    #expect(chosenSerials(log) == ["00000001"])
  }

  @Test func pathLossUsesAdvertisedTXPower() {
    // A is louder but transmits at +8 dBm (path loss 68); B at -4 dBm is nearer (61).
    let readers = [
      SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -60 }, txPower: 8),
      SimulatedReader(address: addressB, serial: "00000002", rssi: { _ in -65 }, txPower: -4),
    ]
    let log = simulate(readers, mode: .proximity, until: 3_000_000, noise: 2, seed: 10)
    #expect(chosenSerials(log) == ["00000002"])
    if case .readerChosen(let r)? = log.first(where: { if case .readerChosen = $0.1 { true } else { false } }
    )?.1 {
      #expect(r.txPower == -4)
      #expect((59...63).contains(r.pathLoss))
    }
  }

  @Test func chosenReaderSwitchedOffIsLostThenAnotherChosen() {
    let readers = [
      SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -55 }, on: { $0 < 3_000_000 }),
      SimulatedReader(address: addressB, serial: "00000002", rssi: { _ in -70 }),
    ]
    let configuration = ReaderDiscovery.Configuration(lostAfter: interval(2_000_000))
    let log = simulate(
      readers, mode: .proximity, configuration: configuration, until: 9_000_000,
      seed: testSeed("switchedOff"))
    #expect(names(log) == ["chosen:00000001", "lost:00000001", "chosen:00000002"])
    let times = log.map { $0.0 }
    // Last heard at 2.9 s, lost 2 s later.
    #expect(times.count == 3)
    #expect(times.dropFirst().first == Int64(4_900_000))
  }

  @Test func batteryOnlyInScanResponseGivesTwoStepReport() {
    // The scan response with the battery arrives from 1.5 s on.
    var readers = [SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -60 })]
    readers[0].scanResponseBattery = 90
    let first = simulate(readers, mode: .proximity, until: 3_000_000, seed: 11)
    #expect(names(first) == ["chosen:00000001", "details:00000001:90"])
    // Scan responses only after the choice: the details come later, in a second report.
    var delayed = readers
    delayed[0].scanResponseBattery = nil
    let late = SimulatedReader(
      address: addressA, serial: "00000001", rssi: { _ in -60 }, on: { $0 >= 2_000_000 },
      scanResponseBattery: 85)
    var discoveryLog = simulate(delayed, mode: .proximity, until: 1_500_000, seed: 12)
    #expect(names(discoveryLog) == ["chosen:00000001"])
    // Same run continued with scan responses (one engine, fed by hand).
    var discovery = ReaderDiscovery(profiles: [.example], mode: .proximity)
    _ = discovery.start(at: clock(0))
    discoveryLog = []
    var t: Int64 = 0
    while t <= 3_000_000 {
      let adv = AdvertisingReport(address: addressA, rssi: -60, data: exampleAdvertising(serial: "00000001"))
      discoveryLog += discovery.receive(adv, at: clock(t)).map { (t, $0) }
      if late.on(t) {
        let scan = AdvertisingReport(
          address: addressA, rssi: -61, data: exampleScanResponse(battery: 85), isScanResponse: true)
        discoveryLog += discovery.receive(scan, at: clock(t)).map { (t, $0) }
      }
      t += 100_000
    }
    #expect(names(discoveryLog) == ["chosen:00000001", "details:00000001:85"])
    // Third sample at 0.2 s, then the 1 s decision delay.
    #expect(discoveryLog.map { $0.0 } == [1_200_000, 2_000_000])
    #expect(discovery.chosen?.batteryLevel == 85)
    #expect(discovery.phase == .chosen)
  }

  @Test func batteryFedBackByTheCaller() {
    let readers = [SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -60 })]
    let log = simulate(readers, mode: .proximity, until: 3_000_000, seed: 13) { t, discovery in
      t == 2_000_000 ? discovery.supplyBatteryLevel(42, serial: "00000001", at: clock(t)) : []
    }
    #expect(names(log) == ["chosen:00000001", "details:00000001:42"])
    #expect(log.last?.0 == 2_000_000)
  }

  @Test func batteryInAdvertisingAtChoiceReportsBothSteps() {
    let readers = [SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -60 }, battery: 64)]
    let log = simulate(readers, mode: .proximity, until: 2_000_000, seed: 14)
    #expect(names(log) == ["chosen:00000001", "details:00000001:64"])
    #expect(log[0].0 == log[1].0)
  }

  @Test func reconnectFindsSavedSerial() {
    let readers = [
      SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -50 }),
      SimulatedReader(address: addressB, serial: "00000002", rssi: { _ in -80 }, on: { $0 >= 1_200_000 }),
    ]
    let log = simulate(
      readers, mode: .reconnect(serial: "00000002"), until: 4_000_000, seed: testSeed("reconnect"))
    #expect(names(log) == ["chosen:00000002"])
    #expect(log.first?.0 == 1_200_000)
  }

  @Test func reconnectNotFound() {
    let readers = [SimulatedReader(address: addressA, serial: "00000001", rssi: { _ in -50 })]
    let log = simulate(
      readers, mode: .reconnect(serial: "00000009"), configuration: .init(timeout: interval(3_000_000)),
      until: 5_000_000, seed: 15)
    #expect(names(log) == ["notFound"])
    #expect(log.first?.0 == 3_000_000)
  }

  @Test func proximityTimeoutWithoutReaders() {
    // A non-matching device (other name) is ignored.
    var discovery = ReaderDiscovery(
      profiles: [.example], mode: .proximity, configuration: .init(timeout: interval(1_000_000)))
    _ = discovery.start(at: clock(0))
    let other = AdvertisingReport(
      address: addressC, rssi: -40, data: exampleAdvertising(serial: "1", name: "Other"))
    #expect(discovery.receive(other, at: clock(100)).isEmpty)
    let events = discovery.advance(to: clock(1_000_000))
    #expect(events == [.notFound])
    #expect(discovery.phase == .finished)
    #expect(discovery.receive(other, at: clock(1_100_000)).isEmpty)
  }

  @Test func deviceTableIsBounded() {
    var discovery = ReaderDiscovery(
      profiles: [.example], mode: .scan, configuration: .init(timeout: nil, maximumDevices: 4))
    _ = discovery.start(at: clock(0))
    for i in 0..<10 {
      let serial = "0000000\(i)"
      _ = discovery.receive(
        AdvertisingReport(
          address: BluetoothAddress(UInt64(i)), rssi: -60, data: exampleAdvertising(serial: serial)),
        at: clock(Int64(i) * 1000))
    }
    #expect(discovery.readers.map { $0.serial }.sorted() == ["00000006", "00000007", "00000008", "00000009"])
  }

  @Test func fedFromACapture() throws {
    // The btsnoop seed's reports drive the engine with their own timestamps.
    let file = BTSnoopFileViewTests.h4File
    let view = try BTSnoopFileView(validating: file.span.bytes)
    var it = view.advertisingReports
    var discovery = ReaderDiscovery(
      profiles: [.example], mode: .scan, configuration: .init(timeout: nil))
    var events: [DiscoveryEvent] = []
    var started = false
    while let report = try it.next() {
      let t = report.timestamp ?? 0
      if !started {
        events += discovery.start(at: clock(t))
        started = true
      }
      events += discovery.receive(report, at: clock(t))
    }
    let lists = events.compactMap { if case .readersChanged(let l) = $0 { return l } else { return nil } }
    #expect(lists.count == 3)
    #expect(lists.last?.map { $0.serial } == ["00067890", "00012345"])  // path loss 60 < 65
    #expect(lists[1].first?.batteryLevel == 90)
    #expect(lists.map { $0.count } == [1, 1, 2])
    #expect(lists.last?.first?.txPower == -8)
    #expect(lists.last?.last?.txPower == 4)
  }

  /// `nextDeadline`: the timeout, a reader falling silent, a leader's decision delay; nothing
  /// happens before it, something at it.
  @Test func nextDeadlineIsWhenTheNextTimerFires() {
    let a = BluetoothAddress(0xC0_00_00_00_00_0A)
    let report = AdvertisingReport(address: a, rssi: -50, data: exampleAdvertising(serial: "TW00000A"))
    var scan = ReaderDiscovery(
      profiles: [.example], mode: .scan,
      configuration: .init(timeout: .seconds(10), lostAfter: .seconds(5)))
    #expect(scan.nextDeadline == nil)
    _ = scan.start(at: clock(0))
    #expect(scan.nextDeadline == clock(10_000_000))
    _ = scan.receive(report, at: clock(1_000_000))
    // Reader A goes silent 5 s after it was heard, before the timeout.
    #expect(scan.nextDeadline == clock(6_000_000))
    #expect(scan.advance(to: clock(5_999_999)).isEmpty)
    #expect(scan.advance(to: clock(6_000_000)) == [.readersChanged([])])
    #expect(scan.nextDeadline == clock(10_000_000))
    #expect(scan.advance(to: clock(10_000_000)).count == 1)
    #expect(scan.nextDeadline == nil)

    var proximity = ReaderDiscovery(
      profiles: [.example], mode: .proximity,
      configuration: .init(
        timeout: nil, lostAfter: .seconds(5), decisionDelay: .seconds(1), minimumSamples: 1))
    _ = proximity.start(at: clock(0))
    #expect(proximity.nextDeadline == nil)
    _ = proximity.receive(report, at: clock(2_000_000))
    // The leader is chosen once it has led for the decision delay.
    #expect(proximity.nextDeadline == clock(3_000_000))
    #expect(proximity.advance(to: clock(2_999_999)).isEmpty)
    guard case .readerChosen = proximity.advance(to: clock(3_000_000)).first else {
      Issue.record("no choice at the decision deadline")
      return
    }
    // Chosen: only its silence matters.
    #expect(proximity.nextDeadline == clock(7_000_000))
    #expect(
      proximity.advance(to: clock(7_000_000)).first.map { if case .readerLost = $0 { true } else { false } }
        == true)
  }
}
