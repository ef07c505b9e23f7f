// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import Foundation
import Synchronization

/// One `org.bluez.Adapter1`.
public struct BlueZAdapter: Sendable, Hashable {
  /// The object path (`/org/bluez/hci0`).
  public var path: String
  /// The adapter's name, the last path component (`hci0`).
  public var name: String { String(path.split(separator: "/").last ?? "") }
  /// `Address`.
  public var address: String
  /// `Powered`.
  public var isPowered: Bool
  /// `Discovering`.
  public var isDiscovering: Bool
}

/// The discovery filter (`org.bluez.Adapter1.SetDiscoveryFilter`): always `Transport` `le`
/// and `DuplicateData` true (so RSSI updates keep coming for devices already seen).
public struct BlueZDiscoveryFilter: Sendable, Hashable {
  /// `RSSI`: only devices heard at least this loud (dBm).
  public var rssi: Int16?
  /// `UUIDs`: only devices advertising one of these services.
  public var uuids: [BluetoothUUID]

  /// Creates a filter.
  public init(rssi: Int16? = nil, uuids: [BluetoothUUID] = []) {
    self.rssi = rssi
    self.uuids = uuids
  }

  var dbusValue: DBusValue {
    var pairs = [
      DBusPair(.string("Transport"), .variant(.string("le"))),
      DBusPair(.string("DuplicateData"), .variant(.bool(true))),
    ]
    if let rssi { pairs.append(DBusPair(.string("RSSI"), .variant(.int16(rssi)))) }
    if !uuids.isEmpty {
      pairs.append(
        DBusPair(
          .string("UUIDs"), .variant(.array(uuids.map { .string($0.description) }, elementSignature: "s"))))
    }
    return .dictionary(pairs, keySignature: "s", valueSignature: "v")
  }
}

/// One device update from the scanner: the device's properties and the report rebuilt
/// from them.
public struct BlueZAdvertisement: Sendable, Hashable {
  /// The device after the update.
  public var device: BlueZDevice
  /// The advertising report for `ReaderDiscovery`, stamped with the
  /// monotonic clock in µs (``BlueZScanner/now()``).
  public var report: AdvertisingReport
}

/// Scans for BLE devices through BlueZ on D-Bus (`org.bluez`, BlueZ D-Bus API
/// `doc/org.bluez.Adapter.rst`, `org.bluez.Device.rst`).
///
/// ``advertisements()`` opens a private connection on a thread of its own, picks the adapter,
/// checks it is powered, sets the discovery filter, calls `StartDiscovery`, and follows
/// `InterfacesAdded`, `InterfacesRemoved` and `PropertiesChanged` of `org.bluez.Device1`;
/// each update becomes a ``BlueZAdvertisement``. Cancelling the iterating task (or dropping
/// the sequence) calls `StopDiscovery` and closes the connection.
public struct BlueZScanner: Sendable {
  /// The bus address; nil for the system bus (`DBUS_SYSTEM_BUS_ADDRESS` or the default socket).
  public var busAddress: String?
  /// The adapter name (`hci0`); nil for the first one.
  public var adapter: String?
  /// The discovery filter.
  public var filter: BlueZDiscoveryFilter

  /// Creates a scanner.
  public init(busAddress: String? = nil, adapter: String? = nil, filter: BlueZDiscoveryFilter = .init()) {
    self.busAddress = busAddress
    self.adapter = adapter
    self.filter = filter
  }

