// SPDX-License-Identifier: Apache-2.0
import NFCReader
import NFCTags

/// Why a MIFARE Classic operation failed: a ``Code``, the sector, block and key slot
/// concerned, and the underlying reader or layout error. Never holds key bytes.
public struct MifareClassicError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong: a struct over a private enum so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable, CaseIterable {
      case authenticationFailed, accessDenied, tagLost, reader, notFormatted, invalidMAD, noNDEFSectors
      case invalidNDEF, messageTooLarge, readOnly, notBlank, inconsistentAccessBits
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// No key of the keyring opened ``MifareClassicError/sector`` with
    /// ``MifareClassicError/keySlot`` (the last slot tried).
    public static let authenticationFailed = Code(.authenticationFailed)
    /// The access conditions of the sector's trailer forbid the read or write of
    /// ``MifareClassicError/block`` with the key that opened it (MF1S50 §8.7).
    public static let accessDenied = Code(.accessDenied)
    /// The card left the field (or stopped answering).
    public static let tagLost = Code(.tagLost)
    /// Another reader failure (``MifareClassicError/readerError``).
    public static let reader = Code(.reader)
    /// Sector 0 holds no MAD: the DA bit of its general purpose byte is 0 (AN10787 §3.7).
    public static let notFormatted = Code(.notFormatted)
    /// The MAD is malformed: a wrong CRC (AN10787 §3.6), a bad info byte or version.
    public static let invalidMAD = Code(.invalidMAD)
    /// The MAD assigns no sector to NDEF (AID `03 E1`; AN1304 §6.2).
    public static let noNDEFSectors = Code(.noNDEFSectors)
    /// The TLV area or the NDEF message is malformed (``MifareClassicError/tagError``).
    public static let invalidNDEF = Code(.invalidNDEF)
    /// The message does not fit in the NFC sectors (nothing written).
    public static let messageTooLarge = Code(.messageTooLarge)
    /// The NFC sectors are read-only (data access 010 or GPB write access 11; AN1304 §6.3.2).
    public static let readOnly = Code(.readOnly)
    /// Formatting needs a blank card: a sector's keys or access conditions do not allow
    /// rewriting its trailer with the keys given.
    public static let notBlank = Code(.notBlank)
    /// A trailer about to be written has access bits whose inverted copies disagree (it
    /// would block the sector for good); nothing was written.
    public static let inconsistentAccessBits = Code(.inconsistentAccessBits)

    /// Every code, for tests and documentation.
    public static var allCodes: [Code] { Value.allCases.map(Code.init) }

    /// The stable camelCase name of the code, as used in logs and JSON.
    public var name: String {
      switch value {
      case .authenticationFailed: "authenticationFailed"
      case .accessDenied: "accessDenied"
      case .tagLost: "tagLost"
      case .reader: "reader"
      case .notFormatted: "notFormatted"
      case .invalidMAD: "invalidMAD"
      case .noNDEFSectors: "noNDEFSectors"
      case .invalidNDEF: "invalidNDEF"
      case .messageTooLarge: "messageTooLarge"
      case .readOnly: "readOnly"
      case .notBlank: "notBlank"
      case .inconsistentAccessBits: "inconsistentAccessBits"
      }
    }

    /// The code's name.
    public var description: String { name }
  }

  /// What went wrong.
  public var code: Code
  /// The sector concerned, when there is one.
  public var sector: Int?
  /// The absolute block concerned, when there is one.
  public var block: Int?
  /// The key slot concerned (for ``Code/authenticationFailed``: the last slot tried).
  public var keySlot: MifareClassicKeySlot?
  /// How many keys were tried (``Code/authenticationFailed``).
  public var keysTried: Int?
  /// The reader's error, when a reader failure caused this one.
  public var readerError: ReaderError?
  /// The layout or NDEF error, for ``Code/invalidNDEF`` and ``Code/invalidMAD``.
  public var tagError: NFCTagError?

  /// Creates an error.
  public init(
    _ code: Code, sector: Int? = nil, block: Int? = nil, keySlot: MifareClassicKeySlot? = nil,
    keysTried: Int? = nil, readerError: ReaderError? = nil, tagError: NFCTagError? = nil
  ) {
    self.code = code
    self.sector = sector
    self.block = block
    self.keySlot = keySlot
    self.keysTried = keysTried
    self.readerError = readerError
    self.tagError = tagError
  }

  /// `name` with the sector, block, key slot and the underlying error; never key bytes.
  public var description: String {
    var parts: [String] = []
    if let sector { parts.append("sector \(sector)") }
    if let block { parts.append("block \(block)") }
    if let keySlot { parts.append(keySlot.description) }
    if let keysTried { parts.append("\(keysTried) key\(keysTried == 1 ? "" : "s") tried") }
    if let readerError { parts.append(readerError.description) }
    if let tagError { parts.append(tagError.description) }
    return parts.isEmpty ? code.name : "\(code.name): " + parts.joined(separator: ", ")
  }
}
