// SPDX-License-Identifier: Apache-2.0
import MonotonicTime
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// An ISO-DEP card run by another process, behind a simulated Type 4 tag: the bridge listens
/// on a Unix socket, the card process connects to it as it would to vsmartcard's vpcd, and
/// every command APDU the simulated tag receives is forwarded in vpcd's framing (a 2-byte
/// big-endian length, then the APDU; the answer framed the same way).
///
/// The tag's applet (``tag(uid:)``) calls ``transmit(_:)`` on the simulator's serving thread,
/// so the card process answers in line with the PN532 exchange. With no card connected, or
/// when it does not answer within ``answerTimeout`` or its connection ends, the tag answers
/// `6F 00` (no precise diagnosis).
///
/// Besides `PseudoTerminal`, the simulator's only file with `unsafe` code (POSIX socket calls).
public final class VPCDCardBridge: Sendable {
  /// The Unix socket the card process connects to.
  public let socketPath: String
  /// How long one APDU waits for the card's answer.
  public let answerTimeout: Duration
  private let listener: Int32
  private let connection = Mutex<Int32>(-1)

  /// Creates the socket at `socketPath` (removing a stale one) and listens on it.
  ///
  /// - Parameters:
  ///   - socketPath: the path of the Unix socket (at most 107 bytes).
  ///   - answerTimeout: how long one APDU waits for the card's answer.
  /// - Throws: ``SimulatorError/Code/cardBridge`` when the socket cannot be created.
  public init(socketPath: String, answerTimeout: Duration = .seconds(10)) throws(SimulatorError) {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let path = Array(socketPath.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard path.count < capacity else {
      throw SimulatorError(.cardBridge, "socket path longer than \(capacity - 1) bytes")
    }
    // unsafe: copies path.count (< capacity) bytes into the sun_path array of a live local.
    unsafe withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in path.enumerated() { unsafe buffer[index] = byte }
    }
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw SimulatorError(.cardBridge, "socket failed, errno \(errno)") }
    // unsafe: unlink reads the path as a C string the call converts from a live String.
    _ = unsafe unlink(socketPath)
    // unsafe: bind reads one sockaddr_un through a pointer to a live local of that size.
    let bound = unsafe withUnsafePointer(to: &address) {
      unsafe $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        unsafe bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    guard bound == 0, listen(descriptor, 1) == 0 else {
      let code = errno
      Glibc.close(descriptor)
      throw SimulatorError(.cardBridge, "cannot listen on \(socketPath), errno \(code)")
    }
    self.socketPath = socketPath
    self.answerTimeout = answerTimeout
    self.listener = descriptor
  }

  /// Waits up to `timeout` for the card process to connect, replacing an earlier connection,
  /// and powers the card on (vpcd's control byte 01).
  ///
  /// - Parameter timeout: how long to wait.
  /// - Throws: ``SimulatorError/Code/cardBridge`` when no card connects in time.
  public func acceptCard(timeout: Duration) throws(SimulatorError) {
    var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
    // Whole milliseconds (it truncated to whole seconds before: a 0.5 s wait was 0 ms).
    let milliseconds = Int32(timeout.milliseconds(clampedTo: 0...Int64(Int32.max)))
    // unsafe: poll reads/writes one pollfd through a pointer to a live local.
    guard unsafe poll(&descriptor, 1, milliseconds) == 1 else {
      throw SimulatorError(.cardBridge, "no card process connected to \(socketPath)")
    }
    // accept with nil address and length pointers: the peer's address is not kept.
    let accepted = accept(listener, nil, nil)
    guard accepted >= 0 else { throw SimulatorError(.cardBridge, "accept failed, errno \(errno)") }
    let previous = connection.withLock {
      let previous = $0
      $0 = accepted
      return previous
    }
    if previous >= 0 { Glibc.close(previous) }
    _ = Self.send([0x01], over: accepted)
  }

  /// Forwards one command APDU to the card and returns its response APDU; `6F 00` when no
  /// card is connected, the connection ends or the card does not answer in time.
  ///
  /// - Parameter apdu: the command APDU's bytes.
  /// - Returns: the response APDU's bytes (data and status word).
  public func transmit(_ apdu: [UInt8]) -> [UInt8] {
    connection.withLock { descriptor in
      guard descriptor >= 0, !apdu.isEmpty, apdu.count <= 0xFFFF, Self.send(apdu, over: descriptor),
        let header = Self.receive(2, from: descriptor, timeout: answerTimeout),
        let answer = Self.receive(
          Int(header[0]) << 8 | Int(header[1]), from: descriptor, timeout: answerTimeout),
        answer.count >= 2
      else {
        return [0x6F, 0x00]
      }
      return answer
    }
  }

  /// A Type 4 tag (ISO/IEC 14443-4 over type A) whose APDUs go to the connected card.
  ///
  /// - Parameter uid: the tag's UID (4 or 7 bytes).
  /// - Throws: ``SimulatorError/Code/invalidTag`` for another UID length.
  public func tag(uid: [UInt8]) throws(SimulatorError) -> SimulatedType4Tag {
    try SimulatedType4Tag(uid: uid, applet: .handler { [self] in self.transmit($0) })
  }

  /// Closes the card's connection and the socket, and removes the socket file.
  public func close() {
    let descriptor = connection.withLock {
      let descriptor = $0
      $0 = -1
      return descriptor
    }
    if descriptor >= 0 { Glibc.close(descriptor) }
  }

  deinit {
    close()
    Glibc.close(listener)
    // unsafe: unlink reads the path as a C string the call converts from a live String.
    _ = unsafe unlink(socketPath)
  }

  private static func send(_ payload: [UInt8], over descriptor: Int32) -> Bool {
    let frame =
      [UInt8(truncatingIfNeeded: payload.count >> 8), UInt8(truncatingIfNeeded: payload.count)] + payload
    var sent = 0
    while sent < frame.count {
      // unsafe: write reads count - sent bytes starting inside the array's own buffer.
      let n = unsafe frame.withUnsafeBytes {
        unsafe Glibc.send(descriptor, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_NOSIGNAL))
      }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { return false }
      sent += n
    }
    return true
  }

  private static func receive(_ count: Int, from descriptor: Int32, timeout: Duration) -> [UInt8]? {
    var bytes: [UInt8] = []
    // Whole milliseconds (it truncated to whole seconds before: a 0.5 s wait was 0 ms).
    let milliseconds = Int32(timeout.milliseconds(clampedTo: 0...Int64(Int32.max)))
    while bytes.count < count {
      var ready = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      // unsafe: poll reads/writes one pollfd through a pointer to a live local.
      let polled = unsafe poll(&ready, 1, milliseconds)
      if polled < 0, errno == EINTR { continue }
      guard polled == 1 else { return nil }
      var buffer = [UInt8](repeating: 0, count: count - bytes.count)
      // unsafe: recv writes at most buffer.count bytes into the array's own buffer.
      let n = unsafe buffer.withUnsafeMutableBytes { unsafe recv(descriptor, $0.baseAddress, $0.count, 0) }
      if n < 0, errno == EINTR { continue }
      guard n > 0 else { return nil }
      bytes += buffer.prefix(n)
    }
    return bytes
  }
}
