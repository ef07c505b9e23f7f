// SPDX-License-Identifier: Apache-2.0
import ISO7816
import SecureChannel
import Testing

@Suite("Keys: check values, diversification, PUT KEY")
struct KeyTests {
  /// AES key check values published with pySim's SCP03 key sets (AES(key, 16×01)[0..3]).
  @Test func aesCheckValues() throws {
    let keys = try SecureChannelKeys(
      encryption: hex("000102030405060708090a0b0c0d0e0f"), mac: hex("101112131415161718191a1b1c1d1e1f"),
      dataEncryption: hex("202122232425262728292a2b2c2d2e2f"))
    let values = try keys.checkValues(for: .aes, crypto: openSSL)
    #expect(values.map(\.description) == ["C35280", "013808", "840DE5"])
  }

  /// GlobalPlatformPro's `TestPlaintextKeys`: master 404142…4F, KDD 00010203040506070809.
  @Test(arguments: [
    ("emv", KeyCheckValue.Algorithm.tripleDES, ["C33013", "6F4CA6", "BB8179"]),
    ("visa2", .tripleDES, ["2BE598", "58DA38", "3C328E"]),
    ("kdf3", .aes, ["E79C05", "D1BD77", "3FDE8C"]),
  ])
  func diversification(name: String, algorithm: KeyCheckValue.Algorithm, expected: [String]) throws {
    let method = try #require(KeyDiversification(name: name))
    #expect(method.description == name)
    let keys = try method.diversify(
      .wellKnownTestKeys, keyDiversificationData: hex("00010203040506070809"), crypto: openSSL)
    #expect(try keys.checkValues(for: algorithm, crypto: openSSL).map(\.description) == expected)
  }

  /// GlobalPlatformPro's `testKDF3`: an AES-256 master key (two KDF3 blocks).
  @Test func kdf3AES256() throws {
    let master = try SecureChannelKeys(
      key: hex("8C72C72CF908411653018807950D82FBAD947562F0828A0B10B8B9606ABF3BCD"))
    let keys = try KeyDiversification.kdf3.diversify(
      master, keyDiversificationData: hex("D9B1DE5D0362DEDCE4FB"), crypto: openSSL)
    #expect(keys.encryption == hex("9AAC5D0B3601F89438A0D9D0B6B256CFB47E6462DFA5228D3420C4AC7C224781"))
  }

