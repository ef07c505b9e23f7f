// SPDX-License-Identifier: Apache-2.0
import MifareClassicNDEF
import NFCReader
import NFCTags

/// A `MifareClassicBlockTransport` over a MIFARE Classic card held by
/// a ``LibNFCReader``: the PN53x runs Crypto-1 (InDataExchange `60|61 block key uid`,
/// `30 block`, `A0 block data`; libnfc `utils/mifare.c`).
public struct LibNFCMifareClassicTransport: MifareClassicBlockTransport {
  /// The reader holding the card.
  public let reader: LibNFCReader
  /// The card (``TagKind/mifareClassic``).
  public let tag: LibNFCTag

  /// Creates a transport; throws `ReaderError.Code.unsupportedFeature` for a tag that is
  /// not MIFARE Classic.
  public init(reader: LibNFCReader, tag: LibNFCTag) throws(ReaderError) {
    guard tag.kind == .mifareClassic else {
      throw ReaderError(
        .unsupportedFeature, "MIFARE Classic commands need a MIFARE Classic card (\(tag.kind.name))")
    }
    self.reader = reader
    self.tag = tag
  }

  /// ``LibNFCReader/authenticate(block:slot:key:of:)``.
  public func authenticate(block: Int, slot: MifareClassicKeySlot, key: MifareClassicKey)
    async throws(ReaderError)
    -> Bool
  {
    try await reader.authenticate(block: block, slot: slot, key: key, of: tag)
  }

  /// ``LibNFCReader/readBlock(_:of:)``.
  public func readBlock(_ block: Int) async throws(ReaderError) -> [UInt8] {
    try await reader.readBlock(block, of: tag)
  }

  /// ``LibNFCReader/writeBlock(_:_:to:)``.
  public func writeBlock(_ block: Int, _ bytes: [UInt8]) async throws(ReaderError) {
    try await reader.writeBlock(block, bytes, to: tag)
  }

  /// ``LibNFCReader/reselect(_:)``.
  public func reselect() async throws(ReaderError) {
    try await reader.reselect(tag)
  }
}
