// SPDX-License-Identifier: Apache-2.0
import ISO7816
import SecureChannel
import Testing

/// Session traces published as test data in osmocom/pySim
/// (`tests/unittests/test_globalplatform.py` at 078ac2b, GPL-2.0; only the hex is used here,
/// as data): keys ENC 000102…, MAC 101112…, DEK 202122… (AES-128/192/256, KVN 30/31/32,
/// `i` = 70), replayed in the file's order because the MAC chaining value and the
/// encryption counter carry over from one command to the next.
struct SCP03Trace: Sendable, CustomTestStringConvertible {
  let name: String
  let keyLength: Int
  let initializeUpdate: String
  let initializeUpdateResponse: String
  let externalAuthenticate: String
  let getEID: String
  let getEIDResponse: String
  let cases: [String]
  var testDescription: String { name }

  var keys: SecureChannelKeys {
    let base = (0..<keyLength).map { UInt8($0 % 16) }
    return try! SecureChannelKeys(
      encryption: base, mac: base.map { $0 | 0x10 }, dataEncryption: base.map { $0 | 0x20 })
  }
  var securityLevel: SecurityLevel { SecurityLevel(rawValue: hex(externalAuthenticate)[2]) }
  var hostChallenge: [UInt8] { Array(hex(initializeUpdate)[5..<13]) }
}

