// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising

/// The one timer the BlueZ flows wake a sans-IO core with (the reader connection's
/// `ConnectionLifecycle`, `tapwire discover`'s `ReaderDiscovery`): armed for the core's next
/// deadline on ``BlueZScanner/now()``'s clock, it calls `fire` when that instant comes, unless
/// it was armed again (for another deadline) or cancelled first.
package struct DeadlineTimer {
  private var task: Task<Void, Never>?
  /// The deadline the timer is armed for; nil when it is not armed.
  package private(set) var armed: MonotonicInstant?

  /// A timer, not armed.
  package init() {}

  /// Arms the timer for `deadline` (nil: disarms it), unless it is armed for that deadline
  /// already; a timer armed for another one is cancelled first.
  package mutating func arm(for deadline: MonotonicInstant?, fire: @escaping @Sendable () -> Void) {
    guard deadline != armed else { return }
    armed = deadline
    task?.cancel()
    task = deadline.map { deadline in
      Task {
        let wait = deadline - BlueZScanner.now()
        if wait > .zero { try? await Task.sleep(for: wait) }
        if !Task.isCancelled { fire() }
      }
    }
  }

  /// Forgets the deadline that fired, so that the same deadline arms the timer again.
  package mutating func fired() { armed = nil }

  /// Cancels the timer.
  package mutating func cancel() {
    task?.cancel()
    task = nil
    armed = nil
  }
}
