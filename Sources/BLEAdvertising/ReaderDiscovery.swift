// SPDX-License-Identifier: Apache-2.0
@_exported import MonotonicTime

/// A sans-IO reader discovery engine: fed timestamped advertising reports (from HCI, a
/// btsnoop capture or a platform scanner), it keeps track of the readers that match its
/// profiles and emits ``DiscoveryEvent``s. It never reads a clock or touches a radio:
/// time is the `MonotonicInstant` the caller passes, so runs are deterministic. After each
/// call, ``nextDeadline`` says when ``advance(to:)`` next has something to do, so an adapter
/// sleeps until then (or until the next report) instead of polling.
///
/// Modes:
/// - ``Mode/scan``: a list of readers, ``DiscoveryEvent/readersChanged(_:)`` as it
///   changes; at the timeout ``DiscoveryEvent/scanEnded(_:)`` or
///   ``DiscoveryEvent/notFound``.
/// - ``Mode/proximity``: the nearest reader is chosen and kept. A reader that later
///   comes nearer does not take over; only losing the chosen one (silent for
///   ``Configuration/lostAfter``) starts a new choice. Reported twice:
///   ``DiscoveryEvent/readerChosen(_:)`` then ``DiscoveryEvent/readerDetails(_:)``.
/// - ``Mode/reconnect(serial:)``: the reader with a saved serial is chosen as soon as
///   it is heard, or ``DiscoveryEvent/notFound`` at the timeout.
///
/// **RSSI smoothing.** Each device's RSSI goes through an exponential moving average in
/// the dB domain, `s += (x - s) / 2^k` (k = ``Configuration/smoothingShift``, default 2:
/// α = 1/4), in 1/16 dB fixed point, started at the first sample. Per-packet RSSI
/// swings by several dB (multipath fading, the three advertising channels, body
/// shadowing); averaging in dB damps those swings, an EMA needs one integer of state per
/// device (no window buffer, fine on a microcontroller) and follows a reader that is
/// really moving within a few packets. Integer arithmetic keeps results identical on
/// every platform.
///
/// **Proximity.** Nearness is path loss, TX power minus smoothed RSSI (Core
/// Specification Supplement Part A §1.5), so a loud reader far away does not beat a quiet
/// one nearby; the TX power is the controller-reported one, else the TX Power Level AD
/// structure, else ``Configuration/assumedTXPower``. **Hysteresis:** while choosing, the
/// leading candidate changes only when another is at least ``Configuration/hysteresis``
/// dB nearer, and a candidate is chosen once it has led for
/// ``Configuration/decisionDelay`` with ``Configuration/minimumSamples`` samples, so
/// noise does not flap the choice.
public struct ReaderDiscovery: Sendable {
  /// What the discovery is for.
  public enum Mode: Sendable, Hashable {
    /// List every matching reader.
    case scan
    /// Choose the nearest reader and keep it.
    case proximity
    /// Choose the reader with this serial number.
    case reconnect(serial: String)
  }

  /// Timing and filter settings.
  public struct Configuration: Sendable, Hashable {
    /// After this long from ``ReaderDiscovery/start(at:)`` (or from losing the chosen
    /// reader) without a result, discovery ends; `nil` for no timeout.
    public var timeout: Duration?
    /// A reader not heard for this long is gone (removed from the list, or lost).
    public var lostAfter: Duration
    /// How long a proximity candidate must lead before it is chosen.
    public var decisionDelay: Duration
    /// Samples a proximity candidate needs before it can be chosen.
    public var minimumSamples: Int
    /// dB by which a challenger must be nearer to take the lead while choosing.
    public var hysteresis: Int
    /// The EMA weight is 1 / 2^smoothingShift (0: no smoothing).
    public var smoothingShift: Int
    /// TX power assumed when a reader does not advertise one, in dBm.
    public var assumedTXPower: Int
    /// The most devices tracked at once; the one heard least recently is forgotten first.
    public var maximumDevices: Int

    /// Creates a configuration.
    public init(
      timeout: Duration? = .seconds(10), lostAfter: Duration = .seconds(5),
      decisionDelay: Duration = .seconds(1), minimumSamples: Int = 3, hysteresis: Int = 6,
      smoothingShift: Int = 2, assumedTXPower: Int = 0, maximumDevices: Int = 64
    ) {
      self.timeout = timeout
      self.lostAfter = lostAfter
      self.decisionDelay = decisionDelay
      self.minimumSamples = minimumSamples
      self.hysteresis = hysteresis
      self.smoothingShift = smoothingShift
      self.assumedTXPower = assumedTXPower
      self.maximumDevices = maximumDevices
    }
  }

  /// Where the discovery stands.
  public enum Phase: Sendable, Hashable {
    /// Not started.
    case idle
    /// Looking (scan mode stays here until the timeout).
    case searching
    /// A reader is chosen (proximity and reconnect modes).
    case chosen
    /// Ended: timeout reached.
    case finished
  }

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
  public let profiles: [ReaderProfile]
  /// The mode.
  public let mode: Mode
  /// The settings.
  public let configuration: Configuration
  /// Where the discovery stands.
  public private(set) var phase: Phase = .idle
  /// The chosen reader as last reported (proximity and reconnect modes).
  public private(set) var chosen: DiscoveredReader?

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
  public init(profiles: [ReaderProfile], mode: Mode, configuration: Configuration = Configuration()) {
    self.profiles = profiles
    self.mode = mode
    self.configuration = configuration
  }

  /// Starts (or restarts) discovery at `time`, forgetting what was seen.
  public mutating func start(at time: MonotonicInstant) -> [DiscoveryEvent] {
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
  public var readers: [DiscoveredReader] {
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
  public var nextDeadline: MonotonicInstant? {
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
  public mutating func receive(_ report: AdvertisingReport, at time: MonotonicInstant) -> [DiscoveryEvent] {
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
  public mutating func supplyBatteryLevel(_ level: Int, serial: String, at time: MonotonicInstant)
    -> [DiscoveryEvent]
  {
    var events = advance(to: time)
    suppliedBattery[serial] = level
    events += evaluate()
    return events
  }

  /// Lets time pass to `time`: fires the timeout and silence timers.
  public mutating func advance(to time: MonotonicInstant) -> [DiscoveryEvent] {
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
