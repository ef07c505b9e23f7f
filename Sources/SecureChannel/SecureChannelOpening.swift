// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// What a secure channel is opened with: the keys (or master keys and how to diversify
/// them), the key version, the protocol and security level wanted.
public struct SecureChannelConfiguration: Sendable, Hashable {
  /// The static keys, or the master keys when ``diversification`` is not ``KeyDiversification/none``.
  public var keys: SecureChannelKeys
  /// How the card keys derive from ``keys`` and the card's key diversification data.
  public var diversification: KeyDiversification
  /// P1 of INITIALIZE UPDATE: the key version number, 00 for the first available key set.
  /// A non-zero value must match the card's answer.
  public var keyVersion: UInt8
  /// The protocol required, or `nil` to take the card's (02 or 03).
  public var secureChannelProtocol: SecureChannelProtocol?
  /// The security level asked for in EXTERNAL AUTHENTICATE.
  public var securityLevel: SecurityLevel
  /// SCP03 S16 mode: 16-byte host challenge (the card must answer in S16 mode).
  public var s16Mode: Bool
  /// SCP02's `i` parameter, which the card does not send: 15 or 55 (GPCS 2.3 Table E-1;
  /// both explicit, C-MAC on the modified APDU, ICV encrypted; they differ only in how the
  /// card makes its challenge).
  public var scp02Parameter: UInt8

  /// Creates a configuration; the default is C-MAC on the first available key set.
  public init(
    keys: SecureChannelKeys, diversification: KeyDiversification = .none, keyVersion: UInt8 = 0,
    secureChannelProtocol: SecureChannelProtocol? = nil, securityLevel: SecurityLevel = .cMAC,
    s16Mode: Bool = false, scp02Parameter: UInt8 = 0x55
  ) {
    self.keys = keys
    self.diversification = diversification
    self.keyVersion = keyVersion
    self.secureChannelProtocol = secureChannelProtocol
    self.securityLevel = securityLevel
    self.s16Mode = s16Mode
    self.scp02Parameter = scp02Parameter
  }
}

/// The mutual authentication that opens a secure channel, without I/O (GPCS 2.3 §E.5.1,
/// §E.5.2; Amendment D §7.1): INITIALIZE UPDATE with a host challenge from the provider's
/// CSPRNG, the card's answer checked (its cryptogram before anything else is sent), then
/// EXTERNAL AUTHENTICATE.
///
/// ```swift
/// var opening = try SecureChannelOpening(configuration: configuration, crypto: crypto)
/// let answer = card.send(opening.initializeUpdate)
/// let authenticate = try opening.receiveInitializeUpdate(answer)  // throws on a wrong key
/// let session = try opening.receiveExternalAuthenticate(card.send(authenticate))
/// ```
///
/// On any error the opening stops: never retry with other keys (cards count failed
/// authentications and lock the key set).
public struct SecureChannelOpening<Crypto: SecureChannelCrypto> {
  /// The configuration in force.
  public let configuration: SecureChannelConfiguration
  /// The INITIALIZE UPDATE command to send first: `80 50 KVN 00 Lc host-challenge 00`.
  public let initializeUpdate: CommandAPDU
  /// The card's parsed answer, once received.
  public private(set) var cardResponse: InitializeUpdateResponse?
  /// The card keys used (after diversification), once the card's answer is in; show them
  /// only as check values.
  public private(set) var cardKeys: SecureChannelKeys?

  private let crypto: Crypto
  private let hostChallenge: [UInt8]
  private var pending: SecureChannelSession<Crypto>?
  private var finished = false

  /// Starts an opening with a fresh host challenge from `crypto`'s random generator.
  ///
  /// - Throws: ``SecureChannelError/Code/invalidSecurityLevel`` for a level outside
  ///   Amendment D Table 7-3, ``SecureChannelError/Code/invalidChallengeLength`` when the
  ///   generator returns the wrong count, and the provider's errors.
  public init(configuration: SecureChannelConfiguration, crypto: Crypto) throws(SecureChannelError) {
    guard configuration.securityLevel.isValid else { throw SecureChannelError(.invalidSecurityLevel) }
    let size = configuration.s16Mode ? 16 : 8
    let challenge = try crypto.randomBytes(count: size)
    guard challenge.count == size else { throw SecureChannelError(.invalidChallengeLength) }
    self.configuration = configuration
    self.crypto = crypto
    self.hostChallenge = challenge
    self.initializeUpdate = CommandAPDU(
      cla: 0x80, ins: 0x50, p1: configuration.keyVersion, p2: 0x00, data: challenge, ne: 256)
  }

