// SPDX-License-Identifier: Apache-2.0
import CLibNFC
import Dispatch
import NFCReader
import Synchronization

/// The only place that calls libnfc: one context and one device, used on one serial
/// dispatch queue (its own thread, off Swift's cooperative pool).
///
/// Sendable by hand. Invariant: `context` and `device` are read and written only by
/// blocks on `queue`, except in `abort()`, which reads `device` under `gate` while `close()`
/// clears `gate` (under the same lock) before freeing the device.
@safe final class LibNFCHandle: @unchecked Sendable {
  let queue: DispatchQueue
  private var context: OpaquePointer?
  private var device: OpaquePointer?
  private let gate = Mutex<Bool>(false)

  init(label: String) {
    queue = DispatchQueue(label: label)
  }

  /// Runs `body` on the queue; a task cancellation aborts the libnfc command in progress.
  func perform<T: Sendable>(_ body: @escaping @Sendable (LibNFCHandle) -> Result<T, ReaderError>)
    async throws(ReaderError) -> T
  {
    if Task.isCancelled { throw ReaderError(.cancelled, "the task was cancelled") }
    let result = await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, ReaderError>, Never>) in
        queue.async { continuation.resume(returning: body(self)) }
      }
    } onCancel: {
      self.abort()
    }
    return try result.get()
  }

  /// Runs `body` on the queue even in a cancelled task (for closing).
  func run<T: Sendable>(_ body: @escaping @Sendable (LibNFCHandle) -> T) async -> T {
    await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
      queue.async { continuation.resume(returning: body(self)) }
    }
  }

  // MARK: On the queue only

  /// libnfc's context setup and teardown (`nfc_init`, `nfc_open`, `nfc_list_devices`,
  /// `nfc_close`, `nfc_exit`) read its global log and configuration state and the
  /// environment; they are not thread-safe, so every handle takes this lock for them.
  static let library = Mutex<Void>(())

  /// `nfc_init`, `nfc_open` (first device when `connstring` is nil), `nfc_initiator_init`.
  /// Returns the connstring and the device name.
  func open(_ connstring: String?) -> Result<(String, String), ReaderError> {
    Self.library.withLock { _ in openLocked(connstring) }
  }

  private func openLocked(_ connstring: String?) -> Result<(String, String), ReaderError> {
    var newContext: OpaquePointer? = nil
    // unsafe: nfc_init stores a context pointer into a live local.
    unsafe nfc_init(&newContext)
    guard let newContext = unsafe newContext else {
      return .failure(ReaderError(.deviceFailure, "nfc_init failed (libnfc could not start)"))
    }
    // unsafe: the context is live (just created); the String bridges to a NUL-terminated C string for the call.
    let opened = unsafe (connstring.map { unsafe nfc_open(newContext, $0) } ?? nfc_open(newContext, nil))
    guard let opened = unsafe opened else {
      // Without a connection string, nothing listed means no reader rather than a busy one.
      let listed = connstring == nil ? unsafe Self.connstrings(in: newContext) : []
      // unsafe: the context is live and no device uses it.
      unsafe nfc_exit(newContext)
      if connstring == nil && listed.isEmpty {
        return .failure(ReaderError(.noReader, "libnfc found no NFC reader"))
      }
      return .failure(
        ReaderError(
          .deviceBusy, "nfc_open(\(connstring ?? "first device")) failed: no such device, or it is in use"))
    }
    unsafe context = unsafe newContext
    unsafe device = unsafe opened
    gate.withLock { $0 = true }
    // unsafe: the device was opened above and is used only on this queue.
    let rc = unsafe nfc_initiator_init(opened)
    if rc < 0 {
      let error = code(rc).error("nfc_initiator_init")
      closeLocked()
      return .failure(error)
    }
    // Poll once per call (no infinite select), so every select returns promptly.
    if case .failure(let error) = setProperty(NP_INFINITE_SELECT, false) {
      closeLocked()
      return .failure(error)
    }
    // unsafe: the device is open; libnfc returns NUL-terminated strings owned by the device.
    let name = unsafe String(cString: nfc_device_get_name(opened))
    // unsafe: as above.
    let actual = unsafe String(cString: nfc_device_get_connstring(opened))
    return .success((actual, name))
  }

  /// `nfc_close` and `nfc_exit`; idempotent.
  func close() {
    Self.library.withLock { _ in closeLocked() }
  }

  /// ``close()`` for a caller that holds ``library``.
  private func closeLocked() {
    let wasOpen = gate.withLock {
      let wasOpen = $0
      $0 = false
      return wasOpen
    }
    guard wasOpen else { return }
    // unsafe: the gate is closed, so abort() no longer reads the device; both pointers are live.
    if let device = unsafe device { unsafe nfc_close(device) }
    // unsafe: the context outlives its device, closed just above.
    if let context = unsafe context { unsafe nfc_exit(context) }
    unsafe device = nil
    unsafe context = nil
  }

  var isOpen: Bool { gate.withLock { $0 } }

  /// `nfc_device_set_property_bool`.
  func setProperty(_ property: nfc_property, _ value: Bool) -> Result<Void, ReaderError> {
    guard let device = unsafe device else { return .failure(closedError) }
    // unsafe: the device is open (checked above) and used only on this queue.
    let rc = unsafe nfc_device_set_property_bool(device, property, value)
    return rc < 0 ? .failure(code(rc).error("nfc_device_set_property_bool")) : .success(())
  }

  /// `nfc_initiator_select_passive_target`: nil when no target answered.
  func select(_ modulation: nfc_modulation, initiatorData: [UInt8]) -> Result<nfc_target?, ReaderError> {
    guard let device = unsafe device else { return .failure(closedError) }
    var target = nfc_target()
    // unsafe: the device is open; libnfc reads initiatorData.count bytes and writes one nfc_target into a live local.
    let rc = unsafe initiatorData.withUnsafeBufferPointer { data in
      unsafe nfc_initiator_select_passive_target(
        device, modulation, data.count == 0 ? nil : data.baseAddress, data.count, &target)
    }
    if rc < 0 { return .failure(code(rc).error("nfc_initiator_select_passive_target")) }
    return .success(rc == 0 ? nil : target)
  }

  /// `nfc_initiator_transceive_bytes`: InDataExchange with easy framing, InCommunicateThru without.
  func transceive(_ frame: [UInt8], capacity: Int, timeout: Int32) -> Result<[UInt8], ReaderError> {
    guard let device = unsafe device else { return .failure(closedError) }
    var answer = [UInt8](repeating: 0, count: capacity)
    // unsafe: the device is open; libnfc reads frame.count bytes and writes at most answer.count bytes.
    let rc = unsafe frame.withUnsafeBufferPointer { tx in
      unsafe answer.withUnsafeMutableBufferPointer { rx in
        unsafe nfc_initiator_transceive_bytes(
          device, tx.baseAddress, tx.count, rx.baseAddress, rx.count, timeout)
      }
    }
    if rc < 0 { return .failure(code(rc).error("nfc_initiator_transceive_bytes")) }
    return .success(Array(answer.prefix(Int(rc))))
  }

  /// `nfc_initiator_deselect_target`.
  func deselect() {
    // unsafe: the device is open (checked) and used only on this queue.
    if let device = unsafe device { _ = unsafe nfc_initiator_deselect_target(device) }
  }

  /// The connection strings libnfc lists (`nfc_list_devices`, at most 16).
  static func listDevices() -> [String] {
    library.withLock { _ in listDevicesLocked() }
  }

  private static func listDevicesLocked() -> [String] {
    var context: OpaquePointer? = nil
    // unsafe: nfc_init stores a context pointer into a live local.
    unsafe nfc_init(&context)
    guard let context = unsafe context else { return [] }
    // unsafe: the context was created above and is freed below.
    defer { unsafe nfc_exit(context) }
    // unsafe: the context is live until the deferred nfc_exit.
    return unsafe connstrings(in: context)
  }

  /// `nfc_list_devices` on a live `context`, under the library lock.
  private static func connstrings(in context: OpaquePointer) -> [String] {
    // 16 connstrings, freed below (a Swift array literal of the 1024-tuples is too slow to type-check).
    let list = UnsafeMutablePointer<nfc_connstring>.allocate(capacity: 16)
    // unsafe: allocated just above.
    defer { unsafe list.deallocate() }
    // unsafe: the caller keeps the context live; the buffer holds 16 entries.
    let count = unsafe nfc_list_devices(context, list, 16)
    return (0..<min(count, 16)).map { index in
      // unsafe: entries below count were written by libnfc, each a NUL-terminated char[1024].
      unsafe withUnsafeBytes(of: list[index]) {
        unsafe String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
      }
    }
  }

  // MARK: Any thread

  /// `nfc_abort_command` on the command in progress, if the device is open.
  func abort() {
    gate.withLock { isOpen in
      guard isOpen, let device = unsafe device else { return }
      // unsafe: the gate is open, so close() has not freed the device; libnfc's abort is meant for other threads.
      _ = unsafe nfc_abort_command(device)
    }
  }

  private var closedError: ReaderError {
    ReaderError(.sessionEnded, "the reader was closed (its session ended)")
  }

  private func code(_ rc: Int32) -> LibNFCErrorCode { LibNFCErrorCode(rawValue: rc) }
}

/// The bytes of a C array imported as a tuple (`count` clamped to its size).
func tupleBytes<T>(_ value: T, count: Int) -> [UInt8] {
  // unsafe: the raw bytes of a local copy of a plain C value are read within its lifetime.
  unsafe withUnsafeBytes(of: value) { unsafe Array($0.prefix(max(0, count))) }
}
