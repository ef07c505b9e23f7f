// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCReader

/// An ISO7816 `APDUTransport` over an ISO-DEP tag held by a ``LibNFCReader``, so
/// `APDUExchanger` and applet-update scripts run against a real card.
public struct LibNFCAPDUTransport: APDUTransport {
  /// The reader holding the tag.
  public let reader: LibNFCReader
  /// The ISO-DEP tag (``TagKind/type4``).
  public let tag: LibNFCTag
  /// The timeout of one APDU exchange.
  public var timeout: Duration

  /// Creates a transport; throws `ReaderError.Code.unsupportedFeature` for a tag that is
  /// not ISO-DEP.
  public init(reader: LibNFCReader, tag: LibNFCTag, timeout: Duration = .seconds(5)) throws(ReaderError) {
    guard tag.kind == .type4 else {
      throw ReaderError(.unsupportedFeature, "APDUs need an ISO-DEP tag (\(tag.kind.name))")
    }
    self.reader = reader
    self.tag = tag
    self.timeout = timeout
  }

  /// Sends one command APDU and returns the response APDU (``LibNFCReader/exchangeAPDU(_:with:timeout:)``).
  public mutating func transmit(_ command: [UInt8]) async throws(ReaderError) -> [UInt8] {
    try await reader.exchangeAPDU(command, with: tag, timeout: timeout)
  }
}