  /// The current instant of `CLOCK_MONOTONIC` (its origin is boot): the clock the BlueZ
  /// adapters feed the sans-IO cores; reports are stamped with it in whole µs.
  public static func now() -> MonotonicInstant {
    var time = timespec()
    unsafe clock_gettime(CLOCK_MONOTONIC, &time)
    return MonotonicInstant(sinceOrigin: .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec)))
  }

  /// The adapters BlueZ has (`GetManagedObjects`, `org.bluez.Adapter1`).
  ///
  /// - Throws: ``BlueZError/Code/noBus``, ``BlueZError/Code/noBlueZ``,
  ///   ``BlueZError/Code/permissionDenied``.
  public func adapters() async throws(BlueZError) -> [BlueZAdapter] {
    let bus = try await BusThread.start(address: busAddress, onMessage: { _, _ in })
    defer { bus.stop() }
    return try await bus.perform { connection throws(BlueZError) in try Self.adapters(connection) }
  }

  static func managedObjects(_ connection: BusConnection) throws(BlueZError) -> [String: [String: [String:
    DBusValue]]]
  {
    let reply = try connection.call(bluez, "/", objectManager, "GetManagedObjects")
    var objects: [String: [String: [String: DBusValue]]] = [:]
    for pair in reply.first?.dictionaryValue ?? [] {
      guard let path = pair.key.stringValue else { continue }
      var interfaces: [String: [String: DBusValue]] = [:]
      for entry in pair.value.dictionaryValue ?? [] {
        if let name = entry.key.stringValue { interfaces[name] = entry.value.propertyMap ?? [:] }
      }
      objects[path] = interfaces
    }
    return objects
  }

  static func adapters(_ connection: BusConnection) throws(BlueZError) -> [BlueZAdapter] {
    try managedObjects(connection).compactMap { path, interfaces in
      guard let p = interfaces[adapterInterface] else { return nil }
      return BlueZAdapter(
        path: path, address: p["Address"]?.stringValue ?? "", isPowered: p["Powered"]?.boolValue ?? false,
        isDiscovering: p["Discovering"]?.boolValue ?? false)
    }.sorted { $0.path < $1.path }
  }

  /// The adapter named `name` (or the first), powered.
  static func pickAdapter(_ connection: BusConnection, _ name: String?) throws(BlueZError) -> BlueZAdapter {
    let all = try adapters(connection)
    guard let adapter = name.map({ n in all.first { $0.name == n } }) ?? all.first else {
      throw BlueZError(.noAdapter, message: name.map { "no adapter \($0)" } ?? "BlueZ has no adapter")
    }
    guard adapter.isPowered else {
      throw BlueZError(.poweredOff, message: "\(adapter.name) is powered off")
    }
    return adapter
  }

  /// How many updates the sequence of ``advertisements()`` holds for a task that iterates it
  /// more slowly than BlueZ reports: past this, the oldest are dropped and counted
  /// (``BlueZAdvertisements/droppedUpdates``), so memory stays bounded in a crowd.
  public static let bufferedUpdates = 1024

  /// The device updates, as an asynchronous sequence that throws ``BlueZError``
  /// (``BlueZError/Code/noBus``, ``BlueZError/Code/noBlueZ``, ``BlueZError/Code/noAdapter``,
  /// ``BlueZError/Code/poweredOff``, ``BlueZError/Code/permissionDenied``,
  /// ``BlueZError/Code/inProgress``, with the D-Bus error name). Mid-scan, bluetoothd exiting
  /// or restarting ends it with ``BlueZError/Code/blueZExited``, the adapter removed with
  /// ``BlueZError/Code/adapterRemoved``, powered off with ``BlueZError/Code/poweredOff``.
  public func advertisements() -> BlueZAdvertisements {
    let (stream, continuation) = AsyncThrowingStream<BlueZAdvertisement, any Error>.makeStream(
      bufferingPolicy: .bufferingNewest(Self.bufferedUpdates))
    let counters = ScanCounters()
    let state = ScanState(continuation: continuation, counters: counters)
    let address = busAddress
    let adapterName = adapter
    let filter = filter
    let task = Task {
      do throws(BlueZError) {
        let bus = try await BusThread.start(
          address: address, onMessage: { _, message in state.handle(message) },
          onClosed: {
            continuation.finish(throwing: BlueZError(.noBus, message: "the bus connection closed"))
          })
        state.setBus(bus)
        try await bus.perform { connection throws(BlueZError) in
          let adapter = try Self.pickAdapter(connection, adapterName)
          state.setAdapter(adapter.path)
          try connection.addMatch(
            "type='signal',sender='\(bluez)',interface='\(objectManager)',path='/'")
          try connection.addMatch(
            "type='signal',sender='\(bluez)',interface='\(propertiesInterface)',member='PropertiesChanged',path_namespace='\(adapter.path)'"
          )
          // BlueZ exiting or restarting, the adapter removed or powered off end the scan.
          try BlueZWatch.addMatches(connection, adapter: adapter.path)
          _ = try connection.call(
            bluez, adapter.path, adapterInterface, "SetDiscoveryFilter", [filter.dbusValue])
          _ = try connection.call(bluez, adapter.path, adapterInterface, "StartDiscovery")
          state.setDiscovering()
          for (path, interfaces) in try Self.managedObjects(connection) {
            if let properties = interfaces[deviceInterface] {
              state.update(path, changed: properties, invalidated: [])
            }
          }
        }
      } catch {
        continuation.finish(throwing: error)
        state.stop()
      }
    }
    continuation.onTermination = { _ in
      task.cancel()
      state.stop()
    }
    return BlueZAdvertisements(stream: stream, counters: counters)
  }
}

