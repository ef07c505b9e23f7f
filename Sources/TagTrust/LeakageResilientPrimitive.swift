// SPDX-License-Identifier: Apache-2.0
/// NXP's Leakage Resilient Primitive (AN12304) over a provider's AES, with m = 4 (nibbles)
/// and 16 plaintexts: the plaintexts and updated keys (§2.1 Algorithms 1 and 2), the
/// evaluation (§2.1 Algorithm 3), LRICB decryption (§2.2) and CMAC over LRP (§2.3).
///
/// For checking what a tag produced (the reader's side); not written to resist side channels.
/// The SUN checks use the same algorithms on inline storage (no allocation); this type gives
/// them as arrays.
public struct LeakageResilientPrimitive: Sendable, Hashable {
  /// The 16 plaintexts P0…P15 (Algorithm 1).
  public let plaintexts: [[UInt8]]
  /// The updated keys (Algorithm 2), four of them.
  public let updatedKeys: [[UInt8]]
  /// The same material inline, which every operation runs on.
  let material: LRPKeyMaterial

  /// The number of updated keys made (AN12321 uses the first two).
  public static let updatedKeyCount = LRPKeyMaterial.updatedKeyCount

  /// Derives the plaintexts and updated keys of `key`.
  ///
  /// - Throws: ``TagTrustError/Code/invalidKeyLength`` for a key that is not 16 bytes;
  ///   ``TagTrustError/Code/cryptoFailure`` from the provider.
  public init<C: TagTrustCrypto>(key: [UInt8], crypto: C) throws(TagTrustError) {
    guard let block = AESBlock(key) else { throw TagTrustError(.invalidKeyLength) }
    let material = try LRPKeyMaterial(key: block, crypto: crypto)
    self.material = material
    self.plaintexts = (0..<16).map { material.plaintexts[$0].array }
    self.updatedKeys = (0..<LRPKeyMaterial.updatedKeyCount).map { material.updatedKeys[$0].array }
  }

  /// Algorithm 3: the evaluation of `input`, nibble by nibble (high first), under updated key
  /// `keyIndex`, with the final encryption of zeros when `final`.
  public func evaluate<C: TagTrustCrypto>(_ input: [UInt8], keyIndex: Int, final: Bool = true, crypto: C)
    throws(TagTrustError) -> [UInt8]
  {
    guard updatedKeys.indices.contains(keyIndex) else { throw TagTrustError(.invalidKeyLength) }
    return try material.evaluate(input.span, keyIndex: keyIndex, final: final, crypto: crypto).array
  }

  /// §2.2 LRICB decryption of whole blocks without padding removal, with the counter `counter`
  /// (incremented big-endian per block, wrapping) and updated key `keyIndex`.
  ///
  /// - Throws: ``TagTrustError/Code/invalidParameterLength`` when `data` is not whole blocks.
  public func decrypt<C: TagTrustCrypto>(_ data: [UInt8], counter: [UInt8], keyIndex: Int, crypto: C)
    throws(TagTrustError) -> [UInt8]
  {
    guard data.count % 16 == 0 else { throw TagTrustError(.invalidParameterLength) }
    guard updatedKeys.indices.contains(keyIndex) else { throw TagTrustError(.invalidKeyLength) }
    var counter = counter
    var out: [UInt8] = []
    out.reserveCapacity(data.count)
    var start = 0
    while start < data.count {
      guard let block = AESBlock(data[start..<(start + 16)]) else {
        throw TagTrustError(.invalidParameterLength)
      }
      out += try material.decrypt(block, counter: counter.span, keyIndex: keyIndex, crypto: crypto).array
      Self.increment(&counter)
      start += 16
    }
    return out
  }

  /// §2.3 CMAC over LRP (NIST SP 800-38B's construction with the LRP evaluation under updated
  /// key 0 as the block cipher), 16 bytes.
  public func cmac<C: TagTrustCrypto>(_ message: [UInt8], crypto: C) throws(TagTrustError) -> [UInt8] {
    try material.cmac(message.span, crypto: crypto).array
  }

