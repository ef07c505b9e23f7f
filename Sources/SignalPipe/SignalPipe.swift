// SPDX-License-Identifier: Apache-2.0
// The self-pipe both executables stop on (`tapwire`'s SignalForwarding, `tapwire-nfc`'s
// SignalStop): a handler installed before any thread starts only writes each signal to a
// pipe, and one thread of the caller's reads it, so no signal is lost and nothing unsafe runs
// in the handler. Built with strict memory safety: every unsafe use is marked, the globals
// written once before the signal thread starts and read after.
import MonotonicTime

#if canImport(Glibc)
  import Glibc
#endif

/// The self-pipe: the handler writes each signal's number and sender, the signal thread reads.
nonisolated(unsafe) private var signalPipe: [Int32] = [-1, -1]
nonisolated(unsafe) private var signalWriteEnd: Int32 = -1
/// What the signal thread runs (set once, before the thread starts).
nonisolated(unsafe) private var signalThreadBody: (() -> Void)?

/// The signal thread's entry point (a C function for `pthread_create`).
private func signalThread(_: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  unsafe signalThreadBody?()
  return nil
}

/// Writes (number, sender) to the pipe: async-signal-safe (one write of 8 bytes is atomic).
private func signalHandler(
  _ number: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _: UnsafeMutableRawPointer?
) {
  let saved = errno
  var record: (Int32, Int32) = (number, unsafe info?.pointee._sifields._kill.si_pid ?? 0)
  _ = unsafe withUnsafeBytes(of: &record) { unsafe write(signalWriteEnd, $0.baseAddress, 8) }
  errno = saved
}

/// The next (number, sender) from the pipe, waiting up to `timeout` (nil: no limit); nil when
/// the time ran out.
package func nextSignal(timeout: Duration?) -> (number: Int32, sender: pid_t)? {
  var fds = [pollfd(fd: unsafe signalPipe[0], events: Int16(POLLIN), revents: 0)]
  let milliseconds = timeout.map { Int32(clamping: max(0, $0.wholeMilliseconds)) } ?? -1
  guard unsafe poll(&fds, 1, milliseconds) > 0 else { return nil }
  var record: (Int32, Int32) = (0, 0)
  guard unsafe withUnsafeMutableBytes(of: &record, { unsafe read(signalPipe[0], $0.baseAddress, 8) }) == 8
  else {
    return nil
  }
  return (record.0, record.1)
}

/// Creates the self-pipe, installs the handler for `signals`, unblocks them, and starts a
/// thread running `body` (which waits with ``nextSignal(timeout:)``). Call it first in `main`,
/// before any other thread starts.
package func installSignalPipe(_ signals: [Int32], signalThread body: @escaping () -> Void) {
  var fds: [Int32] = [0, 0]
  guard unsafe pipe(&fds) == 0 else { return }
  _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
  _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
  unsafe signalPipe = fds
  unsafe signalWriteEnd = fds[1]
  unsafe signalThreadBody = body
  for number in signals {
    var action = sigaction()
    unsafe action.__sigaction_handler.sa_sigaction = signalHandler
    action.sa_flags = SA_SIGINFO | SA_RESTART
    unsafe sigfillset(&action.sa_mask)
    unsafe sigaction(number, &action, nil)
  }
  // A parent may start us with them blocked (Foundation's Process keeps the mask of the
  // thread that starts it, and dispatch's worker threads block every signal): unblock them
  // here, before any thread starts, so every later thread inherits that.
  var set = sigset_t()
  unsafe sigemptyset(&set)
  for number in signals { unsafe sigaddset(&set, number) }
  unsafe pthread_sigmask(SIG_UNBLOCK, &set, nil)
  var thread = pthread_t()
  unsafe pthread_create(&thread, nil, signalThread, nil)
}
