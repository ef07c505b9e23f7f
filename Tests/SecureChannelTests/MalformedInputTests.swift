// SPDX-License-Identifier: Apache-2.0
import ISO7816
import SecureChannel
import Testing

@Suite("Malformed INITIALIZE UPDATE answers and responses")
struct MalformedInputTests {
  static let scp02Answer = hex("00000000000000000000700200016B4524ABEE7CF32EA3838BC148F3")
  static let scp03Answer = hex(scp03Traces[0].initializeUpdateResponse)

  /// Every length of an SCP02 answer other than 28 is refused, at the first byte past the
  /// expected length or at the end of the short data.
  @Test func scp02Lengths() throws {
    for count in 0...40 where count != 28 {
      var data = Array(Self.scp02Answer.prefix(count))
      while data.count < count { data.append(0) }
      let expected: SecureChannelError =
        count < 12
        ? SecureChannelError(.invalidResponseLength, offset: count)
        : SecureChannelError(.invalidResponseLength, offset: min(count, 28))
      #expect(throws: expected, "\(count)") { try InitializeUpdateResponse(parsing: data) }
    }
    let parsed = try InitializeUpdateResponse(parsing: Self.scp02Answer)
    #expect(parsed.secureChannelProtocol == .scp02)
    #expect(parsed.keyVersion == 0x70)
    #expect(parsed.sequenceCounter == hex("0001"))
    #expect(parsed.cardChallenge == hex("6B4524ABEE7C"))
    #expect(parsed.cardCryptogram == hex("F32EA3838BC148F3"))
    #expect(parsed.parameter == nil)
    #expect(parsed.encodedBytes == Self.scp02Answer)
  }

