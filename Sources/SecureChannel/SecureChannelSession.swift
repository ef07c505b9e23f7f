// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// An open secure channel (sans-IO): it wraps each command (C-MAC, C-DECRYPTION) and unwraps
/// each response (R-MAC, R-ENCRYPTION) as the security level says (GPCS 2.3 §E.4.4–§E.4.6
/// for SCP02; Amendment D §6.2.3–§6.2.7 for SCP03).
///
/// Obtain one from ``SecureChannelOpening`` (or ``SecureChannelTransport``). Feed the
/// response of every wrapped command to ``unwrap(_:)`` before wrapping the next: the MAC
/// chaining value and the encryption counter of the command verify and decrypt its response.
/// GET RESPONSE (61XX) must be handled below the channel, so ``unwrap(_:)`` sees the whole
/// answer. A response MAC that does not verify closes the channel.
public struct SecureChannelSession<Crypto: SecureChannelCrypto> {
  /// The protocol in use.
  public let secureChannelProtocol: SecureChannelProtocol
  /// The security level agreed in EXTERNAL AUTHENTICATE.
  public let securityLevel: SecurityLevel
  /// The key version number of the key set the card used.
  public let keyVersion: UInt8
  /// Whether SCP03 runs in S16 mode (16-byte MACs).
  public let isS16Mode: Bool
  /// The card's INITIALIZE UPDATE answer (key diversification data, challenge, counter).
  public let cardResponse: InitializeUpdateResponse
  /// Whether an earlier failure closed the channel; nothing more is wrapped then.
  public private(set) var isClosed = false
  /// The number of commands wrapped since EXTERNAL AUTHENTICATE.
  public private(set) var wrappedCommandCount = 0

  let crypto: Crypto
  let sessionEncryptionKey: [UInt8]
  let sessionMACKey: [UInt8]
  let sessionRMACKey: [UInt8]
  /// SCP03: the static Key-DEK; SCP02: the session DEK (constant 0181).
  let dataEncryptionKey: [UInt8]
  /// SCP03: the 16-byte MAC chaining value; SCP02: the last C-MAC (8 bytes).
  var chainingValue: [UInt8]
  /// SCP03: the encryption counter of the next command (Amendment D §6.2.6), from 1.
  var encryptionCounter: UInt64 = 1
  /// The chaining value and counter of the last wrapped command, for its response.
  var responseChainingValue: [UInt8] = []
  var responseCounter: UInt64 = 0

  init(
    protocol secureChannelProtocol: SecureChannelProtocol, securityLevel: SecurityLevel, s16: Bool,
    cardResponse: InitializeUpdateResponse, crypto: Crypto, encryption: [UInt8], mac: [UInt8],
    rmac: [UInt8], dataEncryption: [UInt8], chainingValue: [UInt8]
  ) {
    self.secureChannelProtocol = secureChannelProtocol
    self.securityLevel = securityLevel
    self.keyVersion = cardResponse.keyVersion
    self.isS16Mode = s16
    self.cardResponse = cardResponse
    self.crypto = crypto
    self.sessionEncryptionKey = encryption
    self.sessionMACKey = mac
    self.sessionRMACKey = rmac
    self.dataEncryptionKey = dataEncryption
    self.chainingValue = chainingValue
  }

  /// The MAC length appended to commands and responses: 8 bytes, 16 in SCP03 S16 mode.
  public var macLength: Int { isS16Mode ? 16 : 8 }

  /// The most plain command data bytes that still fit a short Lc (255) after wrapping at this
  /// session's level (``maximumPlainDataLength(protocol:securityLevel:s16Mode:limit:)``).
  public var maximumPlainDataLength: Int {
    Self.maximumPlainDataLength(
      protocol: secureChannelProtocol, securityLevel: securityLevel, s16Mode: isS16Mode)
  }

  /// The most plain command data bytes whose wrapped form fits `limit` data bytes (255 for a
  /// short Lc): ``commandOverhead(protocol:securityLevel:s16Mode:)``'s
  /// `maximumPlainLength(fitting:)`. At 255: SCP03 S8 C-MAC 247, S8 C-MAC+C-DECRYPTION 239,
  /// S16 C-MAC 239, S16 C-MAC+C-DECRYPTION 223; SCP02 C-MAC 247, C-MAC+C-DECRYPTION 239; no
  /// secure messaging 255. Returns 0 when nothing fits.
  public static func maximumPlainDataLength(
    protocol secureChannelProtocol: SecureChannelProtocol, securityLevel: SecurityLevel,
    s16Mode: Bool = false,
    limit: Int = 255
  ) -> Int {
    commandOverhead(protocol: secureChannelProtocol, securityLevel: securityLevel, s16Mode: s16Mode)
      .maximumPlainLength(fitting: limit)
  }

