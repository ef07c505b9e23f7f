// SPDX-License-Identifier: Apache-2.0
/// What ``MifareClassicNDEFProcedure/read()`` found on a card: the MAD's NFC sectors, the
/// NDEF message bytes and whether the NFC sectors are read-only (AN10787, AN1304).
public struct MifareClassicNDEFContent: Sendable, Hashable {
  /// The MAD version the general purpose byte of sector 0 announces (1, or 2 on a 4K card).
  public var madVersion: Int
  /// Whether MAD2 (sector 16) was read.
  public var readMAD2: Bool
  /// The sectors the MAD assigns to NDEF (AID `03 E1`), in order.
  public var ndefSectors: [Int]
  /// The sectors read for the message (a prefix of ``ndefSectors``: only what it needs).
  public var sectorsRead: [Int]
  /// Bytes of the TLV area: 48 per small NFC sector, 240 per large one.
  public var capacity: Int
  /// The encoded NDEF message; empty for an empty NDEF TLV.
  public var message: [UInt8]
  /// Whether the area holds an NDEF TLV at all.
  public var hasNDEFTLV: Bool
  /// Whether the first NFC sector forbids writing its data blocks (access bits 010, or
  /// GPB write access 11; AN1304 §6.3.2, as neard checks it).
  public var isReadOnly: Bool
  /// Notes about tolerated deviations (lenient mode): a wrong MAD CRC, GPB version 1 on a
  /// 4K card whose MAD2 was read.
  public var notes: [String]

  /// Creates a content description.
  public init(
    madVersion: Int, readMAD2: Bool, ndefSectors: [Int], sectorsRead: [Int], capacity: Int, message: [UInt8],
    hasNDEFTLV: Bool, isReadOnly: Bool, notes: [String]
  ) {
    self.madVersion = madVersion
    self.readMAD2 = readMAD2
    self.ndefSectors = ndefSectors
    self.sectorsRead = sectorsRead
    self.capacity = capacity
    self.message = message
    self.hasNDEFTLV = hasNDEFTLV
    self.isReadOnly = isReadOnly
    self.notes = notes
  }
}
