// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// A card that behaves like a GlobalPlatform card as far as the transport layer sees it
/// (ISO/IEC 7816-4 §5.1.3, §5.3.3): every final command with an answer answers `61XX` and
/// hands the data out through GET RESPONSE, and command chaining (CLA bit b5, 0x10) is
/// collected until the last block.
///
/// Answers: SELECT gives an FCI (`6F L 84 L AID`); GET DATA with P1-P2 `00FE` gives 300
/// bytes `00 01 02 ...` (two GET RESPONSE rounds); any other final command gives four bytes:
/// the number of blocks in its chain, the total data length (2 bytes, big-endian) and the
/// XOR of all its data bytes.
struct GlobalPlatformLikeCard {
  /// With card content management (`insert gp-cm`): see ``CardContent``.
  var content: CardContent?
  private var pending: [UInt8] = []
  private var chain: [UInt8] = []
  private var chainBlocks = 0

  /// GET RESPONSE, ISO/IEC 7816-4 §7.6.1.
  static let getResponse: UInt8 = 0xC0
  /// SELECT, §7.1.1.
  static let select: UInt8 = 0xA4
  /// GET DATA, §7.4.2.
  static let getData: UInt8 = 0xCA
  /// The chaining bit of an interindustry or GlobalPlatform class byte (§5.1.1).
  static let chainingBit: UInt8 = 0x10

  /// Forgets pending data and a half-received chain (a reset).
  mutating func reset() {
    pending = []
    chain = []
    chainBlocks = 0
  }

  /// The response APDU to `bytes`.
  mutating func respond(to bytes: [UInt8]) -> [UInt8] {
    guard let command = try? CommandAPDU(parsing: bytes) else { return [0x67, 0x00] }
    let ins = command.ins.rawValue
    if ins == Self.getResponse {
      guard !pending.isEmpty else { return [0x69, 0x85] }
      let count = min(command.ne ?? 256, pending.count)
      let out = Array(pending.prefix(count))
      pending.removeFirst(count)
      return out + status(remaining: pending.count)
    }
    pending = []
    if command.cla.rawValue & Self.chainingBit != 0 {
      chain += command.data
      chainBlocks += 1
      return [0x90, 0x00]
    }
    let data = chain + command.data
    let blocks = chainBlocks + 1
    chain = []
    chainBlocks = 0
    if var managed = content, let answer = managed.respond(to: command, data: data) {
      content = managed
      pending = answer.data
      return answer.data.isEmpty ? answer.status : status(remaining: pending.count)
    }
    switch ins {
    case Self.select:
      pending =
        [0x6F, UInt8(truncatingIfNeeded: data.count + 2), 0x84, UInt8(truncatingIfNeeded: data.count)] + data
    case Self.getData where command.p1 == 0x00 && command.p2 == 0xFE:
      pending = (0..<300).map { UInt8(truncatingIfNeeded: $0) }
    default:
      pending = [
        UInt8(truncatingIfNeeded: blocks), UInt8(truncatingIfNeeded: data.count >> 8),
        UInt8(truncatingIfNeeded: data.count), data.reduce(0, ^),
      ]
    }
    return status(remaining: pending.count)
  }

  /// `61XX` with XX the bytes still available (00 for 256 or more), or `9000` for none.
  private func status(remaining: Int) -> [UInt8] {
    remaining == 0 ? [0x90, 0x00] : [0x61, UInt8(truncatingIfNeeded: min(remaining, 256))]
  }
}
