// SPDX-License-Identifier: Apache-2.0
/// A MIFARE Classic product the simulator serves: its sectors, SAK and ATQA (NXP MF1S50
/// §8.6, MF1S70 §8.6, MF1ICS20; AN10833 table 5 for the SAK values).
public struct MifareClassicProduct: Sendable, Hashable {
  /// The product name, such as `MIFARE Classic 1K`.
  public var name: String
  /// Sectors: 5 (Mini), 16 (1K) or 40 (4K: 32 of 4 blocks, 8 of 16 blocks).
  public var sectorCount: Int
  /// SAK (SEL_RES): 09 Mini, 08 1K, 18 4K.
  public var sak: UInt8
  /// ATQA as the PN532 reports it, most significant byte first: `00 04` or `00 02` (4K).
  public var atqa: [UInt8]

  /// Creates a product description.
  public init(name: String, sectorCount: Int, sak: UInt8, atqa: [UInt8]) {
    self.name = name
    self.sectorCount = sectorCount
    self.sak = sak
    self.atqa = atqa
  }

  /// MIFARE Classic Mini (MF1ICS20): 5 sectors, 320 bytes.
  public static let mini = MifareClassicProduct(
    name: "MIFARE Classic Mini", sectorCount: 5, sak: 0x09, atqa: [0x00, 0x04])
  /// MIFARE Classic 1K (MF1S50): 16 sectors, 1024 bytes.
  public static let classic1K = MifareClassicProduct(
    name: "MIFARE Classic 1K", sectorCount: 16, sak: 0x08, atqa: [0x00, 0x04])
  /// MIFARE Classic 4K (MF1S70): 40 sectors, 4096 bytes.
  public static let classic4K = MifareClassicProduct(
    name: "MIFARE Classic 4K", sectorCount: 40, sak: 0x18, atqa: [0x00, 0x02])

  /// Blocks of 16 bytes on the card.
  public var blockCount: Int { MifareClassicCardModel.firstBlock(ofSector: sectorCount) }
}

/// The card side of a MIFARE Classic card: its memory, and the rules its sector trailers'
/// access conditions impose on authentication, reads and writes (MF1S50 §8.6-§8.7,
/// MF1S70 §8.6-§8.7). No Crypto-1: a PN532 runs the cipher itself, so a host only sees a
/// key accepted or refused.
///
/// It holds the rules in one place so another simulated reader (a PC/SC virtual card) can
/// serve the same card. (The NFCTags codec has its own trailer and access-condition
/// types for decoding; this model stays in the simulator so the simulator keeps no
/// dependency and a decoding bug cannot hide an enforcement bug.)
public struct MifareClassicCardModel: Sendable, Hashable {
  /// The product.
  public let product: MifareClassicProduct
  /// The whole memory, 16 bytes per block, trailers included (keys in clear).
  public var memory: [UInt8]
  /// The authenticated sector, nil when not authenticated.
  public private(set) var authenticatedSector: Int?
  /// The key the authenticated sector was opened with.
  public private(set) var authenticatedSlot: KeySlot = .a

  /// Bytes in a block.
  public static let blockSize = 16

  /// The key a reader authenticates with (MF1S50 §10.1: `60` key A, `61` key B).
  public enum KeySlot: Sendable, Hashable {
    /// Key A (command 0x60).
    case a
    /// Key B (command 0x61).
    case b
  }

  /// A card from a whole memory image (`product.blockCount` × 16 bytes).
  public init?(product: MifareClassicProduct, memory: [UInt8]) {
    guard memory.count == product.blockCount * Self.blockSize else { return nil }
    self.product = product
    self.memory = memory
  }

  // MARK: Block arithmetic (MF1S70 §8.6.1)

  /// The first block of `sector`: 4 × sector below 32, then 128 + 16 × (sector − 32).
  public static func firstBlock(ofSector sector: Int) -> Int {
    sector < 32 ? sector * 4 : 128 + (sector - 32) * 16
  }

  /// The sector holding `block`.
  public static func sector(ofBlock block: Int) -> Int {
    block < 128 ? block / 4 : 32 + (block - 128) / 16
  }

  /// Blocks in `sector`: 4, or 16 from sector 32 on.
  public static func blockCount(inSector sector: Int) -> Int { sector < 32 ? 4 : 16 }

  /// The trailer block of `sector`.
  public static func trailerBlock(ofSector sector: Int) -> Int {
    firstBlock(ofSector: sector) + blockCount(inSector: sector) - 1
  }

  /// The block of `sector` that access bits group `group` (0-3) governs first: one block
  /// per group in small sectors, 5 blocks per group in the 16-block sectors of a 4K card.
  static func accessGroup(ofBlock block: Int) -> Int {
    let sector = sector(ofBlock: block)
    let index = block - firstBlock(ofSector: sector)
    if index == blockCount(inSector: sector) - 1 { return 3 }
    return sector < 32 ? index : index / 5
  }

