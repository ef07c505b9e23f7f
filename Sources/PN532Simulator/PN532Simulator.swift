// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

/// A PN532 reader (firmware 1.6) on a pseudo-terminal, answering the frames libnfc 1.8's
/// `pn532_uart` driver sends, with one simulated tag at a time in its field.
///
/// Point libnfc at ``connstring`` (or `LIBNFC_DEVICE=pn532_uart:<devicePath>`). Closing the
/// simulator (``close()``, or releasing the last reference) closes the terminal: for the
/// host the device is gone (I/O errors).
public final class PN532Simulator: Sendable {
  /// The pseudo-terminal's slave path, such as `/dev/pts/3`.
  public let devicePath: String
  private let state: Mutex<State>
  private let stopped = DispatchSemaphore(value: 0)

  struct State {
    var tag: SimulatedTag?
    var removedTag: SimulatedTag?
    var activated = false
    var registers: [UInt16: UInt8] = [0x6302: 0x80, 0x6303: 0x80]
    var faults: [SimulatorFault] = []
    var silent = false
    var refused: Set<UInt8> = []
    var pendingChain: [UInt8] = []
    var closing = false
    var closed = false
    var lastAnswer: [UInt8] = []
    var commands: [UInt8] = []
    /// How many of each command code arrived, never trimmed.
    var commandCounts: [UInt8: Int] = [:]
  }

  /// The libnfc connection string, `pn532_uart:<devicePath>`.
  public var connstring: String { "pn532_uart:" + devicePath }

  /// Opens a pseudo-terminal and starts answering on it, with `tag` in the field.
  public init(tag: SimulatedTag? = nil) throws(SimulatorError) {
    let terminal = try PseudoTerminal()
    devicePath = terminal.path
    var initial = State()
    initial.tag = tag
    state = Mutex(initial)
    let queue = DispatchQueue(label: "PN532Simulator \(terminal.path)")
    queue.async { [weak self] in PN532Simulator.serve(terminal) { [weak self] in self } }
  }

  deinit {
    state.withLock { $0.closing = true }
  }

  // MARK: Field and faults

  /// Puts `tag` in the field (replacing any tag there).
  public func present(_ tag: SimulatedTag) {
    state.withLock {
      $0.tag = tag
      $0.removedTag = nil
      $0.activated = false
    }
  }

  /// Takes the tag out of the field; ``representTag()`` puts the same tag (with its
  /// memory as written) back.
  public func removeTag() {
    state.withLock {
      if let tag = $0.tag { $0.removedTag = tag }
      $0.tag = nil
      $0.activated = false
    }
  }

  /// Puts the last removed tag back into the field.
  public func representTag() {
    state.withLock {
      if let tag = $0.removedTag { $0.tag = tag }
      $0.removedTag = nil
      $0.activated = false
    }
  }

  /// The tag in the field, or the one last removed, with its current memory.
  public var tag: SimulatedTag? { state.withLock { $0.tag ?? $0.removedTag } }

  /// Whether a tag is in the field.
  public var tagInField: Bool { state.withLock { $0.tag != nil } }

  /// Adds a fault; faults apply in the order injected.
  public func inject(_ fault: SimulatorFault) {
    state.withLock {
      switch fault {
      case .silentDevice: $0.silent = true
      case .refuse(let command): $0.refused.insert(command)
      default: $0.faults.append(fault)
      }
    }
  }

  /// The command codes received so far, in order (the last 4096 at most; for tests).
  public var receivedCommands: [UInt8] { state.withLock { $0.commands } }

  /// How many commands with code `command` (PN532 user manual §7: `4A` InListPassiveTarget,
  /// `40` InDataExchange, `42` InCommunicateThru...) arrived so far.
  public func receivedCount(of command: UInt8) -> Int { state.withLock { $0.commandCounts[command] ?? 0 } }