let scp03Traces: [SCP03Trace] = [
  SCP03Trace(
    name: "AES-128 SL 11", keyLength: 16, initializeUpdate: "8050300008b13e5f938fc108c400",
    initializeUpdateResponse: "000000000000000000003003703eb51047495b249f66c484c1d2ef1948000002",
    externalAuthenticate: "84821100107d5f5826a993ebc89eea24957fa0b3ce",
    getEID: "84e291000ebf3e035c015a558d036518a2829700",
    getEIDResponse: "bf3e125a1089882119900000000000000000000005971be68992dbbdfa",
    cases: [
      "84f220020863a63f8959827fb2", "84ca006608a0c6a4a74166f7ce00",
      "84f22002124f0212345c054f9f70c52249b50272656536",
      "84f280020a4f00e91443f6dce6b8ed00",
    ]),
  SCP03Trace(
    name: "AES-128 SL 03", keyLength: 16, initializeUpdate: "80503000088e1552d0513c60f300",
    initializeUpdateResponse: "0000000000000000000030037030760cd2c47c1dd395065fe5ead8a9d7000001",
    externalAuthenticate: "8482030010fd4721a14d9b07003c451d2f8ae6bb21",
    getEID: "84e2910018ca9c00f6713d79bc8baa642bdff51c3f6a4082d3bd9ad26c00",
    getEIDResponse: "bf3e125a1089882119900000000000000000000005",
    cases: [
      "84f2200208c9811b11f1264cf1", "84ca006608e10ab60b3054798800",
      "84f22002184e2908bdb48b2315a55482e9e936ca122d6ecfae7d17416e",
      "84f28002180dd10a6b6193e5340b9e77d32d5a179cd710ac2773aefb2800",
    ]),
  SCP03Trace(
    name: "AES-128 SL 33", keyLength: 16, initializeUpdate: "8050300008fdf38259a1e0de4400",
    initializeUpdateResponse: "000000000000000000003003703b1aca81e821f219081cdc01c26b372d000003",
    externalAuthenticate: "84823300108c36f96bcc00724a4e13ad591d7da3f0",
    getEID: "84e2910018267a85dfe4a98fca6fb0527e0dfecce4914e40401433c87f00",
    getEIDResponse: "f3ba2b1013aa6224f5e1c138d71805c569e5439b47576260b75fc021b25097cb2e68f8a0144975b9",
    cases: [
      "84f2200208ac6a59024bed84cc", "84ca006608409912ad8fb7aed000",
      "84f22002185f3dafc3ac14c381536a488bf44e06d056df9d74dbd21e5a",
      "84f280021865165105be3373347d0424d4400af2ac393f569ec779389e00",
    ]),
  SCP03Trace(
    name: "AES-192 SL 11", keyLength: 24, initializeUpdate: "80503100087396430b768b085b00",
    initializeUpdateResponse: "000000000000000000003103708cfc23522ffdbf1e5df5542cac8fd866000003",
    externalAuthenticate: "84821100102145ed30b146f5db252fb7e624cec244",
    getEID: "84e291000ebf3e035c015aff42cf801d14394400",
    getEIDResponse: "bf3e125a1089882119900000000000000000000005162fbd33e04940a9",
    cases: [
      "84f22002084584e4f6784811ee", "84ca006608937776ebe190fa3000",
      "84f22002124f0212345c054f9f70c59a52bddf3040368c",
      "84f280020a4f009804b11411f7393d00",
    ]),
  SCP03Trace(
    name: "AES-192 SL 03", keyLength: 24, initializeUpdate: "805031000869c65da8202bf19f00",
    initializeUpdateResponse: "00000000000000000000310370b570a67be38446717729d6dd3d2ec5b1000001",
    externalAuthenticate: "848203001065df4f1a356a887905466516d9e5b7c1",
    getEID: "84e2910018d2c6fb477c5d4afe4fd4d21f17eff10d3578ec1774a12a2d00",
    getEIDResponse: "bf3e125a1089882119900000000000000000000005",
    cases: [
      "84f2200208964e188f0b1bb697", "84ca006608f0820035a41d3e1800",
      "84f220021806b076ed452cd1fa84f77f5c08a146aa77a9286757dea791",
      "84f2800218d06527e39222dce091fabdb8e9b898417a67a6852d3577db00",
    ]),
  SCP03Trace(
    name: "AES-192 SL 33", keyLength: 24, initializeUpdate: "80503100089b3f2eef0e8c937400",
    initializeUpdateResponse: "00000000000000000000310370f6bb305a15bae1a68f79fb08212fbed7000002",
    externalAuthenticate: "84823300109100bc22d58b45b86a26365ce39ff3cf",
    getEID: "84e29100188f7f946c84f70d17994bc6e8791251bb1bb1bf02cf8de58900",
    getEIDResponse: "c05176c1b6f72aae50c32cbee63b0e95998928fd4dfb2be9f27ffde8c8476f5909b4805cc4039599",
    cases: [
      "84f2200208d5d97754b6b3d2ba", "84ca006608516c82b8e30adbeb00",
      "84f2200218cc247f4761e6944277a4e0d6e32e44025b1e31537e2fc668",
      "84f2800218ba22b63d509bef5d093b43e5eaed03ed23144ab2d9cb51de00",
    ]),
  SCP03Trace(
    name: "AES-256 SL 11", keyLength: 32, initializeUpdate: "805032000811666d57866c6f5400",
    initializeUpdateResponse: "0000000000000000000032037053ea8847efa7674e41498a4d66cf0dee000003",
    externalAuthenticate: "84821100102f2ad190eff2fafc4908996d1cebd310",
    getEID: "84e291000ebf3e035c015af4b680372542b59d00",
    getEIDResponse: "bf3e125a10898821199000000000000000000000058012dd7f01f1c4c1",
    cases: [
      "84f2200208d618b7da68d5fe52", "84ca0066088f3e055db23ad5e500",
      "84f22002124f0212345c054f9f70c5b6e15cc42404915e",
      "84f280020a4f00aa124aa74afe7f7500",
    ]),
  SCP03Trace(
    name: "AES-256 SL 03", keyLength: 32, initializeUpdate: "8050320008c6066990fc426e1d00",
    initializeUpdateResponse: "000000000000000000003203708682cd81bbd8919f2de3f2664581f118000001",
    externalAuthenticate: "848203001077c493b632edadaf865a1e64acc07ce9",
    getEID: "84e29100183ddaa60594963befaada3525b492ede23c2ab2c1ce3afe4400",
    getEIDResponse: "bf3e125a1089882119900000000000000000000005",
    cases: [
      "84f2200208480ddc8e419da38d", "84ca0066083e9d6a6c0b2d732000",
      "84f22002183ebfef2da8b04af2a85f491f299b76973df76ff08a4031be",
      "84f2800218783fff80990f5585b1055010ea95094a26e4a8f1ef4b18e100",
    ]),
  SCP03Trace(
    name: "AES-256 SL 33", keyLength: 32, initializeUpdate: "805032000897b2055fe58599fd00",
    initializeUpdateResponse: "00000000000000000000320370a8439a22cedf045fa9f1903b2834f26e000002",
    externalAuthenticate: "8482330010508a0fd959d2e547c6b33154a6be2057",
    getEID: "84e29100187a5ef717eaf1e135ae92fe54429d0e465decda65f5fe5aea00",
    getEIDResponse: "ea90dbfa648a67c5eb6abc57f8530b97d0cd5647c5e8732016b55203b078dd2ace7f8bc5d1c1cd99",
    cases: [
      "84f2200208bcc5c17275545d93", "84ca00660804806aba9d543bb600",
      "84f2200218717222491556ec81a45f49ce48be33320024801a1c4cb0e0",
      "84f2800218561f105bccd3a1642904b251ccc1228beb80a82370a8637000",
    ]),
]

