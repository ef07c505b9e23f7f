// SPDX-License-Identifier: Apache-2.0
import ISO7816
import MifareClassicNDEF
import NDEF
import NFCReader
import NFCTags

/// Why an NDEF read or write on a PC/SC card failed: the reader's, the tag layout's or the
/// APDU layer's own typed error, kept whole.
public enum PCSCNDEFError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The exchange with the card failed (`ReaderError` with the PC/SC code, such
  /// as `SCARD_W_REMOVED_CARD`).
  case reader(ReaderError)
  /// The capability container, the NDEF file or the message broke a rule of the Type 4 Tag
  /// specification, or a status word ended the procedure (T4T 3.0 §5).
  case tag(NFCTagError)
  /// A response APDU broke an ISO/IEC 7816-4 rule (§5.1; GET RESPONSE bounds).
  case apdu(APDUError)
  /// A MIFARE Classic storage card's MAD or NFC sectors could not be read or written: the
  /// sector, key slot and reader error (AN10787, AN1304; keys never shown).
  case mifareClassic(MifareClassicError)

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

/// NDEF on a Type 4 tag in a PC/SC NFC reader, through ``NFCTags/Type4NDEFProcedure`` over
/// ``ISO7816/APDUExchanger`` (T4T 3.0 §5.4-§5.5); storage cards through
/// ``readNDEF(options:access:)``.
extension PCSCCard {
  /// Reads the NDEF message of the tag: a Type 4 tag (SELECT the NDEF application, read
  /// the CC file, read NLEN (or ENLEN) and the message), or a storage card by its ATR
  /// (Type 2, MIFARE Classic with the public keys, Type 5) with the reader profile its name
  /// gives (``readNDEF(options:access:)``).
  ///
  /// - Returns: nil for NLEN 0 (a blank, formatted tag).
  /// - Throws: ``PCSCNDEFError``.
  public func readNDEF(options: TagDecodingOptions = .strict) async throws(PCSCNDEFError) -> NDEFMessage? {
    try await readNDEF(options: options, access: PCSCStorageCardAccess())
  }

  /// The Type 4 read of ``readNDEF(options:)``.
  func readType4NDEF(options: TagDecodingOptions) async throws(PCSCNDEFError) -> NDEFMessage? {
    let procedure = try await runType4(.read)
    guard !procedure.message.isEmpty else { return nil }
    do {
      return try NDEFMessage(parsing: procedure.message, options: options.isLenient ? .lenient : .strict)
    } catch {
      throw .tag(NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error))
    }
  }

  /// Reads the used part of the NDEF file: NLEN (or ENLEN) then the message (T4T 3.0 §5.4).
  ///
  /// - Throws: ``PCSCNDEFError``.
  public func readNDEFFile() async throws(PCSCNDEFError) -> [UInt8] {
    let procedure = try await runType4(.read)
    let size = procedure.capabilityContainer?.fileControl.lengthFieldSize ?? 2
    var bytes: [UInt8] = []
    for i in stride(from: size - 1, through: 0, by: -1) {
      bytes.append(UInt8(truncatingIfNeeded: procedure.message.count >> (i * 8)))
    }
    return bytes + procedure.message
  }

  /// Writes encoded NDEF message bytes: on a Type 4 tag with the NDEF update procedure
  /// (NLEN 0, the message, NLEN; T4T 3.0 §5.5), on a storage card with its tearing-safe
  /// write order (``writeNDEF(bytes:access:options:)``).
  ///
  /// - Throws: ``PCSCNDEFError`` (`NFCTagError.Code.messageTooLarge`,
  ///   `NFCTagError.Code.ndefFileNotWritable`, ...).
  public func writeNDEF(bytes: [UInt8]) async throws(PCSCNDEFError) {
    try await writeNDEF(bytes: bytes, access: PCSCStorageCardAccess())
  }

  /// The Type 4 write of ``writeNDEF(bytes:)``.
  func writeType4NDEF(bytes: [UInt8]) async throws(PCSCNDEFError) {
    _ = try await runType4(.write(bytes))
  }

  private func runType4(_ operation: Type4NDEFProcedure.Operation) async throws(PCSCNDEFError)
    -> Type4NDEFProcedure
  {
    var exchanger = APDUExchanger(transport: PCSCAPDUTransport(card: self))
    var procedure = Type4NDEFProcedure(operation: operation)
    do { try await procedure.run(over: &exchanger) } catch {
      switch error {
      case .transport(let failure): throw .reader(failure)
      case .apdu(let failure): throw .apdu(failure)
      case .tag(let failure): throw .tag(failure)
      }
    }
    return procedure
  }
}
