// SPDX-License-Identifier: Apache-2.0
import CDBus
import Foundation
import Synchronization

/// A signal or other message that arrived on the bus.
struct BusMessage: Sendable {
  var type: Int32
  var sender: String
  var path: String
  var interface: String
  var member: String
  var arguments: [DBusValue]
  /// The serial of the call a method return or error answers (0 otherwise).
  var replySerial: UInt32 = 0
  /// The error name of an error reply (empty otherwise).
  var errorName: String = ""
}

/// A private libdbus connection, used only from the ``BusThread`` that owns it. `@safe`: its
/// raw pointer goes only into libdbus calls made on that thread.
///
/// What the other side (the bus daemon, BlueZ, any peer the bus policy lets send here) can make
/// it hold is bounded: one message at most ``maximumMessageSize`` bytes (libdbus drops the
/// connection on a larger one, which the owner sees as the bus closing), the messages read and
/// not yet handled at most ``maximumReceivedSize`` bytes (past it libdbus stops reading the
/// socket until they are handled: back-pressure on the bus daemon, nothing dropped here),
/// and a value's nesting at most ``DBusValue/maximumDepth`` (libdbus validates it too).
@safe final class BusConnection {
  let raw: OpaquePointer

  /// The largest message accepted: 8 MiB (libdbus's default is 128 MiB,
  /// `DBUS_MAXIMUM_MESSAGE_LENGTH`; the system bus daemon's is 32 MiB). BlueZ's largest
  /// message is `GetManagedObjects`' reply, about 1 KiB per known device.
  static let maximumMessageSize = 8 << 20
  /// The most bytes of received messages held before libdbus stops reading: 16 MiB (libdbus's
  /// default is 63 MiB).
  static let maximumReceivedSize = 16 << 20

  /// Opens `address` (or, when nil, the system bus: `DBUS_SYSTEM_BUS_ADDRESS` or
  /// `unix:path=/var/run/dbus/system_bus_socket`) and registers with the bus daemon.
  init(address: String?) throws(BlueZError) {
    var error = unsafe DBusError()
    unsafe dbus_error_init(&error)
    let connection: OpaquePointer?
    if let address {
      unsafe connection = unsafe dbus_connection_open_private(address, &error)
      if let connection = unsafe connection, unsafe dbus_bus_register(connection, &error) == 0 {
        unsafe dbus_connection_close(connection)
        unsafe dbus_connection_unref(connection)
        throw unsafe Self.take(&error, default: .noBus)
      }
    } else {
      unsafe connection = unsafe dbus_bus_get_private(DBUS_BUS_SYSTEM, &error)
    }
    guard let connection = unsafe connection else { throw unsafe Self.take(&error, default: .noBus) }
    unsafe dbus_connection_set_exit_on_disconnect(connection, 0)
    unsafe dbus_connection_set_max_message_size(connection, Int(Self.maximumMessageSize))
    unsafe dbus_connection_set_max_received_size(connection, Int(Self.maximumReceivedSize))
    unsafe raw = unsafe connection
  }

  deinit {
    unsafe dbus_connection_close(raw)
    unsafe dbus_connection_unref(raw)
  }

  static func take(_ error: inout DBusError, default code: BlueZError.Code) -> BlueZError {
    defer { unsafe dbus_error_free(&error) }
    guard unsafe dbus_error_is_set(&error) != 0 else { return BlueZError(code) }
    let name = unsafe error.name.map { unsafe String(cString: $0) } ?? ""
    let message = unsafe error.message.map { unsafe String(cString: $0) } ?? ""
    var mapped = BlueZError(dbusName: name, message: message)
    if mapped.code == .other { mapped.code = code }
    return mapped
  }

  /// Calls a method and waits for its reply (up to `timeout` ms).
  func call(
    _ destination: String, _ path: String, _ interface: String, _ method: String,
    _ arguments: [DBusValue] = [], timeout: Int32 = 25_000
  ) throws(BlueZError) -> [DBusValue] {
    unsafe try withMethodCall(destination, path, interface, method, arguments) { message throws(BlueZError) in
      var error = unsafe DBusError()
      unsafe dbus_error_init(&error)
      guard let reply = unsafe dbus_connection_send_with_reply_and_block(raw, message, timeout, &error) else {
        throw unsafe Self.take(&error, default: .other)
      }
      defer { unsafe dbus_message_unref(reply) }
      return unsafe Self.arguments(reply)
    }
  }

  /// Sends a method call without waiting; its reply arrives later among the polled
  /// messages, with this serial as its `replySerial`.
  func send(
    _ destination: String, _ path: String, _ interface: String, _ method: String,
    _ arguments: [DBusValue] = []
  ) throws(BlueZError) -> UInt32 {
    unsafe try withMethodCall(destination, path, interface, method, arguments) { message throws(BlueZError) in
      var serial: dbus_uint32_t = 0
      guard unsafe dbus_connection_send(raw, message, &serial) != 0 else {
        throw BlueZError(.other, message: "out of memory")
      }
      unsafe dbus_connection_flush(raw)
      return serial
    }
  }

