// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import Foundation
import ReaderConnection
import Synchronization

/// A change of a device's link as BlueZ reports it.
public enum BlueZLinkEvent: Sendable, Hashable {
  /// `Connected` became true.
  case connected
  /// `Connected` became false; the reason from the `org.bluez.Device1.Disconnected` signal
  /// when BlueZ sent one (`org.bluez.Reason.Timeout` → link loss, `...Local` → requested,
  /// `...Remote` → unknown), else `DisconnectReason.linkLoss`.
  case disconnected(DisconnectReason)
}

/// One device's link through BlueZ: `org.bluez.Device1.Connect` / `Disconnect`, and the
/// `Connected` property's changes as ``BlueZLinkEvent``s. Its own bus connection and thread.
public final class BlueZLink: Sendable {
  /// The device's object path.
  public let path: String
  /// The link changes, in order, until ``close()``.
  public let events: AsyncStream<BlueZLinkEvent>
  let bus: BusThread
  let tracker: LinkTracker

  init(path: String, bus: BusThread, tracker: LinkTracker, events: AsyncStream<BlueZLinkEvent>) {
    self.path = path
    self.bus = bus
    self.tracker = tracker
    self.events = events
  }

  /// Why ``events`` ended on BlueZ's side, when it did: ``BlueZError/Code/blueZExited``
  /// (bluetoothd exited or restarted), ``BlueZError/Code/adapterRemoved``,
  /// ``BlueZError/Code/poweredOff``; nil while it runs, after ``close()`` or when the bus
  /// connection closed.
  var failure: BlueZError? { tracker.failure }

  /// Opens a link handle for `device` on the adapter (nil: the first one). Its ``events``
  /// end when bluetoothd exits or restarts, or the adapter is removed or powered off.
  ///
  /// - Throws: ``BlueZError/Code/noBus``, ``BlueZError/Code/noBlueZ``,
  ///   ``BlueZError/Code/noAdapter``, ``BlueZError/Code/poweredOff``.
  public static func open(
    busAddress: String? = nil, adapter: String? = nil, device: BluetoothAddress
  ) async throws(BlueZError) -> BlueZLink {
    let (events, continuation) = AsyncStream<BlueZLinkEvent>.makeStream()
    let tracker = LinkTracker(continuation: continuation)
    let bus = try await BusThread.start(
      address: busAddress, onMessage: { _, message in tracker.handle(message) },
      onClosed: { continuation.finish() })
    do throws(BlueZError) {
      let path = try await bus.perform { connection throws(BlueZError) in
        let adapter = try BlueZScanner.pickAdapter(connection, adapter)
        let path = adapter.path + "/dev_" + device.description.replacingOccurrences(of: ":", with: "_")
        tracker.setPath(path)
        try connection.addMatch(
          "type='signal',sender='\(bluez)',interface='\(propertiesInterface)',member='PropertiesChanged',path='\(path)'"
        )
        try connection.addMatch(
          "type='signal',sender='\(bluez)',interface='\(deviceInterface)',path='\(path)'")
        try BlueZWatch.addMatches(connection, adapter: adapter.path)
        return path
      }
      return BlueZLink(path: path, bus: bus, tracker: tracker, events: events)
    } catch {
      bus.stop()
      continuation.finish()
      throw error
    }
  }

  /// `org.bluez.Device1.Connect`, waiting up to `timeout` for BlueZ's answer. The bus
  /// thread is not blocked meanwhile (link events and a `disconnect()` go on), and
  /// cancelling the calling task abandons the call at once. `org.bluez.Error.AlreadyConnected`
  /// is the state wanted, so it is success.
  ///
  /// - Throws: the BlueZ error typed: ``BlueZError/Code/unknownDevice``,
  ///   ``BlueZError/Code/inProgress``, ``BlueZError/Code/poweredOff``,
  ///   ``BlueZError/Code/failed`` (`org.bluez.Error.Failed`), ``BlueZError/Code/timedOut``, ...
  public func connect(timeout: Duration = .seconds(25)) async throws(BlueZError) {
    do throws(BlueZError) {
      _ = try await bus.call(bluez, path, deviceInterface, "Connect", timeout: timeout)
    } catch  where error.name == "org.bluez.Error.AlreadyConnected" {
      return
    }
  }

  /// `org.bluez.Device1.Disconnect`, waiting up to `timeout` for BlueZ's answer (BlueZ also
  /// aborts a connection attempt in progress with it). `org.bluez.Error.NotConnected` is the
  /// state wanted, so it is success.
  public func disconnect(timeout: Duration = .seconds(10)) async throws(BlueZError) {
    do throws(BlueZError) {
      _ = try await bus.call(bluez, path, deviceInterface, "Disconnect", timeout: timeout)
    } catch  where error.name == "org.bluez.Error.NotConnected" {
      return
    }
  }

  /// Closes the bus connection; ``events`` ends.
  public func close() { bus.stop() }
}

final class LinkTracker: Sendable {
  private struct State {
    var path = ""
    var reason: DisconnectReason?
    var ended: BlueZError?
  }

  private let state = Mutex(State())
  private let continuation: AsyncStream<BlueZLinkEvent>.Continuation

  /// What ended the events on BlueZ's side (``BlueZWatch``), if anything did.
  var failure: BlueZError? { state.withLock { $0.ended } }

  init(continuation: AsyncStream<BlueZLinkEvent>.Continuation) { self.continuation = continuation }

  func setPath(_ path: String) { state.withLock { $0.path = path } }

  func handle(_ message: BusMessage) {
    state.withLock { state in
      guard message.type == DBUS_MESSAGE_TYPE_SIGNAL, !state.path.isEmpty, state.ended == nil else { return }
      let adapter = String(state.path[..<(state.path.lastIndex(of: "/") ?? state.path.startIndex)])
      if let failure = BlueZWatch.failure(message, adapter: adapter) {
        state.ended = failure
        continuation.finish()
        return
      }
      guard message.path == state.path else { return }
      if message.interface == deviceInterface && message.member == "Disconnected" {
        switch message.arguments.first?.stringValue {
        case "org.bluez.Reason.Timeout": state.reason = .linkLoss
        case "org.bluez.Reason.Local": state.reason = .requestedByApp
        default: state.reason = .unknown
        }
        return
      }
      guard message.interface == propertiesInterface, message.member == "PropertiesChanged",
        message.arguments.count >= 2, message.arguments[0].stringValue == deviceInterface,
        let connected = message.arguments[1].propertyMap?["Connected"]?.boolValue
      else { return }
      if connected {
        continuation.yield(.connected)
      } else {
        continuation.yield(.disconnected(state.reason ?? .linkLoss))
        state.reason = nil
      }
    }
  }
}
