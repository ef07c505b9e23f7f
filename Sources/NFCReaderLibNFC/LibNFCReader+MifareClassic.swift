// SPDX-License-Identifier: Apache-2.0
import CLibNFC
import NFCReader
import NFCTags

/// MIFARE Classic block commands (NXP MF1S50 §10, MF1S70 §10) through the PN53x, which runs
/// Crypto-1 itself: InDataExchange with `60|61 block key(6) uid(4)` (libnfc
/// `struct mifare_param_auth`: the key before the UID's last 4 bytes), `30 block`, `A0
/// block data(16)`.
extension LibNFCReader {
  /// Authenticates the sector of absolute block `block` (0-255) with `key` as key A or B.
  ///
  /// - Returns: `false` when the card refused the key (PN53x status 0x14, libnfc
  ///   `NFC_EMFCAUTHFAIL`). The card is then halted: ``reselect(_:)`` before the next try.
  /// - Throws: `ReaderError.Code.unsupportedFeature` for another tag kind,
  ///   `ReaderError.Code.invalidArgument` for a block outside 0...255,
  ///   `ReaderError.Code.tagLost` when the card is gone.
  public func authenticate(block: Int, slot: MifareClassicKeySlot, key: MifareClassicKey, of tag: LibNFCTag)
    async throws(ReaderError) -> Bool
  {
    try requireMifareClassic(tag, block: block)
    let frame = [slot.rawValue, UInt8(block)] + key.bytes + tag.uid.suffix(4)
    let timeout = milliseconds(exchangeTimeout)
    do {
      _ = try await exchange(tag) { $0.transceive(frame, capacity: 16, timeout: timeout) }
      return true
    } catch {
      // The key bytes are never in the error: libnfc's message names the operation only.
      if error.transportCode == LibNFCErrorCode.mifareAuthentication.rawValue { return false }
      throw error
    }
  }

  /// READ (`30 block`): the 16 bytes of absolute block `block` of the authenticated sector.
  ///
  /// - Throws: `ReaderError.Code.tagError` when the card refused (not authenticated, or the
  ///   access conditions forbid it: libnfc `NFC_ERFTRANS` with the card still in the
  ///   field), `ReaderError.Code.tagLost` when it is gone.
  public func readBlock(_ block: Int, of tag: LibNFCTag) async throws(ReaderError) -> [UInt8] {
    try requireMifareClassic(tag, block: block)
    let timeout = milliseconds(exchangeTimeout)
    let answer = try await exchange(tag) {
      $0.transceive([0x30, UInt8(block)], capacity: 18, timeout: timeout)
    }
    guard answer.count == MifareClassic.blockSize else {
      throw ReaderError(.tagError, "READ \(block) answered \(answer.count) bytes, not 16")
    }
    return answer
  }

  /// WRITE (`A0 block` + 16 bytes) into absolute block `block` of the authenticated sector.
  /// Block 0 (manufacturer data) is refused here.
  ///
  /// - Throws: as ``readBlock(_:of:)``; `ReaderError.Code.invalidArgument` for block 0 or
  ///   a block of another size.
  public func writeBlock(_ block: Int, _ bytes: [UInt8], to tag: LibNFCTag) async throws(ReaderError) {
    guard bytes.count == MifareClassic.blockSize else {
      throw ReaderError(.invalidArgument, "a MIFARE Classic block has 16 bytes, got \(bytes.count)")
    }
    guard block != 0 else { throw ReaderError(.invalidArgument, "block 0 holds the manufacturer data") }
    try requireMifareClassic(tag, block: block)
    let timeout = milliseconds(exchangeTimeout)
    _ = try await exchange(tag) {
      $0.transceive([0xA0, UInt8(block)] + bytes, capacity: 16, timeout: timeout)
    }
  }

  /// Selects the card again by its UID (InListPassiveTarget): after a refused
  /// authentication or command the card is halted or idle.
  ///
  /// - Throws: `ReaderError.Code.tagLost` when it no longer answers.
  public func reselect(_ tag: LibNFCTag) async throws(ReaderError) {
    let modulation = tag.modulation
    let uid = tag.uid
    _ = try await exchange(tag) { handle -> Result<Bool, ReaderError> in
      switch handle.select(modulation.nfc, initiatorData: uid) {
      case .success(.some): .success(true)
      case .success(.none): .failure(ReaderError(.tagLost, "the card did not answer its selection"))
      case .failure(let error): .failure(error)
      }
    }
  }

  private func requireMifareClassic(_ tag: LibNFCTag, block: Int) throws(ReaderError) {
    guard tag.kind == .mifareClassic else {
      throw ReaderError(
        .unsupportedFeature, "MIFARE Classic commands need a MIFARE Classic card (\(tag.kind.name))")
    }
    guard (0...0xFF).contains(block) else {
      throw ReaderError(.invalidArgument, "block \(block) is not 0...255")
    }
  }
}
