// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A MIFARE Application Directory: which application owns each sector (NXP AN10787).
///
/// MAD1 is in sector 0, blocks 1-2: a CRC byte, the info byte, and 15 AIDs for sectors
/// 1-15. MAD2 (4K cards) is in sector 16, blocks 64-66: a CRC byte, the info byte, and 23
/// AIDs for sectors 17-39. Each CRC is the CRC-8 of ``crc(_:)`` over the info byte and the
/// AIDs. Sectors 0 and 16 are the directory itself and have no entry.
public struct MifareClassicMAD: Sendable, Hashable {
  /// Absolute offset of MAD1 (block 1).
  public static let mad1Offset = 16
  /// Absolute offset of MAD2 (block 64).
  public static let mad2Offset = 1024
  /// The size of MAD1 in bytes (blocks 1-2).
  public static let mad1Size = 32
  /// The size of MAD2 in bytes (blocks 64-66).
  public static let mad2Size = 48
  /// The sector holding MAD2.
  public static let mad2Sector = 16

  /// MAD1's stored CRC.
  public let mad1CRC: UInt8
  /// MAD1's info byte: bits 5-0 the card publisher sector (0: none).
  public let mad1Info: UInt8
  /// MAD2's stored CRC, when the MAD has a MAD2.
  public let mad2CRC: UInt8?
  /// MAD2's info byte, when the MAD has a MAD2.
  public let mad2Info: UInt8?
  /// The AIDs of sectors 1-15, then (with a MAD2) 17-39.
  public let entries: [MifareClassicApplicationIdentifier]

  /// Reads MAD1 from `image` at offset 16 and, when `includesMAD2`, MAD2 at offset 1024. No
  /// rule is checked here: ``MifareClassicTagView`` does that.
  ///
  /// - Throws: ``NFCTagError/Code/truncatedImage`` (offset: the image end) when a MAD runs
  ///   past the image.
  public init(reading image: RawSpan, includesMAD2: Bool) throws(NFCTagError) {
    let end = includesMAD2 ? Self.mad2Offset &+ Self.mad2Size : Self.mad1Offset &+ Self.mad1Size
    guard image.byteCount >= end else { throw NFCTagError(.truncatedImage, offset: image.byteCount) }
    func byte(_ i: Int) -> UInt8 { image.byte(at: i) ?? 0 }
    func aids(_ start: Int, _ count: Int) -> [MifareClassicApplicationIdentifier] {
      (0..<count).map {
        MifareClassicApplicationIdentifier(
          functionCluster: byte(start &+ 2 &* $0 &+ 1), applicationCode: byte(start &+ 2 &* $0))
      }
    }
    var entries = aids(Self.mad1Offset &+ 2, 15)
    self.mad1CRC = byte(Self.mad1Offset)
    self.mad1Info = byte(Self.mad1Offset &+ 1)
    if includesMAD2 {
      self.mad2CRC = byte(Self.mad2Offset)
      self.mad2Info = byte(Self.mad2Offset &+ 1)
      entries += aids(Self.mad2Offset &+ 2, 23)
    } else {
      self.mad2CRC = nil
      self.mad2Info = nil
    }
    self.entries = entries
  }

  /// A MAD assigning `aids[i]` to the i-th sector after sector 0, skipping sector 16:
  /// 15 AIDs make a MAD1, 38 a MAD1 and a MAD2 (more are ignored, fewer are padded with
  /// ``MifareClassicApplicationIdentifier/free``). The CRCs are computed.
  public init(aids: [MifareClassicApplicationIdentifier], cardPublisherSector: UInt8 = 0) {
    let withMAD2 = aids.count > 15
    var entries = Array(aids.prefix(withMAD2 ? 38 : 15))
    while entries.count < (withMAD2 ? 38 : 15) { entries.append(.free) }
    self.entries = entries
    self.mad1Info = cardPublisherSector & 0x3F
    self.mad2Info = withMAD2 ? cardPublisherSector & 0x3F : nil
    self.mad1CRC = Self.crc([self.mad1Info] + entries.prefix(15).flatMap(\.cardBytes))
    self.mad2CRC =
      withMAD2 ? Self.crc([cardPublisherSector & 0x3F] + entries.dropFirst(15).flatMap(\.cardBytes)) : nil
  }

  /// The canonical NDEF MAD of `kind` (AN1304 §6.2): every sector but 0 (and 16) NDEF,
  /// info byte 0x01 (MAD1 CRC 0x14; MAD2 CRC 0xE8), as NXP's and Android's formatters write.
  public static func ndef(for kind: MifareClassicCardKind) -> MifareClassicMAD {
    let count = kind.sectorCount > mad2Sector ? kind.sectorCount &- 2 : 15
    var aids: [MifareClassicApplicationIdentifier] = []
    for i in 0..<count {
      // Sectors a Mini lacks are `notApplicable`.
      let sector = i < 15 ? i &+ 1 : i &+ 2
      aids.append(kind.contains(sector: sector) ? .ndef : .notApplicable)
    }
    return MifareClassicMAD(aids: aids, cardPublisherSector: 1)
  }

  /// Whether the MAD has a MAD2.
  public var hasMAD2: Bool { mad2CRC != nil }

  /// The AID of `sector`; `nil` for sectors 0 and 16 and those the MAD does not cover.
  public func aid(forSector sector: Int) -> MifareClassicApplicationIdentifier? {
    switch sector {
    case 1...15: return entries[sector &- 1]
    case 17...39 where entries.count > 15: return entries[sector &- 2]
    default: return nil
    }
  }

  /// The sectors holding `aid`, in order.
  public func sectors(of aid: MifareClassicApplicationIdentifier) -> [Int] {
    (1...39).filter { self.aid(forSector: $0) == aid }
  }

  /// The card publisher sector MAD1's info byte names (bits 5-0), `nil` for 0.
  public var cardPublisherSector: Int? {
    let value = Int(mad1Info & 0x3F)
    return value == 0 ? nil : value
  }

  /// MAD1's CRC computed from its info byte and AIDs.
  public var computedMAD1CRC: UInt8 { Self.crc([mad1Info] + entries.prefix(15).flatMap(\.cardBytes)) }
  /// MAD2's CRC computed from its info byte and AIDs, when the MAD has a MAD2.
  public var computedMAD2CRC: UInt8? {
    guard let info = mad2Info else { return nil }
    return Self.crc([info] + entries.dropFirst(15).flatMap(\.cardBytes))
  }

  /// Blocks 1-2: MAD1's CRC, info byte and AIDs (32 bytes).
  public var mad1Bytes: [UInt8] { [mad1CRC, mad1Info] + entries.prefix(15).flatMap(\.cardBytes) }
  /// Blocks 64-66: MAD2's CRC, info byte and AIDs (48 bytes); empty without a MAD2.
  public var mad2Bytes: [UInt8] {
    guard let crc = mad2CRC, let info = mad2Info else { return [] }
    return [crc, info] + entries.dropFirst(15).flatMap(\.cardBytes)
  }

  /// The MAD CRC-8 (AN10787 §3.9): polynomial 0x1D, initial value 0xC7 (printed as its
  /// mirror 0xE3 in the note), most significant bit first, no final XOR. `123456789`
  /// gives 0x99.
  public static func crc(_ bytes: [UInt8]) -> UInt8 {
    var crc: UInt8 = 0xC7
    for byte in bytes {
      crc ^= byte
      for _ in 0..<8 { crc = crc & 0x80 != 0 ? (crc << 1) ^ 0x1D : crc << 1 }
    }
    return crc
  }
}