  /// Builds a method call with `arguments` and hands it to `body`; frees it after.
  private func withMethodCall<T>(
    _ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue],
    _ body: (OpaquePointer) throws(BlueZError) -> T
  ) throws(BlueZError) -> T {
    guard let message = unsafe dbus_message_new_method_call(destination, path, interface, method) else {
      throw BlueZError(.other, message: "out of memory")
    }
    defer { unsafe dbus_message_unref(message) }
    var iter = unsafe DBusMessageIter()
    unsafe dbus_message_iter_init_append(message, &iter)
    for argument in arguments { unsafe argument.write(&iter) }
    return unsafe try body(message)
  }

  /// Asks the bus daemon to route matching signals here.
  func addMatch(_ rule: String) throws(BlueZError) {
    var error = unsafe DBusError()
    unsafe dbus_error_init(&error)
    unsafe dbus_bus_add_match(raw, rule, &error)
    if unsafe dbus_error_is_set(&error) != 0 { throw unsafe Self.take(&error, default: .other) }
  }

  /// Reads and writes for up to `milliseconds`, then returns the queued messages. Returns
  /// nil when the connection is gone.
  func poll(milliseconds: Int32) -> [BusMessage]? {
    guard unsafe dbus_connection_read_write(raw, milliseconds) != 0 else { return nil }
    var messages: [BusMessage] = []
    while let message = unsafe dbus_connection_pop_message(raw) {
      unsafe messages.append(
        BusMessage(
          type: dbus_message_get_type(message),
          sender: dbus_message_get_sender(message).map { unsafe String(cString: $0) } ?? "",
          path: unsafe dbus_message_get_path(message).map { unsafe String(cString: $0) } ?? "",
          interface: unsafe dbus_message_get_interface(message).map { unsafe String(cString: $0) } ?? "",
          member: unsafe dbus_message_get_member(message).map { unsafe String(cString: $0) } ?? "",
          arguments: unsafe Self.arguments(message),
          replySerial: unsafe dbus_message_get_reply_serial(message),
          errorName: unsafe dbus_message_get_error_name(message).map { unsafe String(cString: $0) } ?? ""))
      unsafe dbus_message_unref(message)
    }
    return messages
  }

  static func arguments(_ message: OpaquePointer) -> [DBusValue] {
    var iter = unsafe DBusMessageIter()
    guard unsafe dbus_message_iter_init(message, &iter) != 0 else { return [] }
    return unsafe DBusValue.readAll(&iter)
  }
}

/// A thread of its own that owns one ``BusConnection``: jobs run on it in order, between
/// polls, and every incoming message goes to `onMessage`. Nothing of libdbus runs on Swift's
/// cooperative pool.
final class BusThread: Sendable {
  /// What the caller and the bus thread share.
  private struct State {
    var jobs: [@Sendable (BusConnection) -> Void] = []
    var stopping = false
    /// The connection closed under us (the bus daemon went away): calls fail at once.
    var closed = false
    var finalJob: (@Sendable (BusConnection) -> Void)?
    var onMessage: (@Sendable (BusConnection, BusMessage) -> Void)?
    var onClosed: (@Sendable () -> Void)?
  }

  private let state = Mutex(State())
  /// Signalled when a job or the stop arrives (the thread waits on it once the connection
  /// closed, instead of polling a dead socket).
  private let wakeup = DispatchSemaphore(value: 0)
  /// Calls awaiting their reply, by serial: touched on the bus thread only (a lock that is
  /// never contended, so the class needs no unchecked `Sendable`).
  private let awaitingReply = Mutex<[UInt32: PendingReply]>([:])

  /// A method call sent and not answered yet.
  private struct PendingReply {
    var deadline: ContinuousClock.Instant
    var resume: @Sendable (Result<[DBusValue], BlueZError>) -> Void
  }

  private init(
    onMessage: @escaping @Sendable (BusConnection, BusMessage) -> Void,
    onClosed: @escaping @Sendable () -> Void
  ) {
    state.withLock {
      $0.onMessage = onMessage
      $0.onClosed = onClosed
    }
  }