  @Test func diversificationRefusesBadInput() throws {
    #expect(throws: SecureChannelError(.invalidKeyDiversificationData)) {
      try KeyDiversification.emv.diversify(
        .wellKnownTestKeys, keyDiversificationData: hex("0001"), crypto: openSSL)
    }
    let aes256 = try SecureChannelKeys(key: [UInt8](repeating: 1, count: 32))
    #expect(throws: SecureChannelError(.invalidKeyDiversificationData)) {
      try KeyDiversification.visa2.diversify(
        aes256, keyDiversificationData: hex("00010203040506070809"), crypto: openSSL)
    }
    #expect(KeyDiversification(name: "visa") == nil)
    #expect(
      try KeyDiversification.none.diversify(.wellKnownTestKeys, keyDiversificationData: [], crypto: openSSL)
        == .wellKnownTestKeys)
  }

  /// Keys never appear in descriptions, debug descriptions or dumps: only lengths.
  @Test func keysAreHidden() throws {
    let keys = SecureChannelKeys.wellKnownTestKeys
    for text in [keys.description, keys.debugDescription, String(reflecting: keys), "\(keys)"] {
      #expect(!text.contains("40414243"))
      #expect(!text.lowercased().contains("4f"))
    }
    var dumped = ""
    dump(keys, to: &dumped)
    #expect(!dumped.contains("64"))  // 0x40 as a decimal array element
    #expect(keys.description == "SecureChannelKeys(3 × 16-byte keys, shown only as check values)")
    #expect(
      try keys.checkValues(for: .tripleDES, crypto: openSSL).map(\.description) == [
        "8BAF47", "8BAF47", "8BAF47",
      ])
  }

  @Test func keyLengths() {
    for count in [0, 8, 15, 17, 23, 31, 33, 48] {
      #expect(throws: SecureChannelError(.invalidKeyLength)) {
        try SecureChannelKeys(key: [UInt8](repeating: 0, count: count))
      }
    }
    #expect(throws: SecureChannelError(.invalidKeyLength)) {
      try SecureChannelKeys(
        encryption: [UInt8](repeating: 0, count: 16), mac: [UInt8](repeating: 0, count: 24),
        dataEncryption: [UInt8](repeating: 0, count: 16))
    }
    #expect(throws: SecureChannelError(.invalidKeyLength)) {
      try KeyCheckValue.compute(of: [UInt8](repeating: 0, count: 32), algorithm: .tripleDES, crypto: openSSL)
    }
  }

  /// SCP03 PUT KEY (Amendment D §7.2, GPCS Table 11-70): every key length, decrypted back
  /// under the static DEK; AES-192 keys are padded to 32 bytes with key length 18.
  @Test(arguments: [16, 24, 32])
  func putKeySCP03(keyLength: Int) throws {
    let trace = scp03Traces[0]
    var session = try openTrace(trace)
    _ = try session.wrap(CommandAPDU(parsing: hex(traceGetEID)))
    let newKeys = try SecureChannelKeys(
      encryption: (0..<keyLength).map { UInt8($0) ^ 0xA5 }, mac: (0..<keyLength).map { UInt8($0) ^ 0x5A },
      dataEncryption: (0..<keyLength).map { UInt8($0) ^ 0x3C })
    let put = try PutKeyCommand(keys: newKeys, newKeyVersion: 0x31, replacing: 0x30, session: session)
    #expect(put.command.p1 == 0x30)
    #expect(put.command.p2 == 0x81)
    #expect(put.command.ins.rawValue == 0xD8)
    let cipherLength = keyLength == 16 ? 16 : 32
    var data = put.command.data
    #expect(data.removeFirst() == 0x31)
    for (key, check) in zip([newKeys.encryption, newKeys.mac, newKeys.dataEncryption], put.checkValues) {
      #expect(Array(data[0..<3]) == [0x88, UInt8(cipherLength + 1), UInt8(keyLength)])
      let plain = try openSSL.aesCBC(
        encrypting: false, key: trace.keys.dataEncryption, iv: [UInt8](repeating: 0, count: 16),
        data: Array(data[3..<(3 + cipherLength)]))
      #expect(Array(plain[0..<keyLength]) == key)
      #expect(Array(data[(3 + cipherLength)..<(7 + cipherLength)]) == [0x03] + check.bytes)
      #expect(check == (try KeyCheckValue.compute(of: key, algorithm: .aes, crypto: openSSL)))
      data.removeFirst(7 + cipherLength)
    }
    #expect(data.isEmpty)
    #expect(put.expectedResponseData == [0x31] + put.checkValues.flatMap(\.bytes))
    #expect(throws: SecureChannelError(.invalidKeyVersion)) {
      try PutKeyCommand(keys: newKeys, newKeyVersion: 0x80, session: session)
    }
    #expect(throws: SecureChannelError(.invalidKeyVersion)) {
      try PutKeyCommand(keys: newKeys, newKeyVersion: 0x00, session: session)
    }
  }

  /// SCP02 PUT KEY (GPCS §E.4.7, Table 11-71): 3DES-ECB under the session DEK, derived here
  /// independently from the sequence counter (constant 0181).
  @Test func putKeySCP02() throws {
    let staticKeys = try SecureChannelKeys(
      encryption: hex("100102030405060708090a0b0c0d0e0f"), mac: hex("101102030405060708090a0b0c0d0e0f"),
      dataEncryption: hex("102102030405060708090a0b0c0d0e0f"))
    var opening = try SecureChannelOpening(
      configuration: SecureChannelConfiguration(keys: staticKeys),
      crypto: ReplayCrypto(challenge: hex("40A62C37FA6304F8")))
    _ = try opening.receiveInitializeUpdate(
      response("00000000000000000000700200016B4524ABEE7CF32EA3838BC148F3"))
    let session = try opening.receiveExternalAuthenticate(response(""))
    let put = try PutKeyCommand(keys: .wellKnownTestKeys, newKeyVersion: 0x21, session: session)
    let sessionDEK = try openSSL.desCBC(
      encrypting: true, key: staticKeys.dataEncryption, iv: [UInt8](repeating: 0, count: 8),
      data: hex("0181" + "0001" + "000000000000000000000000"))
    var data = put.command.data
    #expect(data.removeFirst() == 0x21)
    #expect(put.command.p1 == 0x00)
    for check in put.checkValues {
      #expect(Array(data[0..<2]) == [0x80, 0x10])
      var plain: [UInt8] = []
      for start in [2, 10] {
        plain += try openSSL.desCBC(
          encrypting: false, key: sessionDEK, iv: [UInt8](repeating: 0, count: 8),
          data: Array(data[start..<(start + 8)]))
      }
      #expect(plain == SecureChannelKeys.wellKnownTestKeys.encryption)
      #expect(Array(data[18..<22]) == [0x03, 0x8B, 0xAF, 0x47])
      #expect(check.description == "8BAF47")
      data.removeFirst(22)
    }
    #expect(data.isEmpty)
    let aes = try SecureChannelKeys(key: [UInt8](repeating: 7, count: 32))
    #expect(throws: SecureChannelError(.invalidKeyLength)) {
      try PutKeyCommand(keys: aes, newKeyVersion: 0x21, session: session)
    }
  }
}

/// Opens the session of a published SCP03 trace.
func openTrace(_ trace: SCP03Trace) throws -> SecureChannelSession<ReplayCrypto> {
  var opening = try SecureChannelOpening(
    configuration: SecureChannelConfiguration(keys: trace.keys, securityLevel: trace.securityLevel),
    crypto: ReplayCrypto(challenge: trace.hostChallenge))
  _ = try opening.receiveInitializeUpdate(response(trace.initializeUpdateResponse))
  return try opening.receiveExternalAuthenticate(response(""))
}
