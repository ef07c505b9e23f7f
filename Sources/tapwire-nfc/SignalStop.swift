// SPDX-License-Identifier: Apache-2.0
import Foundation
import SignalPipe
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Stops `tapwire-nfc` on SIGINT or SIGTERM: the first signal starts the running command's
/// graceful stop and a grace period; a second signal, or the grace period running out, exits
/// at once. Every way out after a signal exits 128 + its number (130 for SIGINT, 143 for
/// SIGTERM), never the usage status.
///
/// As swift-service-lifecycle waits for signals, the command never runs in a handler:
/// ``install(grace:)``, first in `main` before any thread starts, installs a handler that only
/// writes the signal to a pipe (SA_RESTART, so no system call fails), and one dedicated thread
/// reads the pipe. Blocking the signals and `sigwait` does not work here: once the async
/// `main` suspends, libdispatch parks the main thread in `sigsuspend` with an empty mask, so
/// a signal would reach it with its default action.
enum SignalStop {
  /// The signals that stop a command.
  static let signals: [Int32] = [SIGINT, SIGTERM]
  /// How long a graceful stop may take before the exit is forced.
  static let defaultGrace: Duration = .seconds(3)
  /// A repeat of the first signal within this window that came from the other process of the
  /// pair is the same request: a terminal's Ctrl-C reaches `tapwire` and `tapwire-nfc` both,
  /// and `tapwire` passes its copy on.
  static let duplicateWindow: Duration = .milliseconds(500)

  private struct State {
    var stop: (@Sendable (Int32) async -> Void)?
    var received: Int32?
  }

  private static let state = Mutex(State())

  /// How long a graceful stop may take (set by ``install(grace:)``).
  nonisolated(unsafe) private static var grace = defaultGrace

  /// Installs the handler and starts the thread that takes the signals; call first in `main`.
  static func install(grace: Duration = defaultGrace) {
    self.grace = grace
    installSignalPipe(signals) { SignalStop.waitForSignals() }
  }

  /// Registers the running command's graceful stop, started on the first signal. The command's
  /// own flow then ends and exits through ``exit(_:)`` (or ``TapwireNFC/fail(_:status:)``).
  static func onSignal(_ stop: @escaping @Sendable (Int32) async -> Void) {
    let pending = state.withLock { state in
      state.stop = stop
      return state.received
    }
    if let pending { Task { await stop(pending) } }
  }

  /// The signal received, if any.
  static var received: Int32? { state.withLock { $0.received } }

  /// `SIGINT`, `SIGTERM`, or `signal N`, for messages.
  static func name(_ number: Int32) -> String {
    switch number {
    case SIGINT: "SIGINT"
    case SIGTERM: "SIGTERM"
    default: "signal \(number)"
    }
  }

  /// `status`, or 128 + the signal's number once a signal came.
  static func status(or status: Int32) -> Int32 {
    received.map { 128 + $0 } ?? status
  }

  /// Exits with ``status(or:)`` (standard output flushed).
  static func exit(_ status: Int32) -> Never {
    Foundation.exit(self.status(or: status))
  }

  /// The signal thread: the first signal starts the stop (or exits when the command registered
  /// none); the next one, or the grace period's end, exits at once.
  fileprivate static func waitForSignals() -> Never {
    var taken: (number: Int32, sender: pid_t)?
    while taken == nil { taken = nextSignal(timeout: nil) }
    let (first, firstSender) = taken!
    let stop = state.withLock { state in
      state.received = first
      return state.stop
    }
    guard let stop else { _exit(128 + first) }
    Task { await stop(first) }
    let parent = getppid()
    let start = ContinuousClock.now
    let deadline = start + grace
    while true {
      let left = deadline - ContinuousClock.now
      guard left > .zero, let (next, sender) = nextSignal(timeout: left) else { _exit(128 + first) }
      let duplicate =
        next == first && ContinuousClock.now - start < duplicateWindow
        && (sender == parent) != (firstSender == parent)
      if !duplicate { _exit(128 + next) }
    }
  }
}
