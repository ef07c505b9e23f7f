// SPDX-License-Identifier: Apache-2.0
import MifareClassicNDEF
import NDEF
import NFCReader
import NFCTags
import PCSCControl

/// How to reach a storage card (Type 2, MIFARE Classic, Type 5) in a contactless PC/SC
/// reader: the reader's quirks, the MIFARE Classic keys to try, the ISO/IEC 15693
/// addressing.
public struct PCSCStorageCardAccess: Sendable, Hashable {
  /// The reader's profile; nil picks it from the reader name
  /// (``PCSCControl/StorageCardReaderProfile/matching(readerName:)``).
  public var profile: StorageCardReaderProfile?
  /// The MIFARE Classic keys to try per sector (the public keys by default).
  public var keyring: MifareClassicKeyring
  /// The ISO/IEC 15693 block addressing; nil detects it from the CC magic
  /// (``PCSCType5BlockTransport/detect(card:blockSize:)``).
  public var type5Addressing: StorageCardAddressing?

  /// Creates an access description.
  ///
  /// - Parameters:
  ///   - profile: the reader's profile, nil to pick it from the reader name.
  ///   - keyring: the MIFARE Classic keys to try.
  ///   - type5Addressing: the ISO/IEC 15693 addressing, nil to detect it.
  public init(
    profile: StorageCardReaderProfile? = nil, keyring: MifareClassicKeyring = .publicKeys,
    type5Addressing: StorageCardAddressing? = nil
  ) {
    self.profile = profile
    self.keyring = keyring
    self.type5Addressing = type5Addressing
  }
}

/// What a PC/SC card is, by its ATR: an ISO-DEP (Type 4) card or a storage card with its
/// memory model (PC/SC Part 3 §3.1.3.2.3).
public enum PCSCCardKind: Sendable, Hashable {
  /// Not a storage-card ATR: read through ISO/IEC 7816-4 APDUs (Type 4).
  case type4
  /// A storage card: its ATR and the memory model its card name gives (nil when Tapwire
  /// has none for that card name).
  case storage(StorageCardATR, StorageCardKind?)
}

/// NDEF on storage cards in a contactless PC/SC reader, with the same tag model as the
/// libnfc path: Type 2 through ``PCSCType2PageTransport`` and the NFCTags Type 2 codecs,
/// MIFARE Classic through `MifareClassicNDEFProcedure` over ``PCSCMifareClassicTransport``,
/// Type 5 through ``PCSCType5BlockTransport`` and the Type 5 codecs, FeliCa (Type 3) through
/// `Type3NDEFProcedure` over ``PCSCType3Transport``; Type 4 through
/// ``NFCTags/Type4NDEFProcedure``.
extension PCSCCard {
  /// The card's kind from its ATR.
  ///
  /// - Throws: `ReaderError` from ``atr()``.
  public func kind() async throws(ReaderError) -> PCSCCardKind {
    let bytes = try await atr()
    guard StorageCardATR.hasStorageCardPrefix(bytes), let parsed = try? StorageCardATR(parsing: bytes) else {
      return .type4
    }
    return .storage(parsed, parsed.cardName.kind)
  }

