// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCReader
import NFCWire
import PCSCControl

/// The status-word handling READ BINARY and UPDATE BINARY share (PC/SC Part 3 §3.2.2.1.8).
enum PCSCStorageCardIO {
  /// The reader's answer to READ or UPDATE BINARY.
  static func binaryAnswer(_ response: [UInt8]) throws(ReaderError) -> BinaryPseudoAPDUAnswer {
    do { return try BinaryPseudoAPDUAnswer(parsing: response) } catch {
      throw ReaderError(.tagError, "READ/UPDATE BINARY: \(error)")
    }
  }

  /// The error for a refused READ or UPDATE BINARY: `unsupportedFeature` for 6A81 (the
  /// reader or card cannot do it), `tagError` with the status word and its Part 3 meaning
  /// otherwise.
  static func error(_ answer: BinaryPseudoAPDUAnswer, _ what: String, reader: String) -> ReaderError {
    if answer == .notSupported {
      return ReaderError(.unsupportedFeature, "\(reader) answers 6A81 (function not supported) to \(what)")
    }
    return ReaderError(.tagError, "\(what) answered \(statusText(answer))")
  }

  /// `6982 (not authenticated)` and the like.
  static func statusText(_ answer: BinaryPseudoAPDUAnswer) -> String {
    switch answer {
    case .complete: "9000"
    case .dataMayBeCorrupted: "6281 (data may be corrupted)"
    case .endReached: "6282 (end reached before Le bytes)"
    case .noInformation: "6300 (no information; ACS readers answer it to every failure)"
    case .commandIncompatible: "6981 (command incompatible with the card)"
    case .notAuthenticated: "6982 (security status not satisfied)"
    case .commandNotAllowed: "6986 (command not allowed)"
    case .notSupported: "6A81 (function not supported)"
    case .addressDoesNotExist: "6A82 (address does not exist)"
    case .wrongParameters: "6B00 (wrong P1-P2)"
    case .wrongLength(let available): "6C\(Hex.uppercaseString([available])) (wrong Le)"
    case .failed(let sw, _): Hex.uppercaseString([sw.sw1, sw.sw2])
    }
  }
}

/// Page reads and writes of an NFC Forum Type 2 tag (Ultralight, NTAG) in a contactless
/// PC/SC reader: READ BINARY `FF B0 00 page 10` answers 16 bytes (4 pages; a reader that
/// answers one page is followed), UPDATE BINARY `FF D6 00 page 04 data` writes one page
/// (PC/SC Part 3 §3.2.2.1.8, ACR122T API §5.3, Microsoft "UL WRITE 4"). GET_VERSION goes
/// through direct transmit `FF 00 00 00` where the reader profile has it.
///
/// The tag layout itself (CC, TLVs, lock bits, the tearing-safe write order) is the
/// NFCTags codecs' (``NFCTags/Type2TagView``, ``NFCTags/Type2Tag``), shared with libnfc.
public struct PCSCType2PageTransport: Sendable {
  /// The connected card.
  public let card: PCSCCard
  /// The reader's quirks (direct transmit or not).
  public let profile: StorageCardReaderProfile

  /// Creates a transport.
  ///
  /// - Parameters:
  ///   - card: the card, a Type 2 tag by its storage-card ATR.
  ///   - profile: the reader's profile.
  public init(card: PCSCCard, profile: StorageCardReaderProfile) {
    self.card = card
    self.profile = profile
  }

  /// READ BINARY from `page`: the 16 bytes of 4 pages (4 when the reader answers one page).
  ///
  /// - Throws: `ReaderError.Code.tagError` for a refusal (6A82 past the end, 6300 on ACS),
  ///   `ReaderError.Code.unsupportedFeature` for 6A81, `ReaderError.Code.tagLost` when the
  ///   tag left.
  public func readPages(from page: Int) async throws(ReaderError) -> [UInt8] {
    guard
      let command = ReadBinaryPseudoAPDU(
        block: page, addressing: .type2Page, expectedLength: UInt8(StorageCardAddressing.type2ReadLength))
    else { throw ReaderError(.invalidArgument, "page \(page) is outside 00-FF") }
    let answer = try await PCSCStorageCardIO.binaryAnswer(card.transmit(command.encodedBytes()))
    guard case .complete(let bytes) = answer, !bytes.isEmpty, bytes.count % Self.pageSize == 0 else {
      throw PCSCStorageCardIO.error(answer, "READ BINARY of page \(page)", reader: card.reader)
    }
    return bytes
  }