let bluez = "org.bluez"
let objectManager = "org.freedesktop.DBus.ObjectManager"
let propertiesInterface = "org.freedesktop.DBus.Properties"
let adapterInterface = "org.bluez.Adapter1"
let deviceInterface = "org.bluez.Device1"

/// What a scan has handled and dropped, counted on the bus thread and read by the caller.
final class ScanCounters: Sendable {
  /// `PropertiesChanged` and `InterfacesAdded` signals of devices under the adapter.
  let signals = Atomic<Int>(0)
  /// Updates handed to the sequence's buffer.
  let updates = Atomic<Int>(0)
  /// Updates the full buffer dropped (the oldest).
  let dropped = Atomic<Int>(0)
}

/// The scanner's state, touched from the bus thread (messages) and the caller (stop).
final class ScanState: Sendable {
  private struct State {
    var devices: [String: BlueZDevice] = [:]
    var adapterPath = ""
    var bus: BusThread?
    var discovering = false
    var stopped = false
  }

  private let state = Mutex(State())
  private let continuation: AsyncThrowingStream<BlueZAdvertisement, any Error>.Continuation
  private let counters: ScanCounters

  init(continuation: AsyncThrowingStream<BlueZAdvertisement, any Error>.Continuation, counters: ScanCounters)
  {
    self.continuation = continuation
    self.counters = counters
  }

  func setBus(_ bus: BusThread) {
    let late = state.withLock { state in
      state.bus = bus
      return state.stopped
    }
    if late { stop() }
  }

  func setAdapter(_ path: String) { state.withLock { $0.adapterPath = path } }

  func setDiscovering() { state.withLock { $0.discovering = true } }

  /// Stops discovery (when started) and closes the connection; once.
  func stop() {
    let (bus, path, wasDiscovering) = state.withLock { state in
      state.stopped = true
      defer { state.bus = nil }
      return (state.bus, state.adapterPath, state.discovering)
    }
    bus?.stop { connection in
      if wasDiscovering {
        _ = try? connection.call(bluez, path, adapterInterface, "StopDiscovery", timeout: 2000)
      }
    }
  }