  /// SCP03: the `i` byte decides the exact length (S8/S16, with or without the sequence
  /// counter): 29, 32, 45, 48; every other length is refused.
  @Test(arguments: [(UInt8(0x00), 29), (0x60, 29), (0x10, 32), (0x70, 32), (0x01, 45), (0x71, 48)])
  func scp03Lengths(parameter: UInt8, length: Int) throws {
    for count in 12...60 {
      var data = [UInt8](repeating: 0x11, count: count)
      data[11] = 0x03
      if count > 12 { data[12] = parameter }
      if count == length {
        let parsed = try InitializeUpdateResponse(parsing: data)
        #expect(parsed.parameter == parameter)
        #expect(parsed.cardChallenge.count == (parameter & 1 == 1 ? 16 : 8))
        #expect(parsed.cardCryptogram.count == parsed.cardChallenge.count)
        #expect(parsed.sequenceCounter.count == (parameter & 0x10 != 0 ? 3 : 0))
        #expect(parsed.isS16Mode == (parameter & 1 == 1))
        #expect(parsed.encodedBytes == data)
      } else {
        let offset = count == 12 ? 12 : min(count, length)
        #expect(throws: SecureChannelError(.invalidResponseLength, offset: offset), "\(count)") {
          try InitializeUpdateResponse(parsing: data)
        }
      }
    }
  }

  /// The SCP byte: only 02 and 03.
  @Test func protocolByte() {
    for scp in [UInt8(0x00), 0x01, 0x04, 0x10, 0xFF] {
      var data = Self.scp02Answer
      data[11] = scp
      #expect(throws: SecureChannelError(.unsupportedProtocol, offset: 11)) {
        try InitializeUpdateResponse(parsing: data)
      }
    }
    #expect(SecureChannelProtocol.scp03.description == "SCP03")
  }

  /// Each field of the INITIALIZE UPDATE answer changed by one bit is caught: the card
  /// cryptogram and everything it covers (challenge, counter) give a cryptogram mismatch at
  /// the cryptogram's offset; the key diversification data is not covered (only keys
  /// diversified from it depend on it), nor is the sequence counter; the KVN is checked when
  /// asked for; the SCP and `i` bytes change the layout.
  @Test func everyFieldOfTheSCP03Answer() throws {
    let trace = scp03Traces[0]
    for index in 0..<Self.scp03Answer.count {
      var data = Self.scp03Answer
      data[index] ^= 0x01
      var opening = try SecureChannelOpening(
        configuration: SecureChannelConfiguration(
          keys: trace.keys, keyVersion: 0x30, secureChannelProtocol: .scp03, securityLevel: .cMACAndRMAC),
        crypto: ReplayCrypto(challenge: trace.hostChallenge))
      let result = Result { () throws(SecureChannelError) in
        try opening.receiveInitializeUpdate(ResponseAPDU(data: data, statusWord: .success))
      }
      switch index {
      case 0..<10: #expect((try? result.get()) != nil, "KDD byte \(index)")
      case 10: #expect(throws: SecureChannelError(.keyVersionMismatch, offset: 10)) { try result.get() }
      // 03 → 02: an SCP02 answer must be 28 bytes.
      case 11: #expect(throws: SecureChannelError(.invalidResponseLength, offset: 28)) { try result.get() }
      // i 70 → 71 asks for S16's 45 bytes.
      case 12: #expect(throws: SecureChannelError(.invalidResponseLength, offset: 32)) { try result.get() }
      // The sequence counter is not covered by the cryptogram.
      case 29..<32: #expect((try? result.get()) != nil, "sequence counter byte \(index)")
      default:
        #expect(throws: SecureChannelError(.cardCryptogramMismatch, offset: 21), "byte \(index)") {
          try result.get()
        }
      }
    }
  }

  @Test func initializeUpdateStatusWords() throws {
    for (sw, code) in [
      (UInt16(0x6982), SecureChannelError.Code.keySetBlocked), (0x6983, .keySetBlocked),
      (0x6A88, .initializeUpdateFailed),
      (0x6D00, .initializeUpdateFailed), (0x6700, .initializeUpdateFailed),
    ] {
      var opening = try SecureChannelOpening(
        configuration: SecureChannelConfiguration(keys: .wellKnownTestKeys), crypto: openSSL)
      #expect(throws: SecureChannelError(code, statusWord: StatusWord(rawValue: sw))) {
        try opening.receiveInitializeUpdate(response("", sw))
      }
      #expect(throws: SecureChannelError(.wrongState)) {
        try opening.receiveInitializeUpdate(response("", 0x9000))
      }
    }
  }

  @Test func externalAuthenticateStatusWord() throws {
    let trace = scp03Traces[0]
    var opening = try SecureChannelOpening(
      configuration: SecureChannelConfiguration(keys: trace.keys, securityLevel: .cMACAndRMAC),
      crypto: ReplayCrypto(challenge: trace.hostChallenge))
    #expect(throws: SecureChannelError(.wrongState)) { try opening.receiveExternalAuthenticate(response("")) }
    _ = try opening.receiveInitializeUpdate(response(trace.initializeUpdateResponse))
    #expect(throws: SecureChannelError(.externalAuthenticateFailed, statusWord: StatusWord(rawValue: 0x6300)))
    {
      try opening.receiveExternalAuthenticate(response("", 0x6300))
    }
    #expect(throws: SecureChannelError(.wrongState)) { try opening.receiveExternalAuthenticate(response("")) }
  }

  /// Security levels: only Table 7-3's values; response protection only when `i` offers it;
  /// SCP02 without R-MAC here; S16 must match.
  @Test func securityLevels() throws {
    for raw in 0...255 {
      let level = SecurityLevel(rawValue: UInt8(raw))
      #expect(level.isValid == [0x00, 0x01, 0x03, 0x11, 0x13, 0x33].contains(raw))
      if !level.isValid {
        #expect(throws: SecureChannelError(.invalidSecurityLevel)) {
          try SecureChannelOpening(
            configuration: SecureChannelConfiguration(keys: .wellKnownTestKeys, securityLevel: level),
            crypto: openSSL)
        }
      }
    }
    #expect(SecurityLevel(rawValue: 0x20).normalized == .all)
    #expect(SecurityLevel(rawValue: 0x02).normalized == .cMACAndDecryption)
    #expect(SecurityLevel(rawValue: 0x10).normalized == .cMACAndRMAC)
    #expect(SecurityLevel.all.description == "C-MAC+C-DECRYPTION+R-MAC+R-ENCRYPTION")
    #expect(SecurityLevel.authenticatedOnly.description == "none")

    // i = 00: no R-MAC, no R-ENCRYPTION.
    var answer = [UInt8](repeating: 0, count: 29)
    answer[11] = 0x03
    for level in [SecurityLevel.cMACAndRMAC, .cMACDecryptionAndRMAC, .all] {
      var opening = try SecureChannelOpening(
        configuration: SecureChannelConfiguration(keys: .wellKnownTestKeys, securityLevel: level),
        crypto: openSSL)
      #expect(throws: SecureChannelError(.securityLevelNotSupported, offset: 12)) {
        try opening.receiveInitializeUpdate(ResponseAPDU(data: answer, statusWord: .success))
      }
    }
    // i = 20: R-MAC without R-ENCRYPTION.
    answer[12] = 0x20
    var opening = try SecureChannelOpening(
      configuration: SecureChannelConfiguration(keys: .wellKnownTestKeys, securityLevel: .all),
      crypto: openSSL)
    #expect(throws: SecureChannelError(.securityLevelNotSupported, offset: 12)) {
      try opening.receiveInitializeUpdate(ResponseAPDU(data: answer, statusWord: .success))
    }
    // S16 asked, S8 answered.
    var s16 = try SecureChannelOpening(
      configuration: SecureChannelConfiguration(keys: .wellKnownTestKeys, s16Mode: true), crypto: openSSL)
    #expect(s16.initializeUpdate.data.count == 16)
    #expect(throws: SecureChannelError(.unsupportedParameter, offset: 12)) {
      try s16.receiveInitializeUpdate(ResponseAPDU(data: answer, statusWord: .success))
    }
    // SCP02 with R-MAC, an unknown i, or a protocol other than asked.
    for (configuration, error) in [
      (
        SecureChannelConfiguration(keys: .wellKnownTestKeys, securityLevel: .cMACAndRMAC),
        SecureChannelError(.securityLevelNotSupported, offset: 11)
      ),
      (
        SecureChannelConfiguration(keys: .wellKnownTestKeys, scp02Parameter: 0x1A),
        SecureChannelError(.unsupportedParameter, offset: 11)
      ),
      (
        SecureChannelConfiguration(keys: .wellKnownTestKeys, secureChannelProtocol: .scp03),
        SecureChannelError(.protocolMismatch, offset: 11)
      ),
    ] {
      var scp02 = try SecureChannelOpening(configuration: configuration, crypto: openSSL)
      #expect(throws: error) {
        try scp02.receiveInitializeUpdate(ResponseAPDU(data: Self.scp02Answer, statusWord: .success))
      }
    }
  }

  /// The most plain data per command under a 255-byte Lc, per protocol and level.
  @Test func maximumPlainDataLength() {
    typealias S = SecureChannelSession<ReplayCrypto>
    #expect(S.maximumPlainDataLength(protocol: .scp03, securityLevel: .authenticatedOnly) == 255)
    #expect(S.maximumPlainDataLength(protocol: .scp03, securityLevel: .cMAC) == 247)
    #expect(S.maximumPlainDataLength(protocol: .scp03, securityLevel: .cMACAndRMAC) == 247)
    #expect(S.maximumPlainDataLength(protocol: .scp03, securityLevel: .cMACAndDecryption) == 239)
    #expect(S.maximumPlainDataLength(protocol: .scp03, securityLevel: .all) == 239)
    #expect(S.maximumPlainDataLength(protocol: .scp03, securityLevel: .cMAC, s16Mode: true) == 239)
    #expect(
      S.maximumPlainDataLength(protocol: .scp03, securityLevel: .cMACAndDecryption, s16Mode: true) == 223)
    #expect(S.maximumPlainDataLength(protocol: .scp02, securityLevel: .cMAC) == 247)
    #expect(S.maximumPlainDataLength(protocol: .scp02, securityLevel: .cMACAndDecryption) == 239)
    #expect(S.maximumPlainDataLength(protocol: .scp03, securityLevel: .cMAC, limit: 8) == 0)
  }

  /// At the maximum the wrapped command fits 255 bytes; one byte more is refused and leaves
  /// the session unchanged (the next command still matches the trace).
  @Test(arguments: [0, 1, 3, 4])
  func wrappedLengthLimit(traceIndex: Int) throws {
    let trace = scp03Traces[traceIndex]
    var session = try openTrace(trace)
    let most = session.maximumPlainDataLength
    #expect(throws: SecureChannelError(.wrappedCommandTooLong)) {
      try session.wrap(
        CommandAPDU(cla: 0x80, ins: 0xE8, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: most + 1)))
    }
    #expect(try encoded(session.wrap(CommandAPDU(parsing: hex(traceGetEID)))) == trace.getEID)
    let fits = try session.wrap(
      CommandAPDU(cla: 0x80, ins: 0xE8, p1: 0, p2: 0, data: [UInt8](repeating: 0, count: most)))
    #expect(fits.data.count <= 255)
    #expect(fits.data.count > 255 - (session.securityLevel.hasCommandEncryption ? 16 : 1))
  }

  /// Responses under R-MAC (and R-ENCRYPTION): every truncation, every flipped bit, error
  /// status words, bad ciphertext lengths and padding.
  @Test func responseUnwrapping() throws {
    let trace = scp03Traces[0]  // SL 11
    let answer = hex(trace.getEIDResponse)
    for count in 0..<8 {
      var session = try openTrace(trace)
      _ = try session.wrap(CommandAPDU(parsing: hex(traceGetEID)))
      #expect(throws: SecureChannelError(.missingResponseMAC, offset: count, statusWord: .success)) {
        try session.unwrap(ResponseAPDU(data: Array(answer.prefix(count)), statusWord: .success))
      }
    }
    for index in 0..<(answer.count + 2) {
      var session = try openTrace(trace)
      _ = try session.wrap(CommandAPDU(parsing: hex(traceGetEID)))
      var data = answer
      var sw = StatusWord.success
      if index < answer.count {
        data[index] ^= 0x80
      } else {
        sw = StatusWord(rawValue: index == answer.count ? 0x6300 : 0x6201)
      }
      #expect(
        throws: SecureChannelError(.responseMACMismatch, offset: answer.count - 8, statusWord: sw), "\(index)"
      ) {
        try session.unwrap(ResponseAPDU(data: data, statusWord: sw))
      }
      // A failed R-MAC closes the channel.
      #expect(session.isClosed)
      #expect(throws: SecureChannelError(.channelClosed)) {
        try session.wrap(CommandAPDU(parsing: hex("80F22002")))
      }
      #expect(throws: SecureChannelError(.channelClosed)) { try session.unwrap(response("")) }
    }
    // Error status words carry no MAC: returned as they are; with data they are refused.
    var session = try openTrace(trace)
    _ = try session.wrap(CommandAPDU(parsing: hex(traceGetEID)))
    #expect(try session.unwrap(response("", 0x6A88)) == response("", 0x6A88))
    _ = try session.wrap(CommandAPDU(parsing: hex(traceGetEID)))
    #expect(
      throws: SecureChannelError(.unauthenticatedResponseData, statusWord: StatusWord(rawValue: 0x6A88))
    ) {
      try session.unwrap(response("00", 0x6A88))
    }
    #expect(!session.isClosed)
    // Other than 9000, 62XX and 63XX, status words are not MACed (9001 included).
    _ = try session.wrap(CommandAPDU(parsing: hex(traceGetEID)))
    #expect(try session.unwrap(response("", 0x9001)) == response("", 0x9001))
    #expect(session.description == "SecureChannelSession(SCP03, C-MAC+R-MAC, key version 48, 3 commands)")
    var dumped = ""
    dump(session, to: &dumped)
    #expect(!dumped.contains("sessionMACKey") && !dumped.contains("chainingValue"))
  }

  /// R-ENCRYPTION: ciphertext lengths that are not whole blocks, and bad padding, with a
  /// valid R-MAC computed here for the test (Amendment D §6.2.5).
  @Test func responseDecryption() throws {
    let trace = scp03Traces[2]  // AES-128 SL 33
    let keys = trace.keys
    let card = try InitializeUpdateResponse(parsing: hex(trace.initializeUpdateResponse))
    let context = trace.hostChallenge + card.cardChallenge
    let sEnc = try SCP03KeyDerivation.derive(
      key: keys.encryption, constant: 0x04, bits: 128, context: context, crypto: openSSL)
    let sRMAC = try SCP03KeyDerivation.derive(
      key: keys.mac, constant: 0x07, bits: 128, context: context, crypto: openSSL)
    let sMAC = try SCP03KeyDerivation.derive(
      key: keys.mac, constant: 0x06, bits: 128, context: context, crypto: openSSL)
    let icv = try openSSL.aesECB(
      encrypting: true, key: sEnc, data: [0x80] + [UInt8](repeating: 0, count: 14) + [1])
    func answer(_ body: [UInt8], session: SecureChannelSession<ReplayCrypto>, wrapped: CommandAPDU) throws
      -> ResponseAPDU
    {
      // The MCV of the command is the full CMAC over it (recomputed from the wrapped bytes).
      let ext = hex(trace.externalAuthenticate)
      let mcv0 = try openSSL.aesCMAC(
        key: sMAC, message: [UInt8](repeating: 0, count: 16) + Array(ext[0..<13]))
      let mcv = try openSSL.aesCMAC(
        key: sMAC,
        message: mcv0 + [0x84, 0xE2, 0x91, 0x00, UInt8(wrapped.data.count)] + wrapped.data.dropLast(8))
      let mac = try openSSL.aesCMAC(key: sRMAC, message: mcv + body + [0x90, 0x00])
      return ResponseAPDU(data: body + mac.prefix(8), statusWord: .success)
    }
    for (body, error) in [
      (
        try openSSL.aesCBC(encrypting: true, key: sEnc, iv: icv, data: [UInt8](repeating: 0, count: 16)),
        SecureChannelError(.invalidResponsePadding, offset: 0, statusWord: .success)
      ),
      (
        try openSSL.aesCBC(encrypting: true, key: sEnc, iv: icv, data: [UInt8](repeating: 1, count: 16)),
        SecureChannelError(.invalidResponsePadding, offset: 15, statusWord: .success)
      ),
      (
        try openSSL.aesCBC(
          encrypting: true, key: sEnc, iv: icv, data: [0x80] + [UInt8](repeating: 0, count: 31)),
        SecureChannelError(.invalidResponsePadding, offset: 15, statusWord: .success)
      ),
      (
        [UInt8](repeating: 7, count: 17),
        SecureChannelError(.invalidResponseCiphertextLength, offset: 16, statusWord: .success)
      ),
      (
        [UInt8](repeating: 7, count: 5),
        SecureChannelError(.invalidResponseCiphertextLength, offset: 0, statusWord: .success)
      ),
    ] {
      var session = try openTrace(trace)
      let wrapped = try session.wrap(CommandAPDU(parsing: hex(traceGetEID)))
      #expect(try encoded(wrapped) == trace.getEID)
      #expect(throws: error) { try session.unwrap(answer(body, session: session, wrapped: wrapped)) }
    }
    // An R-MACed answer without data is not decrypted (GlobalPlatformPro #158).
    var session = try openTrace(trace)
    let wrapped = try session.wrap(CommandAPDU(parsing: hex(traceGetEID)))
    #expect(try session.unwrap(answer([], session: session, wrapped: wrapped)) == response(""))
  }

  /// Class bytes: secure messaging is indicated in b3 (first interindustry form) or b6
  /// (further form); a class already indicating it, or FF, is refused.
  @Test func classBytes() throws {
    var session = try openTrace(scp03Traces[0])
    for cla in [UInt8(0x84), 0x04, 0xE0, 0x60, 0xFF] {
      #expect(throws: SecureChannelError(.invalidCommand)) {
        try session.wrap(CommandAPDU(cla: cla, ins: 0xCA, p1: 0, p2: 0))
      }
    }
    #expect(try session.wrap(CommandAPDU(cla: 0x81, ins: 0xCA, p1: 0, p2: 0)).cla.rawValue == 0x85)
    #expect(try session.wrap(CommandAPDU(cla: 0xC3, ins: 0xCA, p1: 0, p2: 0)).cla.rawValue == 0xE3)
  }
}
