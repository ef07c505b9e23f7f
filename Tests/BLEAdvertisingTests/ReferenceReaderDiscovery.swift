// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising

/// The reader-discovery engine as it was before issue #35 (every report rebuilt and sorted
/// the list; devices in an array scanned linearly), kept as the reference the incremental
/// engine is checked against: the same inputs must give the same events and the same
/// `nextDeadline`. Only the type's name and the access levels differ from that version.
struct ReferenceReaderDiscovery {
  typealias Mode = ReaderDiscovery.Mode
  typealias Configuration = ReaderDiscovery.Configuration
  typealias Phase = ReaderDiscovery.Phase

  struct Device: Sendable {
    var address: BluetoothAddress
    var addressType: BluetoothAddressType
    var advertising = AdvertisingData()
    var scanResponse = AdvertisingData()
    /// Smoothed RSSI in 1/16 dB.
    var smoothed = 0
    var samples = 0
    var txPower: Int?
    var firstSeen: MonotonicInstant
    var lastSeen: MonotonicInstant
    /// Profile index and serial, once known.
    var profile: Int?
    var serial: String?
    /// The merged data's local name and the profile's battery level from it, kept up to
    /// date by `receive` (the only place the data or the profile change), so snapshots do
    /// not merge again.
    var localName: String?
    var advertisedBattery: Int?
  }

  /// The profiles readers are recognized by, in priority order.
  let profiles: [ReaderProfile]
  /// The mode.
  let mode: Mode
  /// The settings.
  let configuration: Configuration
  /// Where the discovery stands.
  private(set) var phase: Phase = .idle
  /// The chosen reader as last reported (proximity and reconnect modes).
  private(set) var chosen: DiscoveredReader?

  var devices: [Device] = []
  var deadline: MonotonicInstant?
  var now: MonotonicInstant = .origin
  var lastList: [DiscoveredReader] = []
  var everFound = false
  var leader: BluetoothAddress?
  var leaderSince: MonotonicInstant = .origin
  var suppliedBattery: [String: Int] = [:]
  var reportedDetails: Int?

  /// Creates a discovery; call ``start(at:)`` first.
  init(profiles: [ReaderProfile], mode: Mode, configuration: Configuration = Configuration()) {
    self.profiles = profiles
    self.mode = mode
    self.configuration = configuration
  }

  /// Starts (or restarts) discovery at `time`, forgetting what was seen.
  mutating func start(at time: MonotonicInstant) -> [DiscoveryEvent] {
    devices.removeAll()
    lastList.removeAll()
    chosen = nil
    everFound = false
    leader = nil
    reportedDetails = nil
    now = time
    phase = .searching
    deadline = configuration.timeout.map { time + $0 }
    return []
  }

  /// The readers currently known (heard within ``Configuration/lostAfter``), nearest first.
  var readers: [DiscoveredReader] {
    var list: [DiscoveredReader] = []
    for device in devices {
      if let reader = snapshot(device) { list.append(reader) }
    }
    list.sort { ($0.pathLoss, $0.serial) < ($1.pathLoss, $1.serial) }
    return list
  }

  /// The earliest instant at which ``advance(to:)`` can report something without a new
  /// report: the scan timeout, a known reader falling silent (``Configuration/lostAfter``
  /// after it was last heard) or a proximity leader's ``Configuration/decisionDelay``
  /// ending. `nil` when nothing is pending (not started, finished, or no timeout and nobody
  /// heard). An adapter sleeps until this or the next report, whichever comes first.
  var nextDeadline: MonotonicInstant? {
    guard phase == .searching || phase == .chosen else { return nil }
    var next: MonotonicInstant?
    func consider(_ instant: MonotonicInstant) {
      if instant > now, next.map({ instant < $0 }) ?? true { next = instant }
    }
    if phase == .searching, let deadline {
      // Due now when it has passed (a caller that has not advanced yet).
      if deadline <= now { return now }
      consider(deadline)
    }
    for device in devices where device.serial != nil {
      if phase == .chosen && device.address != chosen?.address { continue }
      consider(device.lastSeen + configuration.lostAfter)
    }
    if phase == .searching, case .proximity = mode, leader != nil {
      consider(leaderSince + configuration.decisionDelay)
    }
    return next
  }

