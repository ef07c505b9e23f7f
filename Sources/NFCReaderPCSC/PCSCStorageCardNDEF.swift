// SPDX-License-Identifier: Apache-2.0
import MifareClassicNDEF
import NDEF
import NFCReader
import NFCTags
import PCSCControl
import Type2NDEF

/// How to reach a storage card (Type 2, MIFARE Classic, Type 5) in a contactless PC/SC
/// reader: the reader's quirks, the MIFARE Classic keys to try, the ISO/IEC 15693
/// addressing.
public struct PCSCStorageCardAccess: Sendable, Hashable {
  /// The reader's profile; nil picks it from the reader name
  /// (`StorageCardReaderProfile.matching(readerName:)`).
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
/// libnfc path: Type 2 through `Type2NDEFProcedure` over ``PCSCType2PageTransport``,
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
      let procedure = try await type2Procedure(access: access, options: options)
      do { return try await procedure.readMessage() } catch { throw PCSCNDEFError(error) }
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
      let procedure = try await type2Procedure(access: access, options: options)
      do { try await procedure.write(bytes) } catch { throw PCSCNDEFError(error) }
    case .type5:
      let blocks = try await type5Transport(access)
      let image: [UInt8]
      do { image = try await blocks.readImage() } catch { throw .reader(error) }
      let plan: TagWritePlan
      do {
        plan = try Type5Tag.writePlan(bytes, into: image, blockSize: blocks.blockSize, options: options)
      } catch {
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
      let procedure = try await type2Procedure(access: access)
      let pages = procedure.transport
      let header: [UInt8]
      do { header = try await procedure.readMemory(0..<Type2NDEFRead.capabilityContainerPage + 1) } catch {
        throw PCSCNDEFError(error)
      }
      // Without a CC, only a product GET_VERSION named gets one (the CC size says nothing).
      if header[Type2TagView.capabilityContainerOffset] != Type2CapabilityContainer.ndefMagic,
        let variant = pages.variant
      {
        let formatted = Type2Tag.formattedImage(variant)
        do {
          for page in 3...4 {
            try await pages.writePage(page, Array(formatted[(page * 4)..<(page * 4 + 4)]))
          }
        } catch { throw .reader(error) }
        return
      }
      do { try await procedure.write([]) } catch { throw PCSCNDEFError(error) }
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
    case .type2: return try await type2Image(access)
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
            "\(atr.cardName.name ?? "card name \(atr.cardName.rawValue)") in \(reader) has no NDEF mapping here"
          ))
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
    return MifareClassicNDEFProcedure(
      transport: transport, kind: kind, keyring: access.keyring, options: options)
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

  /// The Type 2 NDEF procedure (shared with libnfc) over this card's
  /// ``PCSCType2PageTransport`` (GET_VERSION first where the reader passes raw frames).
  ///
  /// - Parameters:
  ///   - access: the reader profile.
  ///   - options: strict or lenient decoding.
  /// - Throws: ``PCSCNDEFError/reader(_:)`` when the tag left.
  public func type2Procedure(access: PCSCStorageCardAccess, options: TagDecodingOptions = .strict)
    async throws(PCSCNDEFError) -> Type2NDEFProcedure<PCSCType2PageTransport>
  {
    do {
      let transport = try await PCSCType2PageTransport.connect(card: self, profile: profile(access))
      return Type2NDEFProcedure(transport: transport, options: options)
    } catch { throw .reader(error) }
  }

  /// The storage-card name in the ATR (a Type 2 tag's: Ultralight and every NTAG,
  /// Ultralight C, Ultralight EV1).
  private func type2CardName() async throws(PCSCNDEFError) -> StorageCardName {
    let kind: PCSCCardKind
    do { kind = try await self.kind() } catch { throw .reader(error) }
    guard case .storage(let atr, _) = kind else { return .mifareUltralight }
    return atr.cardName
  }

  /// Every page of the Type 2 tag: GET_VERSION names the product where the reader passes
  /// raw frames, else the CC's size byte among the products the ATR's card name covers;
  /// an unknown size reads the header and the data area the CC announces.
  private func type2Image(_ access: PCSCStorageCardAccess) async throws(PCSCNDEFError) -> [UInt8] {
    let procedure = try await type2Procedure(access: access)
    let candidates = Self.type2Candidates(try await type2CardName())
    do {
      let header = try await procedure.readMemory(0..<Type2NDEFRead.capabilityContainerPage + 1)
      let ccSize = header[Type2TagView.capabilityContainerOffset + 2]
      let variant = procedure.transport.variant ?? candidates.first { $0.capabilityContainer.size == ccSize }
      let pageCount = min(
        variant?.pageCount ?? (4 + (Int(ccSize) * 8 + 3) / 4), Type2NDEFRead.maximumPageCount)
      return header + (try await procedure.readMemory(Type2NDEFRead.capabilityContainerPage + 1..<pageCount))
    } catch { throw PCSCNDEFError(error) }
  }

  private func type5Transport(_ access: PCSCStorageCardAccess) async throws(PCSCNDEFError)
    -> PCSCType5BlockTransport
  {
    if let addressing = access.type5Addressing {
      return PCSCType5BlockTransport(card: self, addressing: addressing)
    }
    do { return try await PCSCType5BlockTransport.detect(card: self) } catch { throw .reader(error) }
  }
}

extension PCSCNDEFError {
  /// The Type 2 procedure's error as a PC/SC NDEF error (`reader` or `tag`, kept whole).
  init(_ error: Type2NDEFError) {
    switch error {
    case .reader(let failure): self = .reader(failure)
    case .tag(let failure): self = .tag(failure)
    }
  }
}
