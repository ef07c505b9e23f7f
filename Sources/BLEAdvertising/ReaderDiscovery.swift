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
///
/// **Cost.** Built for crowded places (hundreds of advertisers, tens of reports a second
/// each): devices are found by address in a hash table, and the orders the engine needs
/// (heard least recently, next to fall silent, nearest candidate) are binary heaps updated
/// as reports arrive, so a report costs O(log n) in the devices tracked and
/// ``nextDeadline`` O(1). No list is sorted per report: scan mode keeps how the listed
/// content differs from the last ``DiscoveryEvent/readersChanged(_:)`` and sorts the list
/// only for an event. Ties order as the devices were first tracked.
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
    /// The data octets of the last advertising report and of the last scan response, as
    /// received (`nil` before the first of each): a report with the same octets as the last
    /// of its kind changes nothing that is derived from the data, so `receive` neither parses
    /// nor merges it again, and a device already tracked allocates nothing.
    var advertisingOctets: [UInt8]?
    var scanResponseOctets: [UInt8]?
    /// The TX Power Level AD structure of ``advertising`` and of ``scanResponse``.
    var advertisingTXPower: Int8?
    var scanResponseTXPower: Int8?
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
    /// When the device was first tracked, counting from 0 at ``ReaderDiscovery/start(at:)``:
    /// breaks ties the way a list in tracking order sorted stably would; -1 for a free slot.
    var sequence: Int
    /// ``ReaderDiscovery/epoch`` when last heard (orders as `lastSeen` does).
    var heardEpoch = 0
    /// Path loss in dB from the smoothed RSSI (what ``snapshot`` reports), kept by
    /// `refresh` for the proximity order.
    var pathLoss = 0
    /// What the device adds to the scan list's content while it is listed (scan mode).
    var listing: ListingKey?
    /// Where the device stands in each ``Order``'s heap, -1 when not in it.
    var recencyPosition = -1
    var silencePosition = -1
    var nearnessPosition = -1

    /// A slot no device holds (its data released).
    static var vacant: Device {
      Device(
        address: BluetoothAddress(0), addressType: .publicDevice, firstSeen: .origin, lastSeen: .origin,
        sequence: -1)
    }
  }

  /// A tracked device's identity: a report with another address type is another device.
  struct DeviceKey: Sendable, Hashable {
    var address: BluetoothAddress
    var addressType: BluetoothAddressType
  }

  /// What a listed reader contributes to the content ``DiscoveryEvent/readersChanged(_:)``
  /// compares: its address, serial, name (absent reads as empty) and battery (absent as
  /// -1). A list event is sent when the multiset of these changes.
  struct ListingKey: Sendable, Hashable {
    var address: UInt64
    var serial: String
    var localName: String
    var battery: Int
  }

  /// The orders kept incrementally, each a binary heap of device slots, so a report costs
  /// O(log n) in the number of devices instead of a sort.
  enum Order {
    /// Every device by (last heard, sequence): the first to forget when the table is full.
    case recency
    /// Devices with a serial not yet silent, by (last heard, sequence): the next to fall
    /// silent.
    case silence
    /// Proximity candidates (listed, ``Configuration/minimumSamples`` samples) by
    /// (path loss, serial, sequence): the head is the nearest, as the sorted list has it.
    case nearness
  }

  /// A binary heap of device slots in one ``Order``; each device keeps its position in it.
  /// The devices are passed in (not read through `self`), so no operation copies the engine.
  struct DeviceHeap: Sendable {
    let order: Order
    var slots: [Int] = []

    init(_ order: Order) { self.order = order }

    /// The first device in the order.
    var first: Int? { slots.first }

    func position(_ slot: Int, in devices: [Device]) -> Int {
      switch order {
      case .recency: return devices[slot].recencyPosition
      case .silence: return devices[slot].silencePosition
      case .nearness: return devices[slot].nearnessPosition
      }
    }

    func setPosition(_ slot: Int, to index: Int, in devices: inout [Device]) {
      switch order {
      case .recency: devices[slot].recencyPosition = index
      case .silence: devices[slot].silencePosition = index
      case .nearness: devices[slot].nearnessPosition = index
      }
    }

    /// Whether the device in slot `a` comes before the one in `b` (keys differ: sequences
    /// are unique).
    func precedes(_ a: Int, _ b: Int, in devices: [Device]) -> Bool {
      switch order {
      case .recency, .silence:
        // The instant they were last heard, as its epoch (equal instants, equal epochs).
        return (devices[a].heardEpoch, devices[a].sequence) < (devices[b].heardEpoch, devices[b].sequence)
      case .nearness:
        if devices[a].pathLoss != devices[b].pathLoss { return devices[a].pathLoss < devices[b].pathLoss }
        if devices[a].serial != devices[b].serial {
          return (devices[a].serial ?? "") < (devices[b].serial ?? "")
        }
        return devices[a].sequence < devices[b].sequence
      }
    }

    /// Puts the device in the heap, or moves it after its key changed.
    mutating func update(_ slot: Int, in devices: inout [Device]) {
      var index = position(slot, in: devices)
      if index < 0 {
        index = slots.count
        slots.append(slot)
        setPosition(slot, to: index, in: &devices)
      }
      siftDown(siftUp(index, in: &devices), in: &devices)
    }

    mutating func remove(_ slot: Int, in devices: inout [Device]) {
      let index = position(slot, in: devices)
      guard index >= 0 else { return }
      setPosition(slot, to: -1, in: &devices)
      let last = slots.removeLast()
      guard index < slots.count else { return }
      slots[index] = last
      setPosition(last, to: index, in: &devices)
      siftDown(siftUp(index, in: &devices), in: &devices)
    }

    /// Moves the entry at `index` towards the head while it precedes its parent; its new index.
    mutating func siftUp(_ index: Int, in devices: inout [Device]) -> Int {
      var child = index
      let slot = slots[child]
      while child > 0 {
        let parent = (child - 1) / 2
        let above = slots[parent]
        guard precedes(slot, above, in: devices) else { break }
        slots[child] = above
        setPosition(above, to: child, in: &devices)
        child = parent
      }
      slots[child] = slot
      setPosition(slot, to: child, in: &devices)
      return child
    }

    /// Moves the entry at `index` away from the head while a child precedes it.
    mutating func siftDown(_ index: Int, in devices: inout [Device]) {
      var parent = index
      let count = slots.count
      let slot = slots[parent]
      while true {
        var child = 2 * parent + 1
        guard child < count else { break }
        if child + 1 < count, precedes(slots[child + 1], slots[child], in: devices) { child += 1 }
        let below = slots[child]
        guard precedes(below, slot, in: devices) else { break }
        slots[parent] = below
        setPosition(below, to: parent, in: &devices)
        parent = child
      }
      slots[parent] = slot
      setPosition(slot, to: parent, in: &devices)
    }
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

  /// Device slots; a forgotten device's slot is vacant until reused.
  var devices: [Device] = []
  var freeSlots: [Int] = []
  /// The slot of each tracked device.
  var slots: [DeviceKey: Int] = [:]
  var nextSequence = 0
  /// Counts the distinct instants `now` has taken: devices heard at the same instant share
  /// an epoch, so the recency orders compare integers.
  var epoch = 0
  var recency = DeviceHeap(.recency)
  var silence = DeviceHeap(.silence)
  var nearness = DeviceHeap(.nearness)
  /// Scan mode: the listed content minus the content of the last list event, per key
  /// (zero counts removed), so the event is due exactly when this is not empty.
  var listingChanges: [ListingKey: Int] = [:]
  var deadline: MonotonicInstant?
  var now: MonotonicInstant = .origin
  var everFound = false
  /// The chosen device's slot (phase ``Phase/chosen``).
  var chosenSlot: Int?
  /// The proximity leader's slot.
  var leader: Int?
  var leaderSince: MonotonicInstant = .origin
  var suppliedBattery: [String: Int] = [:]
  var reportedDetails: Int?
  /// Reconnect mode: every listed device must be checked for the saved serial at the next
  /// evaluation (after a loss), not only the one just heard.
  var recheckAll = false

  /// Creates a discovery; call ``start(at:)`` first.
  public init(profiles: [ReaderProfile], mode: Mode, configuration: Configuration = Configuration()) {
    self.profiles = profiles
    self.mode = mode
    self.configuration = configuration
  }

  /// Starts (or restarts) discovery at `time`, forgetting what was seen.
  public mutating func start(at time: MonotonicInstant) -> [DiscoveryEvent] {
    devices.removeAll()
    freeSlots.removeAll()
    slots.removeAll()
    recency = DeviceHeap(.recency)
    silence = DeviceHeap(.silence)
    nearness = DeviceHeap(.nearness)
    listingChanges.removeAll()
    nextSequence = 0
    epoch += 1
    chosen = nil
    chosenSlot = nil
    everFound = false
    leader = nil
    reportedDetails = nil
    recheckAll = false
    now = time
    phase = .searching
    deadline = configuration.timeout.map { time + $0 }
    return []
  }

  /// The readers currently known (heard within ``Configuration/lostAfter``), nearest first.
  public var readers: [DiscoveredReader] {
    var list: [(reader: DiscoveredReader, sequence: Int)] = []
    for device in devices where device.sequence >= 0 {
      if let reader = snapshot(device) { list.append((reader, device.sequence)) }
    }
    // Ties in path loss and serial keep the order the devices were first tracked in.
    list.sort {
      ($0.reader.pathLoss, $0.reader.serial, $0.sequence) < (
        $1.reader.pathLoss, $1.reader.serial, $1.sequence
      )
    }
    return list.map { $0.reader }
  }

  /// The earliest instant at which ``advance(to:)`` can report something without a new
  /// report: the scan timeout, a known reader falling silent (``Configuration/lostAfter``
  /// after it was last heard) or a proximity leader's ``Configuration/decisionDelay``
  /// ending. `nil` when nothing is pending (not started, finished, or no timeout and nobody
  /// heard). An adapter sleeps until this or the next report, whichever comes first.
  /// O(1): the device that falls silent next heads a heap.
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
    if phase == .chosen {
      // Chosen: only its silence matters.
      if let slot = chosenSlot, devices[slot].serial != nil {
        consider(devices[slot].lastSeen + configuration.lostAfter)
      }
    } else if let slot = silence.first {
      consider(devices[slot].lastSeen + configuration.lostAfter)
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
    let slot = deviceSlot(report.address, report.addressType)
    // The data as the last report of its kind had it (the usual case: a reader repeats its
    // advertisement) changes nothing derived from it: not parsed, merged or matched again.
    let isScanResponse = report.isScanResponse
    let dataChanged =
      isScanResponse
      ? devices[slot].scanResponseOctets != report.data : devices[slot].advertisingOctets != report.data
    if dataChanged {
      // Parsed once (`report.advertising` parses the bytes on every use).
      let advertising = report.advertising
      if isScanResponse {
        devices[slot].scanResponse = advertising
        devices[slot].scanResponseOctets = report.data
        devices[slot].scanResponseTXPower = advertising.txPowerLevel
      } else {
        devices[slot].advertising = advertising
        devices[slot].advertisingOctets = report.data
        devices[slot].advertisingTXPower = advertising.txPowerLevel
      }
    }
    if let rssi = report.rssi {
      let sample = Int(rssi) * 16
      if devices[slot].samples == 0 {
        devices[slot].smoothed = sample
      } else {
        devices[slot].smoothed +=
          (sample - devices[slot].smoothed) >> max(0, configuration.smoothingShift)
      }
      devices[slot].samples += 1
    }
    let dataTXPower = isScanResponse ? devices[slot].scanResponseTXPower : devices[slot].advertisingTXPower
    if let tx = report.txPower ?? dataTXPower { devices[slot].txPower = Int(tx) }
    devices[slot].lastSeen = now
    devices[slot].heardEpoch = epoch
    if dataChanged {
      let merged = devices[slot].advertising.merging(scanResponse: devices[slot].scanResponse)
      for (i, profile) in profiles.enumerated() {
        if let serial = profile.serialNumber(in: merged) {
          devices[slot].profile = i
          devices[slot].serial = serial
          break
        }
      }
      devices[slot].localName = merged.localName
      devices[slot].advertisedBattery = devices[slot].profile.flatMap {
        profiles[$0].batteryLevel(in: merged)
      }
    }
    // Heard now: last in the recency order, and (with a serial) the last to fall silent.
    recency.update(slot, in: &devices)
    if devices[slot].serial != nil && Duration.zero < configuration.lostAfter {
      silence.update(slot, in: &devices)
    } else {
      silence.remove(slot, in: &devices)
    }
    refresh(slot)
    if devices[slot].serial != nil { everFound = true }
    events += evaluate(heard: slot)
    return events
  }

  /// Feeds a battery level the caller read over a connection; it wins over advertised
  /// values for that serial.
  public mutating func supplyBatteryLevel(_ level: Int, serial: String, at time: MonotonicInstant)
    -> [DiscoveryEvent]
  {
    var events = advance(to: time)
    suppliedBattery[serial] = level
    if case .scan = mode {
      // Rare (once per connection): every device with that serial is looked at.
      for slot in devices.indices where devices[slot].sequence >= 0 && devices[slot].serial == serial {
        refresh(slot)
      }
    }
    events += evaluate(heard: nil)
    return events
  }

  /// Lets time pass to `time`: fires the timeout and silence timers.
  public mutating func advance(to time: MonotonicInstant) -> [DiscoveryEvent] {
    if time > now {
      now = time
      epoch += 1
    }
    guard phase == .searching || phase == .chosen else { return [] }
    dropSilent()
    var events: [DiscoveryEvent] = []
    if phase == .chosen, let current = chosen, let slot = chosenSlot,
      devices[slot].lastSeen.duration(to: now) >= configuration.lostAfter
    {
      var lost = current
      if let fresh = snapshot(devices[slot], ignoringSilence: true) { lost = fresh }
      events.append(.readerLost(lost))
      chosen = nil
      chosenSlot = nil
      reportedDetails = nil
      leader = nil
      phase = .searching
      recheckAll = true
      deadline = configuration.timeout.map { now + $0 }
    }
    events += evaluate(heard: nil)
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

  /// The slot of the device with this address and type, tracking it (and forgetting the
  /// one heard least recently, never the chosen one, when the table is full) if new.
  mutating func deviceSlot(_ address: BluetoothAddress, _ type: BluetoothAddressType) -> Int {
    let key = DeviceKey(address: address, addressType: type)
    if let slot = slots[key] { return slot }
    if slots.count >= max(1, configuration.maximumDevices), let oldest = leastRecent() {
      forget(oldest)
    }
    var device = Device(
      address: address, addressType: type, firstSeen: now, lastSeen: now, sequence: nextSequence)
    device.heardEpoch = epoch
    nextSequence += 1
    let slot: Int
    if let free = freeSlots.popLast() {
      slot = free
      devices[slot] = device
    } else {
      slot = devices.count
      devices.append(device)
    }
    slots[key] = slot
    recency.update(slot, in: &devices)
    return slot
  }

  /// The device heard least recently (the first tracked among those heard at the same
  /// instant), leaving out the chosen one: the recency heap's head, or when that is the
  /// chosen device, the lesser of its children.
  func leastRecent() -> Int? {
    let heap = recency.slots
    guard let head = heap.first else { return nil }
    guard head == chosenSlot else { return head }
    switch heap.count {
    case 1: return nil
    case 2: return heap[1]
    default: return recency.precedes(heap[1], heap[2], in: devices) ? heap[1] : heap[2]
    }
  }

  /// Stops tracking the device in `slot`.
  mutating func forget(_ slot: Int) {
    recency.remove(slot, in: &devices)
    silence.remove(slot, in: &devices)
    nearness.remove(slot, in: &devices)
    if let old = devices[slot].listing { changeListing(old, by: -1) }
    slots[DeviceKey(address: devices[slot].address, addressType: devices[slot].addressType)] = nil
    if leader == slot { leader = nil }
    devices[slot] = .vacant
    freeSlots.append(slot)
  }

  /// Takes the devices that have fallen silent by `now` out of the silence order, and out of
  /// the list and the proximity candidates.
  mutating func dropSilent() {
    while let slot = silence.first, devices[slot].lastSeen.duration(to: now) >= configuration.lostAfter {
      silence.remove(slot, in: &devices)
      refresh(slot)
    }
  }

  /// Brings the device's place in the scan list's content and in the proximity order up to
  /// date after anything that decides them changed (data, RSSI, silence, supplied battery).
  mutating func refresh(_ slot: Int) {
    // Listed exactly when `snapshot` gives a reader: a serial, a sample, not silent (a
    // device with a serial is in the silence order until it falls silent).
    let listed =
      devices[slot].profile != nil && devices[slot].serial != nil && devices[slot].samples > 0
      && devices[slot].silencePosition >= 0
    switch mode {
    case .scan:
      var key: ListingKey?
      if listed, let serial = devices[slot].serial {
        key = ListingKey(
          address: devices[slot].address.value, serial: serial, localName: devices[slot].localName ?? "",
          battery: Self.battery(
            serial: serial, advertised: devices[slot].advertisedBattery, supplied: suppliedBattery)
            ?? -1)
      }
      guard key != devices[slot].listing else { return }
      if let old = devices[slot].listing { changeListing(old, by: -1) }
      if let key { changeListing(key, by: 1) }
      devices[slot].listing = key
    case .proximity:
      if listed && devices[slot].samples >= configuration.minimumSamples {
        let tx = devices[slot].txPower ?? configuration.assumedTXPower
        devices[slot].pathLoss = Self.saturatingAdd(tx, -Self.roundedDecibels(devices[slot].smoothed))
        nearness.update(slot, in: &devices)
      } else {
        nearness.remove(slot, in: &devices)
      }
    case .reconnect:
      break
    }
  }

  mutating func changeListing(_ key: ListingKey, by delta: Int) {
    let count = listingChanges[key, default: 0] + delta
    listingChanges[key] = count == 0 ? nil : count
  }

  /// The battery level a snapshot reports: supplied for the serial, else advertised.
  static func battery(serial: String, advertised: Int?, supplied: [String: Int]) -> Int? {
    if !supplied.isEmpty, let level = supplied[serial] { return level }
    return advertised
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
      batteryLevel: Self.battery(
        serial: serial, advertised: device.advertisedBattery, supplied: suppliedBattery),
      rssi: rssi,
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

  /// The events due after a change; `heard` is the device a report just updated.
  mutating func evaluate(heard: Int?) -> [DiscoveryEvent] {
    var events: [DiscoveryEvent] = []
    switch phase {
    case .chosen:
      events += reportDetailsIfChanged()
    case .searching:
      switch mode {
      case .scan:
        // The content changed since the last list event: send the list (sorted only here).
        if !listingChanges.isEmpty {
          listingChanges.removeAll(keepingCapacity: true)
          events.append(.readersChanged(readers))
        }
      case .proximity:
        events += chooseNearest()
      case .reconnect(let serial):
        if recheckAll {
          // After a loss: any listed device with the serial (the nearest first).
          recheckAll = false
          if let reader = readers.first(where: { $0.serial == serial }),
            let slot = slots[DeviceKey(address: reader.address, addressType: reader.addressType)]
          {
            events += choose(reader, slot: slot)
          }
        } else if let slot = heard, devices[slot].serial == serial, let reader = snapshot(devices[slot]) {
          // Otherwise only the device just heard can have become a match: one listed
          // earlier would have been chosen then.
          events += choose(reader, slot: slot)
        }
      }
    default:
      break
    }
    return events
  }

  mutating func chooseNearest() -> [DiscoveryEvent] {
    guard let best = nearness.first else {
      leader = nil
      return []
    }
    if let current = leader, devices[current].nearnessPosition >= 0 {
      if best != current
        && Self.saturatingAdd(devices[best].pathLoss, configuration.hysteresis) <= devices[current].pathLoss
      {
        leader = best
        leaderSince = now
      }
    } else {
      leader = best
      leaderSince = now
    }
    guard leaderSince.duration(to: now) >= configuration.decisionDelay, let winner = leader,
      devices[winner].nearnessPosition >= 0, let reader = snapshot(devices[winner])
    else { return [] }
    return choose(reader, slot: winner)
  }

  mutating func choose(_ reader: DiscoveredReader, slot: Int) -> [DiscoveryEvent] {
    phase = .chosen
    chosen = reader
    chosenSlot = slot
    var events: [DiscoveryEvent] = [.readerChosen(reader)]
    events += reportDetailsIfChanged()
    return events
  }

  mutating func reportDetailsIfChanged() -> [DiscoveryEvent] {
    guard let slot = chosenSlot, let fresh = snapshot(devices[slot], ignoringSilence: true) else { return [] }
    chosen = fresh
    guard let battery = fresh.batteryLevel, battery != reportedDetails else { return [] }
    reportedDetails = battery
    return [.readerDetails(fresh)]
  }
}