  /// Feeds one report received at `time` (not earlier than the previous call's).
  /// Timers due by `time` fire first.
  mutating func receive(_ report: AdvertisingReport, at time: MonotonicInstant) -> [DiscoveryEvent] {
    var events = advance(to: time)
    guard phase == .searching || phase == .chosen else { return events }
    let index = deviceIndex(report.address, report.addressType, at: now)
    var device = devices[index]
    if report.isScanResponse {
      device.scanResponse = report.advertising
    } else {
      device.advertising = report.advertising
    }
    if let rssi = report.rssi {
      let sample = Int(rssi) * 16
      if device.samples == 0 {
        device.smoothed = sample
      } else {
        device.smoothed += (sample - device.smoothed) >> max(0, configuration.smoothingShift)
      }
      device.samples += 1
    }
    if let tx = report.effectiveTXPower { device.txPower = Int(tx) }
    device.lastSeen = now
    let merged = device.advertising.merging(scanResponse: device.scanResponse)
    for (i, profile) in profiles.enumerated() {
      if let serial = profile.serialNumber(in: merged) {
        device.profile = i
        device.serial = serial
        break
      }
    }
    device.localName = merged.localName
    device.advertisedBattery = device.profile.flatMap { profiles[$0].batteryLevel(in: merged) }
    devices[index] = device
    if device.serial != nil { everFound = true }
    events += evaluate()
    return events
  }

  /// Feeds a battery level the caller read over a connection; it wins over advertised
  /// values for that serial.
  mutating func supplyBatteryLevel(_ level: Int, serial: String, at time: MonotonicInstant)
    -> [DiscoveryEvent]
  {
    var events = advance(to: time)
    suppliedBattery[serial] = level
    events += evaluate()
    return events
  }

  /// Lets time pass to `time`: fires the timeout and silence timers.
  mutating func advance(to time: MonotonicInstant) -> [DiscoveryEvent] {
    if time > now { now = time }
    guard phase == .searching || phase == .chosen else { return [] }
    var events: [DiscoveryEvent] = []
    if phase == .chosen, let current = chosen,
      let device = devices.first(where: { $0.address == current.address }),
      device.lastSeen.duration(to: now) >= configuration.lostAfter
    {
      var lost = current
      if let fresh = snapshot(device, ignoringSilence: true) { lost = fresh }
      events.append(.readerLost(lost))
      chosen = nil
      reportedDetails = nil
      leader = nil
      phase = .searching
      deadline = configuration.timeout.map { now + $0 }
    }
    events += evaluate()
    if phase == .searching, let deadline, now >= deadline {
      phase = .finished
      if case .scan = mode, everFound {
        events.append(.scanEnded(readers))
      } else {
        events.append(.notFound)
      }
    }
    return events
  }

  // MARK: Internals

  mutating func deviceIndex(
    _ address: BluetoothAddress, _ type: BluetoothAddressType, at time: MonotonicInstant
  ) -> Int {
    if let i = devices.firstIndex(where: { $0.address == address && $0.addressType == type }) {
      return i
    }
    if devices.count >= max(1, configuration.maximumDevices) {
      // Forget the device heard least recently (never the chosen one).
      var oldest = -1
      for (i, d) in devices.enumerated() where d.address != chosen?.address {
        if oldest < 0 || d.lastSeen < devices[oldest].lastSeen { oldest = i }
      }
      if oldest >= 0 { devices.remove(at: oldest) }
    }
    devices.append(Device(address: address, addressType: type, firstSeen: time, lastSeen: time))
    return devices.count - 1
  }

