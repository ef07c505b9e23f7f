// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// A card simulated in memory: assembles chains, answers through a handler, and can split
/// responses with 61XX (T=0 style), insist on an exact Le with 6CXX, or misbehave.
struct SimulatedCard: APDUTransport {
  typealias Failure = Never

  /// Every command received, as bytes.
  var received: [[UInt8]] = []
  /// The logical commands the handler saw (chains assembled).
  var handled: [CommandAPDU] = []
  /// Answers an assembled command.
  var handler: (CommandAPDU) -> ResponseAPDU
  /// When set, response data is not returned directly: the card answers 61XX and hands out
  /// at most this many bytes per GET RESPONSE.
  var getResponseChunk: Int? = nil
  /// When true, a command whose Ne differs from the response length gets 6CXX.
  var requiresExactLe = false
  /// When set, every answer is this status word (a misbehaving card).
  var stuckStatusWord: StatusWord? = nil

  private var chain: [UInt8] = []
  private var pending: [UInt8] = []
  private var pendingStatus = StatusWord.success

  init(handler: @escaping (CommandAPDU) -> ResponseAPDU) { self.handler = handler }

  mutating func transmit(_ command: [UInt8]) async -> [UInt8] { process(command) }

  mutating func process(_ bytes: [UInt8]) -> [UInt8] {
    received.append(bytes)
    if let stuck = stuckStatusWord { return ResponseAPDU(statusWord: stuck).encodedBytes() }
    guard let command = try? CommandAPDU(parsing: bytes) else {
      return ResponseAPDU(statusWord: .wrongLength).encodedBytes()
    }
    if command.ins == .getResponse && command.cla.isInterindustry && !pending.isEmpty {
      let count = min(command.ne ?? 256, pending.count, getResponseChunk ?? 256)
      let part = Array(pending[0..<count])
      pending.removeFirst(count)
      let sw = pending.isEmpty ? pendingStatus : StatusWord.bytesAvailable(min(pending.count, 256))
      return ResponseAPDU(data: part, statusWord: sw).encodedBytes()
    }
    if command.cla.isChaining {
      chain += command.data
      return ResponseAPDU(statusWord: .success).encodedBytes()
    }
    var assembled = command
    assembled.data = chain + command.data
    assembled.cla = command.cla.withChaining(false)
    chain = []
    let response = handler(assembled)
    if requiresExactLe, !response.data.isEmpty, command.ne != response.data.count {
      return ResponseAPDU(statusWord: .wrongLe(exact: response.data.count)).encodedBytes()
    }
    handled.append(assembled)
    if getResponseChunk != nil, !response.data.isEmpty {
      pending = response.data
      pendingStatus = response.statusWord
      return ResponseAPDU(statusWord: .bytesAvailable(min(pending.count, 256))).encodedBytes()
    }
    return response.encodedBytes()
  }
}

/// Response data of `count` bytes counting up from zero.
func counting(_ count: Int) -> [UInt8] { (0..<count).map { UInt8(truncatingIfNeeded: $0) } }

/// The simulated card behind the synchronous transport protocol.
struct BlockingCard: BlockingAPDUTransport {
  var card: SimulatedCard
  mutating func transmit(_ command: [UInt8]) -> [UInt8] { card.process(command) }
}
