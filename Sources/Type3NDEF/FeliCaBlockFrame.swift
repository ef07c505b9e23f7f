// SPDX-License-Identifier: Apache-2.0
import NFCReader
import NFCWire

/// The raw FeliCa frames of Check (`06`) and Update (`08`) without encryption, for one
/// service, as a transport that passes raw frames sends them: `LEN CMD IDm n service(LE)
/// m blockList [data]`, the length byte first and no CRC (JIS X 6319-4 §7.3; T3T 1.0 §5.3,
/// §6.1 for the NDEF services `000B` and `0009`). libnfc's InCommunicateThru, PC/SC direct
/// transmit (ACS) and the transparent session's Transceive object all carry these bytes.
public enum FeliCaBlockFrame {
  /// Check's command code (T3T 1.0 §5.3.1).
  public static let checkCommand: UInt8 = 0x06
  /// Update's command code (T3T 1.0 §5.3.2).
  public static let updateCommand: UInt8 = 0x08
  /// The NDEF read service, Check without encryption (T3T 1.0 §6.1).
  public static let ndefReadService: UInt16 = 0x000B
  /// The NDEF write service, Update without encryption (T3T 1.0 §6.1).
  public static let ndefWriteService: UInt16 = 0x0009
  /// The most blocks one Check answer holds in a frame of at most 255 bytes: 13 bytes of
  /// header and 15 blocks of 16.
  public static let maximumCheckBlocks = 15
  /// The most blocks one Update frame carries whatever their numbers: 14 bytes of header
  /// and 12 blocks of a 3-byte block list element and 16 data bytes (255 bytes at most).
  public static let maximumUpdateBlocks = 12
  /// Bytes in a block.
  public static let blockSize = 16

  /// The Check frame for `blocks` of `service`.
  ///
  /// - Parameters:
  ///   - idm: the tag's 8-byte IDm.
  ///   - service: the service code (default `000B`).
  ///   - blocks: 1...15 blocks in `0...0xFFFF`.
  /// - Throws: `ReaderError.Code.invalidArgument` for an IDm of other than 8 bytes, a block
  ///   count outside 1...15 or a block outside `0...0xFFFF`.
  public static func check(idm: [UInt8], service: UInt16 = ndefReadService, blocks: Range<Int>)
    throws(ReaderError) -> [UInt8]
  {
    guard (1...maximumCheckBlocks).contains(blocks.count) else {
      throw ReaderError(.invalidArgument, "Check reads 1...\(maximumCheckBlocks) blocks, not \(blocks.count)")
    }
    return try frame(checkCommand, idm: idm, service: service, blocks: blocks, data: [])
  }

  /// The Update frame writing `data` into `blocks` of `service`.
  ///
  /// - Parameters:
  ///   - idm: the tag's 8-byte IDm.
  ///   - service: the service code (default `0009`).
  ///   - blocks: the blocks in `0...0xFFFF`.
  ///   - data: 16 bytes per block.
  /// - Throws: `ReaderError.Code.invalidArgument` for an IDm of other than 8 bytes, data
  ///   that is not 16 bytes per block, a block outside `0...0xFFFF` or a frame over 255
  ///   bytes.
  public static func update(
    idm: [UInt8], service: UInt16 = ndefWriteService, blocks: Range<Int>, data: [UInt8]
  )
    throws(ReaderError) -> [UInt8]
  {
    guard !blocks.isEmpty, data.count == blocks.count &* blockSize else {
      throw ReaderError(
        .invalidArgument, "Update writes 16 bytes per block: \(data.count) bytes for \(blocks.count) blocks")
    }
    return try frame(updateCommand, idm: idm, service: service, blocks: blocks, data: data)
  }

  /// The blocks of a Check answer `LEN 07 IDm SF1 SF2 m data`.
  ///
  /// - Parameters:
  ///   - answer: the answer frame, length byte first.
  ///   - idm: the IDm the command went to.
  ///   - blockCount: the number of blocks asked for.
  /// - Throws: `ReaderError.Code.tagError` for a malformed answer (length, command code,
  ///   IDm, block count) or status flags other than `00 00` (named in the message).
  public static func checkAnswer(_ answer: [UInt8], idm: [UInt8], blockCount: Int) throws(ReaderError)
    -> [UInt8]
  {
    try status(answer, command: checkCommand, idm: idm)
    guard answer.count == 13 &+ blockCount &* blockSize, Int(answer[12]) == blockCount else {
      throw ReaderError(.tagError, "Check answered \(answer.count) bytes for \(blockCount) blocks")
    }
    return Array(answer[13...])
  }

  /// Checks an Update answer `LEN 09 IDm SF1 SF2`.
  ///
  /// - Parameters:
  ///   - answer: the answer frame, length byte first.
  ///   - idm: the IDm the command went to.
  /// - Throws: as ``checkAnswer(_:idm:blockCount:)``.
  public static func updateAnswer(_ answer: [UInt8], idm: [UInt8]) throws(ReaderError) {
    try status(answer, command: updateCommand, idm: idm)
  }

  private static func frame(
    _ command: UInt8, idm: [UInt8], service: UInt16, blocks: Range<Int>, data: [UInt8]
  )
    throws(ReaderError) -> [UInt8]
  {
    guard idm.count == 8 else { throw ReaderError(.invalidArgument, "an IDm has 8 bytes, not \(idm.count)") }
    guard blocks.lowerBound >= 0, blocks.upperBound <= 0x1_0000 else {
      throw ReaderError(.invalidArgument, "block numbers are 0...65535")
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
    guard body.count < 255 else {
      throw ReaderError(.invalidArgument, "the FeliCa frame would be \(body.count + 1) bytes (255 at most)")
    }
    return [UInt8(body.count &+ 1)] + body
  }

  private static func status(_ answer: [UInt8], command: UInt8, idm: [UInt8]) throws(ReaderError) {
    guard answer.count >= 12, Int(answer[0]) == answer.count, answer[1] == command &+ 1,
      answer[2..<10].elementsEqual(idm)
    else { throw ReaderError(.tagError, "malformed FeliCa answer (\(answer.count) bytes)") }
    guard answer[10] == 0, answer[11] == 0 else {
      throw ReaderError(
        .tagError, "the tag answered status flags \(Hex.uppercaseString([answer[10], answer[11]]))")
    }
  }
}
