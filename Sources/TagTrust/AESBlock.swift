// SPDX-License-Identifier: Apache-2.0
/// Sixteen bytes held inline: an AES block or an AES-128 key (FIPS 197 §3.1, Nb = Nk = 4).
///
/// SUN checks pass keys and blocks as these values, so the per-request path needs no heap
/// storage (``SUNMessage/verify(url:keys:names:macInput:crypto:)-(Span<UInt8>,_,_,_,_)``).
public struct AESBlock: Sendable, Hashable {
  /// The 16 bytes.
  public var bytes: InlineArray<16, UInt8>

  /// Sixteen zero bytes.
  public init() { bytes = InlineArray(repeating: 0) }

  /// Sixteen bytes of `value`.
  public init(repeating value: UInt8) { bytes = InlineArray(repeating: value) }

  /// The bytes `bytes` holds.
  public init(_ bytes: InlineArray<16, UInt8>) { self.bytes = bytes }

  /// The bytes of `collection`, or nil when it does not hold exactly 16.
  public init?(_ collection: some Collection<UInt8>) {
    guard collection.count == 16 else { return nil }
    var bytes = InlineArray<16, UInt8>(repeating: 0)
    var index = 0
    for byte in collection {
      bytes[index] = byte
      index += 1
    }
    self.bytes = bytes
  }

  /// Byte `index` (0...15).
  public subscript(index: Int) -> UInt8 {
    get { bytes[index] }
    set { bytes[index] = newValue }
  }

  /// The 16 bytes in a new array.
  public var array: [UInt8] { (0..<16).map { bytes[$0] } }

  /// Multiplication by x in GF(2^128) with x^128 + x^7 + x^2 + x + 1 (NIST SP 800-38B §6.1,
  /// the CMAC subkey step).
  func doubled() -> AESBlock {
    var out = AESBlock()
    var carry: UInt8 = 0
    for index in stride(from: 15, through: 0, by: -1) {
      out[index] = bytes[index] << 1 | carry
      carry = bytes[index] >> 7
    }
    if carry == 1 { out[15] ^= 0x87 }
    return out
  }

  /// Whether both hold the same bytes (every byte compared).
  public static func == (a: AESBlock, b: AESBlock) -> Bool {
    var difference: UInt8 = 0
    for index in 0..<16 { difference |= a.bytes[index] ^ b.bytes[index] }
    return difference == 0
  }

  /// Hashes the 16 bytes.
  public func hash(into hasher: inout Hasher) {
    for index in 0..<16 { hasher.combine(bytes[index]) }
  }
}

/// CMAC (NIST SP 800-38B §6.2) over any 128-bit block cipher given as a function, without
/// allocating: AES-CMAC with an AES encryption, or CMAC over LRP (AN12304 §2.3) with the LRP
/// evaluation as the cipher.
public enum BlockCMAC {
  /// The 16-byte CMAC of `message` under `cipher` (the block cipher's encryption under the
  /// MAC key): the subkeys from `cipher(0¹²⁸)` (§6.1), the blocks chained, the last one
  /// completed with `80 00…` and the second subkey, or taken whole with the first.
  public static func compute(
    _ message: Span<UInt8>, cipher: (AESBlock) throws(TagTrustError) -> AESBlock
  ) throws(TagTrustError) -> AESBlock {
    let k1 = try cipher(AESBlock()).doubled()
    let k2 = k1.doubled()
    var y = AESBlock()
    var start = 0
    while message.count - start > 16 {
      for index in 0..<16 { y[index] ^= message[start + index] }
      y = try cipher(y)
      start += 16
    }
    let rest = message.count - start
    let subkey = rest == 16 ? k1 : k2
    for index in 0..<16 {
      let byte: UInt8 = index < rest ? message[start + index] : (index == rest ? 0x80 : 0)
      y[index] ^= byte ^ subkey[index]
    }
    return try cipher(y)
  }
}