  /// What wrapping adds to a command's data at a security level, for sizing LOAD blocks
  /// (`GlobalPlatformCommands.loadBlockSize(maximum:overhead:cardMaximumCommandDataLength:)`):
  /// the C-MAC (8 bytes, 16 for SCP03 S16) and, with C-DECRYPTION, `80` padding to the
  /// cipher block (16 for SCP03, 8 for SCP02); nothing without a C-MAC.
  public static func commandOverhead(
    protocol secureChannelProtocol: SecureChannelProtocol, securityLevel: SecurityLevel, s16Mode: Bool = false
  ) -> GlobalPlatformCommandOverhead {
    guard securityLevel.hasCommandMAC else { return .none }
    return GlobalPlatformCommandOverhead(
      macLength: secureChannelProtocol == .scp03 && s16Mode ? 16 : 8,
      encryptionBlockLength: securityLevel.hasCommandEncryption
        ? (secureChannelProtocol == .scp03 ? 16 : 8) : nil)
  }

  /// Wraps one plain command: C-DECRYPTION of its data and a C-MAC over the modified
  /// command (secure messaging indicated in CLA, Lc counting the MAC), Le kept out of the MAC.
  /// With security level 00 the command is returned unchanged.
  ///
  /// Le: a case 2 or 4 command keeps its Le field after the MAC; when responses carry an
  /// R-MAC or are encrypted, Ne becomes 256 (Le `00`), as the protection adds bytes the
  /// caller's Ne does not count.
  ///
  /// - Throws: ``SecureChannelError/Code/channelClosed`` after a failure closed the channel,
  ///   ``SecureChannelError/Code/invalidCommand`` for a class byte that cannot indicate
  ///   secure messaging (`FF`) or one that already does,
  ///   ``SecureChannelError/Code/wrappedCommandTooLong`` when the wrapped data exceeds 255
  ///   bytes (nothing changes then), and the provider's ``SecureChannelError/Code/cryptoFailure``.
  public mutating func wrap(_ command: CommandAPDU) throws(SecureChannelError) -> CommandAPDU {
    guard !isClosed else { throw SecureChannelError(.channelClosed) }
    guard securityLevel.hasCommandMAC else {
      wrappedCommandCount += 1
      return command
    }
    let cla = command.cla.rawValue
    guard cla != 0xFF else { throw SecureChannelError(.invalidCommand) }
    // First interindustry form (b7 = 0): SM in b3, channel in b2-b1; further form: SM in b6,
    // channel in b4-b1 (ISO/IEC 7816-4 §5.1.1). The MAC sees channel 0.
    let further = cla & 0x40 != 0
    let smBit: UInt8 = further ? 0x20 : 0x04
    let channelBits: UInt8 = further ? 0x0F : 0x03
    guard cla & smBit == 0 else { throw SecureChannelError(.invalidCommand) }
    let secureCLA = cla | smBit
    let macCLA = secureCLA & ~channelBits
    var data: [UInt8]
    var mac: [UInt8]
    let counter = encryptionCounter
    if secureChannelProtocol == .scp03 {
      data = command.data
      if securityLevel.hasCommandEncryption, !data.isEmpty {
        let icv = try crypto.aesECB(
          encrypting: true, key: sessionEncryptionKey, data: Self.counterBlock(counter))
        data = try crypto.aesCBC(
          encrypting: true, key: sessionEncryptionKey, iv: icv, data: paddedISO9797Method2(data, block: 16))
      }
      let lc = data.count + macLength
      guard lc <= 255 else { throw SecureChannelError(.wrappedCommandTooLong) }
      let full = try crypto.aesCMAC(
        key: sessionMACKey,
        message: chainingValue + [macCLA, command.ins.rawValue, command.p1, command.p2, UInt8(lc)] + data)
      chainingValue = full
      mac = Array(full[0..<macLength])
    } else {
      let lc = command.data.count + 8
      var encrypted = command.data
      if securityLevel.hasCommandEncryption, !command.data.isEmpty {
        encrypted = try crypto.desCBC(
          encrypting: true, key: sessionEncryptionKey, iv: zeros(8),
          data: paddedISO9797Method2(command.data, block: 8))
      }
      guard lc <= 255, encrypted.count + 8 <= 255 else { throw SecureChannelError(.wrappedCommandTooLong) }
      // i = 15/55: the ICV is the previous C-MAC encrypted with single DES under the MAC
      // key's first half (GPCS 2.3 §E.4.4); the MAC covers the plain data.
      let icv = try crypto.desCBC(
        encrypting: true, key: Array(sessionMACKey[0..<8]), iv: zeros(8), data: chainingValue)
      mac = try crypto.retailMAC(
        key: sessionMACKey, iv: icv,
        message: paddedISO9797Method2(
          [macCLA, command.ins.rawValue, command.p1, command.p2, UInt8(lc)] + command.data, block: 8))
      chainingValue = mac
      data = encrypted
    }
    responseChainingValue = chainingValue
    responseCounter = counter
    encryptionCounter &+= 1
    wrappedCommandCount += 1
    var ne = command.ne
    if ne != nil, securityLevel.hasResponseMAC { ne = max(ne ?? 0, 256) }
    return CommandAPDU(
      cla: CommandClass(rawValue: secureCLA), ins: command.ins, p1: command.p1, p2: command.p2,
      data: data + mac, ne: ne)
  }

