// SPDX-License-Identifier: Apache-2.0
import MifareClassicNDEF
import NDEF
import NFCReader
import NFCTags

/// NDEF from a reader session's operation: the tag ``PCSCClaimedReader`` handed over, read
/// through its card connection whatever it is (Type 4 by APDUs, Type 2, MIFARE Classic and
/// Type 5 through the PC/SC Part 3 storage-card pseudo-APDUs), with the errors a session
/// ends on (`SessionEnding.terminatedUnexpectedly(_:)` with the `ReaderError` below, after
/// STOP_NFC_WITH_ERROR on a reader-driven reader; `SessionEnding.firstTagRead` after a read).
extension PCSCTag {
  /// Reads the tag's NDEF message: ``PCSCCard/readNDEF(options:access:)`` on ``card``,
  /// its failure as the `ReaderError` a session's operation throws
  /// (``PCSCNDEFError/sessionError``).
  ///
  /// ```swift
  /// let session = ReaderSession<PCSCReaderTransport, NDEFMessage?>(
  ///   transport: PCSCReaderTransport(context: context, reader: reader),
  ///   configuration: SessionConfiguration(timeout: .seconds(20))
  /// ) { (_, tag) throws(ReaderError) in
  ///   try await tag.readNDEF(access: PCSCStorageCardAccess(keyring: keyring))
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - options: how the memory and the message are validated (T2T 1.0 §2.1, T4T 3.0
  ///     §5.1, AN1304 §6).
  ///   - access: the reader profile, the MIFARE Classic keys (the public keys by default)
  ///     and the Type 5 addressing, for storage cards.
  /// - Returns: nil for an empty NDEF message (a blank, formatted tag).
  /// - Throws: `ReaderError`: `ReaderError.Code.sessionEnded` when the tag has no
  ///   connection (made by hand, or its session ended), else the read's failure as
  ///   ``PCSCNDEFError/sessionError`` gives it.
  public func readNDEF(
    options: TagDecodingOptions = .strict, access: PCSCStorageCardAccess = PCSCStorageCardAccess()
  ) async throws(ReaderError) -> NDEFMessage? {
    guard let card else { throw ReaderError(.sessionEnded, "the tag has no card connection") }
    do throws(PCSCNDEFError) {
      return try await card.readNDEF(options: options, access: access)
    } catch {
      throw error.sessionError
    }
  }
}

extension PCSCNDEFError {
  /// The `ReaderError` a reader session ends on for this failure: the reader's own error
  /// kept whole (`ReaderError.Code.tagLost` for a card gone, `unsupportedFeature` for a
  /// card kind or command the reader cannot do, with the PC/SC code); a MIFARE Classic
  /// error caused by the reader as that reader error, `tagLost` for a card gone, else
  /// `tagError`; a tag layout or APDU error as `tagError`. The message is this error's
  /// description (never a key).
  public var sessionError: ReaderError {
    switch self {
    case .reader(let error): return error
    case .mifareClassic(let error):
      if let reader = error.readerError {
        return ReaderError(
          reader.code, "\(self)", transportCode: reader.transportCode,
          transportCodeName: reader.transportCodeName)
      }
      return ReaderError(error.code == .tagLost ? .tagLost : .tagError, "\(self)")
    case .tag, .apdu: return ReaderError(.tagError, "\(self)")
    }
  }
}