  func snapshot(_ device: Device, ignoringSilence: Bool = false) -> DiscoveredReader? {
    guard let p = device.profile, let serial = device.serial, device.samples > 0 else {
      return nil
    }
    guard ignoringSilence || device.lastSeen.duration(to: now) < configuration.lostAfter else { return nil }
    let rssi = Self.roundedDecibels(device.smoothed)
    let tx = device.txPower ?? configuration.assumedTXPower
    return DiscoveredReader(
      serial: serial, profileName: profiles[p].name, address: device.address,
      addressType: device.addressType, localName: device.localName,
      batteryLevel: suppliedBattery[serial] ?? device.advertisedBattery, rssi: rssi,
      txPower: device.txPower, pathLoss: Self.saturatingAdd(tx, -rssi), firstSeen: device.firstSeen,
      lastSeen: device.lastSeen)
  }

  /// `a + b`, clamped to the range of `Int` (settings are the caller's, but never trap).
  static func saturatingAdd(_ a: Int, _ b: Int) -> Int {
    let (sum, overflow) = a.addingReportingOverflow(b)
    return overflow ? (b > 0 ? Int.max : Int.min) : sum
  }

  /// 1/16 dB fixed point to whole dB, rounding half away from zero.
  static func roundedDecibels(_ sixteenths: Int) -> Int {
    sixteenths >= 0 ? (sixteenths + 8) / 16 : -((-sixteenths + 8) / 16)
  }

  mutating func evaluate() -> [DiscoveryEvent] {
    var events: [DiscoveryEvent] = []
    switch phase {
    case .chosen:
      events += reportDetailsIfChanged()
    case .searching:
      switch mode {
      case .scan:
        let list = readers
        if !Self.sameContent(list, lastList) {
          lastList = list
          events.append(.readersChanged(list))
        }
      case .proximity:
        events += chooseNearest()
      case .reconnect(let serial):
        if let reader = readers.first(where: { $0.serial == serial }) {
          events += choose(reader)
        }
      }
    default:
      break
    }
    return events
  }

  /// Whether two lists hold the same readers with the same serial, name and battery.
  static func sameContent(_ a: [DiscoveredReader], _ b: [DiscoveredReader]) -> Bool {
    guard a.count == b.count else { return false }
    // Fast path: the same readers in the same order (the usual case between two reports).
    // Otherwise compare the sorted text keys as before.
    if zip(a, b).allSatisfy({
      $0.address.value == $1.address.value && $0.serial == $1.serial && $0.localName == $1.localName
        && $0.batteryLevel == $1.batteryLevel
    }) {
      return true
    }
    func key(_ r: DiscoveredReader) -> String {
      "\(r.address.value) \(r.serial) \(r.localName ?? "") \(r.batteryLevel ?? -1)"
    }
    return a.map(key).sorted() == b.map(key).sorted()
  }

  mutating func chooseNearest() -> [DiscoveryEvent] {
    let candidates = readers.filter { reader in
      devices.first(where: { $0.address == reader.address }).map {
        $0.samples >= configuration.minimumSamples
      } ?? false
    }
    guard let best = candidates.first else {
      leader = nil
      return []
    }
    if let current = leader, let incumbent = candidates.first(where: { $0.address == current }) {
      if best.address != current
        && Self.saturatingAdd(best.pathLoss, configuration.hysteresis) <= incumbent.pathLoss
      {
        leader = best.address
        leaderSince = now
      }
    } else {
      leader = best.address
      leaderSince = now
    }
    guard leaderSince.duration(to: now) >= configuration.decisionDelay,
      let winner = candidates.first(where: { $0.address == leader })
    else { return [] }
    return choose(winner)
  }

  mutating func choose(_ reader: DiscoveredReader) -> [DiscoveryEvent] {
    phase = .chosen
    chosen = reader
    var events: [DiscoveryEvent] = [.readerChosen(reader)]
    events += reportDetailsIfChanged()
    return events
  }

  mutating func reportDetailsIfChanged() -> [DiscoveryEvent] {
    guard let current = chosen,
      let device = devices.first(where: { $0.address == current.address }),
      let fresh = snapshot(device, ignoringSilence: true)
    else { return [] }
    chosen = fresh
    guard let battery = fresh.batteryLevel, battery != reportedDetails else { return [] }
    reportedDetails = battery
    return [.readerDetails(fresh)]
  }
}
