// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The three access-bit bytes of a sector trailer (bytes 6-8), each bit stored twice: once
/// inverted (MF1S50 §8.7, figure 10).
///
/// | byte | bits 7-4 | bits 3-0 |
/// |---|---|---|
/// | 6 | ¬C2 (groups 3-0) | ¬C1 (groups 3-0) |
/// | 7 | C1 | ¬C3 |
/// | 8 | C3 | C2 |
///
/// Bit `4 + g` (high nibble) or `g` (low nibble) belongs to group `g`: data groups 0-2 and
/// the trailer, group 3. The card checks the two copies on every access and blocks the
/// whole sector for good when they disagree, so this type reads such bytes (to show them)
/// but ``init(conditions:)`` only ever produces consistent ones.
public struct MifareClassicAccessBits: Sendable, Hashable, CustomStringConvertible {
  /// Trailer byte 6: ¬C2 | ¬C1.
  public let byte6: UInt8
  /// Trailer byte 7: C1 | ¬C3.
  public let byte7: UInt8
  /// Trailer byte 8: C3 | C2.
  public let byte8: UInt8

  /// The access group of the sector trailer.
  public static let trailerGroup = 3

  /// Takes the bytes as they are, consistent or not (see ``isConsistent``).
  public init(byte6: UInt8, byte7: UInt8, byte8: UInt8) {
    self.byte6 = byte6
    self.byte7 = byte7
    self.byte8 = byte8
  }

  /// Takes the bytes and checks their inverted copies.
  ///
  /// - Parameter offset: the absolute offset of byte 6 in the caller's image, for errors.
  /// - Throws: ``NFCTagError/Code/inconsistentAccessBits`` with the offset of the byte that
  ///   holds the disagreeing inverted copy: byte 6 for C1 and C2, byte 7 for C3.
  public init(validatingByte6 byte6: UInt8, byte7: UInt8, byte8: UInt8, offset: Int = 0)
    throws(NFCTagError)
  {
    self.init(byte6: byte6, byte7: byte7, byte8: byte8)
    if let bad = inconsistentByte { throw NFCTagError(.inconsistentAccessBits, offset: offset &+ bad) }
  }

  /// Encodes the four conditions (data groups 0, 1, 2 and the trailer). The result is
  /// always consistent.
  public init(
    group0: MifareClassicAccessCondition, group1: MifareClassicAccessCondition,
    group2: MifareClassicAccessCondition, trailer: MifareClassicAccessCondition
  ) {
    var c1: UInt8 = 0
    var c2: UInt8 = 0
    var c3: UInt8 = 0
    for (g, condition) in [group0, group1, group2, trailer].enumerated() {
      let bit = UInt8(1) << UInt8(g)
      if condition.c1 { c1 |= bit }
      if condition.c2 { c2 |= bit }
      if condition.c3 { c3 |= bit }
    }
    self.byte6 = (~c2 & 0x0F) << 4 | (~c1 & 0x0F)
    self.byte7 = c1 << 4 | (~c3 & 0x0F)
    self.byte8 = c3 << 4 | c2
  }

  /// Encodes one condition for all three data groups and one for the trailer.
  public init(data: MifareClassicAccessCondition, trailer: MifareClassicAccessCondition) {
    self.init(group0: data, group1: data, group2: data, trailer: trailer)
  }

  /// `FF 07 80`: data 000, trailer 001, as cards ship (MF1S50 §8.7.1, transport configuration).
  public static let transport = MifareClassicAccessBits(byte6: 0xFF, byte7: 0x07, byte8: 0x80)
  /// `78 77 88`: the MAD sectors, data 100 (read A|B, write B), trailer 011 (AN10787 §3.7).
  public static let mad = MifareClassicAccessBits(byte6: 0x78, byte7: 0x77, byte8: 0x88)
  /// `7F 07 88`: an NFC sector, data 000, trailer 011 (AN1304 §6.3.2, READ/WRITE state).
  public static let nfcSector = MifareClassicAccessBits(byte6: 0x7F, byte7: 0x07, byte8: 0x88)
  /// `07 8F 0F`: a read-only sector, data 010 (read A|B, never written), trailer 110
  /// (nothing ever changes) (AN1304 §6.3.3, READ-ONLY state).
  public static let readOnly = MifareClassicAccessBits(byte6: 0x07, byte7: 0x8F, byte8: 0x0F)

  /// The C1 bits, group `g` in bit `g` (from byte 7, the plain copy).
  public var c1Bits: UInt8 { byte7 >> 4 }
  /// The C2 bits (from byte 8).
  public var c2Bits: UInt8 { byte8 & 0x0F }
  /// The C3 bits (from byte 8).
  public var c3Bits: UInt8 { byte8 >> 4 }

  /// The index (0 for byte 6, 1 for byte 7) of the byte whose inverted copy disagrees with
  /// the plain one, checked C1, C2, C3 in that order; `nil` when consistent.
  public var inconsistentByte: Int? {
    if ~byte6 & 0x0F != c1Bits { return 0 }
    if (~byte6 >> 4) & 0x0F != c2Bits { return 0 }
    if ~byte7 & 0x0F != c3Bits { return 1 }
    return nil
  }

  /// Whether every inverted copy matches its plain copy.
  public var isConsistent: Bool { inconsistentByte == nil }

  /// The condition of group `group` (0, 1, 2 data; 3 trailer), read from the plain copies;
  /// `nil` for another group.
  public func condition(forGroup group: Int) -> MifareClassicAccessCondition? {
    guard group >= 0, group <= Self.trailerGroup else { return nil }
    let g = UInt8(group)
    return MifareClassicAccessCondition(
      c1: (c1Bits >> g) & 1 == 1, c2: (c2Bits >> g) & 1 == 1, c3: (c3Bits >> g) & 1 == 1)
  }

  /// The trailer's condition (group 3).
  public var trailerCondition: MifareClassicAccessCondition {
    condition(forGroup: Self.trailerGroup) ?? MifareClassicAccessCondition(c1: true, c2: true, c3: true)
  }

  /// The access group of block `index` in a sector of `blocksInSector` blocks: the block
  /// itself in a 4-block sector, `index / 5` in a 16-block one (blocks 0-4, 5-9, 10-14),
  /// 3 for the trailer; `nil` outside the sector.
  public static func group(forBlockIndex index: Int, blocksInSector: Int) -> Int? {
    guard index >= 0, index < blocksInSector else { return nil }
    if index == blocksInSector &- 1 { return trailerGroup }
    switch blocksInSector {
    case MifareClassicCardKind.smallSectorBlockCount: return index
    case MifareClassicCardKind.largeSectorBlockCount: return index / 5
    default: return nil
    }
  }

  /// The three bytes.
  public var bytes: [UInt8] { [byte6, byte7, byte8] }

  /// The bytes in hex, e.g. `78 77 88`.
  public var description: String {
    bytes.map { Hex.string([$0]) }.joined(separator: " ")
  }
}