  /// Checks the card's INITIALIZE UPDATE answer and returns EXTERNAL AUTHENTICATE.
  ///
  /// - Throws: ``SecureChannelError/Code/keySetBlocked`` for 6982 or 6983,
  ///   ``SecureChannelError/Code/initializeUpdateFailed`` for any other status than 9000,
  ///   the errors of ``InitializeUpdateResponse/init(parsing:)``,
  ///   ``SecureChannelError/Code/protocolMismatch``, ``SecureChannelError/Code/keyVersionMismatch``,
  ///   ``SecureChannelError/Code/unsupportedParameter`` (S16 answer to an S8 challenge or the
  ///   reverse, an SCP02 `i` other than 15 or 55),
  ///   ``SecureChannelError/Code/securityLevelNotSupported``, key and diversification
  ///   errors, ``SecureChannelError/Code/cardCryptogramMismatch`` (offset: the cryptogram's
  ///   first byte) and ``SecureChannelError/Code/wrongState`` when called twice. After an
  ///   error the opening is over: nothing more may be sent.
  public mutating func receiveInitializeUpdate(_ response: ResponseAPDU) throws(SecureChannelError)
    -> CommandAPDU
  {
    guard !finished, pending == nil else { throw SecureChannelError(.wrongState) }
    finished = true
    let sw = response.statusWord
    if sw.rawValue == 0x6982 || sw.rawValue == 0x6983 {
      throw SecureChannelError(.keySetBlocked, statusWord: sw)
    }
    guard sw.rawValue == 0x9000 else { throw SecureChannelError(.initializeUpdateFailed, statusWord: sw) }
    let card = try InitializeUpdateResponse(parsing: response.data)
    cardResponse = card
    if let wanted = configuration.secureChannelProtocol, wanted != card.secureChannelProtocol {
      throw SecureChannelError(.protocolMismatch, offset: 11)
    }
    if configuration.keyVersion != 0, configuration.keyVersion != card.keyVersion {
      throw SecureChannelError(.keyVersionMismatch, offset: 10)
    }
    let keys = try configuration.diversification.diversify(
      configuration.keys, keyDiversificationData: card.keyDiversificationData, crypto: crypto)
    cardKeys = keys
    let level = configuration.securityLevel
    let session: SecureChannelSession<Crypto>
    let hostCryptogram: [UInt8]
    let cardCryptogramOffset: Int
    if card.secureChannelProtocol == .scp03 {
      let i = card.parameter ?? 0
      guard card.isS16Mode == configuration.s16Mode else {
        throw SecureChannelError(.unsupportedParameter, offset: 12)
      }
      if level.hasResponseMAC, i & InitializeUpdateResponse.rMACSupportBit == 0 {
        throw SecureChannelError(.securityLevelNotSupported, offset: 12)
      }
      if level.hasResponseEncryption, i & InitializeUpdateResponse.rEncryptionSupportBit == 0 {
        throw SecureChannelError(.securityLevelNotSupported, offset: 12)
      }
      let context = hostChallenge + card.cardChallenge
      let bits = keys.keyLength * 8
      typealias D = SessionKeyDerivation
      let sEnc = try D.scp03(
        key: keys.encryption, constant: D.Constant.sessionEncryption, bits: bits, context: context,
        crypto: crypto)
      let sMAC = try D.scp03(
        key: keys.mac, constant: D.Constant.sessionMAC, bits: bits, context: context, crypto: crypto)
      let sRMAC = try D.scp03(
        key: keys.mac, constant: D.Constant.sessionRMAC, bits: bits, context: context, crypto: crypto)
      let cryptogramBits = card.cardCryptogram.count * 8
      let expected = try D.scp03(
        key: sMAC, constant: D.Constant.cardCryptogram, bits: cryptogramBits, context: context, crypto: crypto
      )
      cardCryptogramOffset = 13 + card.cardChallenge.count
      guard constantTimeEqual(expected, card.cardCryptogram) else {
        throw SecureChannelError(.cardCryptogramMismatch, offset: cardCryptogramOffset)
      }
      hostCryptogram = try D.scp03(
        key: sMAC, constant: D.Constant.hostCryptogram, bits: cryptogramBits, context: context, crypto: crypto
      )
      session = SecureChannelSession(
        protocol: .scp03, securityLevel: level, s16: card.isS16Mode, cardResponse: card, crypto: crypto,
        encryption: sEnc, mac: sMAC, rmac: sRMAC, dataEncryption: keys.dataEncryption,
        chainingValue: zeros(16))
    } else {
      guard configuration.scp02Parameter == 0x15 || configuration.scp02Parameter == 0x55 else {
        throw SecureChannelError(.unsupportedParameter, offset: 11)
      }
      guard !configuration.s16Mode else { throw SecureChannelError(.unsupportedParameter, offset: 11) }
      guard !level.hasResponseMAC else { throw SecureChannelError(.securityLevelNotSupported, offset: 11) }
      guard keys.keyLength == 16 else { throw SecureChannelError(.invalidKeyLength) }
      let counter = card.sequenceCounter
      typealias D = SessionKeyDerivation
      let sEnc = try D.scp02(
        key: keys.encryption, constant: [0x01, 0x82], sequenceCounter: counter, crypto: crypto)
      let sMAC = try D.scp02(key: keys.mac, constant: [0x01, 0x01], sequenceCounter: counter, crypto: crypto)
      let sRMAC = try D.scp02(
        key: keys.mac, constant: [0x01, 0x02], sequenceCounter: counter, crypto: crypto)
      let sDEK = try D.scp02(
        key: keys.dataEncryption, constant: [0x01, 0x81], sequenceCounter: counter, crypto: crypto)
      let expected = try D.fullTripleDESMAC(
        key: sEnc, data: hostChallenge + counter + card.cardChallenge, crypto: crypto)
      cardCryptogramOffset = 20
      guard constantTimeEqual(expected, card.cardCryptogram) else {
        throw SecureChannelError(.cardCryptogramMismatch, offset: cardCryptogramOffset)
      }
      hostCryptogram = try D.fullTripleDESMAC(
        key: sEnc, data: counter + card.cardChallenge + hostChallenge, crypto: crypto)
      session = SecureChannelSession(
        protocol: .scp02, securityLevel: level, s16: false, cardResponse: card, crypto: crypto,
        encryption: sEnc, mac: sMAC, rmac: sRMAC, dataEncryption: sDEK, chainingValue: zeros(8))
    }
    // EXTERNAL AUTHENTICATE: the host cryptogram in clear and a C-MAC from a zero chaining
    // value; never encrypted; the SCP03 encryption counter does not move (it starts at 1).
    var authenticating = session
    let macCount = authenticating.macLength
    let command = CommandAPDU(
      cla: 0x80, ins: 0x82, p1: level.rawValue, p2: 0x00, data: hostCryptogram)
    let wrapped = try authenticating.wrapExternalAuthenticate(command, macLength: macCount)
    pending = authenticating
    finished = false
    return wrapped
  }

