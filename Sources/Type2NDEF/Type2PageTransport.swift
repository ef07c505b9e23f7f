// SPDX-License-Identifier: Apache-2.0
import NFCReader
import NFCTags

/// The page operations every Type 2 tag reader offers, whatever carries them: a PN53x through
/// libnfc (READ `30`, FAST_READ `3A`, WRITE `A2`), a PC/SC reader (Part 3 READ BINARY and
/// UPDATE BINARY with the page in P2, raw frames through direct transmit or the transparent
/// session), a simulator. ``Type2NDEFProcedure`` runs the NDEF read and write procedures of
/// T2T 1.0 §6.4 over any of them.
public protocol Type2PageTransport: Sendable {
  /// The most pages one ``readPages(_:)`` returns in one RF round trip: 4 for READ, more
  /// for FAST_READ (NTAG21x §10.3, bounded by the reader's frame size) or a PC/SC reader's
  /// READ BINARY with a larger Le.
  var maximumPagesPerRead: Int { get }

  /// The chip's memory layout when the transport knows it (GET_VERSION named the chip),
  /// else `nil` (MIFARE Ultralight, Ultralight C and NTAG203 have no GET_VERSION).
  var variant: Type2TagVariant? { get }

  /// Reads `pages` (at most ``maximumPagesPerRead``) in one round trip and returns exactly
  /// `pages.count × 4` bytes (T2T 1.0 §5.1 READ; NTAG21x §10.3 FAST_READ).
  ///
  /// - Parameter pages: the pages, in `0..<256`.
  /// - Throws: `ReaderError.Code.tagError` when the tag refused (a NAK: a page past its
  ///   end, or one the password protects), `ReaderError.Code.tagLost` when it left.
  func readPages(_ pages: Range<Int>) async throws(ReaderError) -> [UInt8]

  /// Writes 4 bytes into `page` (T2T 1.0 §5.2 WRITE `A2`).
  ///
  /// - Parameters:
  ///   - page: the page, in `2..<256`.
  ///   - bytes: the 4 bytes.
  /// - Throws: as ``readPages(_:)``.
  func writePage(_ page: Int, _ bytes: [UInt8]) async throws(ReaderError)

  /// Sends one raw tag command without CRC_A (GET_VERSION, READ_SIG, PWD_AUTH, READ_CNT;
  /// NTAG21x §10) and returns the tag's answer without CRC_A.
  ///
  /// - Parameter frame: the command bytes. A PWD_AUTH frame holds the password: the
  ///   transport never logs frames.
  /// - Throws: `ReaderError.Code.tagError` for a NAK or no answer,
  ///   `ReaderError.Code.unsupportedFeature` when the reader cannot pass raw frames.
  func transceive(_ frame: [UInt8]) async throws(ReaderError) -> [UInt8]
}
