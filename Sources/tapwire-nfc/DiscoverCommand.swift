// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import BlueZ
import CommandLineOptions
import Foundation
import JSONOutput
import NFCWire
import ReaderConnection

/// `tapwire discover` and `tapwire connect`: ReaderDiscovery fed by BlueZ (or a btsnoop
/// capture), and the ReaderConnection lifecycle over BlueZ.
enum DiscoverCommand {
  struct Options {
    var bluez = false
    var btsnoop: String?
    var adapter: String?
    var bus: String?
    var mode: ReaderDiscovery.Mode = .scan
    var timeout: Duration = .seconds(10)
    var json = false
    /// The profiles of the `--profile FILE`s, in order; the example profile when none.
    var profiles: [ReaderProfile] = []
  }

  /// The options, from the arguments checked against the table at start.
  static func parse(_ arguments: [String]) -> Options {
    var options = Options()
    guard let parsed = TapwireNFC.parsed else { TapwireNFC.fail("discover: no arguments") }
    options.bluez = parsed.has("--bluez")
    options.btsnoop = parsed.value("--btsnoop")
    options.adapter = parsed.value("--adapter")
    options.bus = parsed.value("--bus")
    if parsed.has("--proximity") { options.mode = .proximity }
    if let serial = parsed.value("--serial") { options.mode = .reconnect(serial: serial) }
    if let timeout = parsed.duration("--timeout") { options.timeout = timeout }
    options.json = parsed.has("--json")
    for path in parsed.values("--profile") {
      do throws(ReaderProfileFileError) {
        options.profiles += try ReaderProfileFile.load(path: path)
      } catch {
        TapwireNFC.fail("profile \(path): \(error)")
      }
    }
    if options.bluez == (options.btsnoop != nil) { TapwireNFC.fail("give one of --bluez and --btsnoop FILE") }
    if options.profiles.isEmpty { options.profiles = [.example] }
    return options
  }

  // MARK: discover

  static func discover(_ arguments: [String]) async {
    let options = parse(arguments)
    let configuration = ReaderDiscovery.Configuration(timeout: options.timeout)
    var discovery = ReaderDiscovery(
      profiles: options.profiles, mode: options.mode, configuration: configuration)
    var found = false
    /// Prints the events; true when discovery is over.
    func show(_ events: [DiscoveryEvent]) -> Bool {
      for event in events {
        emit(options.json ? eventJSON(event) : eventText(event))
        switch event {
        case .readersChanged(let list): if !list.isEmpty { found = true }
        case .readerChosen: found = true
        case .readerDetails: return true
        case .notFound: return true
        case .scanEnded(let list):
          found = found || !list.isEmpty
          return true
        case .readerLost: break
        }
      }
      return false
    }
    if let path = options.btsnoop {
      guard let data = FileManager.default.contents(atPath: path) else {
        TapwireNFC.fail("cannot read \(path)", status: 1)
      }
      let reports: [AdvertisingReport]
      switch captureReports([UInt8](data)) {
      case .success(let all): reports = all
      case .failure(let error): TapwireNFC.fail("\(path): \(error)", status: 1)
      }
      // The capture's clock: its timestamps.
      let start = reports.first?.timestampInstant ?? .origin
      _ = discovery.start(at: start)
      var done = false
      for report in reports where !done {
        done = show(discovery.receive(report, at: report.timestampInstant ?? start))
      }
      if !done {
        _ = show(discovery.advance(to: (reports.last?.timestampInstant ?? start) + configuration.lostAfter))
      }
      if !done, let timeout = configuration.timeout { _ = show(discovery.advance(to: start + timeout)) }
      SignalStop.exit(found ? 0 : 1)
    }
    let scanner = BlueZScanner(busAddress: options.bus, adapter: options.adapter)
    _ = discovery.start(at: BlueZScanner.now())
    // Reports, and nil when the discovery's next deadline comes (no polling).
    let (stream, continuation) = AsyncStream<AdvertisingReport?>.makeStream()
    let scan = Task {
      do throws(BlueZError) {
        for try await update in scanner.advertisements() { continuation.yield(update.report) }
      } catch {
        fail(error)
      }
    }
    var timer = DeadlineTimer()
    /// Arms the timer for the discovery's next deadline, unless it is armed for it already.
    func setTimer() { timer.arm(for: discovery.nextDeadline) { continuation.yield(nil) } }
    setTimer()
    // A signal ends the scan like its timeout (StopDiscovery sent), then exits 128 + its number.
    SignalStop.onSignal { _ in continuation.finish() }
    for await report in stream {
      let now = BlueZScanner.now()
      let events = report.map { discovery.receive($0, at: now) } ?? discovery.advance(to: now)
      if show(events) { break }
      if report == nil { timer.fired() }
      setTimer()
    }
    timer.cancel()
    scan.cancel()
    await scan.value
    // Give the scanner its StopDiscovery before exiting.
    try? await Task.sleep(for: .milliseconds(100))
    SignalStop.exit(found ? 0 : 1)
  }

