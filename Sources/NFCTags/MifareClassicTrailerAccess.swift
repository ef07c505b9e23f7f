// SPDX-License-Identifier: Apache-2.0
/// What an access condition allows on the sector trailer: one row of MF1S50 §8.7.1 table 7
/// (MF1S70 the same). Key A is never readable.
public struct MifareClassicTrailerAccess: Sendable, Hashable {
  /// Reading key A (always `never`: the card returns zeros).
  public let keyARead: MifareClassicKeyAccess
  /// Writing key A.
  public let keyAWrite: MifareClassicKeyAccess
  /// Reading the access bits (and the general purpose byte).
  public let accessBitsRead: MifareClassicKeyAccess
  /// Writing the access bits (and the general purpose byte).
  public let accessBitsWrite: MifareClassicKeyAccess
  /// Reading key B.
  public let keyBRead: MifareClassicKeyAccess
  /// Writing key B.
  public let keyBWrite: MifareClassicKeyAccess

  /// Creates a row.
  public init(
    keyARead: MifareClassicKeyAccess, keyAWrite: MifareClassicKeyAccess,
    accessBitsRead: MifareClassicKeyAccess, accessBitsWrite: MifareClassicKeyAccess,
    keyBRead: MifareClassicKeyAccess, keyBWrite: MifareClassicKeyAccess
  ) {
    self.keyARead = keyARead
    self.keyAWrite = keyAWrite
    self.accessBitsRead = accessBitsRead
    self.accessBitsWrite = accessBitsWrite
    self.keyBRead = keyBRead
    self.keyBWrite = keyBWrite
  }

  /// Whether key B may be read (conditions 000, 010 and 001): then key B is data, not a
  /// key, and authenticating with it leaves the sector unusable (MF1S50 §8.7.1 note 1).
  public var isKeyBReadable: Bool { keyBRead != .never }

  /// Whether `key` may rewrite the whole trailer: key A, the access bits and key B.
  public func allowsFullWrite(_ key: MifareClassicKeySlot) -> Bool {
    keyAWrite.allows(key) && accessBitsWrite.allows(key) && keyBWrite.allows(key)
  }
}