  /// Waits until `count` commands with code `command` have arrived in all (the event that
  /// proves the host reached a step: polling, or waiting on a tag that will not answer), or
  /// until `limit` has passed; whether they arrived. Checks every millisecond.
  public func waitUntilReceived(_ command: UInt8, count: Int, within limit: Duration = .seconds(10)) async
    -> Bool
  {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while receivedCount(of: command) < count {
      guard clock.now < deadline, !Task.isCancelled else { return false }
      try? await Task.sleep(for: .milliseconds(1))
    }
    return true
  }

  /// The value of a PN532 register as written by the host (defaults: CIU_TxMode and
  /// CIU_RxMode have CRC enabled).
  public func register(_ address: UInt16) -> UInt8 { state.withLock { $0.registers[address] ?? 0 } }

  /// Whether the simulator has stopped serving.
  public var isClosed: Bool { state.withLock { $0.closed } }

  /// Closes the device: the terminal goes away and the host sees I/O errors. Waits up to
  /// one second for the serving thread to stop.
  public func close() {
    let wasClosed = state.withLock {
      let closed = $0.closing
      $0.closing = true
      return closed
    }
    if !wasClosed { _ = stopped.wait(timeout: .now() + .seconds(1)) }
  }

  // MARK: Serving

  /// The serving loop: holds the simulator weakly, so releasing it also closes the device.
  private static func serve(_ terminal: PseudoTerminal, _ owner: @escaping @Sendable () -> PN532Simulator?) {
    var buffer: [UInt8] = []
    while let bytes = terminal.read(waitingAtMost: 20) {
      guard let simulator = owner(), !simulator.state.withLock({ $0.closing }) else { break }
      buffer += bytes
      while let frame = PN532Frame.next(from: &buffer) {
        for output in simulator.state.withLock({ $0.respond(to: frame) }) { terminal.write(output) }
      }
    }
    terminal.shutdown()
    if let simulator = owner() {
      simulator.state.withLock { $0.closed = true }
      simulator.stopped.signal()
    }
  }
}

extension PN532Simulator.State {
  /// The byte strings to write for one frame (ACK, then the answer), in order.
  mutating func respond(to frame: PN532Frame) -> [[UInt8]] {
    if silent || closing { return [] }
    switch frame {
    case .ack:
      return []
    case .nack:
      return lastAnswer.isEmpty ? [] : [lastAnswer]
    case .command(let command):
      if commands.count >= 4096 { commands.removeFirst(1024) }
      commands.append(command[0])
      commandCounts[command[0], default: 0] += 1
      if refused.contains(command[0]) { return [PN532Frame.ackBytes, PN532Frame.errorBytes] }
      guard let payload = answer(command) else { return [PN532Frame.ackBytes] }
      let bytes = payload.isEmpty ? PN532Frame.errorBytes : PN532Frame.answer(payload)
      lastAnswer = bytes
      return [PN532Frame.ackBytes, bytes]
    }
  }

