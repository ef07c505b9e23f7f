// SPDX-License-Identifier: Apache-2.0

/// The NTAG21x and MIFARE Ultralight EV1 commands beyond READ and WRITE, as frames for
/// the card (sent through libnfc, a reader's direct transmit or a PC/SC transparent
/// session), and their answers (NTAG213/215/216 data sheet §10; NTAG210/212 §10; MF0ULX1
/// §9). Frames exclude CRC_A; the transport adds it.
public enum NtagCommand {
  /// GET_VERSION's command code.
  public static let getVersionCode: UInt8 = 0x60
  /// FAST_READ's command code.
  public static let fastReadCode: UInt8 = 0x3A
  /// READ_CNT's command code.
  public static let readCounterCode: UInt8 = 0x39
  /// PWD_AUTH's command code.
  public static let passwordAuthenticationCode: UInt8 = 0x1B
  /// READ_SIG's command code.
  public static let readSignatureCode: UInt8 = 0x3C
  /// The originality signature's length (ECC, 32 bytes).
  public static let signatureLength = 32
  /// The NFC counter's length (24 bits, least significant byte first).
  public static let counterLength = 3
  /// The NFC counter READ_CNT reads on NTAG213/215/216.
  public static let ntagCounterAddress: UInt8 = 0x02
  /// The 4-bit ACK (§9.3).
  public static let acknowledge: UInt8 = 0x0A

  /// §10.1 GET_VERSION: `60`; the answer is ``NtagVersion``.
  public static let getVersion: [UInt8] = [getVersionCode]

  /// §10.3 FAST_READ: `3A start end`, pages `start` through `end` (4 bytes each) in one
  /// answer. The reader's frame size bounds how many pages one FAST_READ may ask for.
  ///
  /// - Throws: ``NFCTagError/Code/invalidPageRange`` (offset 2) when `end < start`.
  public static func fastRead(from start: UInt8, through end: UInt8) throws(NFCTagError) -> [UInt8] {
    guard end >= start else { throw NFCTagError(.invalidPageRange, offset: 2) }
    return [fastReadCode, start, end]
  }

  /// The number of bytes FAST_READ from `start` through `end` answers.
  public static func fastReadLength(from start: UInt8, through end: UInt8) -> Int {
    end >= start ? (Int(end) &- Int(start) &+ 1) &* 4 : 0
  }

  /// Checks a FAST_READ answer for pages `start` through `end` and returns it.
  ///
  /// - Throws: ``NFCTagError/Code/negativeAcknowledge``,
  ///   ``NFCTagError/Code/responseTooShort`` (offset: the answer's end),
  ///   ``NFCTagError/Code/unexpectedResponse`` (offset: the expected length).
  public static func fastReadAnswer(_ answer: [UInt8], from start: UInt8, through end: UInt8)
    throws(NFCTagError)
    -> [UInt8]
  {
    try checkLength(answer, fastReadLength(from: start, through: end))
    return answer
  }

  /// §10.8 READ_SIG: `3C 00`.
  public static let readSignature: [UInt8] = [readSignatureCode, 0x00]

  /// Checks a READ_SIG answer (the 32-byte ECC originality signature) and returns it.
  /// Verifying it needs NXP's public key and secp128r1 (crypto work, not here).
  ///
  /// - Throws: ``NFCTagError/Code/negativeAcknowledge``,
  ///   ``NFCTagError/Code/responseTooShort``, ``NFCTagError/Code/unexpectedResponse``.
  public static func signature(parsing answer: [UInt8]) throws(NFCTagError) -> [UInt8] {
    try checkLength(answer, signatureLength)
    return answer
  }

  /// §10.6 READ_CNT: `39 counter` (NTAG213/215/216: counter 02, the NFC counter; Ultralight
  /// EV1: counters 00-02).
  public static func readCounter(_ counter: UInt8 = ntagCounterAddress) -> [UInt8] {
    [readCounterCode, counter]
  }

  /// The 24-bit counter of a READ_CNT answer (least significant byte first).
  ///
  /// - Throws: ``NFCTagError/Code/negativeAcknowledge``,
  ///   ``NFCTagError/Code/responseTooShort``, ``NFCTagError/Code/unexpectedResponse``.
  public static func counter(parsing answer: [UInt8]) throws(NFCTagError) -> UInt32 {
    try checkLength(answer, counterLength)
    return UInt32(answer[0]) | UInt32(answer[1]) << 8 | UInt32(answer[2]) << 16
  }

  /// §10.7 PWD_AUTH: `1B pwd0 pwd1 pwd2 pwd3`. The frame holds the password: do not log it.
  public static func passwordAuthentication(_ password: NtagPassword) -> [UInt8] {
    [passwordAuthenticationCode] + password.bytes
  }

  /// Checks a PWD_AUTH answer: the 2-byte PACK, compared with `expected` when given (the
  /// PACK proves the tag knows the password; a clone that accepts any password does not).
  ///
  /// - Throws: ``NFCTagError/Code/negativeAcknowledge`` (wrong password: the tag counts it
  ///   against AUTHLIM), ``NFCTagError/Code/responseTooShort``,
  ///   ``NFCTagError/Code/unexpectedResponse``,
  ///   ``NFCTagError/Code/passwordAcknowledgeMismatch`` (offset 0).
  @discardableResult
  public static func passwordAcknowledge(parsing answer: [UInt8], expected: NtagPasswordAcknowledge? = nil)
    throws(NFCTagError) -> NtagPasswordAcknowledge
  {
    try checkLength(answer, NtagPasswordAcknowledge.length)
    let pack = NtagPasswordAcknowledge(answer[0], answer[1])
    if let expected, expected != pack { throw NFCTagError(.passwordAcknowledgeMismatch, offset: 0) }
    return pack
  }

  /// Throws when `answer` is a 4-bit NAK (§9.3: 0x0 invalid argument, 0x1 CRC error, 0x4
  /// authentication counter overflow, 0x5 EEPROM write error; sent as one byte).
  static func checkNotNAK(_ answer: [UInt8]) throws(NFCTagError) {
    if answer.count == 1, [0x0, 0x1, 0x4, 0x5].contains(answer[0]) {
      throw NFCTagError(.negativeAcknowledge, offset: 0)
    }
  }

  static func checkLength(_ answer: [UInt8], _ length: Int) throws(NFCTagError) {
    try checkNotNAK(answer)
    guard answer.count >= length else { throw NFCTagError(.responseTooShort, offset: answer.count) }
    guard answer.count == length else { throw NFCTagError(.unexpectedResponse, offset: length) }
  }
}