  /// The advertising reports of a btsnoop capture (lenient: a cut-off last record is dropped).
  static func captureReports(_ bytes: [UInt8]) -> Result<[AdvertisingReport], BLEAdvertisingError> {
    do throws(BLEAdvertisingError) {
      let view = try BTSnoopFileView(validating: bytes.span.bytes, options: .lenient)
      var reports: [AdvertisingReport] = []
      var iterator = view.advertisingReports
      while let report = try iterator.next() { reports.append(report) }
      return .success(reports)
    } catch {
      return .failure(error)
    }
  }

  /// Writes one line at once (unbuffered, so a pipe sees each event as it happens).
  static func emit(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
  }

  static func fail(_ error: BlueZError) -> Never {
    FileHandle.standardError.write(Data("tapwire: bluez: \(error)\n".utf8))
    SignalStop.exit(1)
  }

  // MARK: connect

  static func connect(_ arguments: [String]) async {
    let options = parse(arguments)
    guard options.bluez, case .reconnect(let serial) = options.mode else {
      TapwireNFC.fail("connect needs --bluez --serial S")
    }
    let session = BlueZReaderConnection(
      serial: serial, profiles: options.profiles,
      scanner: BlueZScanner(busAddress: options.bus, adapter: options.adapter),
      discovery: .init(timeout: options.timeout))
    // A signal disconnects: the lifecycle ends with disconnected(requestedByApp), then the
    // loop below ends and the exit is 128 + the signal's number.
    SignalStop.onSignal { _ in session.disconnect() }
    var status: Int32 = 1
    for await event in session.events {
      switch event {
      case .failed(let error): fail(error)
      case .lifecycle(let e):
        if case .discovery = e { continue }
        emit(options.json ? lifecycleJSON(e) : lifecycleText(e))
        if e == .disconnected(.requestedByApp) { status = 0 }
      }
    }
    await session.ended()
    SignalStop.exit(status)
  }

  // MARK: Output

  static func hex(_ bytes: [UInt8]) -> String { Hex.string(bytes) }

  static func readerJSON(_ r: DiscoveredReader) -> JSON {
    let fields: [(String, JSON)] = [
      ("serial", .string(r.serial)), ("profile", .string(r.profileName)),
      ("address", .string(r.address.description)),
      ("addressType", .string(r.addressType.name)), ("localName", JSON(r.localName)),
      ("batteryLevel", JSON(r.batteryLevel)), ("rssi", .int(r.rssi)), ("txPower", JSON(r.txPower)),
      ("pathLoss", .int(r.pathLoss)),
    ]
    return .object(fields)
  }

  static func eventJSON(_ event: DiscoveryEvent) -> String {
    func line(_ name: String, _ fields: [(String, JSON)] = []) -> String {
      JSON.object([("ok", .bool(true)), ("format", .string("discovery")), ("event", .string(name))] + fields)
        .serialized
    }
    switch event {
    case .readersChanged(let list):
      return line("readersChanged", [("readers", .array(list.map(readerJSON)))])
    case .scanEnded(let list):
      return line("scanEnded", [("readers", .array(list.map(readerJSON)))])
    case .readerChosen(let r): return line("readerChosen", [("reader", readerJSON(r))])
    case .readerDetails(let r): return line("readerDetails", [("reader", readerJSON(r))])
    case .readerLost(let r): return line("readerLost", [("reader", readerJSON(r))])
    case .notFound: return line("notFound")
    }
  }