  /// Unwraps the response to the last wrapped command: checks the R-MAC of a 9000, 62XX or
  /// 63XX answer over the command's MAC chaining value, the data and the status word, then
  /// decrypts R-ENCRYPTED data and removes its `80` padding (Amendment D §6.2.5, §6.2.7).
  /// Other status words carry no MAC and are returned as they are. Without response
  /// protection the response is returned unchanged.
  ///
  /// - Throws: ``SecureChannelError/Code/channelClosed``,
  ///   ``SecureChannelError/Code/missingResponseMAC`` (offset: the data length),
  ///   ``SecureChannelError/Code/responseMACMismatch`` (offset: the first MAC byte; the
  ///   channel closes), ``SecureChannelError/Code/invalidResponseCiphertextLength`` (offset:
  ///   the first byte past the last whole block), ``SecureChannelError/Code/invalidResponsePadding``
  ///   (offset: the last non-zero byte, or 0), ``SecureChannelError/Code/unauthenticatedResponseData``
  ///   (data with an error status word, offset 0), and the provider's
  ///   ``SecureChannelError/Code/cryptoFailure``.
  public mutating func unwrap(_ response: ResponseAPDU) throws(SecureChannelError) -> ResponseAPDU {
    guard !isClosed else { throw SecureChannelError(.channelClosed) }
    guard securityLevel.hasResponseMAC else { return response }
    let sw = response.statusWord
    let protected = sw.rawValue == 0x9000 || sw.sw1 == 0x62 || sw.sw1 == 0x63
    guard protected else {
      guard response.data.isEmpty else {
        throw SecureChannelError(.unauthenticatedResponseData, statusWord: sw)
      }
      return response
    }
    let data = response.data
    guard data.count >= macLength else {
      throw SecureChannelError(.missingResponseMAC, offset: data.count, statusWord: sw)
    }
    let bodyCount = data.count - macLength
    let body = Array(data[0..<bodyCount])
    let full = try crypto.aesCMAC(
      key: sessionRMACKey, message: responseChainingValue + body + [sw.sw1, sw.sw2])
    guard constantTimeEqual(Array(full[0..<macLength]), Array(data[bodyCount...])) else {
      isClosed = true
      throw SecureChannelError(.responseMACMismatch, offset: bodyCount, statusWord: sw)
    }
    guard securityLevel.hasResponseEncryption, !body.isEmpty else {
      return ResponseAPDU(data: body, statusWord: sw)
    }
    guard body.count % 16 == 0 else {
      throw SecureChannelError(
        .invalidResponseCiphertextLength, offset: body.count - body.count % 16, statusWord: sw)
    }
    var block = Self.counterBlock(responseCounter)
    block[0] = 0x80
    let icv = try crypto.aesECB(encrypting: true, key: sessionEncryptionKey, data: block)
    let plain = try crypto.aesCBC(encrypting: false, key: sessionEncryptionKey, iv: icv, data: body)
    var end = plain.count - 1
    while end >= 0, plain[end] == 0x00, plain.count - end <= 16 { end -= 1 }
    guard end >= 0, plain[end] == 0x80, plain.count - end <= 16 else {
      throw SecureChannelError(.invalidResponsePadding, offset: max(end, 0), statusWord: sw)
    }
    return ResponseAPDU(data: Array(plain[0..<end]), statusWord: sw)
  }

  /// The 16-byte big-endian encryption counter block (Amendment D §6.2.6).
  static func counterBlock(_ counter: UInt64) -> [UInt8] {
    var block = zeros(16)
    for index in 0..<8 { block[15 - index] = UInt8(truncatingIfNeeded: counter >> (8 * UInt64(index))) }
    return block
  }
}

extension SecureChannelSession: CustomStringConvertible {
  /// The protocol, level and state, without session keys or chaining values.
  public var description: String {
    "SecureChannelSession(\(secureChannelProtocol), \(securityLevel), key version \(keyVersion)"
      + (isS16Mode ? ", S16" : "") + ", \(wrappedCommandCount) commands" + (isClosed ? ", closed)" : ")")
  }
}

#if !hasFeature(Embedded)
  extension SecureChannelSession: CustomReflectable {
    /// A mirror without session keys or chaining values (so `dump` and test failure output
    /// never show them).
    public var customMirror: Mirror {
      Mirror(
        self,
        children: [
          "secureChannelProtocol": secureChannelProtocol, "securityLevel": securityLevel,
          "keyVersion": keyVersion,
          "isS16Mode": isS16Mode, "isClosed": isClosed, "wrappedCommandCount": wrappedCommandCount,
        ])
    }
  }
#endif
