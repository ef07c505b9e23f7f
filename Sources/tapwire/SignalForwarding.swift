// SPDX-License-Identifier: Apache-2.0
import Foundation
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
    installSignalPipe(signals)
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

/// The signal thread's entry point (a C function for `pthread_create`).
private func signalThread(_: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  SignalForwarding.waitForSignals()
}

/// The self-pipe: the handler writes each signal's number and sender, the signal thread reads.
nonisolated(unsafe) private var signalPipe: [Int32] = [-1, -1]
nonisolated(unsafe) private var signalWriteEnd: Int32 = -1

/// Writes (number, sender) to the pipe: async-signal-safe (one write of 8 bytes is atomic).
private func signalHandler(
  _ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _: UnsafeMutableRawPointer?
) {
  let saved = errno
  var record: (Int32, Int32) = (number, info?.pointee._sifields._kill.si_pid ?? 0)
  _ = withUnsafeBytes(of: &record) { write(signalWriteEnd, $0.baseAddress, 8) }
  errno = saved
}

/// The next (number, sender) from the pipe, waiting up to `timeout` (nil: no limit); nil when
/// the time ran out.
private func nextSignal(timeout: Duration?) -> (number: Int32, sender: pid_t)? {
  var fds = [pollfd(fd: signalPipe[0], events: Int16(POLLIN), revents: 0)]
  let milliseconds =
    timeout.map {
      Int32(
        clamping: max(0, $0.components.seconds * 1000 + $0.components.attoseconds / 1_000_000_000_000_000))
    } ?? -1
  guard poll(&fds, 1, milliseconds) > 0 else { return nil }
  var record: (Int32, Int32) = (0, 0)
  guard withUnsafeMutableBytes(of: &record, { read(signalPipe[0], $0.baseAddress, 8) }) == 8 else {
    return nil
  }
  return (record.0, record.1)
}

/// Creates the self-pipe, installs the handler for `signals` and starts the signal thread.
private func installSignalPipe(_ signals: [Int32]) {
  var fds: [Int32] = [0, 0]
  guard pipe(&fds) == 0 else { return }
  _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
  _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
  signalPipe = fds
  signalWriteEnd = fds[1]
  for number in signals {
    var action = sigaction()
    action.__sigaction_handler.sa_sigaction = signalHandler
    action.sa_flags = SA_SIGINFO | SA_RESTART
    sigfillset(&action.sa_mask)
    sigaction(number, &action, nil)
  }
  // A parent may start us with them blocked (Foundation's Process keeps the mask of the
  // thread that starts it, and dispatch's worker threads block every signal): unblock them
  // here, before any thread starts, so every later thread inherits that.
  var set = sigset_t()
  sigemptyset(&set)
  for number in signals { sigaddset(&set, number) }
  pthread_sigmask(SIG_UNBLOCK, &set, nil)
  var thread = pthread_t()
  pthread_create(&thread, nil, signalThread, nil)
}