  /// UPDATE BINARY of one page.
  ///
  /// - Throws: as ``readPages(from:)``; `ReaderError.Code.invalidArgument` for other than 4 bytes.
  public func writePage(_ page: Int, _ bytes: [UInt8]) async throws(ReaderError) {
    guard bytes.count == StorageCardAddressing.type2WriteLength,
      let command = UpdateBinaryPseudoAPDU(block: page, addressing: .type2Page, data: bytes)
    else { throw ReaderError(.invalidArgument, "a Type 2 write is 4 bytes into page 00-FF") }
    let encoded: [UInt8]
    do { encoded = try command.encodedBytes() } catch {
      throw ReaderError(.invalidArgument, "UPDATE BINARY: \(error)")
    }
    let answer = try await PCSCStorageCardIO.binaryAnswer(card.transmit(encoded))
    guard case .complete = answer else {
      throw PCSCStorageCardIO.error(answer, "UPDATE BINARY of page \(page)", reader: card.reader)
    }
  }

  /// GET_VERSION (`60`, NTAG213/215/216 data sheet §10.1) through direct transmit: the 8
  /// bytes, or nil when the profile has no direct transmit or the tag does not answer
  /// (an Ultralight without GET_VERSION).
  ///
  /// - Throws: `ReaderError.Code.tagLost` when the tag left.
  public func version() async throws(ReaderError) -> [UInt8]? {
    guard profile.hasDirectTransmit else { return nil }
    let command: [UInt8]
    do { command = try DirectTransmitPseudoAPDU(payload: [Self.getVersion]).encodedBytes() } catch { return nil }
    let response = try await card.transmit(command)
    guard response.count == Self.versionLength + 2, response.suffix(2) == [0x90, 0x00] else { return nil }
    return Array(response.prefix(Self.versionLength))
  }

  /// The first `pageCount` pages, read 4 at a time.
  ///
  /// - Throws: as ``readPages(from:)``.
  public func readImage(pageCount: Int, startingWith known: [UInt8] = []) async throws(ReaderError) -> [UInt8] {
    var image = known
    let size = pageCount * Self.pageSize
    while image.count < size {
      image += try await readPages(from: image.count / Self.pageSize)
    }
    return Array(image.prefix(size))
  }

  /// Bytes in a page (T2T 1.0 §2.1).
  static let pageSize = 4
  /// GET_VERSION's command code.
  static let getVersion: UInt8 = 0x60
  /// GET_VERSION's answer length.
  static let versionLength = 8
}

/// Block reads and writes of an NFC Forum Type 5 tag (ISO/IEC 15693) in a contactless PC/SC
/// reader through READ BINARY and UPDATE BINARY, with the block addressing this reader uses
/// (block in P1, block in P1-P2, or byte address; PC/SC storage-card notes §1).
public struct PCSCType5BlockTransport: Sendable {
  /// The connected card.
  public let card: PCSCCard
  /// How the reader puts the block number into P1-P2.
  public let addressing: StorageCardAddressing
  /// Bytes in a block.
  public let blockSize: Int

  /// Creates a transport with a known addressing.
  ///
  /// - Parameters:
  ///   - card: the card, an ISO/IEC 15693 tag by its storage-card ATR.
  ///   - addressing: the reader's block addressing.
  ///   - blockSize: bytes in a block (4 on ICODE SLI/SLIX).
  public init(card: PCSCCard, addressing: StorageCardAddressing, blockSize: Int = 4) {
    self.card = card
    self.addressing = addressing
    self.blockSize = blockSize
  }

