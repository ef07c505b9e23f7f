// SPDX-License-Identifier: Apache-2.0
import NFCReader
import NFCTags

/// The four operations every MIFARE Classic reader offers, whatever carries them: a PN53x
/// through libnfc (InDataExchange `60|61`, `30`, `A0`), a PC/SC reader (Part 3 GENERAL
/// AUTHENTICATE, READ BINARY, UPDATE BINARY), a simulator. ``MifareClassicNDEFProcedure``
/// runs the MAD and NDEF flows over any of them.
///
/// The reader runs Crypto-1 itself: the host hands it the key.
public protocol MifareClassicBlockTransport: Sendable {
  /// Authenticates the sector of absolute block `block` with `key` as key A or key B
  /// (MF1S50 §10.1).
  ///
  /// - Returns: `false` when the card refused the key. The card is then halted: call
  ///   ``reselect()`` before the next command.
  /// - Throws: `ReaderError.Code.tagLost` when the card is gone, other reader errors.
  func authenticate(block: Int, slot: MifareClassicKeySlot, key: MifareClassicKey) async throws(ReaderError)
    -> Bool

  /// READ (`30 block`): the 16 bytes of absolute block `block` of the authenticated sector.
  ///
  /// - Throws: `ReaderError.Code.tagError` when the card refused (not authenticated, or the
  ///   access conditions forbid it; the card then needs ``reselect()``),
  ///   `ReaderError.Code.tagLost` when it is gone.
  func readBlock(_ block: Int) async throws(ReaderError) -> [UInt8]

  /// WRITE (`A0 block` + 16 bytes) into absolute block `block` of the authenticated sector.
  ///
  /// - Throws: as ``readBlock(_:)``.
  func writeBlock(_ block: Int, _ bytes: [UInt8]) async throws(ReaderError)

  /// Selects the card again (after a refused authentication or command, the card is in
  /// HALT or IDLE and answers nothing until then).
  ///
  /// - Throws: `ReaderError.Code.tagLost` when the card no longer answers.
  func reselect() async throws(ReaderError)
}
