// SPDX-License-Identifier: Apache-2.0
import NFCReader
import Type3NDEF

/// A `Type3BlockTransport` over a FeliCa tag held by a ``LibNFCReader``: Check (`06`) and
/// Update (`08`) without encryption as raw FeliCa frames through InCommunicateThru, as
/// libnfc's `nfc-read-forum-tag3` sends them (T3T 1.0 §5.3; JIS X 6319-4).
public struct LibNFCType3Transport: Type3BlockTransport {
  /// The reader holding the tag.
  public let reader: LibNFCReader
  /// The tag (``TagKind/type3``).
  public let tag: LibNFCTag

  /// Creates a transport.
  ///
  /// - Parameters:
  ///   - reader: the reader holding the tag.
  ///   - tag: a FeliCa tag ``LibNFCReader/poll()`` found.
  /// - Throws: `ReaderError.Code.unsupportedFeature` for a tag that is not Type 3.
  public init(reader: LibNFCReader, tag: LibNFCTag) throws(ReaderError) {
    guard tag.kind == .type3 else {
      throw ReaderError(.unsupportedFeature, "block commands need a FeliCa tag (\(tag.kind.name))")
    }
    self.reader = reader
    self.tag = tag
  }

  /// 15: a PN53x passes frames of 255 bytes, the most a FeliCa length byte allows.
  public var maximumBlocksPerCommand: Int { FeliCaBlockFrame.maximumCheckBlocks }

  /// Check of `blocks` of service `000B` (``LibNFCReader/readBlocks(startingAt:count:of:service:)``).
  public func check(_ blocks: Range<Int>) async throws(ReaderError) -> [UInt8] {
    try await reader.readBlocks(startingAt: blocks.lowerBound, count: blocks.count, of: tag)
  }

  /// Update of `blocks` of service `0009` (``LibNFCReader/writeBlocks(startingAt:_:to:service:)``).
  public func update(_ blocks: Range<Int>, _ data: [UInt8]) async throws(ReaderError) {
    guard data.count == blocks.count * FeliCaBlockFrame.blockSize else {
      throw ReaderError(.invalidArgument, "Update writes 16 bytes per block")
    }
    try await reader.writeBlocks(startingAt: blocks.lowerBound, data, to: tag)
  }
}
