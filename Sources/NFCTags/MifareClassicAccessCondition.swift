// SPDX-License-Identifier: Apache-2.0
/// The access bits C1 C2 C3 of one block group of a sector (MF1S50 §8.7): the three data
/// groups (blocks 0, 1 and 2; in a 16-block sector blocks 0-4, 5-9 and 10-14) and the
/// trailer (group 3).
///
/// The raw value reads as the data sheets write the bits: `C1 C2 C3`, so `0b100` is
/// C1 = 1, C2 = 0, C3 = 0.
public struct MifareClassicAccessCondition: RawRepresentable, Sendable, Hashable,
  CustomStringConvertible
{
  /// `C1 << 2 | C2 << 1 | C3`, 0...7.
  public let rawValue: UInt8
  /// Wraps a raw value; `nil` above 7.
  public init?(rawValue: UInt8) {
    guard rawValue <= 0b111 else { return nil }
    self.rawValue = rawValue
  }

  /// Creates a condition from its three bits.
  public init(c1: Bool, c2: Bool, c3: Bool) {
    self.rawValue = (c1 ? 0b100 : 0) | (c2 ? 0b010 : 0) | (c3 ? 0b001 : 0)
  }

  /// C1.
  public var c1: Bool { rawValue & 0b100 != 0 }
  /// C2.
  public var c2: Bool { rawValue & 0b010 != 0 }
  /// C3.
  public var c3: Bool { rawValue & 0b001 != 0 }

  /// The bits as the data sheets print them, `C1C2C3`: `000` ... `111`.
  public var description: String {
    (c1 ? "1" : "0") + (c2 ? "1" : "0") + (c3 ? "1" : "0")
  }

  /// The data block row of MF1S50 §8.7.2 table 8, as printed (before removing key B when
  /// the trailer lets key B be read; ``MifareClassicSectorTrailer`` does that).
  ///
  /// | C1C2C3 | read | write | increment | decrement, transfer, restore |
  /// |---|---|---|---|---|
  /// | 000 | A\|B | A\|B | A\|B | A\|B (transport configuration) |
  /// | 010 | A\|B | never | never | never |
  /// | 100 | A\|B | B | never | never |
  /// | 110 | A\|B | B | B | A\|B |
  /// | 001 | A\|B | never | never | A\|B |
  /// | 011 | B | B | never | never |
  /// | 101 | B | never | never | never |
  /// | 111 | never | never | never | never |
  public var dataBlockAccess: MifareClassicDataBlockAccess {
    let ab = MifareClassicKeyAccess.keyAOrB
    let b = MifareClassicKeyAccess.keyB
    let no = MifareClassicKeyAccess.never
    switch rawValue {
    case 0b000: return .init(read: ab, write: ab, increment: ab, decrementTransferRestore: ab)
    case 0b010: return .init(read: ab, write: no, increment: no, decrementTransferRestore: no)
    case 0b100: return .init(read: ab, write: b, increment: no, decrementTransferRestore: no)
    case 0b110: return .init(read: ab, write: b, increment: b, decrementTransferRestore: ab)
    case 0b001: return .init(read: ab, write: no, increment: no, decrementTransferRestore: ab)
    case 0b011: return .init(read: b, write: b, increment: no, decrementTransferRestore: no)
    case 0b101: return .init(read: b, write: no, increment: no, decrementTransferRestore: no)
    default: return .init(read: no, write: no, increment: no, decrementTransferRestore: no)
    }
  }

  /// The sector trailer row of MF1S50 §8.7.1 table 7, as printed.
  ///
  /// | C1C2C3 | key A read, write | access bits read, write | key B read, write |
  /// |---|---|---|---|
  /// | 000 | never, A | A, never | A, A (key B readable) |
  /// | 010 | never, never | A, never | A, never (key B readable) |
  /// | 100 | never, B | A\|B, never | never, B |
  /// | 110 | never, never | A\|B, never | never, never |
  /// | 001 | never, A | A, A | A, A (key B readable; transport configuration) |
  /// | 011 | never, B | A\|B, B | never, B |
  /// | 101 | never, never | A\|B, B | never, never |
  /// | 111 | never, never | A\|B, never | never, never |
  public var trailerAccess: MifareClassicTrailerAccess {
    let a = MifareClassicKeyAccess.keyA
    let ab = MifareClassicKeyAccess.keyAOrB
    let b = MifareClassicKeyAccess.keyB
    let no = MifareClassicKeyAccess.never
    switch rawValue {
    case 0b000:
      return .init(
        keyARead: no, keyAWrite: a, accessBitsRead: a, accessBitsWrite: no, keyBRead: a, keyBWrite: a)
    case 0b010:
      return .init(
        keyARead: no, keyAWrite: no, accessBitsRead: a, accessBitsWrite: no, keyBRead: a, keyBWrite: no)
    case 0b100:
      return .init(
        keyARead: no, keyAWrite: b, accessBitsRead: ab, accessBitsWrite: no, keyBRead: no, keyBWrite: b)
    case 0b110:
      return .init(
        keyARead: no, keyAWrite: no, accessBitsRead: ab, accessBitsWrite: no, keyBRead: no, keyBWrite: no)
    case 0b001:
      return .init(
        keyARead: no, keyAWrite: a, accessBitsRead: a, accessBitsWrite: a, keyBRead: a, keyBWrite: a)
    case 0b011:
      return .init(
        keyARead: no, keyAWrite: b, accessBitsRead: ab, accessBitsWrite: b, keyBRead: no, keyBWrite: b)
    case 0b101:
      return .init(
        keyARead: no, keyAWrite: no, accessBitsRead: ab, accessBitsWrite: b, keyBRead: no, keyBWrite: no)
    default:
      return .init(
        keyARead: no, keyAWrite: no, accessBitsRead: ab, accessBitsWrite: no, keyBRead: no, keyBWrite: no)
    }
  }
}
