// SPDX-License-Identifier: Apache-2.0
/// NXP's Leakage Resilient Primitive (AN12304) over a provider's AES, with m = 4 (nibbles)
/// and 16 plaintexts: the plaintexts and updated keys (§2.1 Algorithms 1 and 2), the
/// evaluation (§2.1 Algorithm 3), LRICB decryption (§2.2) and CMAC over LRP (§2.3).
///
/// For checking what a tag produced (the reader's side); not written to resist side channels.
public struct LeakageResilientPrimitive: Sendable, Hashable {
  /// The 16 plaintexts P0…P15 (Algorithm 1).
  public let plaintexts: [[UInt8]]
  /// The updated keys (Algorithm 2), four of them.
  public let updatedKeys: [[UInt8]]

  /// The number of updated keys made (AN12321 uses the first two).
  public static let updatedKeyCount = 4

  /// Derives the plaintexts and updated keys of `key`.
  ///
  /// - Throws: ``TagTrustError/Code/invalidKeyLength`` for a key that is not 16 bytes;
  ///   ``TagTrustError/Code/cryptoFailure`` from the provider.
  public init<C: TagTrustCrypto>(key: [UInt8], crypto: C) throws(TagTrustError) {
    guard key.count == 16 else { throw TagTrustError(.invalidKeyLength) }
    let fives = [UInt8](repeating: 0x55, count: 16)
    let tens = [UInt8](repeating: 0xAA, count: 16)
    var plaintexts: [[UInt8]] = []
    var state = try crypto.aesECB(encrypting: true, key: key, data: fives)
    for _ in 0..<16 {
      plaintexts.append(try crypto.aesECB(encrypting: true, key: state, data: tens))
      state = try crypto.aesECB(encrypting: true, key: state, data: fives)
    }
    var updatedKeys: [[UInt8]] = []
    state = try crypto.aesECB(encrypting: true, key: key, data: tens)
    for _ in 0..<Self.updatedKeyCount {
      updatedKeys.append(try crypto.aesECB(encrypting: true, key: state, data: tens))
      state = try crypto.aesECB(encrypting: true, key: state, data: fives)
    }
    self.plaintexts = plaintexts
    self.updatedKeys = updatedKeys
  }

  /// Algorithm 3: the evaluation of `input`, nibble by nibble (high first), under updated key
  /// `keyIndex`, with the final encryption of zeros when `final`.
  public func evaluate<C: TagTrustCrypto>(_ input: [UInt8], keyIndex: Int, final: Bool = true, crypto: C)
    throws(TagTrustError) -> [UInt8]
  {
    guard updatedKeys.indices.contains(keyIndex) else { throw TagTrustError(.invalidKeyLength) }
    var y = updatedKeys[keyIndex]
    for byte in input {
      y = try crypto.aesECB(encrypting: true, key: y, data: plaintexts[Int(byte >> 4)])
      y = try crypto.aesECB(encrypting: true, key: y, data: plaintexts[Int(byte & 0x0F)])
    }
    if final { y = try crypto.aesECB(encrypting: true, key: y, data: [UInt8](repeating: 0, count: 16)) }
    return y
  }

  /// §2.2 LRICB decryption of whole blocks without padding removal, with the counter `counter`
  /// (incremented big-endian per block, wrapping) and updated key `keyIndex`.
  ///
  /// - Throws: ``TagTrustError/Code/invalidParameterLength`` when `data` is not whole blocks.
  public func decrypt<C: TagTrustCrypto>(_ data: [UInt8], counter: [UInt8], keyIndex: Int, crypto: C)
    throws(TagTrustError) -> [UInt8]
  {
    guard data.count % 16 == 0 else { throw TagTrustError(.invalidParameterLength) }
    var counter = counter
    var out: [UInt8] = []
    out.reserveCapacity(data.count)
    var start = 0
    while start < data.count {
      let key = try evaluate(counter, keyIndex: keyIndex, crypto: crypto)
      out += try crypto.aesECB(encrypting: false, key: key, data: Array(data[start..<(start + 16)]))
      Self.increment(&counter)
      start += 16
    }
    return out
  }

  /// §2.3 CMAC over LRP (NIST SP 800-38B's construction with the LRP evaluation under updated
  /// key 0 as the block cipher), 16 bytes.
  public func cmac<C: TagTrustCrypto>(_ message: [UInt8], crypto: C) throws(TagTrustError) -> [UInt8] {
    let k0 = try evaluate([UInt8](repeating: 0, count: 16), keyIndex: 0, crypto: crypto)
    let k1 = Self.doubled(k0)
    let k2 = Self.doubled(k1)
    var y = [UInt8](repeating: 0, count: 16)
    var start = 0
    while message.count - start > 16 {
      for index in 0..<16 { y[index] ^= message[start + index] }
      y = try evaluate(y, keyIndex: 0, crypto: crypto)
      start += 16
    }
    var last = Array(message[start...])
    let complete = last.count == 16
    if !complete {
      last.append(0x80)
      while last.count < 16 { last.append(0) }
    }
    let subkey = complete ? k1 : k2
    for index in 0..<16 { y[index] ^= last[index] ^ subkey[index] }
    return try evaluate(y, keyIndex: 0, crypto: crypto)
  }

  /// Multiplication by x in GF(2^128) with x^128 + x^7 + x^2 + x + 1 (NIST SP 800-38B §6.1).
  static func doubled(_ block: [UInt8]) -> [UInt8] {
    var out = [UInt8](repeating: 0, count: 16)
    var carry: UInt8 = 0
    for index in stride(from: 15, through: 0, by: -1) {
      out[index] = block[index] << 1 | carry
      carry = block[index] >> 7
    }
    if carry == 1 { out[15] ^= 0x87 }
    return out
  }

  /// Adds one to `counter`, big-endian, wrapping to zeros.
  static func increment(_ counter: inout [UInt8]) {
    var index = counter.count - 1
    while index >= 0 {
      counter[index] &+= 1
      if counter[index] != 0 { return }
      index -= 1
    }
  }
}