  // MARK: Access bits (MF1S50 §8.7.1)

  /// The access bits C1 C2 C3 of `group` (0-3) in trailer bytes 6-8, as `C1<<2|C2<<1|C3`;
  /// nil when the inverted copies disagree (the data sheet: the sector is then blocked).
  public static func accessBits(_ bytes: (UInt8, UInt8, UInt8), group: Int) -> UInt8? {
    let (b6, b7, b8) = bytes
    let c1 = (b7 >> (4 + group)) & 1
    let c2 = (b8 >> group) & 1
    let c3 = (b8 >> (4 + group)) & 1
    let n1 = (b6 >> group) & 1
    let n2 = (b6 >> (4 + group)) & 1
    let n3 = (b7 >> group) & 1
    guard c1 ^ n1 == 1, c2 ^ n2 == 1, c3 ^ n3 == 1 else { return nil }
    return c1 << 2 | c2 << 1 | c3
  }

  /// Whether every group's bits in trailer bytes 6-8 agree with their inverted copies.
  public static func accessBitsConsistent(_ bytes: (UInt8, UInt8, UInt8)) -> Bool {
    (0..<4).allSatisfy { accessBits(bytes, group: $0) != nil }
  }

  /// Who may do what, by the access bits of one group (MF1S50 tables 7 and 8).
  enum Right { case never, keyA, keyB, either }

  private static func allows(_ right: Right, _ slot: KeySlot) -> Bool {
    switch right {
    case .never: false
    case .keyA: slot == .a
    case .keyB: slot == .b
    case .either: true
    }
  }

  /// Data block (table 8): read and write rights of C1C2C3.
  static func dataRights(_ bits: UInt8) -> (read: Right, write: Right) {
    switch bits {
    case 0b000: (.either, .either)
    case 0b010: (.either, .never)
    case 0b100: (.either, .keyB)
    case 0b110: (.either, .keyB)
    case 0b001: (.either, .never)
    case 0b011: (.keyB, .keyB)
    case 0b101: (.keyB, .never)
    default: (.never, .never)
    }
  }

  /// Sector trailer (table 7): write key A, read and write the access bits (and GPB),
  /// read and write key B.
  static func trailerRights(_ bits: UInt8)
    -> (writeKeyA: Right, readAccess: Right, writeAccess: Right, readKeyB: Right, writeKeyB: Right)
  {
    switch bits {
    case 0b000: (.keyA, .keyA, .never, .keyA, .keyA)
    case 0b010: (.never, .keyA, .never, .keyA, .never)
    case 0b100: (.keyB, .either, .never, .never, .keyB)
    case 0b110: (.never, .either, .never, .never, .never)
    case 0b001: (.keyA, .keyA, .keyA, .keyA, .keyA)
    case 0b011: (.keyB, .either, .keyB, .never, .keyB)
    case 0b101: (.never, .either, .keyB, .never, .never)
    default: (.never, .either, .never, .never, .never)
    }
  }

  // MARK: Commands

  /// The outcome of a command: done (with the read bytes), or refused.
  public enum Outcome: Sendable, Hashable {
    /// Done; the 16 bytes for a read, empty otherwise.
    case done([UInt8])
    /// Authentication failed: wrong key, block out of range, or a sector whose access
    /// bits are inconsistent. The card halts (the reader must select it again).
    case authenticationFailed
    /// Not authenticated for this block's sector, or the access conditions forbid it:
    /// the card NAKs and goes back to IDLE (MF1S50 §9.4; it must be selected again).
    case refused
  }

  private func trailer(ofSector sector: Int) -> ArraySlice<UInt8> {
    let start = Self.trailerBlock(ofSector: sector) * Self.blockSize
    return memory[start..<(start + Self.blockSize)]
  }

  private func accessBytes(ofSector sector: Int) -> (UInt8, UInt8, UInt8) {
    let t = trailer(ofSector: sector)
    return (t[t.startIndex + 6], t[t.startIndex + 7], t[t.startIndex + 8])
  }

  private func keyBReadable(inSector sector: Int) -> Bool {
    guard let bits = Self.accessBits(accessBytes(ofSector: sector), group: 3) else { return false }
    return trailerRights(bits).readKeyB != .never
  }

  private func trailerRights(_ bits: UInt8)
    -> (writeKeyA: Right, readAccess: Right, writeAccess: Right, readKeyB: Right, writeKeyB: Right)
  {
    Self.trailerRights(bits)
  }

