// SPDX-License-Identifier: Apache-2.0
import NFCReader

#if canImport(Glibc)
  import Glibc
#endif

/// An advisory lock (`flock(2)`, exclusive, non-blocking) on the device node of a serial
/// connection string such as `pn532_uart:/dev/ttyUSB0`, so that two processes do not drive
/// one reader at once: the second gets `ReaderError.Code.deviceBusy`. libnfc itself only
/// guards against a second open within a process.
///
/// Hold it for as long as the device is open; ``release()`` (or the end of the process)
/// frees it. Not Sendable: one owner.
public final class DeviceLock {
  /// The locked path.
  public let path: String
  private var descriptor: Int32

  /// The device node of `connstring` for the serial drivers (`pn532_uart`, `arygon`,
  /// `acr122s`): the part after the first colon up to the next one (the baud rate), or nil
  /// for USB and other connection strings, which name no node.
  public static func devicePath(of connstring: String) -> String? {
    let parts = connstring.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count >= 2, ["pn532_uart", "arygon", "acr122s"].contains(String(parts[0])),
      parts[1].hasPrefix("/")
    else { return nil }
    return String(parts[1])
  }

  /// Takes the lock on `path`.
  ///
  /// - Throws: `ReaderError.Code.deviceBusy` when another process holds it (or the node is
  ///   open exclusively); `ReaderError.Code.noReader` when the node cannot be opened.
  public init(path: String) throws(ReaderError) {
    self.path = path
    // unsafe: the String bridges to a NUL-terminated C string for the duration of the call.
    let fd = unsafe open(path, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
    guard fd >= 0 else {
      let error = errno
      if error == EBUSY { throw ReaderError(.deviceBusy, "\(path) is in use by another process") }
      throw ReaderError(.noReader, "cannot open \(path) (errno \(error))")
    }
    guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
      let error = errno
      _ = Glibc.close(fd)
      if error == EWOULDBLOCK {
        throw ReaderError(.deviceBusy, "\(path) is in use by another process (flock)")
      }
      throw ReaderError(.deviceFailure, "flock(\(path)) failed (errno \(error))")
    }
    descriptor = fd
  }

  /// Frees the lock; idempotent.
  public func release() {
    guard descriptor >= 0 else { return }
    _ = Glibc.close(descriptor)
    descriptor = -1
  }

  deinit { release() }
}