  /// Finds the reader's addressing: block 0 must hold the T5T capability container's magic
  /// (E1 or E2, T5T 1.0 §4.3.1; P1-P2 0000 in every variant), then block 1 is read in each
  /// variant, block in P1 first, then block in P1-P2, then byte address; the first that
  /// answers wins (a reader refuses a P1-P2 its own addressing does not take, 6B00 or
  /// 6A82).
  ///
  /// - Throws: `ReaderError.Code.tagError` when block 0 holds no CC or no variant reads
  ///   block 1, `ReaderError.Code.tagLost` when the tag left.
  public static func detect(card: PCSCCard, blockSize: Int = 4) async throws(ReaderError) -> PCSCType5BlockTransport {
    let first = PCSCType5BlockTransport(card: card, addressing: .blockInP1P2, blockSize: blockSize)
    let cc = try await first.readBlock(0)
    guard let magic = cc.first, magic == 0xE1 || magic == 0xE2 else {
      throw ReaderError(.tagError, "block 0 holds no Type 5 capability container (no E1/E2 magic)")
    }
    for addressing in [StorageCardAddressing.blockInP1, .blockInP1P2, .byteAddress(blockSize: blockSize)] {
      let candidate = PCSCType5BlockTransport(card: card, addressing: addressing, blockSize: blockSize)
      do {
        _ = try await candidate.readBlock(1)
        return candidate
      } catch {
        if error.code == .tagLost { throw error }
      }
    }
    throw ReaderError(.tagError, "\(card.reader) reads block 1 in none of the ISO/IEC 15693 addressings")
  }

  /// READ BINARY of one block.
  ///
  /// - Throws: `ReaderError.Code.tagError`, `ReaderError.Code.unsupportedFeature` (6A81),
  ///   `ReaderError.Code.tagLost`.
  public func readBlock(_ block: Int) async throws(ReaderError) -> [UInt8] {
    guard (1...255).contains(blockSize),
      let command = ReadBinaryPseudoAPDU(block: block, addressing: addressing, expectedLength: UInt8(blockSize))
    else { throw ReaderError(.invalidArgument, "block \(block) does not fit \(addressing)") }
    let answer = try await PCSCStorageCardIO.binaryAnswer(card.transmit(command.encodedBytes()))
    guard case .complete(let bytes) = answer, bytes.count == blockSize else {
      throw PCSCStorageCardIO.error(answer, "READ BINARY of block \(block)", reader: card.reader)
    }
    return bytes
  }

  /// UPDATE BINARY of one block.
  ///
  /// - Throws: as ``readBlock(_:)``.
  public func writeBlock(_ block: Int, _ bytes: [UInt8]) async throws(ReaderError) {
    guard bytes.count == blockSize,
      let command = UpdateBinaryPseudoAPDU(block: block, addressing: addressing, data: bytes)
    else { throw ReaderError(.invalidArgument, "a write of block \(block) is \(blockSize) bytes") }
    let encoded: [UInt8]
    do { encoded = try command.encodedBytes() } catch {
      throw ReaderError(.invalidArgument, "UPDATE BINARY: \(error)")
    }
    let answer = try await PCSCStorageCardIO.binaryAnswer(card.transmit(encoded))
    guard case .complete = answer else {
      throw PCSCStorageCardIO.error(answer, "UPDATE BINARY of block \(block)", reader: card.reader)
    }
  }

  /// The capability container and every block of the data area it announces.
  ///
  /// - Throws: as ``readBlock(_:)``.
  public func readImage() async throws(ReaderError) -> [UInt8] {
    var image = try await readBlock(0)
    guard image.count >= 4 else { return image }
    var size = Int(image[2]) * 8 + 4
    if image[2] == 0 {
      // An 8-byte CC: MLEN in bytes 6-7 (T5T 1.0 §4.3.1.3).
      while image.count < 8 { image += try await readBlock(image.count / blockSize) }
      size = (Int(image[6]) << 8 | Int(image[7])) * 8 + 8
    }
    while image.count < size {
      image += try await readBlock(image.count / blockSize)
    }
    return image
  }
}
