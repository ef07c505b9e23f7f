// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// FeliCa's Check (`06`) and Update (`08`) without encryption for one service, as raw frames
/// `LEN CMD IDm n service(LE) m blockList [data]`: the length byte first, no CRC (JIS X 6319-4
/// §7.3; NFC Forum T3T 1.0 §5.3, §6.1 for the NDEF services `000B` and `0009`). libnfc's
/// InCommunicateThru, PC/SC direct transmit and the transparent session's Transceive object all
/// carry these bytes.
public enum FeliCaCommand {
  /// Check's command code (T3T §5.3.1); its answer's code is `07`.
  public static let checkCode: UInt8 = 0x06
  /// Update's command code (T3T §5.3.2); its answer's code is `09`.
  public static let updateCode: UInt8 = 0x08
  /// The NDEF read service, Check without encryption (T3T §6.1).
  public static let ndefReadService: UInt16 = 0x000B
  /// The NDEF write service, Update without encryption (T3T §6.1).
  public static let ndefWriteService: UInt16 = 0x0009
  /// The most blocks one Check answer holds in a frame of at most 255 bytes: 13 bytes of
  /// header and 15 blocks of 16.
  public static let maximumCheckBlocks = 15
  /// Bytes in a block.
  public static let blockSize = 16
  /// Bytes in an IDm.
  public static let idmLength = 8
  /// The longest frame, its length byte included (the length byte counts itself).
  public static let maximumFrameLength = 255

  /// The Check frame for `blocks` of `service`.
  ///
  /// - Throws: ``NFCTagError/Code/invalidIDm`` (offset: the IDm's length) for an IDm of other
  ///   than 8 bytes, ``NFCTagError/Code/invalidBlockCount`` (offset 11) for other than 1-15
  ///   blocks, ``NFCTagError/Code/invalidAddress`` (offset 12) for a block outside 0-65535.
  public static func check(idm: [UInt8], service: UInt16 = ndefReadService, blocks: Range<Int>)
    throws(NFCTagError) -> [UInt8]
  {
    guard (1...maximumCheckBlocks).contains(blocks.count) else {
      throw NFCTagError(.invalidBlockCount, offset: 11)
    }
    return try frame(checkCode, idm: idm, service: service, blocks: blocks, data: [])
  }

  /// The Update frame writing `data` (16 bytes a block) into `blocks` of `service`.
  ///
  /// - Throws: as ``check(idm:service:blocks:)``; ``NFCTagError/Code/invalidBlockCount``
  ///   (offset 11) when `data` is not 16 bytes for each block,
  ///   ``NFCTagError/Code/frameTooLong`` (offset 255) for a frame over 255 bytes.
  public static func update(
    idm: [UInt8], service: UInt16 = ndefWriteService, blocks: Range<Int>, data: [UInt8]
  )
    throws(NFCTagError) -> [UInt8]
  {
    guard !blocks.isEmpty, data.count == blocks.count &* blockSize else {
      throw NFCTagError(.invalidBlockCount, offset: 11)
    }
    return try frame(updateCode, idm: idm, service: service, blocks: blocks, data: data)
  }

  /// The blocks of a Check answer `LEN 07 IDm SF1 SF2 m data`.
  ///
  /// - Throws: as ``updateAnswer(_:idm:)``; ``NFCTagError/Code/unexpectedResponse`` (offset 12)
  ///   when the answer does not hold `blockCount` blocks.
  public static func checkAnswer(_ answer: [UInt8], idm: [UInt8], blockCount: Int) throws(NFCTagError)
    -> [UInt8]
  {
    try status(answer, command: checkCode, idm: idm)
    guard answer.count >= 13 else { throw NFCTagError(.responseTooShort, offset: answer.count) }
    guard Int(answer[12]) == blockCount, answer.count == 13 &+ blockCount &* blockSize else {
      throw NFCTagError(.unexpectedResponse, offset: 12)
    }
    return Array(answer[13...])
  }

  /// Checks an Update answer `LEN 09 IDm SF1 SF2`.
  ///
  /// - Throws: ``NFCTagError/Code/responseTooShort`` (offset: the answer's end) before the
  ///   status flags; ``NFCTagError/Code/unexpectedResponse`` (offset 0) when the length byte
  ///   is not the answer's length, (offset 1) for another response code;
  ///   ``NFCTagError/Code/identifierMismatch`` (offset: the first IDm byte that differs);
  ///   ``NFCTagError/Code/feliCaStatusFlags`` (offset 10, SF1 and SF2 in
  ///   ``NFCTagError/statusWord``) when the tag reports an error.
  public static func updateAnswer(_ answer: [UInt8], idm: [UInt8]) throws(NFCTagError) {
    try status(answer, command: updateCode, idm: idm)
  }

  private static func frame(
    _ command: UInt8, idm: [UInt8], service: UInt16, blocks: Range<Int>, data: [UInt8]
  )
    throws(NFCTagError) -> [UInt8]
  {
    guard idm.count == idmLength else { throw NFCTagError(.invalidIDm, offset: idm.count) }
    guard blocks.lowerBound >= 0, blocks.upperBound <= 0x1_0000 else {
      throw NFCTagError(.invalidAddress, offset: 12)
    }
    var body: [UInt8] = [command] + idm + [0x01, UInt8(truncatingIfNeeded: service), UInt8(service >> 8)]
    body.append(UInt8(truncatingIfNeeded: blocks.count))
    // Block list elements (JIS X 6319-4): 2 bytes `80 nn` below block 256, else 3 bytes
    // `00 lo hi`, the block number least significant byte first like the service code.
    for number in blocks {
      if number < 0x100 {
        body += [0x80, UInt8(number)]
      } else {
        body += [0x00, UInt8(truncatingIfNeeded: number), UInt8(truncatingIfNeeded: number >> 8)]
      }
    }
    body += data
    guard body.count < maximumFrameLength else {
      throw NFCTagError(.frameTooLong, offset: maximumFrameLength)
    }
    return [UInt8(body.count &+ 1)] + body
  }

  private static func status(_ answer: [UInt8], command: UInt8, idm: [UInt8]) throws(NFCTagError) {
    guard answer.count >= 12 else { throw NFCTagError(.responseTooShort, offset: answer.count) }
    guard Int(answer[0]) == answer.count else { throw NFCTagError(.unexpectedResponse, offset: 0) }
    guard answer[1] == command &+ 1 else { throw NFCTagError(.unexpectedResponse, offset: 1) }
    for index in 0..<idmLength where index >= idm.count || answer[2 &+ index] != idm[index] {
      throw NFCTagError(.identifierMismatch, offset: 2 &+ index)
    }
    guard answer[10] == 0, answer[11] == 0 else {
      throw NFCTagError(
        .feliCaStatusFlags, offset: 10, statusWord: StatusWord(sw1: answer[10], sw2: answer[11]))
    }
  }
}