  /// The answer payload (code + 1 and data), empty for the syntax-error frame, nil for
  /// no answer at all.
  mutating func answer(_ command: [UInt8]) -> [UInt8]? {
    let code = command[0]
    let params = Array(command.dropFirst())
    switch code {
    case 0x00:  // Diagnose: echo the test number and data; 0x06 = card presence
      if params.first == 0x06 { return [0x01, tag != nil && activated ? 0x00 : 0x01] }
      return [0x01] + params
    case 0x02:  // GetFirmwareVersion: PN532, v1.6, ISO18092 + 14443B + 14443A
      return [0x03, 0x32, 0x01, 0x06, 0x07]
    case 0x04:  // GetGeneralStatus
      return [0x05, 0x00, 0x00, activated ? 0x01 : 0x00] + (activated ? [0x01, 0x00, 0x00, 0x10] : []) + [
        0x00
      ]
    case 0x06:  // ReadRegister: one byte per 16-bit address
      var values: [UInt8] = [0x07]
      var i = 0
      while i + 1 < params.count {
        values.append(registers[UInt16(params[i]) << 8 | UInt16(params[i + 1])] ?? 0)
        i += 2
      }
      return values
    case 0x08:  // WriteRegister: (addrH addrL value) triples
      var i = 0
      while i + 2 < params.count {
        registers[UInt16(params[i]) << 8 | UInt16(params[i + 1])] = params[i + 2]
        i += 3
      }
      return [0x09]
    case 0x0C:  // ReadGPIO
      return [0x0D, 0xFF, 0xFF, 0x00]
    case 0x0E:  // WriteGPIO
      return [0x0F]
    case 0x12:  // SetParameters
      return [0x13]
    case 0x14:  // SAMConfiguration
      return [0x15]
    case 0x16:  // PowerDown
      deactivate()
      return [0x17, 0x00]
    case 0x32:  // RFConfiguration
      return [0x33]
    case 0x4A:  // InListPassiveTarget MaxTg BrTy [initiator data]
      guard params.count >= 2 else { return [] }
      return [0x4B] + listTarget(bitRate: params[1], initiatorData: Array(params.dropFirst(2)))
    case 0x60:  // InAutoPoll PollNr Period Type...
      let types = params.dropFirst(2)
      guard let tag, isTypeA, types.contains(where: { $0 == 0x10 || $0 == 0x00 || ($0 == 0x20 && isISODEP) })
      else {
        return [0x61, 0x00]
      }
      activated = true
      let data = tag.targetData
      return [0x61, 0x01, isISODEP && types.contains(0x20) ? 0x20 : 0x10, UInt8(data.count)] + data
    case 0x40:  // InDataExchange Tg data
      guard params.count >= 1 else { return [] }
      return exchange(Array(params.dropFirst()), raw: false).map { [0x41] + $0 }
    case 0x42:  // InCommunicateThru data
      return exchange(params, raw: true).map { [0x43] + $0 }
    case 0x44, 0x52:  // InDeselect, InRelease
      deactivate()
      return [code + 1, 0x00]
    case 0x50:  // InSelect
      return [0x51, tag != nil ? 0x00 : 0x27]
    default:
      return []
    }
  }

  var isISODEP: Bool {
    if case .type4 = tag { return true }
    return false
  }

  var isTypeA: Bool {
    switch tag {
    case .type2, .type4, .mifareClassic: true
    default: false
    }
  }

  /// Target data for InListPassiveTarget: `NbTg [data]`.
  mutating func listTarget(bitRate: UInt8, initiatorData: [UInt8]) -> [UInt8] {
    guard let tag, let data = tag.targetData(bitRate: bitRate) else { return [0x00] }
    if case .felica(let felica) = tag, initiatorData.count >= 3,
      !felica.answersPolling(Array(initiatorData[1..<3]))
    {
      return [0x00]
    }
    if bitRate == 0x00 && !initiatorData.isEmpty {
      // A select by UID: the UID is given with cascade tags (0x88) in front of each level.
      var uid: [UInt8] = []
      var rest = initiatorData[...]
      while !rest.isEmpty {
        if rest.count > 4 && rest.first == 0x88 {
          uid += rest.dropFirst().prefix(3)
          rest = rest.dropFirst(4)
        } else {
          uid += rest
          rest = []
        }
      }
      guard uid == tag.uid else { return [0x00] }
    }
    deactivate()  // a new selection starts without authentication
    activated = true
    return [0x01] + data
  }

