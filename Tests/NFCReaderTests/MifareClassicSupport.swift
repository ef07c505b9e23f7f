// SPDX-License-Identifier: Apache-2.0
import MifareClassicNDEF
import NFCReader
import NFCTags
import PN532Simulator
import Synchronization

/// Cards and keys for the MIFARE Classic tests.
enum ClassicFixture {
  static let uid: [UInt8] = [0x4D, 0x46, 0x43, 0x31]
  /// A key B of the tests' own (never printed; tests check it is not).
  static let keyB = MifareClassicKey(bytes: [0x5A, 0x17, 0xE9, 0x0C, 0x33, 0x81])!
  /// Its hex, as a user would type it, to look for in outputs.
  static let keyBHex = "5a17e90c3381"

  static func blank(_ product: MifareClassicProduct) throws -> SimulatedMifareClassicTag {
    try SimulatedMifareClassicTag(product: product, uid: uid)
  }

  /// The block `block` of a memory image.
  static func block(_ memory: [UInt8], _ block: Int) -> [UInt8] {
    Array(memory[(block * 16)..<((block + 1) * 16)])
  }

  /// The bytes of the NFC sectors' data blocks of a card formatted by Tapwire, in order.
  static func tlvArea(_ memory: [UInt8], sectors: [Int]) -> [UInt8] {
    sectors.flatMap { sector -> [UInt8] in
      let first = MifareClassicCardModel.firstBlock(ofSector: sector)
      let count = MifareClassicCardModel.blockCount(inSector: sector) - 1
      return Array(memory[(first * 16)..<((first + count) * 16)])
    }
  }

  /// The NFC sectors Tapwire's formatter assigns on a card of `sectorCount` sectors.
  static func nfcSectors(_ sectorCount: Int) -> [Int] { (1..<sectorCount).filter { $0 != 16 } }

  /// The message of an NDEF TLV at the start of a TLV area (`03 L ...` or `03 FF hi lo ...`),
  /// nil when the area does not start with one.
  static func message(inArea area: [UInt8]) -> [UInt8]? {
    guard area.count >= 2, area[0] == 0x03 else { return nil }
    if area[1] == 0xFF {
      let length = Int(area[2]) << 8 | Int(area[3])
      return Array(area[4..<(4 + length)])
    }
    return Array(area[2..<(2 + Int(area[1]))])
  }
}

/// A transport straight over the simulator's card model (no libnfc): records every
/// operation and can drop the card after a number of writes (a tear).
final class ModelTransport: MifareClassicBlockTransport {
  enum Operation: Equatable {
    case authenticate(block: Int, slot: String, accepted: Bool)
    case read(Int)
    case write(Int)
    case reselect
  }

  private struct State {
    var card: MifareClassicCardModel
    var selected = true
    var operations: [Operation] = []
    var writesLeft: Int?
  }
  private let state: Mutex<State>

  init(_ tag: SimulatedMifareClassicTag, writesBeforeTear: Int? = nil) {
    state = Mutex(State(card: tag.card, writesLeft: writesBeforeTear))
  }

  var card: MifareClassicCardModel { state.withLock { $0.card } }
  var operations: [Operation] { state.withLock { $0.operations } }

  func authenticate(block: Int, slot: MifareClassicKeySlot, key: MifareClassicKey) async throws(ReaderError)
    -> Bool
  {
    try state.withLock { (s: inout State) throws(ReaderError) -> Bool in
      guard s.selected else { throw ReaderError(.timeout, "halted card") }
      let outcome = s.card.authenticate(block: block, slot: slot == .a ? .a : .b, key: key.bytes)
      let accepted = outcome == .done([])
      s.operations.append(.authenticate(block: block, slot: slot.name, accepted: accepted))
      if !accepted { s.selected = false }
      return accepted
    }
  }

  func readBlock(_ block: Int) async throws(ReaderError) -> [UInt8] {
    try state.withLock { (s: inout State) throws(ReaderError) -> [UInt8] in
      guard s.selected else { throw ReaderError(.timeout, "halted card") }
      s.operations.append(.read(block))
      guard case .done(let bytes) = s.card.read(block: block) else {
        s.selected = false
        throw ReaderError(.tagError, "NAK")
      }
      return bytes
    }
  }

  func writeBlock(_ block: Int, _ bytes: [UInt8]) async throws(ReaderError) {
    try state.withLock { (s: inout State) throws(ReaderError) in
      guard s.selected else { throw ReaderError(.timeout, "halted card") }
      if let left = s.writesLeft {
        guard left > 0 else { throw ReaderError(.tagLost, "the card left") }
        s.writesLeft = left - 1
      }
      s.operations.append(.write(block))
      guard case .done = s.card.write(block: block, bytes) else {
        s.selected = false
        throw ReaderError(.tagError, "NAK")
      }
    }
  }

  func reselect() async throws(ReaderError) {
    state.withLock {
      $0.operations.append(.reselect)
      $0.card.halt()
      $0.selected = true
    }
  }
}
