// SPDX-License-Identifier: Apache-2.0
import GlobalPlatformCryptoOpenSSL
import SecureChannel
import Testing

/// NIST SP 800-38B Appendix D.1–D.3: AES-CMAC examples (the 0-, 16-, 40- and 64-byte
/// messages under the AES-128, AES-192 and AES-256 example keys).
struct CMACExample: Sendable, CustomTestStringConvertible {
  let key: String
  let length: Int
  let tag: String
  var testDescription: String { "AES-\(hex(key).count * 8) \(length) bytes" }
}

let nistMessage = hex(
  "6bc1bee22e409f96e93d7e117393172a ae2d8a571e03ac9c9eb76fac45af8e51"
    + "30c81c46a35ce411e5fbc1191a0a52ef f69f2445df4f9b17ad2b417be66c3710")
let aes128Key = "2b7e151628aed2a6abf7158809cf4f3c"
let aes192Key = "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"
let aes256Key = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"

let cmacExamples: [CMACExample] = [
  CMACExample(key: aes128Key, length: 0, tag: "bb1d6929e95937287fa37d129b756746"),
  CMACExample(key: aes128Key, length: 16, tag: "070a16b46b4d4144f79bdd9dd04a287c"),
  CMACExample(key: aes128Key, length: 40, tag: "dfa66747de9ae63030ca32611497c827"),
  CMACExample(key: aes128Key, length: 64, tag: "51f0bebf7e3b9d92fc49741779363cfe"),
  CMACExample(key: aes192Key, length: 0, tag: "d17ddf46adaacde531cac483de7a9367"),
  CMACExample(key: aes192Key, length: 16, tag: "9e99a7bf31e710900662f65e617c5184"),
  CMACExample(key: aes192Key, length: 40, tag: "8a1de5be2eb31aad089a82e6ee908b0e"),
  CMACExample(key: aes192Key, length: 64, tag: "a1d5df0eed790f794d77589659f39a11"),
  CMACExample(key: aes256Key, length: 0, tag: "028962f61b7bf89efc6b551f4667d983"),
  CMACExample(key: aes256Key, length: 16, tag: "28a7023f452e8f82bd4bf28d8c37c35c"),
  CMACExample(key: aes256Key, length: 40, tag: "aaf3d8f1de5640c232f5b169b9c911e6"),
  CMACExample(key: aes256Key, length: 64, tag: "e1992190549f6ed5696a2c056c315410"),
]

@Suite("OpenSSL crypto provider")
struct CryptoProviderTests {
  @Test(arguments: cmacExamples)
  func nistCMAC(_ example: CMACExample) throws {
    let tag = try openSSL.aesCMAC(key: hex(example.key), message: Array(nistMessage.prefix(example.length)))
    #expect(hexString(tag) == example.tag)
  }

