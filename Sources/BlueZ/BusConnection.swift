// SPDX-License-Identifier: Apache-2.0
import CDBus
import Foundation

/// A signal or other message that arrived on the bus.
struct BusMessage: Sendable {
  var type: Int32
  var sender: String
  var path: String
  var interface: String
  var member: String
  var arguments: [DBusValue]
}

/// A private libdbus connection, used only from the ``BusThread`` that owns it.
final class BusConnection {
  let raw: OpaquePointer

  /// Opens `address` (or, when nil, the system bus: `DBUS_SYSTEM_BUS_ADDRESS` or
  /// `unix:path=/var/run/dbus/system_bus_socket`) and registers with the bus daemon.
  init(address: String?) throws(BlueZError) {
    var error = DBusError()
    dbus_error_init(&error)
    let connection: OpaquePointer?
    if let address {
      connection = dbus_connection_open_private(address, &error)
      if let connection, dbus_bus_register(connection, &error) == 0 {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
        throw Self.take(&error, default: .noBus)
      }
    } else {
      connection = dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
    }
    guard let connection else { throw Self.take(&error, default: .noBus) }
    dbus_connection_set_exit_on_disconnect(connection, 0)
    raw = connection
  }

  deinit {
    dbus_connection_close(raw)
    dbus_connection_unref(raw)
  }

  static func take(_ error: inout DBusError, default code: BlueZError.Code) -> BlueZError {
    defer { dbus_error_free(&error) }
    guard dbus_error_is_set(&error) != 0 else { return BlueZError(code) }
    let name = error.name.map { String(cString: $0) } ?? ""
    let message = error.message.map { String(cString: $0) } ?? ""
    var mapped = BlueZError(dbusName: name, message: message)
    if mapped.code == .other { mapped.code = code }
    return mapped
  }

  /// Calls a method and waits for its reply (up to `timeout` ms).
  func call(
    _ destination: String, _ path: String, _ interface: String, _ method: String,
    _ arguments: [DBusValue] = [], timeout: Int32 = 25_000
  ) throws(BlueZError) -> [DBusValue] {
    guard let message = dbus_message_new_method_call(destination, path, interface, method) else {
      throw BlueZError(.other, message: "out of memory")
    }
    defer { dbus_message_unref(message) }
    var iter = DBusMessageIter()
    dbus_message_iter_init_append(message, &iter)
    for argument in arguments { argument.write(&iter) }
    var error = DBusError()
    dbus_error_init(&error)
    guard let reply = dbus_connection_send_with_reply_and_block(raw, message, timeout, &error) else {
      throw Self.take(&error, default: .other)
    }
    defer { dbus_message_unref(reply) }
    return Self.arguments(reply)
  }

  /// Asks the bus daemon to route matching signals here.
  func addMatch(_ rule: String) throws(BlueZError) {
    var error = DBusError()
    dbus_error_init(&error)
    dbus_bus_add_match(raw, rule, &error)
    if dbus_error_is_set(&error) != 0 { throw Self.take(&error, default: .other) }
  }

  /// Reads and writes for up to `milliseconds`, then returns the queued messages. Returns
  /// nil when the connection is gone.
  func poll(milliseconds: Int32) -> [BusMessage]? {
    guard dbus_connection_read_write(raw, milliseconds) != 0 else { return nil }
    var messages: [BusMessage] = []
    while let message = dbus_connection_pop_message(raw) {
      messages.append(
        BusMessage(
          type: dbus_message_get_type(message),
          sender: dbus_message_get_sender(message).map { String(cString: $0) } ?? "",
          path: dbus_message_get_path(message).map { String(cString: $0) } ?? "",
          interface: dbus_message_get_interface(message).map { String(cString: $0) } ?? "",
          member: dbus_message_get_member(message).map { String(cString: $0) } ?? "",
          arguments: Self.arguments(message)))
      dbus_message_unref(message)
    }
    return messages
  }

  static func arguments(_ message: OpaquePointer) -> [DBusValue] {
    var iter = DBusMessageIter()
    guard dbus_message_iter_init(message, &iter) != 0 else { return [] }
    return DBusValue.readAll(&iter)
  }
}

/// A thread of its own that owns one ``BusConnection``: jobs run on it in order, between
/// polls, and every incoming message goes to `onMessage`. Nothing of libdbus runs on Swift's
/// cooperative pool.
final class BusThread: @unchecked Sendable {
  private let lock = NSLock()
  private var jobs: [(BusConnection) -> Void] = []
  private var stopping = false
  private var finalJob: ((BusConnection) -> Void)?
  private var onMessage: (@Sendable (BusConnection, BusMessage) -> Void)?
  private var onClosed: (@Sendable () -> Void)?

  private init() {}

  /// Opens the connection on a new thread; fails with the bus error.
  static func start(
    address: String?, onMessage: @escaping @Sendable (BusConnection, BusMessage) -> Void,
    onClosed: @escaping @Sendable () -> Void = {}
  ) async throws(BlueZError) -> BusThread {
    let bus = BusThread()
    bus.onMessage = onMessage
    bus.onClosed = onClosed
    let result: Result<Void, BlueZError> = await withCheckedContinuation { continuation in
      let thread = Thread {
        let connection: BusConnection
        do throws(BlueZError) {
          connection = try BusConnection(address: address)
        } catch {
          continuation.resume(returning: .failure(error))
          return
        }
        continuation.resume(returning: .success(()))
        bus.loop(connection)
      }
      thread.name = "tapwire-dbus"
      thread.start()
    }
    try result.get()
    return bus
  }

  private func loop(_ connection: BusConnection) {
    var open = true
    while true {
      lock.lock()
      let pending = jobs
      jobs.removeAll()
      let stop = stopping
      let last = finalJob
      lock.unlock()
      for job in pending { job(connection) }
      if stop {
        last?(connection)
        break
      }
      guard open, let messages = connection.poll(milliseconds: 20) else {
        open = false
        onClosed?()
        usleep(20_000)
        continue
      }
      for message in messages { onMessage?(connection, message) }
    }
    lock.lock()
    onMessage = nil
    onClosed = nil
    lock.unlock()
  }

  /// Runs `body` on the bus thread and returns its result.
  func perform<T: Sendable>(
    _ body: @escaping @Sendable (BusConnection) throws(BlueZError) -> T
  ) async throws(BlueZError) -> T {
    let result: Result<T, BlueZError> = await withCheckedContinuation { continuation in
      lock.lock()
      if stopping {
        lock.unlock()
        continuation.resume(returning: .failure(BlueZError(.noBus, message: "connection closed")))
        return
      }
      jobs.append { connection in
        do throws(BlueZError) {
          continuation.resume(returning: .success(try body(connection)))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
      lock.unlock()
    }
    return try result.get()
  }

  /// Queues `body` without waiting.
  func enqueue(_ body: @escaping @Sendable (BusConnection) -> Void) {
    lock.lock()
    if !stopping { jobs.append(body) }
    lock.unlock()
  }

  /// Ends the thread after `last` (e.g. StopDiscovery) has run; the connection closes.
  func stop(after last: (@Sendable (BusConnection) -> Void)? = nil) {
    lock.lock()
    if !stopping {
      stopping = true
      finalJob = last
    }
    lock.unlock()
  }
}