/// The plain commands of every pySim trace: GET EID and the four APDU cases.
let traceGetEID = "80E2910006BF3E035C015A00"
let traceGetEIDPlainResponse = "bf3e125a1089882119900000000000000000000005"
let traceCases = ["80F22002", "80ca006600", "80F220020a4f0212345c054f9f70c5", "80f28002024f0000"]

@Suite("Published SCP02 and SCP03 traces (osmocom pySim test data)")
struct PublishedTraceTests {
  @Test(arguments: scp03Traces)
  func scp03(_ trace: SCP03Trace) throws {
    let crypto = ReplayCrypto(challenge: trace.hostChallenge)
    let keyVersion = hex(trace.initializeUpdate)[2]
    var opening = try SecureChannelOpening(
      configuration: SecureChannelConfiguration(
        keys: trace.keys, keyVersion: keyVersion, secureChannelProtocol: .scp03,
        securityLevel: trace.securityLevel),
      crypto: crypto)
    #expect(try encoded(opening.initializeUpdate) == trace.initializeUpdate)
    let authenticate = try opening.receiveInitializeUpdate(response(trace.initializeUpdateResponse))
    #expect(try encoded(authenticate) == trace.externalAuthenticate)
    var session = try opening.receiveExternalAuthenticate(response(""))
    #expect(session.keyVersion == keyVersion)
    let wrapped = try session.wrap(CommandAPDU(parsing: hex(traceGetEID)))
    #expect(try encoded(wrapped) == trace.getEID)
    let plain = try session.unwrap(response(trace.getEIDResponse))
    #expect(hexString(plain.data) == traceGetEIDPlainResponse)
    #expect(plain.statusWord == .success)
    for (plainCase, expected) in zip(traceCases, trace.cases) {
      let command = try session.wrap(CommandAPDU(parsing: hex(plainCase)))
      #expect(try encoded(command) == expected, "\(plainCase)")
    }
    #expect(session.wrappedCommandCount == 5)
  }

