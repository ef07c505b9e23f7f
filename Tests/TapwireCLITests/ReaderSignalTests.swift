// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import PN532Simulator
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 35: the libnfc commands and `simulate` stopped by SIGINT or SIGTERM, the real
/// process tree (`tapwire` → `tapwire-nfc`) started with default signal dispositions and
/// either process signalled: exit 128 + n within ``DaemonStack/ProcessTree/exitBound``
/// (the time printed), no `tapwire-nfc` left, and the device side checked. The reader is a
/// PN532 simulated in this test process, so what `tapwire-nfc` sent it is known.
@Suite("signals: libnfc and simulate", .serialized, .timeLimit(.minutes(1)))
struct ReaderSignalTests {
  /// PN532 command codes (PN532 User Manual §7): InListPassiveTarget polls for a tag,
  /// RFConfiguration switches the field, PowerDown is what libnfc's close sends last.
  static let inListPassiveTarget: UInt8 = 0x4A
  static let powerDown: UInt8 = 0x16

  /// Waits up to 20 s until `simulator` has received `command`.
  static func waitFor(_ command: UInt8, from simulator: PN532Simulator, after count: Int = 0) throws {
    let deadline = Date().addingTimeInterval(20)
    while !simulator.receivedCommands.dropFirst(count).contains(command) {
      guard Date() < deadline else {
        throw DaemonStackError("the simulated PN532 got no command \(command) within 20 s")
      }
      usleep(10_000)
    }
  }

  /// Signals `tapwire` (or its child) after `tapwire-nfc` started polling the empty field,
  /// and checks the exit and the reader closed: after the signal the PN532 gets PowerDown,
  /// as libnfc's `nfc_close` sends it.
  func stopWhileWaiting(_ arguments: [String], _ number: Int32, toChild: Bool, label: String) throws {
    let simulator = try PN532Simulator()
    defer { simulator.close() }
    let tree = try ProcessTree(
      CLI.executable.path, arguments + ["--device", simulator.connstring, "--timeout", "60"])
    let child = try tree.child()
    try Self.waitFor(Self.inListPassiveTarget, from: simulator)
    let before = simulator.receivedCommands.count
    let exit = try #require(tree.signal(number, to: toChild ? child : nil, label: label))
    #expect(exit.status == 128 + number, "\(tree.output)")
    #expect(exit.seconds < ProcessTree.exitBound)
    #expect(ProcessTree.ends(child, within: 1))
    let after = Array(simulator.receivedCommands.dropFirst(before))
    #expect(after.last == Self.powerDown, "PN532 commands after the signal: \(after)")
  }

  @Test(arguments: [(SIGINT, false), (SIGTERM, false), (SIGINT, true)])
  func readWaitingForATagStops(_ number: Int32, _ toChild: Bool) throws {
    try stopWhileWaiting(["read"], number, toChild: toChild, label: "read (libnfc) waiting for a tag")
  }

  @Test(arguments: [(SIGTERM, false), (SIGTERM, true)])
  func writeWaitingForATagStops(_ number: Int32, _ toChild: Bool) throws {
    try stopWhileWaiting(
      ["write", "--message", "d00000"], number, toChild: toChild, label: "write (libnfc) waiting for a tag")
  }

  /// A signal in the middle of a write lets the write finish (T2T 1.0 §6.4.2's order: the
  /// length 0 first, the body, the length last, so a forced end leaves length 0), then exits
  /// 128 + n: the tag holds the whole new message or an NDEF TLV of length 0, never a part.
  @Test func aSignalMidWriteLeavesTheMessageWholeOrEmpty() throws {
    let uid: [UInt8] = [0x04, 0x54, 0x57, 0x01, 0x02, 0x03, 0x04]
    // An empty NDEF record in the NDEF TLV (03 03 D0 00 00), then the terminator.
    let tag = try SimulatedType2Tag(
      product: .ntag215, uid: uid, tlvArea: [0x03, 0x03, 0xD0, 0x00, 0x00, 0xFE])
    let simulator = try PN532Simulator(tag: .type2(tag))
    defer { simulator.close() }
    // One Text record (SR=0) of 400 bytes of text: 100 pages to write.
    let text = [UInt8](repeating: 0x61, count: 400)
    let payload = [0x02, 0x65, 0x6E] + text
    let length = payload.count
    let message: [UInt8] =
      [0xC1, 0x01, 0x00, 0x00, UInt8(length >> 8), UInt8(length & 0xFF), 0x54] + payload
    let hex = message.map { String(format: "%02x", $0) }.joined()
    let tree = try ProcessTree(
      CLI.executable.path,
      ["write", "--device", simulator.connstring, "--timeout", "30", "--message", hex])
    let child = try tree.child()
    // The first write: the TLV's length set to 0 (page 4, byte 1).
    let deadline = Date().addingTimeInterval(20)
    func memory() -> [UInt8] {
      if case .type2(let t) = simulator.tag { return t.memory }
      return []
    }
    while memory().count > 17, memory()[17] != 0x00 {
      try #require(Date() < deadline, "no write began: \(tree.output)")
      usleep(500)
    }
    let exit = try #require(tree.signal(SIGINT, label: "write (libnfc) mid-write"))
    #expect(exit.status == 130, "\(tree.output)")
    #expect(exit.seconds < ProcessTree.exitBound)
    #expect(ProcessTree.ends(child, within: 1))
    let image = memory()
    #expect(image[16] == 0x03)
    if image[17] == 0x00 {
      print("mid-write: the tag holds an NDEF TLV of length 0")
    } else {
      #expect(Array(image[17..<20]) == [0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)])
      #expect(Array(image[20..<(20 + message.count)]) == message)
      print("mid-write: the write finished; the tag holds the whole new message")
    }
  }

  /// `simulate` serves until its input closes; a signal closes the simulator (its
  /// pseudo-terminal goes away) and exits 128 + n.
  @Test(arguments: [(SIGINT, false), (SIGTERM, false), (SIGTERM, true)])
  func simulateStops(_ number: Int32, _ toChild: Bool) throws {
    let tree = try ProcessTree(CLI.executable.path, ["simulate"], keepInputOpen: true)
    defer { try? tree.input?.fileHandleForWriting.close() }
    try tree.waitFor("pn532_uart:")
    let device = try #require(tree.output.split(separator: "\n").first { $0.hasPrefix("/dev/pts/") })
    let child = try tree.child()
    #expect(FileManager.default.fileExists(atPath: String(device)))
    let exit = try #require(tree.signal(number, to: toChild ? child : nil, label: "simulate"))
    #expect(exit.status == 128 + number, "\(tree.output)")
    #expect(exit.seconds < ProcessTree.exitBound)
    // The pseudo-terminal closes with the simulator process. Its path is not checked: the
    // kernel hands the same /dev/pts number to a test running in parallel at once (CI saw
    // /dev/pts/5 again right after this simulator ended).
    #expect(ProcessTree.ends(child, within: 1))
  }
}
