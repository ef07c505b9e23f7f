// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCReader
import NFCTags
import NFCWire
import PCSCControl
import Type2NDEF

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

  /// READ BINARY `FF B0` (`what` names it in errors): the data of a 9000 answer.
  ///
  /// - Throws: ``error(_:_:reader:)`` for a refusal, `ReaderError.Code.tagLost` when the
  ///   card left.
  static func readBinary(_ card: PCSCCard, _ command: ReadBinaryPseudoAPDU, _ what: String)
    async throws(ReaderError) -> [UInt8]
  {
    let answer = try await binaryAnswer(card.transmit(command.encodedBytes()))
    guard case .complete(let bytes) = answer else { throw error(answer, what, reader: card.reader) }
    return bytes
  }

  /// UPDATE BINARY `FF D6` (`what` names it in errors), answered 9000.
  ///
  /// - Throws: as ``readBinary(_:_:_:)``; `ReaderError.Code.invalidArgument` for data the
  ///   command cannot carry.
  static func updateBinary(_ card: PCSCCard, _ command: UpdateBinaryPseudoAPDU, _ what: String)
    async throws(ReaderError)
  {
    let encoded: [UInt8]
    do { encoded = try command.encodedBytes() } catch {
      throw ReaderError(.invalidArgument, "UPDATE BINARY: \(error)")
    }
    let answer = try await binaryAnswer(card.transmit(encoded))
    guard case .complete = answer else { throw error(answer, what, reader: card.reader) }
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

/// A `Type2PageTransport` over an NFC Forum Type 2 tag (Ultralight, NTAG) in a
/// contactless PC/SC reader, so that `Type2NDEFProcedure` and `Ntag` run on PC/SC as they
/// do on libnfc:
///
/// - reads: READ BINARY `FF B0 00 page 10` answers 16 bytes, 4 pages (PC/SC Part 3
///   §3.2.2.1.8, ACR122T API §5.3); where the reader passes raw frames and GET_VERSION
///   named a chip with FAST_READ, FAST_READ `3A start end` (NTAG213/215/216 data sheet
///   §10.3) of up to ``maximumFastReadPages`` pages instead;
/// - writes: UPDATE BINARY `FF D6 00 page 04 data`, one page (Microsoft "UL WRITE 4");
/// - raw frames (GET_VERSION, READ_SIG, PWD_AUTH, READ_CNT; §10): on the reader's
///   ``PCSCRawFrameRoute`` (the transparent session, direct transmit, or an ACR122U's
///   PN532), as the Type 3 transport's FeliCa frames; without one,
///   `ReaderError.Code.unsupportedFeature`.
///
/// A tag that refuses a command (a NAK) goes back to IDLE (§9.3, T2T 1.0 §5): after a
/// refusal the transport activates it again with `SCardReconnect` (as the libnfc transport
/// selects it again), which also ends a PWD_AUTH authentication.
public struct PCSCType2PageTransport: Type2PageTransport {
  /// The connected card.
  public let card: PCSCCard
  /// The reader's quirks (direct transmit or transparent session).
  public let profile: StorageCardReaderProfile
  /// The tag's GET_VERSION answer, `nil` when the reader passes no raw frames or the tag
  /// answered none (MIFARE Ultralight, Ultralight C, NTAG203).
  public let version: NtagVersion?
  /// The chip GET_VERSION names.
  public var chip: NtagChip? { version?.chip }
  /// The most pages one read returns: ``readBinaryPages`` without FAST_READ, else the
  /// FAST_READ bound given at creation.
  public let maximumPagesPerRead: Int

  /// Pages in one READ BINARY with Le `10` (16 bytes: T2T 1.0 §5.1 READ answers 4 pages;
  /// PC/SC Part 3 §3.2.2.1.8 has the reader pass them on).
  public static let readBinaryPages = StorageCardAddressing.type2ReadLength / Type2Tag.pageSize

  /// The most pages one FAST_READ asks for through direct transmit or the transparent
  /// session: the answer and its status word must fit a short response APDU (ISO/IEC
  /// 7816-4 §5.1: at most 256 data bytes, 64 pages), and on an ACR122U, whose direct
  /// transmit carries the frame through its PN532, the PN532's normal information frame
  /// (PN532 user manual §6.2.1.1; libnfc `PN53x_NORMAL_FRAME__DATA_MAX_LEN`, 254 bytes
  /// after TFI `D5`, the command code and the status byte: 251 bytes) bounds it to 62
  /// pages, the same bound as the libnfc transport.
  public static let maximumFastReadPages = 62

  /// A transport for a tag whose GET_VERSION answer is already known (or `nil`), raw
  /// frames on the route the profile and the reader name give.
  ///
  /// - Parameters:
  ///   - card: the card, a Type 2 tag by its storage-card ATR.
  ///   - profile: the reader's profile.
  ///   - version: the tag's GET_VERSION answer, `nil` for none.
  ///   - maximumFastReadPages: the FAST_READ bound for this reader (1...62); 4 or less
  ///     keeps READ BINARY.
  public init(
    card: PCSCCard, profile: StorageCardReaderProfile, version: NtagVersion? = nil,
    maximumFastReadPages: Int = Self.maximumFastReadPages
  ) {
    self.init(
      card: card, profile: profile, route: PCSCRawFrameRoute.route(for: profile, readerName: card.reader),
      version: version, maximumFastReadPages: maximumFastReadPages)
  }

  /// A transport whose raw frames take `route` (`nil`: READ and UPDATE BINARY only).
  ///
  /// - Parameters:
  ///   - card: the card, a Type 2 tag by its storage-card ATR.
  ///   - profile: the reader's profile.
  ///   - route: how raw frames reach the tag, `nil` for none.
  ///   - version: the tag's GET_VERSION answer, `nil` for none.
  ///   - maximumFastReadPages: the FAST_READ bound for this reader (1...62); 4 or less
  ///     keeps READ BINARY.
  public init(
    card: PCSCCard, profile: StorageCardReaderProfile, route: PCSCRawFrameRoute?, version: NtagVersion? = nil,
    maximumFastReadPages: Int = Self.maximumFastReadPages
  ) {
    self.card = card
    self.profile = profile
    self.rawFrameRoute = route
    self.version = version
    let fast =
      route != nil && version?.chip?.hasFastRead == true
      ? min(max(1, maximumFastReadPages), Self.maximumFastReadPages) : 0
    maximumPagesPerRead = max(fast, Self.readBinaryPages)
  }

  /// A transport for the tag in `card`: GET_VERSION first where the reader passes raw
  /// frames (a tag without it is activated again).
  ///
  /// - Parameters:
  ///   - card: the card, a Type 2 tag by its storage-card ATR.
  ///   - profile: the reader's profile.
  ///   - maximumFastReadPages: the FAST_READ bound for this reader.
  /// - Throws: `ReaderError.Code.tagLost` when the tag left.
  public static func connect(
    card: PCSCCard, profile: StorageCardReaderProfile, maximumFastReadPages: Int = Self.maximumFastReadPages
  ) async throws(ReaderError) -> PCSCType2PageTransport {
    try await connect(
      card: card, profile: profile, route: PCSCRawFrameRoute.route(for: profile, readerName: card.reader),
      maximumFastReadPages: maximumFastReadPages)
  }

  /// A transport for the tag in `card` whose raw frames take `route`: the transparent
  /// session started (it stays open until the card is disconnected), then GET_VERSION.
  ///
  /// - Parameters:
  ///   - card: the card, a Type 2 tag by its storage-card ATR.
  ///   - profile: the reader's profile.
  ///   - route: how raw frames reach the tag, `nil` for none.
  ///   - maximumFastReadPages: the FAST_READ bound for this reader.
  /// - Throws: `ReaderError.Code.tagLost` when the tag left.
  public static func connect(
    card: PCSCCard, profile: StorageCardReaderProfile, route: PCSCRawFrameRoute?,
    maximumFastReadPages: Int = Self.maximumFastReadPages
  ) async throws(ReaderError) -> PCSCType2PageTransport {
    var route = route
    if route == .transparentSession {
      // A reader that refuses the session passes no raw frames: READ BINARY only.
      do { _ = try await card.transparentSession(.startSession, "Start Session") } catch {
        if error.code == .tagLost { throw error }
        route = nil
      }
    }
    let plain = PCSCType2PageTransport(card: card, profile: profile, route: route)
    var version: NtagVersion?
    if plain.rawFrameRoute != nil {
      // No GET_VERSION (a refusal, 6A81 from the reader): READ BINARY only.
      var answer: [UInt8]?
      do { answer = try await plain.transceive(NtagCommand.getVersion) } catch {
        if error.code == .tagLost { throw error }
      }
      version = answer.flatMap { try? NtagVersion(parsing: $0) }
    }
    return PCSCType2PageTransport(
      card: card, profile: profile, route: route, version: version, maximumFastReadPages: maximumFastReadPages
    )
  }

  /// How raw frames reach the tag here, `nil` when the reader passes none.
  public let rawFrameRoute: PCSCRawFrameRoute?

  /// The chip's layout when GET_VERSION named it; `nil` otherwise.
  public var variant: Type2TagVariant? { chip?.variant }

  /// READ BINARY for up to 4 pages (the answer cut to `pages`), FAST_READ for more.
  ///
  /// - Parameter pages: 1...``maximumPagesPerRead`` pages in `0..<256`.
  /// - Throws: `ReaderError.Code.tagError` for a refusal (6A82 past the end, 6300 on ACS,
  ///   a NAK), `ReaderError.Code.unsupportedFeature` for 6A81,
  ///   `ReaderError.Code.invalidArgument` for a range outside the bounds,
  ///   `ReaderError.Code.tagLost` when the tag left.
  public func readPages(_ pages: Range<Int>) async throws(ReaderError) -> [UInt8] {
    guard pages.lowerBound >= 0, pages.upperBound <= 256, !pages.isEmpty, pages.count <= maximumPagesPerRead
    else {
      throw ReaderError(
        .invalidArgument, "pages \(pages) are not a read of 1...\(maximumPagesPerRead) in 0...255")
    }
    let pageSize = Type2Tag.pageSize
    if pages.count > Self.readBinaryPages {
      let start = UInt8(pages.lowerBound)
      let end = UInt8(pages.upperBound - 1)
      let command: [UInt8]
      do { command = try NtagCommand.fastRead(from: start, through: end) } catch {
        throw ReaderError(.invalidArgument, "FAST_READ \(start)-\(end): \(error)")
      }
      let answer = try await transceive(command)
      do { return try NtagCommand.fastReadAnswer(answer, from: start, through: end) } catch {
        throw ReaderError(.tagError, "FAST_READ \(start)-\(end) answered \(answer.count) bytes: \(error)")
      }
    }
    guard
      let command = ReadBinaryPseudoAPDU(
        block: pages.lowerBound, addressing: .type2Page,
        expectedLength: UInt8(StorageCardAddressing.type2ReadLength))
    else { throw ReaderError(.invalidArgument, "page \(pages.lowerBound) is outside 00-FF") }
    let what = "READ BINARY of page \(pages.lowerBound)"
    let bytes: [UInt8]
    do { bytes = try await PCSCStorageCardIO.readBinary(card, command, what) } catch {
      throw try await refused(error)
    }
    guard bytes.count >= pages.count * pageSize else {
      throw try await refused(
        ReaderError(.tagError, "\(what) answered \(bytes.count) bytes, not \(pages.count * pageSize)"))
    }
    return Array(bytes.prefix(pages.count * pageSize))
  }

  /// UPDATE BINARY of one page.
  ///
  /// - Parameters:
  ///   - page: the page, in `0..<256`.
  ///   - bytes: the 4 bytes.
  /// - Throws: as ``readPages(_:)``; `ReaderError.Code.invalidArgument` for other than 4 bytes.
  public func writePage(_ page: Int, _ bytes: [UInt8]) async throws(ReaderError) {
    guard bytes.count == StorageCardAddressing.type2WriteLength,
      let command = UpdateBinaryPseudoAPDU(block: page, addressing: .type2Page, data: bytes)
    else { throw ReaderError(.invalidArgument, "a Type 2 write is 4 bytes into page 00-FF") }
    do { try await PCSCStorageCardIO.updateBinary(card, command, "UPDATE BINARY of page \(page)") } catch {
      throw try await refused(error)
    }
  }

  /// Sends one raw tag frame (without CRC_A) through ``rawFrameRoute`` and returns the
  /// tag's answer. Frames (a PWD_AUTH holds the password) are never logged or put into
  /// errors; errors name the command code only.
  ///
  /// - Parameter frame: the command bytes, command code first.
  /// - Throws: `ReaderError.Code.unsupportedFeature` when the profile has no raw-frame
  ///   route or the reader answers 6A81 (saying which), `ReaderError.Code.tagError` for a
  ///   NAK or no answer (the tag is activated again), `ReaderError.Code.tagLost` when the
  ///   tag left.
  public func transceive(_ frame: [UInt8]) async throws(ReaderError) -> [UInt8] {
    guard let code = frame.first else { throw ReaderError(.invalidArgument, "an empty tag frame") }
    let what = "tag command \(Hex.uppercaseString([code]))"
    guard let route = rawFrameRoute else {
      throw ReaderError(
        .unsupportedFeature,
        "the \(profile.name) reader profile has neither direct transmit (FF 00 00 00) nor the transparent session (FF C2), so \(card.reader) cannot pass \(what) to the tag"
      )
    }
    do { return try await card.exchangeRawFrame(frame, on: route, what: what) } catch {
      throw try await refused(error)
    }
  }

  /// Activates a tag that refused a command again (it went to IDLE; the transparent session
  /// is started again) and returns `error`;
  /// a tag that left turns the error into `tagLost`.
  private func refused(_ error: ReaderError) async throws(ReaderError) -> ReaderError {
    guard error.code == .tagError else { return error }
    do { try await card.reconnect(.reset) } catch let failure {
      if failure.code == .tagLost { throw failure }
    }
    // The reset ended the transparent session: start it again for the next frame.
    if rawFrameRoute == .transparentSession {
      _ = try? await card.transparentSession(.startSession, "Start Session")
    }
    return error
  }
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
  public static func detect(card: PCSCCard, blockSize: Int = 4) async throws(ReaderError)
    -> PCSCType5BlockTransport
  {
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
      let command = ReadBinaryPseudoAPDU(
        block: block, addressing: addressing, expectedLength: UInt8(blockSize))
    else { throw ReaderError(.invalidArgument, "block \(block) does not fit \(addressing)") }
    let bytes = try await PCSCStorageCardIO.readBinary(card, command, "READ BINARY of block \(block)")
    guard bytes.count == blockSize else {
      throw ReaderError(
        .tagError, "READ BINARY of block \(block) answered \(bytes.count) bytes, not \(blockSize)")
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
    try await PCSCStorageCardIO.updateBinary(card, command, "UPDATE BINARY of block \(block)")
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