  /// Reads the NDEF message of the card: Type 4 by APDUs, a storage card (Type 2, MIFARE
  /// Classic, Type 5) through the PC/SC Part 3 pseudo-APDUs.
  ///
  /// - Parameters:
  ///   - options: how the memory and the message are validated.
  ///   - access: the reader profile, MIFARE Classic keys and Type 5 addressing.
  /// - Returns: nil for an empty NDEF message (a blank, formatted tag).
  /// - Throws: ``PCSCNDEFError``: `reader` with `ReaderError.Code.unsupportedFeature` when
  ///   the card kind has no NDEF mapping here or the reader cannot do what it needs (6A81),
  ///   `tag` for a layout error, `mifareClassic` with the sector and key slot.
  public func readNDEF(options: TagDecodingOptions = .strict, access: PCSCStorageCardAccess)
    async throws(PCSCNDEFError) -> NDEFMessage?
  {
    let bytes: [UInt8]
    switch try await storageKind() {
    case nil: return try await readType4NDEF(options: options)
    case .type2:
      let (image, variant) = try await type2Image(access)
      do {
        let view = try Type2TagView(validating: image.span, variant: variant, options: options)
        return try view.tlvArea.message(options: options.isLenient ? .lenient : .strict)
      } catch { throw .tag(error) }
    case .type5:
      let blocks = try await type5Transport(access)
      let image: [UInt8]
      do { image = try await blocks.readImage() } catch { throw .reader(error) }
      do {
        let view = try Type5TagView(validating: image.span, options: options)
        return try view.tlvArea.message(options: options.isLenient ? .lenient : .strict)
      } catch { throw .tag(error) }
    case .mifareClassic(let sectors):
      var procedure = try await mifareClassicProcedure(sectors: sectors, access: access, options: options)
      do { bytes = try await procedure.read().message } catch { throw .mifareClassic(error) }
    case .type3:
      return try await readType3NDEF(options: options, access: access)
    default:
      throw try await noMapping()
    }
    guard !bytes.isEmpty else { return nil }
    do { return try NDEFMessage(parsing: bytes, options: options.isLenient ? .lenient : .strict) } catch {
      throw .tag(NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error))
    }
  }

  /// Writes encoded NDEF bytes: the NDEF update procedure on Type 4, the tearing-safe write
  /// plan of the NFCTags codecs on Type 2 and Type 5 (length 0 first, the length last),
  /// `MifareClassicNDEFProcedure.write(_:)` on MIFARE Classic.
  ///
  /// - Parameters:
  ///   - bytes: the encoded NDEF message.
  ///   - access: the reader profile, MIFARE Classic keys and Type 5 addressing.
  ///   - options: how the current memory is validated.
  /// - Throws: ``PCSCNDEFError`` (`reader` with `ReaderError.Code.tagLost` when the card left
  ///   in the middle; the writes before stay done).
  public func writeNDEF(bytes: [UInt8], access: PCSCStorageCardAccess, options: TagDecodingOptions = .strict)
    async throws(PCSCNDEFError)
  {
    switch try await storageKind() {
    case nil: try await writeType4NDEF(bytes: bytes)
    case .type2:
      let (image, _) = try await type2Image(access)
      let plan: TagWritePlan
      do { plan = try Type2Tag.writePlan(bytes, into: image, options: options) } catch { throw .tag(error) }
      let pages = PCSCType2PageTransport(card: self, profile: profile(access))
      for write in plan.writes {
        do { try await pages.writePage(write.block, write.bytes) } catch { throw .reader(error) }
      }
    case .type5:
      let blocks = try await type5Transport(access)
      let image: [UInt8]
      do { image = try await blocks.readImage() } catch { throw .reader(error) }
      let plan: TagWritePlan
      do { plan = try Type5Tag.writePlan(bytes, into: image, blockSize: blocks.blockSize, options: options) } catch {
        throw .tag(error)
      }
      for write in plan.writes {
        do { try await blocks.writeBlock(write.block, write.bytes) } catch { throw .reader(error) }
      }
    case .mifareClassic(let sectors):
      var procedure = try await mifareClassicProcedure(sectors: sectors, access: access, options: options)
      do { try await procedure.write(bytes) } catch { throw .mifareClassic(error) }
    case .type3:
      try await writeType3NDEF(bytes: bytes, access: access, options: options)
    default:
      throw try await noMapping()
    }
  }

  /// Formats the card for NDEF: a MIFARE Classic card as shipped gets the MAD and NFC
  /// sectors with `keyB` (`MifareClassicNDEFProcedure.format(keyB:)`); a Type 2 or Type 5
  /// tag with a capability container gets an empty NDEF message (Type 2 without one first
  /// gets its product's CC).
  ///
  /// - Parameters:
  ///   - keyB: every MIFARE Classic sector's key B (ignored for other tags).
  ///   - access: the reader profile, MIFARE Classic keys and Type 5 addressing.
  /// - Throws: ``PCSCNDEFError``; `reader` with `ReaderError.Code.unsupportedFeature` for a
  ///   Type 4 card (its NDEF file is the applet's).
  public func formatNDEF(keyB: MifareClassicKey = .transport, access: PCSCStorageCardAccess)
    async throws(PCSCNDEFError)
  {
    switch try await storageKind() {
    case nil:
      throw .reader(ReaderError(.unsupportedFeature, "a Type 4 tag's NDEF file is formatted by its applet"))
    case .mifareClassic(let sectors):
      var procedure = try await mifareClassicProcedure(sectors: sectors, access: access)
      do { try await procedure.format(keyB: keyB) } catch { throw .mifareClassic(error) }
    case .type2:
      let (image, variant) = try await type2Image(access)
      if image[Type2TagView.capabilityContainerOffset] != Type2CapabilityContainer.ndefMagic, let variant {
        let pages = PCSCType2PageTransport(card: self, profile: profile(access))
        let formatted = Type2Tag.formattedImage(variant)
        do {
          for page in 3...4 {
            try await pages.writePage(page, Array(formatted[(page * 4)..<(page * 4 + 4)]))
          }
        } catch { throw .reader(error) }
        return
      }
      try await writeNDEF(bytes: [], access: access)
    case .type5:
      try await writeNDEF(bytes: [], access: access)
    case .type3:
      try await writeType3NDEF(bytes: [], access: access, options: .strict)
    default:
      throw try await noMapping()
    }
  }

  /// The raw memory as the reader shows it: every page of a Type 2 tag, every block of a
  /// Type 5 tag's data area, every MIFARE Classic sector the keyring opens (trailers as the
  /// card shows them: key A as zeros).
  ///
  /// - Parameter access: the reader profile, MIFARE Classic keys and Type 5 addressing.
  /// - Throws: ``PCSCNDEFError``; `reader` with `ReaderError.Code.unsupportedFeature` for
  ///   a Type 4 card.
  public func readMemoryImage(access: PCSCStorageCardAccess) async throws(PCSCNDEFError) -> [UInt8] {
    switch try await storageKind() {
    case nil:
      throw .reader(ReaderError(.unsupportedFeature, "a Type 4 tag has no memory image; read its NDEF file"))
    case .type2: return try await type2Image(access).image
    case .type5:
      let blocks = try await type5Transport(access)
      do { return try await blocks.readImage() } catch { throw .reader(error) }
    case .mifareClassic(let sectors):
      var procedure = try await mifareClassicProcedure(sectors: sectors, access: access)
      do { return try await procedure.readMemory().image } catch { throw .mifareClassic(error) }
    case .type3:
      return try await readType3Memory(access: access)
    default:
      throw try await noMapping()
    }
  }

  /// The procedure for the MIFARE Classic card in this reader.
  ///
  /// - Parameters:
  ///   - access: the reader profile and keys.
  ///   - options: strict or lenient reading of the MAD and the TLV area.
  /// - Throws: ``PCSCNDEFError/reader(_:)`` with `ReaderError.Code.unsupportedFeature` when
  ///   the ATR names no MIFARE Classic card.
  public func mifareClassicProcedure(access: PCSCStorageCardAccess, options: TagDecodingOptions = .strict)
    async throws(PCSCNDEFError) -> MifareClassicNDEFProcedure<PCSCMifareClassicTransport>
  {
    guard case .mifareClassic(let sectors)? = try await storageKind() else {
      throw .reader(ReaderError(.unsupportedFeature, "the card in \(reader) is no MIFARE Classic card"))
    }
    return try await mifareClassicProcedure(sectors: sectors, access: access, options: options)
  }

  // MARK: Steps

  private func profile(_ access: PCSCStorageCardAccess) -> StorageCardReaderProfile {
    access.profile ?? .matching(readerName: reader)
  }

  /// The storage card's memory model, nil for a Type 4 card.
  private func storageKind() async throws(PCSCNDEFError) -> StorageCardKind? {
    let kind: PCSCCardKind
    do { kind = try await self.kind() } catch { throw .reader(error) }
    switch kind {
    case .type4: return nil
    case .storage(let atr, let memory):
      guard let memory else {
        throw .reader(
          ReaderError(
            .unsupportedFeature,
            "\(atr.cardName.name ?? "card name \(atr.cardName.rawValue)") in \(reader) has no NDEF mapping here"))
      }
      return memory
    }
  }

  private func noMapping() async throws(PCSCNDEFError) -> PCSCNDEFError {
    .reader(
      ReaderError(
        .unsupportedFeature,
        "NDEF over PC/SC needs a Type 2, 3, 4 or 5 tag or a MIFARE Classic card (\(reader))"))
  }

  private func mifareClassicProcedure(
    sectors: Int, access: PCSCStorageCardAccess, options: TagDecodingOptions = .strict
  ) async throws(PCSCNDEFError) -> MifareClassicNDEFProcedure<PCSCMifareClassicTransport> {
    guard let kind = MifareClassicCardKind.allKinds.first(where: { $0.sectorCount == sectors }) else {
      throw .reader(ReaderError(.unsupportedFeature, "no MIFARE Classic card has \(sectors) sectors"))
    }
    let transport = PCSCMifareClassicTransport(card: self, profile: profile(access))
    return MifareClassicNDEFProcedure(transport: transport, kind: kind, keyring: access.keyring, options: options)
  }

  /// The Type 2 products a storage-card name covers: NN 0003 is Ultralight and every NTAG,
  /// 003A Ultralight C, 003D Ultralight EV1 (PC/SC storage-card notes §2).
  private static func type2Candidates(_ name: StorageCardName) -> [Type2TagVariant] {
    switch name {
    case .mifareUltralightC: [.ultralightC]
    case .mifareUltralightEV1: [.ultralightEV1MF0UL11, .ultralightEV1MF0UL21]
    default: [.ultralight, .ntag210, .ntag212, .ntag213, .ntag215, .ntag216]
    }
  }

  /// The whole Type 2 image and its product: GET_VERSION names it where the reader passes
  /// raw commands, else the CC's size byte among the products the ATR's card name covers;
  /// an unknown size reads the header and the data area the CC announces.
  private func type2Image(_ access: PCSCStorageCardAccess) async throws(PCSCNDEFError)
    -> (image: [UInt8], variant: Type2TagVariant?)
  {
    let pages = PCSCType2PageTransport(card: self, profile: profile(access))
    var candidates = Type2TagVariant.all
    if case .storage(let atr, _)? = try? await kind() { candidates = Self.type2Candidates(atr.cardName) }
    do {
      let header = try await pages.readImage(pageCount: 4)
      let version = try await pages.version()
      let ccSize = header[Type2TagView.capabilityContainerOffset + 2]
      let variant =
        version.flatMap { version in Type2TagVariant.all.first { $0.version == version } }
        ?? candidates.first { $0.capabilityContainer.size == ccSize }
      let pageCount = variant?.pageCount ?? (4 + (Int(ccSize) * 8 + 3) / 4)
      return (try await pages.readImage(pageCount: pageCount, startingWith: header), variant)
    } catch { throw .reader(error) }
  }

  private func type5Transport(_ access: PCSCStorageCardAccess) async throws(PCSCNDEFError) -> PCSCType5BlockTransport {
    if let addressing = access.type5Addressing { return PCSCType5BlockTransport(card: self, addressing: addressing) }
    do { return try await PCSCType5BlockTransport.detect(card: self) } catch { throw .reader(error) }
  }
}
