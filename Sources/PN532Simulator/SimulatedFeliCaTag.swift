// SPDX-License-Identifier: Apache-2.0
/// A FeliCa tag formatted as an NFC Forum Type 3 tag: polling (system code 12FC), and
/// Check (0x06) / Update (0x08) without encryption on the NDEF services 000B (read) and
/// 0009 (write) (NFC Forum T3T 1.0 sections 5 and 6; JIS X 6319-4 commands).
public struct SimulatedFeliCaTag: Sendable, Hashable {
  /// The 8-byte manufacture ID (IDm), the UID.
  public var idm: [UInt8]
  /// The 8-byte manufacture parameter (PMm).
  public var pmm: [UInt8] = [0x03, 0x01, 0x4B, 0x02, 0x4F, 0x49, 0x93, 0xFF]
  /// The system code (NFC Forum: 12FC).
  public var systemCode: [UInt8] = [0x12, 0xFC]
  /// The blocks of 16 bytes; block 0 is the attribute information block.
  public var blocks: [[UInt8]]

  /// A tag holding `message` after an attribute information block (version 1.0, Nbr 4,
  /// Nbw 1, `blockCount` data blocks, read/write, checksum over bytes 0-13).
  public init(idm: [UInt8], message: [UInt8] = [], blockCount: Int = 13) throws(SimulatorError) {
    guard idm.count == 8 else { throw SimulatorError(.invalidTag, "IDm has 8 bytes, got \(idm.count)") }
    guard message.count <= blockCount * 16, blockCount < 0xFFFF else {
      throw SimulatorError(.invalidTag, "\(message.count) bytes do not fit in \(blockCount) blocks")
    }
    self.idm = idm
    var attribute: [UInt8] = [
      0x10, 0x04, 0x01, UInt8(blockCount >> 8), UInt8(truncatingIfNeeded: blockCount),
    ]
    attribute += [0, 0, 0, 0, 0x00, 0x01]
    attribute += [
      UInt8(message.count >> 16), UInt8(truncatingIfNeeded: message.count >> 8),
      UInt8(truncatingIfNeeded: message.count),
    ]
    let sum = attribute.reduce(0) { $0 + Int($1) }
    attribute += [UInt8(truncatingIfNeeded: sum >> 8), UInt8(truncatingIfNeeded: sum)]
    var data = message + [UInt8](repeating: 0, count: blockCount * 16 - message.count)
    var blocks = [attribute]
    while !data.isEmpty {
      blocks.append(Array(data.prefix(16)))
      data.removeFirst(16)
    }
    self.blocks = blocks
  }

  /// A tag from a memory image: the attribute information block and the data blocks, a
  /// whole number (2 or more) of 16-byte blocks, as `tapwire read --dump` prints it.
  public init(idm: [UInt8], memory: [UInt8]) throws(SimulatorError) {
    guard idm.count == 8 else { throw SimulatorError(.invalidTag, "IDm has 8 bytes, got \(idm.count)") }
    guard memory.count >= 32, memory.count % 16 == 0, memory.count <= 0x1_0000 * 16 else {
      throw SimulatorError(.invalidTag, "a Type 3 image is 2 or more blocks of 16 bytes, got \(memory.count)")
    }
    self.idm = idm
    self.blocks = stride(from: 0, to: memory.count, by: 16).map { Array(memory[$0..<($0 + 16)]) }
  }

  /// The memory image: every block in order, from the attribute information block.
  public var memory: [UInt8] { blocks.flatMap { $0 } }

  /// Whether a polling request for `systemCode` (FFFF = any) selects this tag.
  func answersPolling(_ requested: [UInt8]) -> Bool {
    requested.count < 2 || requested == [0xFF, 0xFF] || requested == systemCode
  }

  /// Answers a FeliCa frame (LEN CMD IDm ...) with a frame (LEN CMD+1 IDm ...); nil = silence.
  public mutating func answer(_ frame: [UInt8]) -> [UInt8]? {
    guard frame.count >= 10, Int(frame[0]) == frame.count, Array(frame[2..<10]) == idm else { return nil }
    let command = frame[1]
    guard command == 0x06 || command == 0x08, frame.count >= 13 else { return nil }
    let services = Int(frame[10])
    var index = 11 + services * 2
    guard services >= 1, index < frame.count else { return nil }
    let service = UInt16(frame[11]) | UInt16(frame[12]) << 8
    let count = Int(frame[index])
    index += 1
    var numbers: [Int] = []
    for _ in 0..<count {
      guard index < frame.count else { return nil }
      if frame[index] & 0x80 != 0 {
        guard index + 1 < frame.count else { return nil }
        numbers.append(Int(frame[index + 1]))
        index += 2
      } else {
        guard index + 2 < frame.count else { return nil }
        numbers.append(Int(frame[index + 1]) | Int(frame[index + 2]) << 8)  // 3 bytes: `00 lo hi`
        index += 3
      }
    }
    func reply(_ status: [UInt8], _ data: [UInt8] = []) -> [UInt8] {
      let body = [command + 1] + idm + status + data
      return [UInt8(body.count + 1)] + body
    }
    guard numbers.allSatisfy({ $0 < blocks.count }) else { return reply([0x01, 0xA8]) }
    if command == 0x06 {
      guard service == 0x000B || service == 0x0009 else { return reply([0x01, 0xA6]) }
      return reply([0x00, 0x00], [UInt8(count)] + numbers.flatMap { blocks[$0] })
    }
    guard service == 0x0009 else { return reply([0x01, 0xA6]) }
    guard frame.count - index == count * 16 else { return reply([0x01, 0xA2]) }
    for (i, number) in numbers.enumerated() {
      blocks[number] = Array(frame[(index + i * 16)..<(index + i * 16 + 16)])
    }
    return reply([0x00, 0x00])
  }
}