  /// AUTHENTICATE (`60|61 block`): compares `key` with the sector trailer's key. A sector
  /// whose access bits are inconsistent refuses every authentication (the data sheet's
  /// "irreversibly blocked"). When key B is readable by the access conditions (C1C2C3 of
  /// the trailer 000, 010, 001) it "cannot serve for authentication": the card accepts
  /// it but refuses every later read and write (MF1S50 §8.7.1, note under table 7).
  public mutating func authenticate(block: Int, slot: KeySlot, key: [UInt8]) -> Outcome {
    authenticatedSector = nil
    guard block >= 0, block < product.blockCount, key.count == 6 else { return .authenticationFailed }
    let sector = Self.sector(ofBlock: block)
    guard Self.accessBitsConsistent(accessBytes(ofSector: sector)) else { return .authenticationFailed }
    let t = trailer(ofSector: sector)
    let stored = slot == .a ? Array(t.prefix(6)) : Array(t.suffix(6))
    guard stored == key else { return .authenticationFailed }
    authenticatedSector = sector
    authenticatedSlot = slot
    return .done([])
  }

  /// Forgets the authentication (HALT, deselection, a new selection).
  public mutating func halt() { authenticatedSector = nil }

  /// Whether the current authentication covers `block` with a usable key.
  private func session(for block: Int) -> KeySlot? {
    guard let sector = authenticatedSector, block >= 0, block < product.blockCount,
      Self.sector(ofBlock: block) == sector
    else { return nil }
    if authenticatedSlot == .b && keyBReadable(inSector: sector) { return nil }
    return authenticatedSlot
  }

  /// READ (`30 block`): 16 bytes. A trailer reads with key A as zeros, the access bits and
  /// GPB when the conditions allow (else zeros) and key B when readable (else zeros).
  public mutating func read(block: Int) -> Outcome {
    guard let slot = session(for: block) else {
      authenticatedSector = nil
      return .refused
    }
    let sector = Self.sector(ofBlock: block)
    let start = block * Self.blockSize
    let bytes = Array(memory[start..<(start + Self.blockSize)])
    guard let bits = Self.accessBits(accessBytes(ofSector: sector), group: Self.accessGroup(ofBlock: block))
    else {
      authenticatedSector = nil
      return .refused
    }
    if block == Self.trailerBlock(ofSector: sector) {
      let rights = Self.trailerRights(bits)
      var shown = [UInt8](repeating: 0, count: Self.blockSize)
      if Self.allows(rights.readAccess, slot) { for i in 6..<10 { shown[i] = bytes[i] } }
      if Self.allows(rights.readKeyB, slot) { for i in 10..<16 { shown[i] = bytes[i] } }
      return .done(shown)
    }
    guard Self.allows(Self.dataRights(bits).read, slot) else {
      authenticatedSector = nil
      return .refused
    }
    return .done(bytes)
  }

  /// WRITE (`A0 block` + 16 bytes). Block 0 (manufacturer data) is never written. A
  /// trailer write stores each part (key A, access bits with GPB, key B) the conditions
  /// let this key write and keeps the others; it is refused when none may be written. Like
  /// a real card, it stores access bits whose inverted copies disagree (which blocks the
  /// sector for good): a writer must never send them.
  public mutating func write(block: Int, _ data: [UInt8]) -> Outcome {
    guard data.count == Self.blockSize, block != 0, let slot = session(for: block) else {
      authenticatedSector = nil
      return .refused
    }
    let sector = Self.sector(ofBlock: block)
    guard let bits = Self.accessBits(accessBytes(ofSector: sector), group: Self.accessGroup(ofBlock: block))
    else {
      authenticatedSector = nil
      return .refused
    }
    let start = block * Self.blockSize
    if block == Self.trailerBlock(ofSector: sector) {
      let rights = Self.trailerRights(bits)
      let parts: [(Range<Int>, Right)] = [
        (0..<6, rights.writeKeyA), (6..<10, rights.writeAccess), (10..<16, rights.writeKeyB),
      ]
      guard parts.contains(where: { Self.allows($0.1, slot) }) else {
        authenticatedSector = nil
        return .refused
      }
      for (range, right) in parts where Self.allows(right, slot) {
        for i in range { memory[start + i] = data[i] }
      }
      return .done([])
    }
    guard Self.allows(Self.dataRights(bits).write, slot) else {
      authenticatedSector = nil
      return .refused
    }
    for i in 0..<Self.blockSize { memory[start + i] = data[i] }
    return .done([])
  }

  /// The transport configuration trailer (MF1S50 §8.7.3): key A and key B `FF`×6, access
  /// bits `FF 07 80` (data 000, trailer 001), GPB `69`.
  public static let transportTrailer: [UInt8] = [
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x07, 0x80, 0x69, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
  ]
}
