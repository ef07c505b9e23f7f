// SPDX-License-Identifier: Apache-2.0
/// One 16-byte block write to a MIFARE Classic card, with the sector whose key must be
/// authenticated first and which key (MF1S50 §10: AUTHENTICATION, then WRITE).
public struct MifareClassicBlockWrite: Sendable, Hashable {
  /// The block and its new bytes.
  public let write: TagWrite
  /// The sector of the block: authenticate it before writing.
  public let sector: Int
  /// The key slot the access bits let write the block at that point of the plan.
  public let keySlot: MifareClassicKeySlot
  /// The key, when the plan knows it (the transport key when formatting, the public NFC
  /// or MAD key A, the caller's key B); `nil` when the caller supplies it.
  public let key: MifareClassicKey?

  /// Creates a write.
  public init(write: TagWrite, sector: Int, keySlot: MifareClassicKeySlot, key: MifareClassicKey?) {
    self.write = write
    self.sector = sector
    self.keySlot = keySlot
    self.key = key
  }

  /// The absolute block number.
  public var block: Int { write.block }
}