  /// FIPS 197 Appendix C.1–C.3 (ECB of one block) and NIST SP 800-38A F.2.1 (CBC).
  @Test func aes() throws {
    let plain = hex("00112233445566778899aabbccddeeff")
    let keys = (0..<32).map { UInt8($0) }
    let expected = [
      16: "69c4e0d86a7b0430d8cdb78070b4c55a", 24: "dda97ca4864cdfe06eaf70a0ec0d7191",
      32: "8ea2b7ca516745bfeafc49904b496089",
    ]
    for (count, cipher) in expected {
      let key = Array(keys.prefix(count))
      #expect(hexString(try openSSL.aesECB(encrypting: true, key: key, data: plain)) == cipher)
      #expect(try openSSL.aesECB(encrypting: false, key: key, data: hex(cipher)) == plain)
    }
    let cbc = try openSSL.aesCBC(
      encrypting: true, key: hex(aes128Key), iv: hex("000102030405060708090a0b0c0d0e0f"),
      data: Array(nistMessage.prefix(32)))
    #expect(hexString(cbc) == "7649abac8119b246cee98e9b12e9197d" + "5086cb9b507219ee95db113a917678b2")
    #expect(
      try openSSL.aesCBC(
        encrypting: false, key: hex(aes128Key), iv: hex("000102030405060708090a0b0c0d0e0f"), data: cbc)
        == Array(nistMessage.prefix(32)))
  }

  /// Single DES both ways OpenSSL 3 offers it: K‖K‖K TDEA in the default provider and DES
  /// from the legacy provider give the same known answer (FIPS 81-era example: key
  /// 133457799BBCDFF1, plaintext 0123456789ABCDEF → 85E813540F0AB405).
  @Test(arguments: [false, true])
  func singleDES(legacy: Bool) throws {
    let crypto = legacy ? openSSLLegacy : openSSL
    #expect(crypto.singleDES == (legacy ? .legacyProvider : .tripleDESWithRepeatedKey))
    let key = hex("133457799BBCDFF1")
    let cipher = try crypto.desCBC(
      encrypting: true, key: key, iv: hex("0000000000000000"), data: hex("0123456789ABCDEF"))
    #expect(hexString(cipher) == "85e813540f0ab405")
    #expect(
      try crypto.desCBC(encrypting: false, key: key, iv: hex("0000000000000000"), data: cipher)
        == hex("0123456789ABCDEF"))
    // CBC chaining over two blocks.
    let two = try crypto.desCBC(
      encrypting: true, key: key, iv: hex("0000000000000000"), data: hex("0123456789ABCDEF0123456789ABCDEF"))
    #expect(Array(two[0..<8]) == cipher)
    let chained = try crypto.desCBC(encrypting: true, key: key, iv: cipher, data: hex("0123456789ABCDEF"))
    #expect(Array(two[8...]) == chained)
  }

  /// The retail MAC equals DES-CBC under K1 followed by DES⁻¹(K2), DES(K1) on the last block,
  /// whichever single-DES path is used.
  @Test(arguments: [false, true])
  func retailMAC(legacy: Bool) throws {
    let crypto = legacy ? openSSLLegacy : openSSL
    let key = hex("404142434445464748494a4b4c4d4e4f")
    let message = hex("84f220020a4f00" + "80" + "00000000000000000000000000000000")
    var h = hex("0011223344556677")
    for start in stride(from: 0, to: message.count, by: 8) {
      let block = zip(h, message[start..<(start + 8)]).map { $0 ^ $1 }
      h = try crypto.desCBC(
        encrypting: true, key: Array(key[0..<8]), iv: hex("0000000000000000"), data: block)
    }
    h = try crypto.desCBC(encrypting: false, key: Array(key[8...]), iv: hex("0000000000000000"), data: h)
    h = try crypto.desCBC(encrypting: true, key: Array(key[0..<8]), iv: hex("0000000000000000"), data: h)
    #expect(try crypto.retailMAC(key: key, iv: hex("0011223344556677"), message: message) == h)
  }

  /// Two- and three-key TDEA: a 16-byte key K1‖K2 equals the 24-byte K1‖K2‖K1.
  @Test func tripleDES() throws {
    let k = hex("0123456789abcdef23456789abcdef01")
    let data = hex("00112233445566778899aabbccddeeff")
    let iv = hex("0001020304050607")
    let two = try openSSL.desCBC(encrypting: true, key: k, iv: iv, data: data)
    let three = try openSSL.desCBC(encrypting: true, key: k + Array(k[0..<8]), iv: iv, data: data)
    #expect(two == three)
    #expect(try openSSL.desCBC(encrypting: false, key: k, iv: iv, data: two) == data)
  }

  /// FIPS 180-4 examples ("abc").
  @Test func digests() throws {
    let abc: [UInt8] = Array("abc".utf8)
    #expect(hexString(try openSSL.sha1(abc)) == "a9993e364706816aba3e25717850c26c9cd0d89d")
    #expect(
      hexString(try openSSL.sha256(abc)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    )
  }

  @Test func randomBytes() throws {
    let a = try openSSL.randomBytes(count: 32)
    let b = try openSSL.randomBytes(count: 32)
    #expect(a.count == 32)
    #expect(a != b)
    #expect(try openSSL.randomBytes(count: 0).isEmpty)
  }

  /// Wrong lengths are refused with a typed error, never a trap.
  @Test func badLengths() {
    let failure = SecureChannelError(.cryptoFailure)
    #expect(throws: failure) { try openSSL.aesECB(encrypting: true, key: hex("00"), data: []) }
    #expect(throws: failure) { try openSSL.aesECB(encrypting: true, key: hex(aes128Key), data: [1]) }
    #expect(throws: failure) { try openSSL.aesCBC(encrypting: true, key: hex(aes128Key), iv: [0], data: []) }
    #expect(throws: failure) { try openSSL.aesCMAC(key: hex("0011"), message: []) }
    #expect(throws: failure) {
      try openSSL.desCBC(encrypting: true, key: hex("0011"), iv: hex("0000000000000000"), data: [])
    }
    #expect(throws: failure) {
      try openSSL.desCBC(encrypting: true, key: hex("0011223344556677"), iv: [0], data: [])
    }
    #expect(throws: failure) {
      try openSSL.retailMAC(key: hex("0011223344556677"), iv: hex("0000000000000000"), message: [])
    }
    #expect(throws: failure) { try openSSL.randomBytes(count: -1) }
  }
}
