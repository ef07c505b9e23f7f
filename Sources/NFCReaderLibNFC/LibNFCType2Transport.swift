// SPDX-License-Identifier: Apache-2.0
import NFCReader
import NFCTags
import Type2NDEF

/// A `Type2PageTransport` over a Type 2 tag held by a ``LibNFCReader``: READ (`30`,
/// InDataExchange) for 4 pages, FAST_READ (`3A`, InCommunicateThru) for more when
/// GET_VERSION named a chip that has it, WRITE (`A2`), and raw frames for the NTAG21x
/// commands (T2T 1.0 §5; NTAG213/215/216 data sheet §10).
public struct LibNFCType2Transport: Type2PageTransport {
  /// The reader holding the tag.
  public let reader: LibNFCReader
  /// The tag (``TagKind/type2(_:)``).
  public let tag: LibNFCTag
  /// The chip GET_VERSION named at poll time, `nil` for a tag without GET_VERSION.
  public let chip: NtagChip?
  /// The most pages one read returns: 4 (READ) without FAST_READ, else
  /// ``maximumFastReadPages``.
  public let maximumPagesPerRead: Int

  /// The most pages one FAST_READ asks for through a PN53x: the answer must fit a normal
  /// information frame (PN532 user manual §6.2.1.1; libnfc `PN53x_NORMAL_FRAME__DATA_MAX_LEN`:
  /// 254 bytes of TFI and data), which after TFI `D5`, the command code `43` and the status
  /// byte leaves 251 bytes: 62 pages. Larger answers need extended frames, which not every
  /// PN53x firmware sends.
  public static let maximumFastReadPages = 62

  /// Creates a transport.
  ///
  /// - Parameters:
  ///   - reader: the reader holding the tag.
  ///   - tag: a Type 2 tag ``LibNFCReader/poll()`` found.
  ///   - maximumFastReadPages: the FAST_READ bound for this reader (1...62 on a PN53x); 4 or less turns FAST_READ off.
  /// - Throws: `ReaderError.Code.unsupportedFeature` for a tag that is not Type 2.
  public init(reader: LibNFCReader, tag: LibNFCTag, maximumFastReadPages: Int = Self.maximumFastReadPages)
    throws(ReaderError)
  {
    guard case .type2 = tag.kind else {
      throw ReaderError(.unsupportedFeature, "page commands need a Type 2 tag (\(tag.kind.name))")
    }
    self.reader = reader
    self.tag = tag
    let chip = tag.version.flatMap { try? NtagVersion(parsing: $0) }?.chip
    self.chip = chip
    let fast = chip?.hasFastRead == true ? min(max(1, maximumFastReadPages), 256) : 0
    maximumPagesPerRead = max(fast, 4)
  }

  /// The chip's layout when GET_VERSION named it; `nil` otherwise (an Ultralight,
  /// Ultralight C or NTAG203 answers no GET_VERSION).
  public var variant: Type2TagVariant? {
    guard tag.version != nil else { return nil }
    return chip?.variant ?? tag.type2Variant?.tagVariant
  }

  /// READ for up to 4 pages (answer cut to `pages`), FAST_READ for more.
  public func readPages(_ pages: Range<Int>) async throws(ReaderError) -> [UInt8] {
    guard pages.lowerBound >= 0, pages.upperBound <= 256, !pages.isEmpty, pages.count <= maximumPagesPerRead
    else {
      throw ReaderError(
        .invalidArgument, "pages \(pages) are not a read of 1...\(maximumPagesPerRead) in 0...255")
    }
    if pages.count <= 4 {
      let answer = try await reader.readPages(startingAt: pages.lowerBound, of: tag)
      return Array(answer.prefix(pages.count * 4))
    }
    let start = UInt8(pages.lowerBound)
    let end = UInt8(pages.upperBound - 1)
    let answer = try await reader.transceiveRaw([NtagCommand.fastReadCode, start, end], with: tag)
    guard answer.count == pages.count * 4 else {
      throw ReaderError(
        .tagError, "FAST_READ \(start)-\(end) answered \(answer.count) bytes, not \(pages.count * 4)")
    }
    return answer
  }

  /// ``LibNFCReader/writePage(_:_:to:)``.
  public func writePage(_ page: Int, _ bytes: [UInt8]) async throws(ReaderError) {
    try await reader.writePage(page, bytes, to: tag)
  }

  /// ``LibNFCReader/transceiveRaw(_:with:handlesCRC:)`` with the PN53x adding and checking
  /// CRC_A. Frames are never logged.
  public func transceive(_ frame: [UInt8]) async throws(ReaderError) -> [UInt8] {
    try await reader.transceiveRaw(frame, with: tag)
  }
}
