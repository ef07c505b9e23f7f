// SPDX-License-Identifier: Apache-2.0
/// What an access condition allows on a data block: one row of MF1S50 §8.7.2 table 8
/// (MF1S70 §8.7.2 table 8, the same).
public struct MifareClassicDataBlockAccess: Sendable, Hashable {
  /// READ.
  public let read: MifareClassicKeyAccess
  /// WRITE.
  public let write: MifareClassicKeyAccess
  /// INCREMENT (value blocks).
  public let increment: MifareClassicKeyAccess
  /// DECREMENT, TRANSFER and RESTORE (value blocks).
  public let decrementTransferRestore: MifareClassicKeyAccess

  /// Creates a row.
  public init(
    read: MifareClassicKeyAccess, write: MifareClassicKeyAccess, increment: MifareClassicKeyAccess,
    decrementTransferRestore: MifareClassicKeyAccess
  ) {
    self.read = read
    self.write = write
    self.increment = increment
    self.decrementTransferRestore = decrementTransferRestore
  }

  /// The row with key B removed: the sector trailer lets key B be read, so key B cannot
  /// authenticate (MF1S50 §8.7.2 note 1).
  public var withoutKeyB: MifareClassicDataBlockAccess {
    MifareClassicDataBlockAccess(
      read: read.withoutKeyB, write: write.withoutKeyB, increment: increment.withoutKeyB,
      decrementTransferRestore: decrementTransferRestore.withoutKeyB)
  }
}