  static func readerText(_ r: DiscoveredReader) -> String {
    var line = "\(r.serial)  \(r.address)  rssi \(r.rssi) dBm  path loss \(r.pathLoss) dB"
    if let battery = r.batteryLevel { line += "  battery \(battery)%" }
    if let name = r.localName { line += "  \(name)" }
    return line
  }

  static func eventText(_ event: DiscoveryEvent) -> String {
    switch event {
    case .readersChanged(let list), .scanEnded(let list):
      let title = if case .scanEnded = event { "scan ended" } else { "readers" }
      return (["\(title): \(list.count)"] + list.map { "  " + readerText($0) }).joined(separator: "\n")
    case .readerChosen(let r): return "chosen: " + readerText(r)
    case .readerDetails(let r): return "details: " + readerText(r)
    case .readerLost(let r): return "lost: " + readerText(r)
    case .notFound: return "not found"
    }
  }

  static func reasonName(_ reason: DisconnectReason) -> String {
    switch reason {
    case .requestedByApp: return "requestedByApp"
    case .linkLoss: return "linkLoss"
    case .poweredOff: return "poweredOff"
    case .batteryLow: return "batteryLow"
    case .reboot: return "reboot"
    case .unknown: return "unknown"
    }
  }

  static func failureName(_ failure: ConnectFailure) -> (String, String) {
    switch failure {
    case .timedOut: return ("timedOut", "")
    case .transport(let name): return ("transport", name)
    case .linkDropped: return ("linkDropped", "")
    }
  }

  /// One event as `(event, extra fields)`.
  static func lifecycleFields(_ event: ConnectionEvent) -> (String, [(String, JSON)]) {
    switch event {
    case .statusChanged(let s): return ("statusChanged", [("status", .string("\(s)"))])
    case .discovery: return ("discovery", [])
    case .notFound: return ("notFound", [])
    case .discoveryStopped: return ("discoveryStopped", [])
    case .connected(let r):
      return (
        "connected", [("serial", JSON(r.serial)), ("address", .string(r.address.description))]
      )
    case .connectFailed(let f):
      let (code, name) = failureName(f)
      return ("connectFailed", [("code", .string(code)), ("name", .string(name))])
    case .reconnectStarted(let reason, let handle):
      return (
        "reconnectStarted",
        [("reason", .string(reasonName(reason))), ("handle", .int(Int(clamping: handle.id)))]
      )
    case .reconnectAttempt(let n): return ("reconnectAttempt", [("attempt", .int(n))])
    case .reconnectSucceeded: return ("reconnectSucceeded", [])
    case .reconnectFailed(.cancelled): return ("reconnectFailed", [("code", .string("cancelled"))])
    case .reconnectFailed(.attemptsExhausted(let last)):
      let (code, name) = failureName(last)
      return (
        "reconnectFailed",
        [("code", .string("attemptsExhausted")), ("lastFailure", .string(code)), ("name", .string(name))]
      )
    case .rebootRequested: return ("rebootRequested", [])
    case .disconnected(let reason): return ("disconnected", [("reason", .string(reasonName(reason)))])
    }
  }

  static func lifecycleJSON(_ event: ConnectionEvent) -> String {
    let (name, fields) = lifecycleFields(event)
    return JSON.object(
      [("ok", .bool(true)), ("format", .string("connection")), ("event", .string(name))] + fields
    )
    .serialized
  }

  static func lifecycleText(_ event: ConnectionEvent) -> String {
    let (name, fields) = lifecycleFields(event)
    return ([name] + fields.map { "\($0.0)=\($0.1.serialized.replacingOccurrences(of: "\"", with: ""))" })
      .joined(
        separator: " ")
  }
}
