// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// One session per device at a time: sessions wait here, first in first out, and the
/// last ending per device is kept for ``ReaderSessions/lastEnding(deviceKey:)``.
final class DeviceQueue: Sendable {
  static let shared = DeviceQueue()

  private struct Device {
    var busy = false
    var waiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    var lastEnding: SessionEnding?
  }

  private let devices = Mutex<[String: Device]>([:])

  /// Waits for the device; false when the task was cancelled while waiting.
  /// `queued` is called (once, synchronously) with the position when the device is busy.
  func acquire(_ key: String, id: UInt64, queued: (Int) -> Void) async -> Bool {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        let position: Int? = devices.withLock { devices in
          var device = devices[key] ?? Device()
          defer { devices[key] = device }
          if Task.isCancelled {
            continuation.resume(returning: false)
            return nil
          }
          if !device.busy {
            device.busy = true
            continuation.resume(returning: true)
            return nil
          }
          device.waiters.append((id, continuation))
          return device.waiters.count
        }
        if let position { queued(position) }
      }
    } onCancel: {
      devices.withLock { devices in
        guard var device = devices[key], let index = device.waiters.firstIndex(where: { $0.id == id }) else {
          return
        }
        let waiter = device.waiters.remove(at: index)
        devices[key] = device
        waiter.continuation.resume(returning: false)
      }
    }
  }

  /// Hands the device to the next waiting session, or frees it.
  func release(_ key: String) {
    devices.withLock { devices in
      var device = devices[key] ?? Device()
      if device.waiters.isEmpty {
        device.busy = false
      } else {
        device.waiters.removeFirst().continuation.resume(returning: true)
      }
      devices[key] = device
    }
  }

  /// Records the ending of a session (before its stream reports it).
  func record(_ key: String, ending: SessionEnding) {
    devices.withLock { devices in
      var device = devices[key] ?? Device()
      device.lastEnding = ending
      devices[key] = device
    }
  }

  func lastEnding(_ key: String) -> SessionEnding? { devices.withLock { $0[key]?.lastEnding } }
}

/// Queries about sessions across devices.
public enum ReaderSessions {
  /// The ending of the last session that ended on the device with this key
  /// (``ReaderTransport/deviceKey``), if any.
  public static func lastEnding(deviceKey: String) -> SessionEnding? {
    DeviceQueue.shared.lastEnding(deviceKey)
  }
}
