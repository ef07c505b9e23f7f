// SPDX-License-Identifier: Apache-2.0
import NFCReader

/// The block operations every Type 3 (FeliCa) tag reader offers, whatever carries them: a
/// PN53x through libnfc (raw FeliCa frames through InCommunicateThru), a PC/SC reader
/// (raw frames through direct transmit or the transparent session `FF C2`), a simulator.
/// ``Type3NDEFProcedure`` runs the NDEF read and write procedures of T3T 1.0 §7.4 over any
/// of them.
///
/// Both operations are the FeliCa commands without encryption on the NDEF services
/// (T3T 1.0 §5.3, §6.1; JIS X 6319-4): Check (`06`) on service `000B`, Update (`08`) on
/// service `0009`. ``FeliCaBlockFrame`` builds and checks their frames for transports
/// that pass raw frames.
public protocol Type3BlockTransport: Sendable {
  /// The most blocks one ``check(_:)`` or ``update(_:_:)`` carries on this transport
  /// (1...``FeliCaBlockFrame/maximumCheckBlocks``), bounded by the reader's frame size.
  /// ``Type3NDEFProcedure`` sends at most the smaller of this and the tag's Nbr or Nbw.
  var maximumBlocksPerCommand: Int { get }

  /// Check (`06`) of `blocks` of the NDEF read service `000B` in one command: exactly
  /// `blocks.count × 16` bytes (T3T 1.0 §5.3.1).
  ///
  /// - Parameter blocks: the blocks, at most ``maximumBlocksPerCommand``, in `0...0xFFFF`.
  /// - Throws: `ReaderError.Code.tagError` for status flags other than `00 00` or a
  ///   malformed answer, `ReaderError.Code.tagLost` when the tag left,
  ///   `ReaderError.Code.unsupportedFeature` when the reader cannot pass FeliCa commands.
  func check(_ blocks: Range<Int>) async throws(ReaderError) -> [UInt8]

  /// Update (`08`) of `blocks` of the NDEF write service `0009` in one command with
  /// `data`, `blocks.count × 16` bytes (T3T 1.0 §5.3.2).
  ///
  /// - Parameters:
  ///   - blocks: the blocks, at most ``maximumBlocksPerCommand``, in `0...0xFFFF`.
  ///   - data: 16 bytes per block.
  /// - Throws: as ``check(_:)``.
  func update(_ blocks: Range<Int>, _ data: [UInt8]) async throws(ReaderError)
}
