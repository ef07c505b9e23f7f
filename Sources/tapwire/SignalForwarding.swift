// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignalPipe
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// SIGINT and SIGTERM for the reader commands, which run `tapwire-nfc` as a child: the first
/// signal is passed on to the child (whose own stop is graceful: it disconnects, cancels or
/// closes, and exits 128 + the number); a second signal, or the child still running after a
/// grace period, kills it (SIGKILL) and exits 128 + the number at once.
///
/// As in `tapwire-nfc`'s SignalStop, a handler installed before any thread starts only writes
/// the signal to a pipe and one thread reads it, so none is lost; one that comes before the
/// child starts exits 128 + its number at once.
enum SignalForwarding {
  /// The signals passed on.
  static let signals: [Int32] = [SIGINT, SIGTERM]
  /// Longer than the child's own grace period (3 s), so the child's bound normally applies.
  static let grace: Duration = .seconds(5)

  private struct State {
    var child: pid_t?
    var received: Int32?
  }

  private static let state = Mutex(State())

  /// Installs the handler and starts the thread that takes the signals; call before any
  /// other thread starts (first in the command).
  static func install() {
    installSignalPipe(signals) { SignalForwarding.waitForSignals() }
  }

  /// Starts `process` (`tapwire-nfc`) with the signals passed on to it. Exits 2 when it
  /// cannot start.
  static func start(_ process: Process) {
    state.withLock { state in
      do { try process.run() } catch {
        Tapwire.fail("cannot run \(process.executableURL?.path ?? ""): \(error)")
      }
      state.child = process.processIdentifier
    }
  }

  /// Starts `process`, waits for it and returns its exit status (128 + n when a signal ended
  /// it).
  static func run(_ process: Process) -> Int32 {
    start(process)
    process.waitUntilExit()
    return ReaderCommands.exitStatus(of: process)
  }

  fileprivate static func waitForSignals() -> Never {
    var taken: (number: Int32, sender: pid_t)?
    while taken == nil { taken = nextSignal(timeout: nil) }
    let first = taken!.number
    let child = state.withLock { state in
      state.received = first
      return state.child
    }
    // No child yet: nothing to stop gracefully.
    guard let child else { _exit(128 + first) }
    kill(child, first)
    let deadline = ContinuousClock.now + grace
    var last = first
    let left = deadline - ContinuousClock.now
    if left > .zero, let next = nextSignal(timeout: left) { last = next.number }
    kill(child, SIGKILL)
    _exit(128 + last)
  }
}
