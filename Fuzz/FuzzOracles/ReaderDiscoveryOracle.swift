// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising

/// The reader-selection engine fed with a fuzzed sequence of reports, clock steps and
/// battery levels. Checks, besides "no trap": the events belong to the mode (scan lists vs.
/// a chosen reader), a chosen reader is sticky (no second choice before it is lost), details
/// and losses refer to the chosen reader, reconnect chooses only the saved serial, nothing
/// follows the end of discovery, lists hold distinct addresses within the device bound, and
/// the same input gives the same events (the engine is deterministic).
///
/// Input: byte 0 picks the mode (0 scan, 1 proximity, 2 reconnect); then steps of
/// `kind delay device rssi [extra]`: kind 0 sends the example profile's advertising for
/// device `device % 8` (serial and battery derived from it), 1 a scan response with battery
/// service data, 2 raw AD bytes (`extra` = length, then the bytes), 3 advances the clock,
/// 4 supplies a battery level for that device's serial. `delay` is in units of 50 ms.
public enum ReaderDiscoveryOracle {
  static let serials = (0..<8).map { "TW00000\($0)" }

  /// Runs the oracle on one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    let first = run(bytes)
    let second = run(bytes)
    try require(first == second, "the same input gave different events")
    try require(early(bytes) == 0, "advance(to:) reported events before nextDeadline")
    let mode = mode(of: bytes)
    var chosen: BluetoothAddress? = nil
    var finished = false
    for event in first {
      try require(!finished, "an event after discovery finished: \(event)")
      switch event {
      case .readersChanged(let list), .scanEnded(let list):
        try require(mode == .scan, "a list in a choosing mode")
        try require(list.count <= 64, "more readers listed than tracked")
        try require(Set(list.map(\.address)).count == list.count, "an address listed twice")
        if case .scanEnded = event { finished = true }
      case .readerChosen(let reader):
        try require(mode != .scan, "a reader chosen in scan mode")
        try require(chosen == nil, "a second reader chosen before the first was lost")
        if case .reconnect(let serial) = mode {
          try require(reader.serial == serial, "reconnect chose another serial")
        }
        chosen = reader.address
      case .readerDetails(let reader):
        try require(chosen == reader.address, "details for a reader that is not chosen")
      case .readerLost(let reader):
        try require(chosen == reader.address, "lost a reader that is not chosen")
        chosen = nil
      case .notFound:
        try require(chosen == nil, "not found while a reader is chosen")
        finished = true
      }
    }
  }

  static func mode(of bytes: [UInt8]) -> ReaderDiscovery.Mode {
    switch (bytes.first ?? 0) % 3 {
    case 0: return .scan
    case 1: return .proximity
    default: return .reconnect(serial: serials[Int((bytes.first ?? 0) / 3) % 8])
    }
  }

  /// The instant `microseconds` after the origin (the oracle's clock counts µs).
  static func instant(_ microseconds: Int64) -> MonotonicInstant {
    MonotonicInstant(sinceOrigin: .microseconds(microseconds))
  }

  static func run(_ bytes: [UInt8]) -> [DiscoveryEvent] { runCounting(bytes).events }

  /// How often an advance before the discovery's `nextDeadline` reported events (it must not:
  /// adapters sleep until that deadline).
  static func early(_ bytes: [UInt8]) -> Int { runCounting(bytes).early }

  /// The events of the input, and the number of advances that fired before `nextDeadline`.
  static func runCounting(_ bytes: [UInt8]) -> (events: [DiscoveryEvent], early: Int) {
    var earlyCount = 0
    var discovery = ReaderDiscovery(
      profiles: [.example], mode: mode(of: bytes),
      configuration: .init(timeout: .seconds(20), lostAfter: .seconds(2), decisionDelay: .milliseconds(300)))
    var events = discovery.start(at: .origin)
    var time: Int64 = 0
    var i = 1
    while i + 4 <= bytes.count {
      let kind = bytes[i] % 5
      time += Int64(bytes[i + 1]) * 50_000
      let device = Int(bytes[i + 2] % 8)
      let rssi = Int8(bitPattern: bytes[i + 3])
      let address = BluetoothAddress(0xC0_00_00_00_00_00 | UInt64(device))
      i += 4
      switch kind {
      case 0:
        let data = advertising(serial: serials[device], battery: UInt8(device * 10))
        events += discovery.receive(
          AdvertisingReport(address: address, rssi: rssi, data: data), at: instant(time))
      case 1:
        let data =
          (try? AdvertisingData(values: [.serviceData(BluetoothUUID(uuid16: 0x180F), [UInt8(device)])])
            .encodedBytes(budget: .legacy)) ?? []
        events += discovery.receive(
          AdvertisingReport(address: address, rssi: rssi, data: data, isScanResponse: true), at: instant(time)
        )
      case 2:
        let count = i < bytes.count ? Int(bytes[i]) : 0
        let end = min(bytes.count, i + 1 + count)
        let data = i + 1 <= end ? Array(bytes[(i + 1)..<end]) : []
        i = end
        events += discovery.receive(
          AdvertisingReport(address: address, rssi: rssi, data: data, isExtended: true), at: instant(time))
      case 3:
        let due = discovery.nextDeadline
        let fired = discovery.advance(to: instant(time))
        if !fired.isEmpty && (due.map { instant(time) < $0 } ?? true) { earlyCount += 1 }
        events += fired
      default:
        events += discovery.supplyBatteryLevel(
          Int(bytes[i - 1] % 101), serial: serials[device], at: instant(time))
      }
    }
    events += discovery.advance(to: instant(time + 30_000_000))
    return (events, earlyCount)
  }

  static func advertising(serial: String, battery: UInt8) -> [UInt8] {
    let values: [ADValue] = [
      .flags([.leGeneralDiscoverable, .brEDRNotSupported]),
      .manufacturerData(.testing, [0x01] + Array(serial.utf8) + [battery]),
      .localName("TW-\(serial.suffix(4))", complete: true),
    ]
    return (try? AdvertisingData(values: values).encodedBytes(budget: .legacy)) ?? []
  }
}
