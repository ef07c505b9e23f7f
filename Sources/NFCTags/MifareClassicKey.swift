// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A 6-byte MIFARE Classic key A or key B (MF1S50 §8.6.3).
///
/// A key is a secret: its ``description`` and ``debugDescription`` show the well-known name
/// of a public key (``transport``, ``madKeyA``, ``nfcForumKeyA``) or a 16-bit
/// ``checkValue``, never the bytes. Only ``bytes`` gives them out, for the card and for
/// showing a dump the user supplied.
public struct MifareClassicKey: Sendable, Hashable, CustomStringConvertible,
  CustomDebugStringConvertible
{
  /// The key in the low 48 bits, first byte most significant.
  private let value: UInt64

  private init(value: UInt64) { self.value = value & 0xFFFF_FFFF_FFFF }

  /// The key from exactly 6 bytes; `nil` for another count.
  public init?(bytes: [UInt8]) {
    guard bytes.count == MifareClassic.keySize else { return nil }
    self.init(value: bytes.reduce(0) { $0 << 8 | UInt64($1) })
  }

  /// The 6 bytes at `offset` of `span`; `nil` when they are not all there.
  public init?(_ span: RawSpan, at offset: Int) {
    guard offset >= 0, offset <= span.byteCount &- MifareClassic.keySize else { return nil }
    var value: UInt64 = 0
    for i in 0..<MifareClassic.keySize { value = value << 8 | UInt64(span.byte(at: offset &+ i) ?? 0) }
    self.init(value: value)
  }

  /// The key from 12 hex digits (either case; spaces and colons between digits ignored);
  /// `nil` for anything else.
  public init?(hex: String) {
    var digits: [UInt8] = []
    for c in hex.utf8 where c != UInt8(ascii: " ") && c != UInt8(ascii: ":") { digits.append(c) }
    guard digits.count == 2 &* MifareClassic.keySize,
      let bytes = Hex.bytes(String(decoding: digits, as: UTF8.self))
    else { return nil }
    self.init(bytes: bytes)
  }

  /// `FF FF FF FF FF FF`: key A and key B of a card as shipped (MF1S50 §8.6.3).
  public static let transport = MifareClassicKey(value: 0xFFFF_FFFF_FFFF)
  /// `A0 A1 A2 A3 A4 A5`: the public key A of the MAD sectors (AN10787 §3.7).
  public static let madKeyA = MifareClassicKey(value: 0xA0A1_A2A3_A4A5)
  /// `D3 F7 D3 F7 D3 F7`: the NFC Forum public key A of NFC sectors (AN1304 §6.3.1).
  public static let nfcForumKeyA = MifareClassicKey(value: 0xD3F7_D3F7_D3F7)

  /// The public keys by name: transport, MAD key A, NFC Forum key A.
  public static let wellKnown: [MifareClassicKey] = [.transport, .madKeyA, .nfcForumKeyA]

  /// The six bytes, as the card stores them.
  public var bytes: [UInt8] {
    (0..<MifareClassic.keySize).map { UInt8(truncatingIfNeeded: value >> UInt64(40 &- 8 &* $0)) }
  }

  /// The name of a well-known public key (`transport`, `MAD key A`, `NFC Forum key A`), else `nil`.
  public var wellKnownName: String? {
    switch value {
    case Self.transport.value: return "transport"
    case Self.madKeyA.value: return "MAD key A"
    case Self.nfcForumKeyA.value: return "NFC Forum key A"
    default: return nil
    }
  }

  /// A 16-bit fingerprint that tells keys apart in logs without revealing them: the high
  /// 16 bits of the 32-bit FNV-1a hash of the 6 bytes.
  public var checkValue: UInt16 {
    var hash: UInt32 = 0x811C_9DC5
    for byte in bytes {
      hash ^= UInt32(byte)
      hash = hash &* 0x0100_0193
    }
    return UInt16(truncatingIfNeeded: hash >> 16)
  }

  /// The well-known name, else `key check XXXX` (``checkValue`` in hex); never the bytes.
  public var description: String {
    if let name = wellKnownName { return name }
    return "key check " + Hex.string([UInt8(checkValue >> 8), UInt8(truncatingIfNeeded: checkValue)])
  }

  /// `MifareClassicKey(` ``description`` `)`; never the bytes.
  public var debugDescription: String { "MifareClassicKey(" + description + ")" }
}

#if !hasFeature(Embedded)
  extension MifareClassicKey: CustomReflectable {
    /// A mirror with the description only, so `dump` does not print the key bytes.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
  }
#endif
