// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
  import Glibc
#endif

/// A pseudo-terminal pair in raw mode: the simulator owns the master side; a serial
/// driver (libnfc `pn532_uart`) opens the slave by its path.
///
/// The only file of the simulator with `unsafe` code (POSIX calls on file descriptors
/// and byte buffers).
// Sendable by hand: after `init` the descriptors are used by the serving thread only.
final class PseudoTerminal: @unchecked Sendable {
  let master: Int32
  /// Kept open on this side so the master never reads EIO while no driver has it open.
  let slave: Int32
  /// The slave's path, such as `/dev/pts/3`.
  let path: String

  /// Opens a pair and puts the slave into raw mode (no echo, no line discipline).
  init() throws(SimulatorError) {
    var m: Int32 = -1
    var s: Int32 = -1
    // unsafe: openpty writes two ints through pointers to live locals; nil name/termios/winsize.
    guard unsafe openpty(&m, &s, nil, nil, nil) == 0 else {
      throw SimulatorError(.pseudoTerminal, "openpty failed, errno \(errno)")
    }
    var attributes = termios()
    // unsafe: tcgetattr/cfmakeraw/tcsetattr write through a pointer to a live local termios.
    if unsafe tcgetattr(s, &attributes) == 0 {
      unsafe cfmakeraw(&attributes)
      _ = unsafe tcsetattr(s, TCSANOW, &attributes)
    }
    var name = [CChar](repeating: 0, count: 128)
    // unsafe: ttyname_r writes at most name.count bytes (NUL included) into the array's buffer.
    let rc = unsafe name.withUnsafeMutableBufferPointer { unsafe ttyname_r(s, $0.baseAddress!, $0.count) }
    guard rc == 0 else {
      close(m)
      close(s)
      throw SimulatorError(.pseudoTerminal, "ttyname_r failed, error \(rc)")
    }
    let bytes = name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    master = m
    slave = s
    path = String(decoding: bytes, as: UTF8.self)
  }

  /// Waits up to `milliseconds` for input, then reads what is there (at most 4096 bytes).
  /// Returns nil when the master cannot be read any more.
  func read(waitingAtMost milliseconds: Int32) -> [UInt8]? {
    var descriptor = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
    // unsafe: poll reads/writes one pollfd through a pointer to a live local.
    let ready = unsafe poll(&descriptor, 1, milliseconds)
    if ready < 0 { return errno == EINTR ? [] : nil }
    if ready == 0 { return [] }
    if descriptor.revents & Int16(POLLNVAL) != 0 { return nil }
    var buffer = [UInt8](repeating: 0, count: 4096)
    // unsafe: read writes at most buffer.count bytes into the array's own buffer.
    let count = unsafe buffer.withUnsafeMutableBytes { unsafe Glibc.read(master, $0.baseAddress, $0.count) }
    if count < 0 { return errno == EAGAIN || errno == EINTR || errno == EIO ? [] : nil }
    return Array(buffer.prefix(count))
  }

  /// Writes all of `bytes` to the master (the driver reads them on the slave).
  func write(_ bytes: [UInt8]) {
    var sent = 0
    while sent < bytes.count {
      // unsafe: write reads count - sent bytes starting inside the array's own buffer.
      let n = unsafe bytes.withUnsafeBytes {
        unsafe Glibc.write(master, $0.baseAddress! + sent, $0.count - sent)
      }
      if n <= 0 {
        if n < 0 && errno == EINTR { continue }
        return
      }
      sent += n
    }
  }

  private var isOpen = true

  /// Closes both sides (called once, by the serving thread).
  func shutdown() {
    guard isOpen else { return }
    isOpen = false
    close(master)
    close(slave)
  }

  deinit { shutdown() }
}
