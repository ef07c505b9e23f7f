// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCReader

/// An ISO7816 `APDUTransport` over a ``PCSCCard``, so `APDUExchanger`,
/// the Type 4 NDEF procedure and applet-update scripts run on any PC/SC reader.
public struct PCSCAPDUTransport: APDUTransport {
  /// The connected card.
  public let card: PCSCCard

  /// Creates a transport over `card`.
  public init(card: PCSCCard) {
    self.card = card
  }

  /// Sends one command APDU and returns the response APDU (``PCSCCard/transmit(_:)``).
  public mutating func transmit(_ command: [UInt8]) async throws(ReaderError) -> [UInt8] {
    try await card.transmit(command)
  }
}
