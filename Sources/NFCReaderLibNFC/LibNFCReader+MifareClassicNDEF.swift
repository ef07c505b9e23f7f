// SPDX-License-Identifier: Apache-2.0
import MifareClassicNDEF
import NFCReader
import NFCTags

/// NDEF on MIFARE Classic cards (AN10787 MAD, AN1304/AN1305 NFC sectors) through
/// `MifareClassicNDEFProcedure` over ``LibNFCMifareClassicTransport``.
extension LibNFCReader {
  /// The procedure for the MIFARE Classic card `tag` (its size from the SAK: 09 Mini, 08 1K,
  /// 18 4K; AN10833 table 5).
  ///
  /// - Throws: ``LibNFCNDEFError/reader(_:)`` with `ReaderError.Code.unsupportedFeature`
  ///   for another tag kind or an unknown SAK.
  public func mifareClassicProcedure(
    for tag: LibNFCTag, keyring: MifareClassicKeyring = .publicKeys, options: TagDecodingOptions = .strict
  ) throws(LibNFCNDEFError) -> MifareClassicNDEFProcedure<LibNFCMifareClassicTransport> {
    let transport: LibNFCMifareClassicTransport
    do { transport = try LibNFCMifareClassicTransport(reader: self, tag: tag) } catch { throw .reader(error) }
    guard let kind = tag.sak.flatMap(MifareClassicCardKind.init(sak:)) else {
      let sak = tag.sak.map { String($0, radix: 16) } ?? "none"
      throw .reader(ReaderError(.unsupportedFeature, "SAK \(sak) is no MIFARE Classic size"))
    }
    return MifareClassicNDEFProcedure(transport: transport, kind: kind, keyring: keyring, options: options)
  }

  /// Reads the MAD and the NDEF message of a MIFARE Classic card, trying `keyring` per
  /// sector (`MifareClassicNDEFProcedure.read()`).
  ///
  /// - Throws: ``LibNFCNDEFError/mifareClassic(_:)`` with the sector and key slot that
  ///   failed, ``LibNFCNDEFError/reader(_:)`` for another tag kind.
  public func readMifareClassic(
    from tag: LibNFCTag, keyring: MifareClassicKeyring = .publicKeys, options: TagDecodingOptions = .strict
  ) async throws(LibNFCNDEFError) -> MifareClassicNDEFContent {
    var procedure = try mifareClassicProcedure(for: tag, keyring: keyring, options: options)
    do { return try await procedure.read() } catch { throw .mifareClassic(error) }
  }

  /// Every sector `keyring` opens, as the card answers (trailer keys as the card shows
  /// them), and the sectors no key opened.
  ///
  /// - Throws: as ``readMifareClassic(from:keyring:options:)``.
  public func readMifareClassicMemory(from tag: LibNFCTag, keyring: MifareClassicKeyring = .publicKeys)
    async throws(LibNFCNDEFError) -> (image: [UInt8], unreadSectors: [Int])
  {
    var procedure = try mifareClassicProcedure(for: tag, keyring: keyring)
    do { return try await procedure.readMemory() } catch { throw .mifareClassic(error) }
  }

  /// Writes encoded NDEF bytes to a formatted MIFARE Classic card in the tearing-safe order
  /// (`MifareClassicNDEFProcedure.write(_:)`).
  ///
  /// - Throws: as ``readMifareClassic(from:keyring:options:)``.
  public func writeMifareClassic(
    _ message: [UInt8], to tag: LibNFCTag, keyring: MifareClassicKeyring = .publicKeys,
    options: TagDecodingOptions = .strict
  ) async throws(LibNFCNDEFError) {
    var procedure = try mifareClassicProcedure(for: tag, keyring: keyring, options: options)
    do { try await procedure.write(message) } catch { throw .mifareClassic(error) }
  }

  /// Formats a MIFARE Classic card as shipped for NDEF with `keyB` as every sector's key B
  /// (`MifareClassicNDEFProcedure.format(keyB:)`).
  ///
  /// - Throws: as ``readMifareClassic(from:keyring:options:)``.
  public func formatMifareClassic(
    _ tag: LibNFCTag, keyB: MifareClassicKey, keyring: MifareClassicKeyring = .publicKeys
  ) async throws(LibNFCNDEFError) {
    var procedure = try mifareClassicProcedure(for: tag, keyring: keyring)
    do { try await procedure.format(keyB: keyB) } catch { throw .mifareClassic(error) }
  }

  /// Makes a formatted MIFARE Classic card read-only for good, with the key B candidates
  /// of `keyring` (`MifareClassicNDEFProcedure.makeReadOnly()`).
  ///
  /// - Throws: as ``readMifareClassic(from:keyring:options:)``.
  public func makeMifareClassicReadOnly(_ tag: LibNFCTag, keyring: MifareClassicKeyring = .publicKeys)
    async throws(LibNFCNDEFError)
  {
    var procedure = try mifareClassicProcedure(for: tag, keyring: keyring)
    do { try await procedure.makeReadOnly() } catch { throw .mifareClassic(error) }
  }
}
