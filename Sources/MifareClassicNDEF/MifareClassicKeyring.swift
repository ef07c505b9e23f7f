// SPDX-License-Identifier: Apache-2.0
import NFCTags

/// The keys to try on a card, per slot. Each sector tries its expected public key first
/// (MAD key A for sectors 0 and 16, NFC Forum key A for NFC sectors; AN10787 §3.7, AN1304
/// §6.3.1), then the other key A candidates in order, then the key B candidates.
public struct MifareClassicKeyring: Sendable, Hashable, CustomStringConvertible {
  /// Key A candidates, in order.
  public var keysA: [MifareClassicKey]
  /// Key B candidates, in order.
  public var keysB: [MifareClassicKey]

  /// A keyring.
  public init(keysA: [MifareClassicKey], keysB: [MifareClassicKey]) {
    self.keysA = Self.unique(keysA)
    self.keysB = Self.unique(keysB)
  }

  /// The public keys: MAD key A, NFC Forum key A and the transport key as key A, the
  /// transport key as key B (a card as shipped, or formatted without a key B of its own).
  public static let publicKeys = MifareClassicKeyring(
    keysA: [.madKeyA, .nfcForumKeyA, .transport], keysB: [.transport])

  /// Adds a dictionary's keys as candidates for both slots (before the public ones).
  public mutating func add(_ dictionary: MifareClassicKeyDictionary) {
    keysA = Self.unique(dictionary.keys + keysA)
    keysB = Self.unique(dictionary.keys + keysB)
  }

  /// Adds one key for one slot (first in that slot's order).
  public mutating func add(_ key: MifareClassicKey, slot: MifareClassicKeySlot) {
    if slot == .a { keysA = Self.unique([key] + keysA) } else { keysB = Self.unique([key] + keysB) }
  }

  /// The candidates for `sector`, in the order tried: the expected public key A first.
  func candidates(expecting expected: MifareClassicKey?, slots: [MifareClassicKeySlot] = [.a, .b])
    -> [(MifareClassicKeySlot, MifareClassicKey)]
  {
    var result: [(MifareClassicKeySlot, MifareClassicKey)] = []
    for slot in slots {
      var keys = slot == .a ? keysA : keysB
      if slot == .a, let expected, let index = keys.firstIndex(of: expected) {
        keys.remove(at: index)
        keys.insert(expected, at: 0)
      }
      result += keys.map { (slot, $0) }
    }
    return result
  }

  /// `n keys A, m keys B`: never the keys.
  public var description: String { "\(keysA.count) keys A, \(keysB.count) keys B" }

  private static func unique(_ keys: [MifareClassicKey]) -> [MifareClassicKey] {
    var result: [MifareClassicKey] = []
    for key in keys where !result.contains(key) { result.append(key) }
    return result
  }
}