  /// Multiplication by x in GF(2^128) with x^128 + x^7 + x^2 + x + 1 (NIST SP 800-38B §6.1).
  static func doubled(_ block: [UInt8]) -> [UInt8] {
    AESBlock(block).map { $0.doubled().array } ?? block
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

/// One key's LRP plaintexts and updated keys held inline (AN12304 §2.1 Algorithms 1 and 2),
/// and the LRP operations on them without allocation, as SUN checks need per request.
struct LRPKeyMaterial: Sendable, Hashable {
  /// The number of updated keys made (AN12321 uses the first two).
  static let updatedKeyCount = 4
  /// P0…P15.
  var plaintexts: InlineArray<16, AESBlock>
  /// The updated keys.
  var updatedKeys: InlineArray<4, AESBlock>

  /// Algorithms 1 and 2 for `key`.
  init<C: TagTrustCrypto>(key: AESBlock, crypto: C) throws(TagTrustError) {
    let fives = AESBlock(repeating: 0x55)
    let tens = AESBlock(repeating: 0xAA)
    var plaintexts = InlineArray<16, AESBlock>(repeating: AESBlock())
    var state = try crypto.aesBlock(encrypting: true, key: key, block: fives)
    for index in 0..<16 {
      plaintexts[index] = try crypto.aesBlock(encrypting: true, key: state, block: tens)
      state = try crypto.aesBlock(encrypting: true, key: state, block: fives)
    }
    var updatedKeys = InlineArray<4, AESBlock>(repeating: AESBlock())
    state = try crypto.aesBlock(encrypting: true, key: key, block: tens)
    for index in 0..<Self.updatedKeyCount {
      updatedKeys[index] = try crypto.aesBlock(encrypting: true, key: state, block: tens)
      state = try crypto.aesBlock(encrypting: true, key: state, block: fives)
    }
    self.plaintexts = plaintexts
    self.updatedKeys = updatedKeys
  }

  /// Algorithm 3 over `input`'s nibbles, high first; `keyIndex` must be below 4.
  func evaluate<C: TagTrustCrypto>(_ input: Span<UInt8>, keyIndex: Int, final: Bool = true, crypto: C)
    throws(TagTrustError) -> AESBlock
  {
    var y = updatedKeys[keyIndex]
    for index in input.indices {
      let byte = input[index]
      y = try crypto.aesBlock(encrypting: true, key: y, block: plaintexts[Int(byte >> 4)])
      y = try crypto.aesBlock(encrypting: true, key: y, block: plaintexts[Int(byte & 0x0F)])
    }
    if final { y = try crypto.aesBlock(encrypting: true, key: y, block: AESBlock()) }
    return y
  }

  /// One LRICB block decrypted (§2.2) with the counter value `counter`.
  func decrypt<C: TagTrustCrypto>(_ block: AESBlock, counter: Span<UInt8>, keyIndex: Int, crypto: C)
    throws(TagTrustError) -> AESBlock
  {
    let key = try evaluate(counter, keyIndex: keyIndex, crypto: crypto)
    return try crypto.aesBlock(encrypting: false, key: key, block: block)
  }

  /// §2.3 CMAC over LRP under updated key 0.
  func cmac<C: TagTrustCrypto>(_ message: Span<UInt8>, crypto: C) throws(TagTrustError) -> AESBlock {
    try BlockCMAC.compute(message) { block throws(TagTrustError) in
      try evaluate(block.bytes.span, keyIndex: 0, crypto: crypto)
    }
  }

  static func == (a: LRPKeyMaterial, b: LRPKeyMaterial) -> Bool {
    for index in 0..<16 where a.plaintexts[index] != b.plaintexts[index] { return false }
    for index in 0..<Self.updatedKeyCount where a.updatedKeys[index] != b.updatedKeys[index] { return false }
    return true
  }

  func hash(into hasher: inout Hasher) {
    for index in 0..<16 { hasher.combine(plaintexts[index]) }
    for index in 0..<Self.updatedKeyCount { hasher.combine(updatedKeys[index]) }
  }
}
