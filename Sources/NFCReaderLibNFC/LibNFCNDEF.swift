// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NDEF
import NFCReader
import NFCTags
import Type2NDEF
import Type3NDEF

extension Type2Variant {
  /// The tag-layout description of this product (lock bytes, configuration pages, CC as
  /// shipped) from the NFCTags table, or nil when the table has no product of this size.
  public var tagVariant: Type2TagVariant? {
    switch self {
    case .ntag213: .ntag213
    case .ntag215: .ntag215
    case .ntag216: .ntag216
    case .ultralight: .ultralight
    case .ultralightEV1Small: .ultralightEV1MF0UL11
    case .ultralightEV1Large: .ultralightEV1MF0UL21
    default: Type2TagVariant.all.first { $0.pageCount == pageCount }
    }
  }
}

/// NDEF on the tag in the field: Type 1 through READ/RSEG and WRITE-E/WRITE-E8 with the
/// tearing-safe order of ``NFCTags/Type1Tag/writePlan(_:into:options:)`` (T1T 1.0 §5,
/// T1T 1.2 §6), Type 2 through page READ and WRITE with the tearing-safe write order of
/// ``NFCTags/Type2Tag/writePlan(_:into:options:)-([UInt8],_,_)`` (T2T 1.0 §6.4), Type 3
/// through `Type3NDEFProcedure` over ``LibNFCType3Transport`` (Check and Update without
/// encryption, the WriteFlag order of ``NFCTags/Type3Tag/writePlan(_:into:options:)``;
/// T3T 1.0 §7.4), Type 4 through
/// ``NFCTags/Type4NDEFProcedure`` over ``ISO7816/APDUExchanger`` (T4T 3.0 §5.4-§5.5),
/// MIFARE Classic through the MAD and its NFC sectors with the public keys (AN10787,
/// AN1304; ``readMifareClassic(from:keyring:options:)`` and the others take a keyring).
extension LibNFCReader {
  /// Reads the NDEF message of a Type 1, 2, 3 or 4 tag or a MIFARE Classic card.
  ///
  /// - Parameters:
  ///   - tag: the tag ``poll()`` found, still in the field.
  ///   - options: how the memory image and the message are validated (lenient also
  ///     relaxes the NDEF record rules).
  /// - Returns: nil for an empty NDEF TLV, Ln 0 or NLEN 0 (a blank, formatted tag), for a
  ///   Type 1 or 2 image without an NDEF TLV read leniently, and for a Type 3 tag whose
  ///   WriteFlag is ON read leniently.
  /// - Throws: ``LibNFCNDEFError/reader(_:)`` (`ReaderError.Code.unsupportedFeature` for
  ///   other tag kinds), ``LibNFCNDEFError/tag(_:)`` with the decoding or procedure error
  ///   (for Type 3 with WriteFlag ON, read strictly: `NFCTagError.Code.writeInProgress`,
  ///   an interrupted write), ``LibNFCNDEFError/apdu(_:)``.
  public func readNDEF(from tag: LibNFCTag, options: TagDecodingOptions = .strict)
    async throws(LibNFCNDEFError) -> NDEFMessage?
  {
    let ndefOptions: NDEFDecodingOptions = options.isLenient ? .lenient : .strict
    switch tag.kind {
    case .type1:
      let (image, headerROM) = try await type1Image(of: tag)
      do {
        let view = try Type1TagView(validating: image.span, headerROM: headerROM, options: options)
        return try view.tlvArea.message(options: ndefOptions)
      } catch { throw .tag(error) }
    case .type2:
      return try await readType2NDEF(from: tag, options: options).message
    case .type3:
      let procedure = try type3Procedure(for: tag, options: options)
      do { return try await procedure.readMessage() } catch { throw Self.libNFCError(error) }
    case .mifareClassic:
      let content = try await readMifareClassic(from: tag, options: options)
      guard !content.message.isEmpty else { return nil }
      do { return try NDEFMessage(parsing: content.message, options: ndefOptions) } catch {
        throw .tag(NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error))
      }
    case .type4:
      let procedure = try await runType4(.read, on: tag)
      guard !procedure.message.isEmpty else { return nil }
      do { return try NDEFMessage(parsing: procedure.message, options: ndefOptions) } catch {
        throw .tag(NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error))
      }
    default:
      throw .reader(Self.noNDEFMapping(tag))
    }
  }

  /// Reads the tag's NDEF storage as bytes: for a Type 1, 2 or 3 tag the whole memory
  /// image of ``LibNFCReader/readMemory(of:pageCount:)`` (Type 1 from block 0, Type 2 every
  /// page of the detected variant, Type 3 the attribute information block and its Nmaxb
  /// blocks; T1T 1.0 §2, T2T 1.0 §2, T3T 1.0 §7); for a Type 4 tag the used part of the
  /// NDEF file, NLEN (or ENLEN) then the message, read by the NDEF read procedure (T4T 3.0
  /// §5.4); for a MIFARE Classic card every block the public keys open, as the card answers
  /// (``readMifareClassicMemory(from:keyring:)``; sectors that stay closed read as zeros).
  ///
  /// - Throws: as ``readNDEF(from:options:)``.
  public func readMemoryImage(from tag: LibNFCTag) async throws(LibNFCNDEFError) -> [UInt8] {
    switch tag.kind {
    case .type2:
      return try await type2Image(of: tag)
    case .type1, .type3:
      do { return try await readMemory(of: tag) } catch { throw .reader(error) }
    case .mifareClassic:
      return try await readMifareClassicMemory(from: tag).image
    case .type4:
      let procedure = try await runType4(.read, on: tag)
      let size = procedure.capabilityContainer?.fileControl.lengthFieldSize ?? 2
      var bytes: [UInt8] = []
      for i in stride(from: size - 1, through: 0, by: -1) {
        bytes.append(UInt8(truncatingIfNeeded: procedure.message.count >> (i * 8)))
      }
      return bytes + procedure.message
    default:
      throw .reader(Self.noNDEFMapping(tag))
    }
  }

  /// Writes `message` to a Type 1, 2, 3 or 4 tag. Type 1 and 2: reads the image, plans
  /// the tearing-safe writes (NDEF length 0 first, the body, the real length last) and
  /// sends them in order: WRITE-E per byte on static Type 1 memory, WRITE-E8 per block on
  /// dynamic memory, WRITE (0xA2) per Type 2 page. Type 3: checks the attribute block and updates it
  /// with WriteFlag ON and Ln 0, the body blocks (Nbw per Update), then the attribute block
  /// with WriteFlag OFF and the real Ln (`Type3NDEFProcedure.write(_:)`). Type 4:
  /// SELECTs, reads the CC file and UPDATE BINARYs NLEN 0, the message, then NLEN.
  ///
  /// - Throws: ``LibNFCNDEFError/tag(_:)`` with `NFCTagError.Code.readOnly`,
  ///   `NFCTagError.Code.messageTooLarge`, `NFCTagError.Code.ndefFileNotWritable` or
  ///   `NFCTagError.Code.invalidNDEFMessage` (nothing written for these), and as
  ///   ``readNDEF(from:options:)``. A `ReaderError.Code.tagLost` mid-write leaves the
  ///   old message, an empty one or the new one on the tag.
  public func writeNDEF(_ message: NDEFMessage, to tag: LibNFCTag, options: TagDecodingOptions = .strict)
    async throws(LibNFCNDEFError)
  {
    let bytes: [UInt8]
    do { bytes = try message.encodedBytes() } catch {
      throw .tag(NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error))
    }
    try await writeNDEF(bytes: bytes, to: tag, options: options)
  }

  /// Writes encoded NDEF message bytes (empty: an empty NDEF TLV, Ln 0 or NLEN 0) to a
  /// Type 1, 2, 3 or 4 tag, as ``writeNDEF(_:to:options:)``, or to a formatted MIFARE
  /// Classic card with the public keys (``writeMifareClassic(_:to:keyring:options:)``).
  ///
  /// - Throws: as ``writeNDEF(_:to:options:)``.
  public func writeNDEF(bytes: [UInt8], to tag: LibNFCTag, options: TagDecodingOptions = .strict)
    async throws(LibNFCNDEFError)
  {
    switch tag.kind {
    case .type1, .type2:
      let plan = try await writePlan(bytes, for: tag, options: options)
      try await apply(plan, to: tag)
    case .type3:
      let procedure = try type3Procedure(for: tag, options: options)
      do { try await procedure.write(bytes) } catch { throw Self.libNFCError(error) }
    case .type4:
      _ = try await runType4(.write(bytes), on: tag)
    case .mifareClassic:
      try await writeMifareClassic(bytes, to: tag, options: options)
    default:
      throw .reader(Self.noNDEFMapping(tag))
    }
  }

  /// Reads a Type 2 tag's image and plans the page writes that store `message` (encoded
  /// NDEF bytes) in it, without writing (T2T 1.0 §6.4.2).
  ///
  /// - Throws: ``LibNFCNDEFError/reader(_:)`` for a tag that is not Type 2 or a failed
  ///   READ; ``LibNFCNDEFError/tag(_:)`` with the errors of
  ///   `Type2Tag.writePlan(_:into:options:)`.
  public func type2WritePlan(_ message: [UInt8], for tag: LibNFCTag, options: TagDecodingOptions = .strict)
    async throws(LibNFCNDEFError) -> TagWritePlan
  {
    guard case .type2 = tag.kind else {
      throw .reader(ReaderError(.unsupportedFeature, "page writes need a Type 2 tag (\(tag.kind.name))"))
    }
    let image = try await type2Image(of: tag)
    do { return try Type2Tag.writePlan(message, into: image, options: options) } catch { throw .tag(error) }
  }

  /// Reads a Type 1, 2 or 3 tag's image and plans the writes that store `message`
  /// (encoded NDEF bytes) in it, without writing: `Type1Tag.writePlan(_:into:options:)`,
  /// `Type2Tag.writePlan(_:into:options:)` or
  /// `Type3Tag.writePlan(_:into:options:)`. A Type 3 tag left with WriteFlag ON
  /// by an interrupted write is planned over as if its message were empty (the plan sets
  /// WriteFlag ON first anyway; T3T 1.0 §7.4.2).
  ///
  /// - Throws: ``LibNFCNDEFError/reader(_:)`` for another tag kind
  ///   (`ReaderError.Code.unsupportedFeature`) or a failed read;
  ///   ``LibNFCNDEFError/tag(_:)`` with the errors of those plans.
  public func writePlan(_ message: [UInt8], for tag: LibNFCTag, options: TagDecodingOptions = .strict)
    async throws(LibNFCNDEFError) -> TagWritePlan
  {
    switch tag.kind {
    case .type1:
      let (image, _) = try await type1Image(of: tag)
      do { return try Type1Tag.writePlan(message, into: image, options: options) } catch { throw .tag(error) }
    case .type2:
      return try await type2WritePlan(message, for: tag, options: options)
    case .type3:
      let procedure = try type3Procedure(for: tag, options: options)
      do { return try await procedure.plan(message) } catch { throw Self.libNFCError(error) }
    default:
      throw .reader(
        ReaderError(.unsupportedFeature, "write plans need a Type 1, 2 or 3 tag (\(tag.kind.name))"))
    }
  }

  /// Sends a plan's writes in the plan's order: WRITE (0xA2) for 4-byte Type 2 pages,
  /// WRITE-E (0x53) for single Type 1 bytes (the block number is then the byte address),
  /// WRITE-E8 (0x54) for 8-byte Type 1 blocks, Write Without Encryption (0x08, service
  /// 0009) for 16-byte Type 3 blocks.
  ///
  /// - Throws: ``LibNFCNDEFError/reader(_:)``: `ReaderError.Code.invalidArgument` for a
  ///   plan whose block size does not fit the tag (nothing written), and the errors of
  ///   ``LibNFCReader/writePage(_:_:to:)``, ``LibNFCReader/writeType1Byte(_:at:to:)``,
  ///   ``LibNFCReader/writeType1Block(_:_:to:)`` or
  ///   ``LibNFCReader/writeBlocks(startingAt:_:to:service:)`` (the writes before stay done).
  public func apply(_ plan: TagWritePlan, to tag: LibNFCTag) async throws(LibNFCNDEFError) {
    let size: Int
    switch (tag.kind, plan.blockSize) {
    case (.type2, Type2Tag.pageSize): size = Type2Tag.pageSize
    case (.type1, Type1Tag.staticWriteSize): size = Type1Tag.staticWriteSize
    case (.type1, Type1Tag.blockSize): size = Type1Tag.blockSize
    case (.type3, Type3AttributeInformation.blockSize): size = Type3AttributeInformation.blockSize
    default:
      throw .reader(
        ReaderError(
          .invalidArgument, "a plan of \(plan.blockSize)-byte blocks does not fit a \(tag.kind.name) tag"))
    }
    guard plan.writes.allSatisfy({ $0.bytes.count == size }) else {
      throw .reader(ReaderError(.invalidArgument, "every write of the plan must be \(size) bytes"))
    }
    for write in plan.writes {
      do {
        switch (tag.kind, size) {
        case (.type1, Type1Tag.staticWriteSize):
          try await writeType1Byte(write.bytes[0], at: write.block, to: tag)
        case (.type1, _): try await writeType1Block(write.block, write.bytes, to: tag)
        case (.type3, _): try await writeBlocks(startingAt: write.block, write.bytes, to: tag)
        default: try await writePage(write.block, write.bytes, to: tag)
        }
      } catch { throw .reader(error) }
    }
  }

  // MARK: Steps

  /// A Type 1 image from block 0 and the header ROM from RID.
  private func type1Image(of tag: LibNFCTag) async throws(LibNFCNDEFError) -> ([UInt8], Type1HeaderROM) {
    do {
      let identification = try await readType1Identification(of: tag)
      let image = try await readType1Memory(of: tag, headerROM: identification[0])
      return (image, Type1HeaderROM(hr0: identification[0], hr1: identification[1]))
    } catch { throw .reader(error) }
  }

  /// The Type 3 procedure over ``LibNFCType3Transport`` (T3T 1.0 §7.4).
  private func type3Procedure(for tag: LibNFCTag, options: TagDecodingOptions) throws(LibNFCNDEFError)
    -> Type3NDEFProcedure<LibNFCType3Transport>
  {
    do {
      return Type3NDEFProcedure(transport: try LibNFCType3Transport(reader: self, tag: tag), options: options)
    } catch {
      throw .reader(error)
    }
  }

  private static func libNFCError(_ error: Type3NDEFError) -> LibNFCNDEFError {
    switch error {
    case .reader(let failure): .reader(failure)
    case .tag(let failure): .tag(failure)
    }
  }

  /// The Type 2 image, every page of the variant (Ultralight's 16 when unknown).
  private func type2Image(of tag: LibNFCTag) async throws(LibNFCNDEFError) -> [UInt8] {
    do {
      return try await readMemory(
        of: tag, pageCount: tag.type2Variant?.pageCount ?? Type2Variant.ultralight.pageCount)
    } catch { throw .reader(error) }
  }

  /// Reads a Type 2 tag's NDEF message in the fewest round trips: page 3 (the CC), then
  /// only the pages up to the end of the NDEF TLV, with FAST_READ when GET_VERSION named a
  /// chip that has it (`Type2NDEFProcedure` over ``LibNFCType2Transport``; T2T 1.0 §6.4.1).
  ///
  /// - Parameters:
  ///   - tag: a Type 2 tag ``poll()`` found, still in the field.
  ///   - options: how the CC, the TLVs and the message are validated.
  /// - Returns: the message (nil for an empty NDEF TLV, or leniently none) and the finished
  ///   read, whose `readCount` is the number of RF round trips it took.
  /// - Throws: ``LibNFCNDEFError/reader(_:)`` for a tag that is not Type 2 or a failed
  ///   read, ``LibNFCNDEFError/tag(_:)`` for a malformed CC, TLV or message.
  public func readType2NDEF(from tag: LibNFCTag, options: TagDecodingOptions = .strict)
    async throws(LibNFCNDEFError) -> (message: NDEFMessage?, read: Type2NDEFRead)
  {
    let transport: LibNFCType2Transport
    do { transport = try LibNFCType2Transport(reader: self, tag: tag) } catch { throw .reader(error) }
    let procedure = Type2NDEFProcedure(transport: transport, options: options)
    let read: Type2NDEFRead
    do { read = try await procedure.read() } catch {
      switch error {
      case .reader(let failure): throw .reader(failure)
      case .tag(let failure): throw .tag(failure)
      }
    }
    do { return (try read.message(), read) } catch { throw .tag(error) }
  }

  /// Runs the Type 4 NDEF procedure to its end over the tag's APDU transport.
  private func runType4(_ operation: Type4NDEFProcedure.Operation, on tag: LibNFCTag)
    async throws(LibNFCNDEFError) -> Type4NDEFProcedure
  {
    let transport: LibNFCAPDUTransport
    do { transport = try LibNFCAPDUTransport(reader: self, tag: tag) } catch { throw .reader(error) }
    var exchanger = APDUExchanger(transport: transport)
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

  private static func noNDEFMapping(_ tag: LibNFCTag) -> ReaderError {
    ReaderError(
      .unsupportedFeature,
      "NDEF reads and writes need a Type 1, 2, 3 or 4 tag or MIFARE Classic (\(tag.kind.name))")
  }
}
