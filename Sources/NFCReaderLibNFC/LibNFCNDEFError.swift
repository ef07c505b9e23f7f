// SPDX-License-Identifier: Apache-2.0
import ISO7816
import MifareClassicNDEF
import NFCReader
import NFCTags

/// Why an NDEF read or write through a ``LibNFCReader`` failed: the reader's, the tag
/// layout's or the APDU layer's own typed error, kept whole.
public enum LibNFCNDEFError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The reader or an exchange with the tag failed: `ReaderError.Code.tagLost`,
  /// `ReaderError.Code.timeout`, `ReaderError.Code.tagError` (a refused page write), or
  /// `ReaderError.Code.unsupportedFeature` for a tag kind without an NDEF mapping here.
  case reader(ReaderError)
  /// The tag's memory, capability container or NDEF message broke a rule of the NFC Forum
  /// tag type specification, or the write cannot be done: `NFCTagError.Code.readOnly`,
  /// `NFCTagError.Code.messageTooLarge`, `NFCTagError.Code.ndefFileNotWritable`, and
  /// the Type 4 procedure's status word errors (T2T 1.0 §6, T4T 3.0 §5).
  case tag(NFCTagError)
  /// A response APDU broke an ISO/IEC 7816-4 transport rule (§5.1; GET RESPONSE bounds).
  case apdu(APDUError)
  /// A MIFARE Classic operation failed: the sector and key slot whose authentication
  /// failed, a write the access conditions forbid, the card gone, a malformed MAD or TLV
  /// area (AN10787, AN1304).
  case mifareClassic(MifareClassicError)

  /// The reader error, when that is the failure.
  public var readerError: ReaderError? {
    if case .reader(let error) = self { return error }
    return nil
  }

  /// The tag layout or procedure error, when that is the failure.
  public var tagError: NFCTagError? {
    if case .tag(let error) = self { return error }
    return nil
  }

  /// The MIFARE Classic error, when that is the failure.
  public var mifareClassicError: MifareClassicError? {
    if case .mifareClassic(let error) = self { return error }
    return nil
  }

  /// The APDU error, when that is the failure.
  public var apduError: APDUError? {
    if case .apdu(let error) = self { return error }
    return nil
  }

  /// `reader: ...`, `tag: ...` or `apdu: ...` with the wrapped error's description.
  public var description: String {
    switch self {
    case .reader(let error): "reader: \(error.description)"
    case .tag(let error): "tag: \(error.description)"
    case .apdu(let error): "apdu: \(error.code.name) at offset \(error.offset)"
    case .mifareClassic(let error): "mifareClassic: \(error.description)"
    }
  }
}
