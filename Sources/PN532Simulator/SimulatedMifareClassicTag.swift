// SPDX-License-Identifier: Apache-2.0
/// A MIFARE Classic Mini, 1K or 4K card served by the simulator: a 4-byte UID and the card
/// model that checks keys and access conditions (``MifareClassicCardModel``).
///
/// Over InDataExchange it answers AUTHENTICATE `60|61 block key(6) uid(4)` (the PN532 runs
/// Crypto-1 itself, so the host sends the key; libnfc `mifare_param_auth`), READ `30 block`
/// and WRITE `A0 block data(16)`. A failed authentication halts the card and a refused
/// READ/WRITE (a NAK) sends it back to IDLE: both answer nothing until the card is selected
/// again (InListPassiveTarget). It answers nothing to other frames, RATS `E0 50` on
/// InCommunicateThru included (it is not ISO-DEP), and goes back to IDLE.
public struct SimulatedMifareClassicTag: Sendable, Hashable {
  /// The 4-byte UID (NUID).
  public var uid: [UInt8]
  /// The card: memory and authentication state.
  public var card: MifareClassicCardModel

  /// The product.
  public var product: MifareClassicProduct { card.product }
  /// The memory image, trailers with their keys in clear.
  public var memory: [UInt8] { card.memory }

  /// A card from a whole memory image (`product.blockCount` × 16 bytes); the UID is read
  /// from block 0.
  public init(product: MifareClassicProduct, memory: [UInt8]) throws(SimulatorError) {
    guard let card = MifareClassicCardModel(product: product, memory: memory) else {
      throw SimulatorError(
        .invalidTag,
        "memory has \(memory.count) bytes, \(product.name) has \(product.blockCount * MifareClassicCardModel.blockSize)"
      )
    }
    self.card = card
    self.uid = Array(memory.prefix(4))
  }

  /// A card as shipped (MF1S50 §8.7.3): block 0 with the UID, BCC, SAK and ATQA, data
  /// blocks zero, every trailer the transport configuration (keys `FF`×6, `FF 07 80 69`).
  public init(product: MifareClassicProduct, uid: [UInt8]) throws(SimulatorError) {
    guard uid.count == 4 else {
      throw SimulatorError(.invalidTag, "MIFARE Classic UIDs here have 4 bytes, got \(uid.count)")
    }
    let size = MifareClassicCardModel.blockSize
    var image = [UInt8](repeating: 0, count: product.blockCount * size)
    for i in 0..<4 { image[i] = uid[i] }
    image[4] = uid[0] ^ uid[1] ^ uid[2] ^ uid[3]
    image[5] = product.sak
    image[6] = product.atqa[1]
    image[7] = product.atqa[0]
    for sector in 0..<product.sectorCount {
      let start = MifareClassicCardModel.trailerBlock(ofSector: sector) * size
      for i in 0..<size { image[start + i] = MifareClassicCardModel.transportTrailer[i] }
    }
    try self.init(product: product, memory: image)
  }

  /// PN532 InDataExchange status for a failed MIFARE authentication (`EMFAUTH`, user
  /// manual table 12); libnfc reports `NFC_EMFCAUTHFAIL`.
  static let authenticationError: UInt8 = 0x14
  /// PN532 status for a frame that was not a full answer (`EINVRXFRAM`): what a card's
  /// 4-bit NAK gives; libnfc reports `NFC_ERFTRANS` ("cmd not permitted by access bytes").
  static let nakError: UInt8 = 0x13
  /// PN532 status for no answer in time (`ETIMEOUT`); libnfc reports `NFC_ERFTRANS`.
  static let timeoutError: UInt8 = 0x01

  /// Answers one InDataExchange payload: the status byte, then data; `halts` says the card
  /// is no longer selected afterwards.
  mutating func exchange(_ command: [UInt8]) -> (answer: [UInt8], halts: Bool) {
    guard let code = command.first else { return ([Self.timeoutError], true) }
    let outcome: MifareClassicCardModel.Outcome
    switch code {
    case 0x60 where command.count == 12, 0x61 where command.count == 12:
      guard Array(command[8..<12]) == uid else {
        card.halt()
        return ([Self.authenticationError], true)
      }
      outcome = card.authenticate(
        block: Int(command[1]), slot: code == 0x60 ? .a : .b, key: Array(command[2..<8]))
    case 0x30 where command.count == 2:
      outcome = card.read(block: Int(command[1]))
    case 0xA0 where command.count == 18:
      outcome = card.write(block: Int(command[1]), Array(command[2..<18]))
    default:
      card.halt()
      return ([Self.timeoutError], true)
    }
    switch outcome {
    case .done(let bytes): return ([0x00] + bytes, false)
    case .authenticationFailed: return ([Self.authenticationError], true)
    case .refused: return ([Self.nakError], true)
    }
  }
}