  func handle(_ message: BusMessage) {
    guard message.type == DBUS_MESSAGE_TYPE_SIGNAL else { return }
    let path = state.withLock { $0.adapterPath }
    if !path.isEmpty, let failure = BlueZWatch.failure(message, adapter: path) {
      // The stream's termination handler stops the scan and closes the connection.
      continuation.finish(throwing: failure)
      return
    }
    switch (message.interface, message.member) {
    case (objectManager, "InterfacesAdded"):
      guard message.arguments.count == 2, let path = message.arguments[0].stringValue else { return }
      for entry in message.arguments[1].dictionaryValue ?? [] where entry.key.stringValue == deviceInterface {
        update(path, changed: entry.value.propertyMap ?? [:], invalidated: [])
      }
    case (objectManager, "InterfacesRemoved"):
      guard let path = message.arguments.first?.stringValue else { return }
      state.withLock { $0.devices[path] = nil }
    case (propertiesInterface, "PropertiesChanged"):
      guard message.arguments.count >= 2, message.arguments[0].stringValue == deviceInterface else { return }
      let invalidated =
        message.arguments.count > 2 ? (message.arguments[2].arrayValue?.compactMap(\.stringValue) ?? []) : []
      update(message.path, changed: message.arguments[1].propertyMap ?? [:], invalidated: invalidated)
    default:
      break
    }
  }

  func update(_ path: String, changed: [String: DBusValue], invalidated: [String]) {
    let updated: BlueZDevice? = state.withLock { state in
      guard path.hasPrefix(state.adapterPath + "/") else { return nil }
      var device = state.devices[path] ?? BlueZDevice(path: path, properties: [:])
      device.apply(changed: changed, invalidated: invalidated)
      state.devices[path] = device
      return device
    }
    guard let device = updated else { return }
    counters.signals.add(1, ordering: .relaxed)
    if let report = device.report(timestamp: BlueZScanner.now().sinceOrigin.wholeMicroseconds) {
      counters.updates.add(1, ordering: .relaxed)
      // The buffer keeps the newest: a full one drops the oldest, counted.
      if case .dropped = continuation.yield(BlueZAdvertisement(device: device, report: report)) {
        counters.dropped.add(1, ordering: .relaxed)
      }
    }
  }
}

/// The scanner's updates: an `AsyncSequence` whose failure is ``BlueZError``.
public struct BlueZAdvertisements: AsyncSequence, Sendable {
  /// An update.
  public typealias Element = BlueZAdvertisement
  /// The failure.
  public typealias Failure = BlueZError

  let stream: AsyncThrowingStream<BlueZAdvertisement, any Error>
  let counters: ScanCounters

  /// Device signals (`PropertiesChanged`, `InterfacesAdded` of an `org.bluez.Device1` under the
  /// adapter, and the devices known at the start) handled so far, each one update.
  public var handledSignals: Int { counters.signals.load(ordering: .relaxed) }

  /// Updates that became an advertising report (a device without an address yields none),
  /// so far; each is delivered or counted in ``droppedUpdates``.
  public var reportedUpdates: Int { counters.updates.load(ordering: .relaxed) }

  /// Updates dropped so far because the iterating task fell more than
  /// ``BlueZScanner/bufferedUpdates`` behind (the oldest go first). Nothing else is dropped
  /// between the bus and the sequence.
  public var droppedUpdates: Int { counters.dropped.load(ordering: .relaxed) }

  /// Creates the iterator.
  public func makeAsyncIterator() -> Iterator { Iterator(inner: stream.makeAsyncIterator()) }

  /// The iterator.
  public struct Iterator: AsyncIteratorProtocol {
    var inner: AsyncThrowingStream<BlueZAdvertisement, any Error>.Iterator

    /// The next update, nil when the sequence ends (cancellation included).
    public mutating func next() async throws(BlueZError) -> BlueZAdvertisement? {
      do {
        return try await inner.next()
      } catch let error as BlueZError {
        throw error
      } catch {
        throw BlueZError(.other, message: "\(error)")
      }
    }

    /// The next update, nil when the sequence ends.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(BlueZError)
      -> BlueZAdvertisement?
    {
      do {
        return try await inner.next(isolation: actor)
      } catch let error as BlueZError {
        throw error
      } catch {
        throw BlueZError(.other, message: "\(error)")
      }
    }
  }
}