  /// One exchange with the activated tag; nil = no answer at all; otherwise the status
  /// byte and the answer bytes.
  mutating func exchange(_ data: [UInt8], raw: Bool) -> [UInt8]? {
    if let index = faults.firstIndex(where: { if case .noAnswer = $0 { true } else { false } }),
      case .noAnswer(let count) = faults[index]
    {
      if count <= 1 { faults.remove(at: index) } else { faults[index] = .noAnswer(count: count - 1) }
      return nil
    }
    guard let current = tag, activated else { return [0x01] }
    if let index = faults.firstIndex(where: { if case .tagLeaves = $0 { true } else { false } }),
      case .tagLeaves(let after) = faults[index]
    {
      if after <= 0 {
        faults.remove(at: index)
        removedTag = current
        tag = nil
        activated = false
        return [0x01]
      }
      faults[index] = .tagLeaves(afterExchanges: after - 1)
    }
    switch current {
    case .type2(var type2):
      var command = data
      if raw {
        if registers[0x633D, default: 0] & 0x07 != 0 { return [0x01] }  // short frames: no tag answer here
        if registers[0x6302, default: 0x80] & 0x80 == 0 {
          // The host appended CRC_A itself; a wrong one is ignored by the tag.
          guard command.count >= 3, crcA(command.dropLast(2)) == Array(command.suffix(2)) else {
            return [0x01]
          }
          command.removeLast(2)
        }
      }
      let answer = type2.answer(command)
      if answer == nil { type2.halt() }  // a NAK sends the tag back to IDLE
      tag = .type2(type2)  // kept on a NAK too: a wrong PWD_AUTH counts against AUTHLIM
      guard var response = answer else {
        activated = false
        return [0x01]
      }
      if raw && registers[0x6303, default: 0x80] & 0x80 == 0 && !response.isEmpty {
        response += crcA(response)
      }
      return [0x00] + response
    case .mifareClassic(var card):
      // Not ISO-DEP and no raw frames here: RATS and the like get no answer, and the card
      // goes back to IDLE (ISO/IEC 14443-3 §6.4: an unexpected frame).
      guard !raw else {
        card.card.halt()
        tag = .mifareClassic(card)
        activated = false
        return [SimulatedMifareClassicTag.timeoutError]
      }
      let (answer, halts) = card.exchange(data)
      tag = .mifareClassic(card)
      if halts { activated = false }
      return answer
    case .jewel(var jewel):
      guard !raw, let response = jewel.answer(data) else { return [0x01] }
      tag = .jewel(jewel)
      return [0x00] + response
    case .felica(var felica):
      guard let response = felica.answer(data) else { return [0x01] }
      tag = .felica(felica)
      return [0x00] + response
    case .type4(var type4), .type4B(var type4):
      guard !raw else { return [0x01] }  // ISO-DEP blocks are not simulated on the raw path
      if data.isEmpty && !pendingChain.isEmpty { return nextChainPart() }
      pendingChain = []
      if let index = faults.firstIndex(where: { if case .statusWord = $0 { true } else { false } }),
        case .statusWord(let word, let count) = faults[index]
      {
        if count <= 1 {
          faults.remove(at: index)
        } else {
          faults[index] = .statusWord(word, count: count - 1)
        }
        return [0x00, UInt8(word >> 8), UInt8(truncatingIfNeeded: word)]
      }
      let response = type4.answer(data)
      if case .type4B = current { tag = .type4B(type4) } else { tag = .type4(type4) }
      pendingChain = response
      return nextChainPart()
    }
  }

  /// Deselects the tag: a MIFARE Classic card and a Type 2 tag forget their authentication.
  mutating func deactivate() {
    activated = false
    if case .mifareClassic(var card) = tag {
      card.card.halt()
      tag = .mifareClassic(card)
    }
    if case .type2(var type2) = tag {
      type2.halt()
      tag = .type2(type2)
    }
  }

  /// The PN532 hands long ISO-DEP answers over in parts: status bit 0x40 (MI) says more
  /// follows, fetched by an InDataExchange without data (user manual 7.3.8).
  mutating func nextChainPart() -> [UInt8] {
    let part = Array(pendingChain.prefix(Self.chainPart))
    pendingChain.removeFirst(part.count)
    return [pendingChain.isEmpty ? 0x00 : 0x40] + part
  }

  /// The largest answer part the simulated PN532 sends in one frame.
  static let chainPart = 252
}