  /// The card challenge of the traces is pseudo-random (`i` b5): Amendment D §6.2.2.1,
  /// KDF(Key-ENC, 02, 0040, sequence counter ‖ the ISD-R AID A0000005591010FFFFFFFF8900000100).
  @Test(arguments: scp03Traces)
  func pseudoRandomCardChallenge(_ trace: SCP03Trace) throws {
    let card = try InitializeUpdateResponse(parsing: hex(trace.initializeUpdateResponse))
    #expect(card.parameter == 0x70)
    #expect(card.sequenceCounter.count == 3)
    let challenge = try SCP03KeyDerivation.pseudoRandomCardChallenge(
      keyEncryption: trace.keys.encryption, sequenceCounter: card.sequenceCounter,
      applicationIdentifier: hex("A0000005591010FFFFFFFF8900000100"), crypto: openSSL)
    #expect(challenge == card.cardChallenge)
  }

  /// pySim's SCP02 trace: keys 1001…/1011…/1021…, explicit C-MAC with ICV encryption,
  /// security level 01. The trace asks for KVN 20 and the card answers 70, so it is replayed
  /// with KVN 00 (first available); asking for 20 is refused as a key version mismatch.
  @Test(arguments: [false, true])
  func scp02(legacyDES: Bool) throws {
    let keys = try SecureChannelKeys(
      encryption: hex("100102030405060708090a0b0c0d0e0f"), mac: hex("101102030405060708090a0b0c0d0e0f"),
      dataEncryption: hex("102102030405060708090a0b0c0d0e0f"))
    let crypto = ReplayCrypto(base: legacyDES ? openSSLLegacy : openSSL, challenge: hex("40A62C37FA6304F8"))
    var opening = try SecureChannelOpening(
      configuration: SecureChannelConfiguration(
        keys: keys, secureChannelProtocol: .scp02, securityLevel: .cMAC),
      crypto: crypto)
    #expect(try encoded(opening.initializeUpdate) == "805000000840a62c37fa6304f800")
    let authenticate = try opening.receiveInitializeUpdate(
      response("00000000000000000000700200016B4524ABEE7CF32EA3838BC148F3"))
    #expect(try encoded(authenticate) == "8482010010ba6961667737c5bcebece14c7d6a4376")
    var session = try opening.receiveExternalAuthenticate(response(""))
    let expected = [
      "84f220020814db34fa4341dca8", "84ca00660855ed7c5ff069512b00",
      "84f22002124f0212345c054f9f70c58fc1b380c4228af8",
      "84f280020a4f003b95f09317de6a4e00",
    ]
    for (plainCase, wrapped) in zip(traceCases, expected) {
      #expect(try encoded(session.wrap(CommandAPDU(parsing: hex(plainCase)))) == wrapped, "\(plainCase)")
    }
    var explicit = try SecureChannelOpening(
      configuration: SecureChannelConfiguration(keys: keys, keyVersion: 0x20), crypto: crypto)
    #expect(try encoded(explicit.initializeUpdate) == "805020000840a62c37fa6304f800")
    #expect(throws: SecureChannelError(.keyVersionMismatch, offset: 10)) {
      _ = try explicit.receiveInitializeUpdate(
        response("00000000000000000000700200016B4524ABEE7CF32EA3838BC148F3"))
    }
    // Without response protection an SCP02 response passes through unchanged.
    #expect(try session.unwrap(response("0102", 0x9000)) == response("0102"))
  }

  @Test func scp02CardCryptogramMismatchStopsBeforeExternalAuthenticate() throws {
    let keys = try SecureChannelKeys(key: hex("100102030405060708090a0b0c0d0e0f"))
    var opening = try SecureChannelOpening(
      configuration: SecureChannelConfiguration(keys: keys),
      crypto: ReplayCrypto(challenge: hex("40A62C37FA6304F8")))
    var bad = hex("00000000000000000000700200016B4524ABEE7CF32EA3838BC148F3")
    bad[27] = 0xFF
    #expect(throws: SecureChannelError(.cardCryptogramMismatch, offset: 20)) {
      _ = try opening.receiveInitializeUpdate(ResponseAPDU(data: bad, statusWord: .success))
    }
    #expect(throws: SecureChannelError(.wrongState)) {
      _ = try opening.receiveExternalAuthenticate(response(""))
    }
  }
}
