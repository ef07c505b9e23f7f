// SPDX-License-Identifier: Apache-2.0
import NFCReader
import NFCTags
import NFCWire

/// The raw FeliCa frames of Check (`06`) and Update (`08`) for reader adapters: the codec is
/// NFCTags' `FeliCaCommand` (JIS X 6319-4 §7.3; T3T 1.0 §5.3, §6.1), whose typed
/// errors come out here as `ReaderError`s, a bad argument as `invalidArgument` and a bad answer
/// as `tagError`. libnfc's InCommunicateThru, PC/SC direct transmit (ACS) and the transparent
/// session's Transceive object all carry these bytes.
public enum FeliCaBlockFrame {
  /// Check's command code (T3T 1.0 §5.3.1).
  public static let checkCommand: UInt8 = FeliCaCommand.checkCode
  /// Update's command code (T3T 1.0 §5.3.2).
  public static let updateCommand: UInt8 = FeliCaCommand.updateCode
  /// The NDEF read service, Check without encryption (T3T 1.0 §6.1).
  public static let ndefReadService: UInt16 = FeliCaCommand.ndefReadService
  /// The NDEF write service, Update without encryption (T3T 1.0 §6.1).
  public static let ndefWriteService: UInt16 = FeliCaCommand.ndefWriteService
  /// The most blocks one Check answer holds in a frame of at most 255 bytes: 13 bytes of
  /// header and 15 blocks of 16.
  public static let maximumCheckBlocks = FeliCaCommand.maximumCheckBlocks
  /// The most blocks one Update frame carries whatever their numbers: 14 bytes of header
  /// and 12 blocks of a 3-byte block list element and 16 data bytes (255 bytes at most).
  public static let maximumUpdateBlocks = 12
  /// Bytes in a block.
  public static let blockSize = FeliCaCommand.blockSize

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
    do throws(NFCTagError) {
      return try FeliCaCommand.check(idm: idm, service: service, blocks: blocks)
    } catch {
      throw ReaderError(frame: error, "Check of \(blocks.count) blocks")
    }
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
    do throws(NFCTagError) {
      return try FeliCaCommand.update(idm: idm, service: service, blocks: blocks, data: data)
    } catch {
      throw ReaderError(frame: error, "Update of \(data.count) bytes into \(blocks.count) blocks")
    }
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
    do throws(NFCTagError) {
      return try FeliCaCommand.checkAnswer(answer, idm: idm, blockCount: blockCount)
    } catch {
      throw ReaderError(frame: error, "Check")
    }
  }

  /// Checks an Update answer `LEN 09 IDm SF1 SF2`.
  ///
  /// - Parameters:
  ///   - answer: the answer frame, length byte first.
  ///   - idm: the IDm the command went to.
  /// - Throws: as ``checkAnswer(_:idm:blockCount:)``.
  public static func updateAnswer(_ answer: [UInt8], idm: [UInt8]) throws(ReaderError) {
    do throws(NFCTagError) { try FeliCaCommand.updateAnswer(answer, idm: idm) } catch {
      throw ReaderError(frame: error, "Update")
    }
  }
}

extension ReaderError {
  /// A tag frame codec's error (`Type1Command`, `FeliCaCommand`,
  /// `PN532DataExchange`) as a reader error naming `what`: an argument the frame
  /// cannot carry is `invalidArgument`, a bad answer `tagError`; FeliCa status flags are named
  /// by value.
  package init(frame error: NFCTagError, _ what: String) {
    switch error.code {
    case .invalidAddress, .invalidImageSize, .invalidBlockCount, .invalidIDm, .frameTooLong:
      self.init(.invalidArgument, "\(what): \(error.code.message)")
    case .feliCaStatusFlags:
      let flags = error.statusWord.map { Hex.uppercaseString([$0.sw1, $0.sw2]) } ?? "?"
      self.init(.tagError, "the tag answered status flags \(flags)")
    default:
      self.init(.tagError, "\(what): \(error.code.message) (byte \(error.offset) of the answer)")
    }
  }
}
