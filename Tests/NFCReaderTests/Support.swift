// SPDX-License-Identifier: Apache-2.0
import NFCReader
import NFCReaderLibNFC
import PN532Simulator
import Synchronization

/// UIDs used across the tests.
enum Fixture {
  static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x80]
  static let otherUID: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]
  /// An NDEF message: one short text record "hi" (NDEF 1.0 / RTD Text).
  static let textMessage: [UInt8] = [0xD1, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x69]

  static func type2(_ product: Type2Product = .ntag213, uid: [UInt8] = Fixture.uid) throws -> SimulatedTag {
    .type2(
      try SimulatedType2Tag(
        product: product, uid: uid, tlvArea: [0x03, UInt8(textMessage.count)] + textMessage + [0xFE]))
  }

  static func type4(message: [UInt8] = Fixture.textMessage) throws -> SimulatedTag {
    .type4(
      try SimulatedType4Tag(
        uid: [0x08, 0x12, 0x34, 0x56], applet: .fileSystem(.ndef(message: message, capacity: 256))))
  }

  /// The memory image of the simulator's current Type 2 tag, as READ shows it (PWD and
  /// PACK read as zeros).
  static func memory(_ simulator: PN532Simulator) -> [UInt8]? {
    if case .type2(let tag)? = simulator.tag { return tag.readableMemory }
    return nil
  }
}

/// Collects every event of a session (sessions in tests always have short timeouts, so the
/// stream always ends).
func collect<T: Sendable, O: Sendable>(_ events: AsyncStream<SessionEvent<T, O>>) async -> [SessionEvent<
  T, O
>] {
  var all: [SessionEvent<T, O>] = []
  for await event in events { all.append(event) }
  return all
}

/// The ending carried by the last event, if the last event is an ending.
func endingOf<T, O>(_ events: [SessionEvent<T, O>]) -> SessionEnding? {
  if case .ended(let ending, _)? = events.last { return ending }
  return nil
}

/// Short names of the events, for order checks.
func names<T, O>(_ events: [SessionEvent<T, O>]) -> [String] {
  events.map {
    switch $0 {
    case .queued: "queued"
    case .began: "began"
    case .tagDetected: "tagDetected"
    case .tagRead: "tagRead"
    case .readFailed: "readFailed"
    case .ended(let ending, _): "ended:" + ending.name
    }
  }
}

/// Waits until `condition` holds, checking every 10 ms, for at most `limit`.
func waitUntil(_ limit: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: limit)
  while clock.now < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(10))
  }
  return condition()
}

/// A lock-protected value shared between tasks in a test.
final class Shared<Value: Sendable>: Sendable {
  private let storage: Mutex<Value>
  init(_ value: Value) { storage = Mutex(value) }
  var value: Value { storage.withLock { $0 } }
  func update(_ body: (inout Value) -> Void) { storage.withLock { body(&$0) } }
}

/// The value of the first NDEF Message TLV (type 0x03) in a Type 2 memory image, found the
/// minimal way (NFC Forum T2T 1.0 section 2.3): from page 4, skip NULL TLVs, step over
/// other TLVs by their 1- or 3-byte length, stop at the terminator. For tests only: the
/// NDEF and tag-layout modules do this properly.
func ndefMessage(inType2Memory memory: [UInt8]) -> [UInt8]? {
  var index = 16
  while index < memory.count {
    let type = memory[index]
    if type == 0x00 {
      index += 1
      continue
    }
    if type == 0xFE { return nil }
    guard index + 1 < memory.count else { return nil }
    var length = Int(memory[index + 1])
    var valueStart = index + 2
    if length == 0xFF {
      guard index + 3 < memory.count else { return nil }
      length = Int(memory[index + 2]) << 8 | Int(memory[index + 3])
      valueStart = index + 4
    }
    guard valueStart + length <= memory.count else { return nil }
    if type == 0x03 { return Array(memory[valueStart..<(valueStart + length)]) }
    index = valueStart + length
  }
  return nil
}