  /// Opens the connection on a new thread; fails with the bus error.
  static func start(
    address: String?, onMessage: @escaping @Sendable (BusConnection, BusMessage) -> Void,
    onClosed: @escaping @Sendable () -> Void = {}
  ) async throws(BlueZError) -> BusThread {
    let bus = BusThread(onMessage: onMessage, onClosed: onClosed)
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
      let (pending, stop, last, onMessage, onClosed) = state.withLock { state in
        defer { state.jobs.removeAll() }
        return (state.jobs, state.stopping, state.finalJob, state.onMessage, state.onClosed)
      }
      for job in pending { job(connection) }
      if stop {
        last?(connection)
        break
      }
      guard open else {
        // Closed: run the jobs that still come (their calls fail fast) until stopped,
        // without spinning.
        _ = wakeup.wait(timeout: .now() + 1)
        continue
      }
      guard let messages = connection.poll(milliseconds: 20) else {
        open = false
        state.withLock { $0.closed = true }
        failAwaitingReplies(BlueZError(.noBus, message: "the bus connection closed"))
        onClosed?()
        continue
      }
      for message in messages {
        let isReply =
          message.type == DBUS_MESSAGE_TYPE_METHOD_RETURN || message.type == DBUS_MESSAGE_TYPE_ERROR
        if isReply, let reply = awaitingReply.withLock({ $0.removeValue(forKey: message.replySerial) }) {
          if message.type == DBUS_MESSAGE_TYPE_ERROR {
            reply.resume(
              .failure(
                BlueZError(dbusName: message.errorName, message: message.arguments.first?.stringValue ?? "")))
          } else {
            reply.resume(.success(message.arguments))
          }
        } else {
          onMessage?(connection, message)
        }
      }
      expireAwaitingReplies()
    }
    failAwaitingReplies(BlueZError(.noBus, message: "connection closed"))
    state.withLock {
      $0.onMessage = nil
      $0.onClosed = nil
    }
  }

  /// Fails the calls whose reply is overdue with `org.freedesktop.DBus.Error.NoReply`.
  private func expireAwaitingReplies() {
    let now = ContinuousClock.now
    let overdue = awaitingReply.withLock { waiting in
      let overdue = waiting.filter { $0.value.deadline <= now }
      for serial in overdue.keys { waiting[serial] = nil }
      return Array(overdue.values)
    }
    for reply in overdue {
      reply.resume(
        .failure(BlueZError(dbusName: "org.freedesktop.DBus.Error.NoReply", message: "no reply in time")))
    }
  }

  private func failAwaitingReplies(_ error: BlueZError) {
    let waiting = awaitingReply.withLock { waiting in
      defer { waiting = [:] }
      return waiting
    }
    for reply in waiting.values { reply.resume(.failure(error)) }
  }

  /// Calls a method without blocking the bus thread: the reply is matched by serial as it
  /// arrives, so signals and other calls go on meanwhile. Fails with `NoReply` after
  /// `timeout`, and at once (the reply, if any, dropped) when the calling task is cancelled.
  func call(
    _ destination: String, _ path: String, _ interface: String, _ method: String,
    _ arguments: [DBusValue] = [], timeout: Duration
  ) async throws(BlueZError) -> [DBusValue] {
    if Task.isCancelled { throw BlueZError(.other, message: "\(method) cancelled before it was sent") }
    let serial = Mutex<UInt32?>(nil)
    let once = Mutex<(@Sendable (Result<[DBusValue], BlueZError>) -> Void)?>(nil)
    let result: Result<[DBusValue], BlueZError> = await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        once.withLock { $0 = { continuation.resume(returning: $0) } }
        let resume: @Sendable (Result<[DBusValue], BlueZError>) -> Void = { result in
          once.withLock {
            $0?(result)
            $0 = nil
          }
        }
        let job: @Sendable (BusConnection) -> Void = { connection in
          do throws(BlueZError) {
            let sent = try connection.send(destination, path, interface, method, arguments)
            serial.withLock { $0 = sent }
            self.awaitingReply.withLock {
              $0[sent] = PendingReply(deadline: ContinuousClock.now + timeout, resume: resume)
            }
          } catch {
            resume(.failure(error))
          }
        }
        let queued = state.withLock { state in
          guard !state.stopping, !state.closed else { return false }
          state.jobs.append(job)
          return true
        }
        guard queued else {
          resume(.failure(BlueZError(.noBus, message: "connection closed")))
          return
        }
        wakeup.signal()
      }
    } onCancel: {
      // The reply, if it comes, finds no one waiting and is dropped.
      self.enqueue { _ in
        if let sent = serial.withLock({ $0 }),
          let reply = self.awaitingReply.withLock({ $0.removeValue(forKey: sent) })
        {
          reply.resume(.failure(BlueZError(.other, message: "\(method) cancelled")))
        }
      }
    }
    return try result.get()
  }

  /// Runs `body` on the bus thread and returns its result.
  func perform<T: Sendable>(
    _ body: @escaping @Sendable (BusConnection) throws(BlueZError) -> T
  ) async throws(BlueZError) -> T {
    let result: Result<T, BlueZError> = await withCheckedContinuation { continuation in
      let job: @Sendable (BusConnection) -> Void = { connection in
        do throws(BlueZError) {
          continuation.resume(returning: .success(try body(connection)))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
      let queued = state.withLock { state in
        guard !state.stopping else { return false }
        state.jobs.append(job)
        return true
      }
      guard queued else {
        continuation.resume(returning: .failure(BlueZError(.noBus, message: "connection closed")))
        return
      }
      wakeup.signal()
    }
    return try result.get()
  }

  /// Queues `body` without waiting.
  func enqueue(_ body: @escaping @Sendable (BusConnection) -> Void) {
    state.withLock { if !$0.stopping { $0.jobs.append(body) } }
    wakeup.signal()
  }

  /// Ends the thread after `last` (e.g. StopDiscovery) has run; the connection closes.
  func stop(after last: (@Sendable (BusConnection) -> Void)? = nil) {
    state.withLock { state in
      if !state.stopping {
        state.stopping = true
        state.finalJob = last
      }
    }
    wakeup.signal()
  }
}