  /// Checks the EXTERNAL AUTHENTICATE answer and returns the open session.
  ///
  /// - Throws: ``SecureChannelError/Code/externalAuthenticateFailed`` for a status other
  ///   than 9000, ``SecureChannelError/Code/wrongState`` before
  ///   ``receiveInitializeUpdate(_:)`` succeeded or when called twice.
  public mutating func receiveExternalAuthenticate(_ response: ResponseAPDU) throws(SecureChannelError)
    -> SecureChannelSession<Crypto>
  {
    guard !finished, let session = pending else { throw SecureChannelError(.wrongState) }
    finished = true
    pending = nil
    guard response.statusWord.rawValue == 0x9000 else {
      throw SecureChannelError(.externalAuthenticateFailed, statusWord: response.statusWord)
    }
    return session
  }
}

extension SecureChannelSession {
  /// EXTERNAL AUTHENTICATE's C-MAC (MCV 0 / ICV 0), without encryption, counter or Le.
  mutating func wrapExternalAuthenticate(_ command: CommandAPDU, macLength: Int) throws(SecureChannelError)
    -> CommandAPDU
  {
    let lc = UInt8(command.data.count + macLength)
    let header: [UInt8] = [0x84, command.ins.rawValue, command.p1, command.p2, lc]
    let mac: [UInt8]
    if secureChannelProtocol == .scp03 {
      let full = try crypto.aesCMAC(key: sessionMACKey, message: chainingValue + header + command.data)
      chainingValue = full
      mac = Array(full[0..<macLength])
    } else {
      mac = try crypto.retailMAC(
        key: sessionMACKey, iv: zeros(8), message: paddedISO9797Method2(header + command.data, block: 8))
      chainingValue = mac
    }
    return CommandAPDU(
      cla: CommandClass(rawValue: 0x84), ins: command.ins, p1: command.p1, p2: command.p2,
      data: command.data + mac)
  }
}
