import ISO7816
import NDEF
import NFCReader
import NFCTags

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

/// NDEF on the tag in the field: Type 2 through page READ and WRITE with the tearing-safe
/// write order of ``NFCTags/Type2Tag/writePlan(_:into:options:)-([UInt8],_,_)`` (T2T 1.0
/// §6.4), Type 4 through ``NFCTags/Type4NDEFProcedure`` over ``ISO7816/APDUExchanger``
/// (T4T 3.0 §5.4-§5.5).
extension LibNFCReader {
  /// Reads the NDEF message of a Type 2 or Type 4 tag.
  ///
  /// - Parameter options: how the Type 2 memory image and the message are validated
  ///   (lenient also relaxes the NDEF record rules).
  /// - Returns: nil for an empty NDEF TLV or NLEN 0 (a blank, formatted tag), and for a
  ///   Type 2 image without an NDEF TLV read leniently.
  /// - Throws: ``LibNFCNDEFError/reader(_:)`` (``ReaderError/Code/unsupportedFeature`` for
  ///   other tag kinds), ``LibNFCNDEFError/tag(_:)`` with the decoding or procedure error,
  ///   ``LibNFCNDEFError/apdu(_:)``.
  public func readNDEF(from tag: LibNFCTag, options: TagDecodingOptions = .strict)
    async throws(LibNFCNDEFError) -> NDEFMessage?
  {
    let ndefOptions: NDEFDecodingOptions = options.isLenient ? .lenient : .strict
    switch tag.kind {
    case .type2:
      let image = try await type2Image(of: tag)
      return try Self.type2Message(in: image, variant: tag.type2Variant?.tagVariant, options: options)
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

  /// Reads the tag's NDEF storage as bytes: for a Type 2 tag the whole memory image,
  /// every page of the detected variant from page 0 (T2T 1.0 §2); for a Type 4 tag the
  /// used part of the NDEF file, NLEN (or ENLEN) then the message, read by the NDEF read
  /// procedure (T4T 3.0 §5.4).
  ///
  /// - Throws: as ``readNDEF(from:options:)``.
  public func readMemoryImage(from tag: LibNFCTag) async throws(LibNFCNDEFError) -> [UInt8] {
    switch tag.kind {
    case .type2:
      return try await type2Image(of: tag)
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

  /// Writes `message` to a Type 2 or Type 4 tag. Type 2: reads the image, plans the
  /// tearing-safe page writes (NDEF length 0 first, the body, the real length last) and
  /// sends them in order with WRITE (0xA2). Type 4: SELECTs, reads the CC file and
  /// UPDATE BINARYs NLEN 0, the message, then NLEN.
  ///
  /// - Throws: ``LibNFCNDEFError/tag(_:)`` with ``NFCTagError/Code/readOnly``,
  ///   ``NFCTagError/Code/messageTooLarge``, ``NFCTagError/Code/ndefFileNotWritable`` or
  ///   ``NFCTagError/Code/invalidNDEFMessage`` (nothing written for these), and as
  ///   ``readNDEF(from:options:)``. A ``ReaderError/Code/tagLost`` mid-write leaves the
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

  /// Writes encoded NDEF message bytes (empty: an empty NDEF TLV, or NLEN 0) to a Type 2
  /// or Type 4 tag, as ``writeNDEF(_:to:options:)``.
  ///
  /// - Throws: as ``writeNDEF(_:to:options:)``.
  public func writeNDEF(bytes: [UInt8], to tag: LibNFCTag, options: TagDecodingOptions = .strict)
    async throws(LibNFCNDEFError)
  {
    switch tag.kind {
    case .type2:
      let plan = try await type2WritePlan(bytes, for: tag, options: options)
      try await apply(plan, to: tag)
    case .type4:
      _ = try await runType4(.write(bytes), on: tag)
    default:
      throw .reader(Self.noNDEFMapping(tag))
    }
  }

  /// Reads a Type 2 tag's image and plans the page writes that store `message` (encoded
  /// NDEF bytes) in it, without writing (T2T 1.0 §6.4.2).
  ///
  /// - Throws: ``LibNFCNDEFError/reader(_:)`` for a tag that is not Type 2 or a failed
  ///   READ; ``LibNFCNDEFError/tag(_:)`` with the errors of
  ///   ``NFCTags/Type2Tag/writePlan(_:into:options:)-([UInt8],_,_)``.
  public func type2WritePlan(_ message: [UInt8], for tag: LibNFCTag, options: TagDecodingOptions = .strict)
    async throws(LibNFCNDEFError) -> TagWritePlan
  {
    guard case .type2 = tag.kind else {
      throw .reader(ReaderError(.unsupportedFeature, "page writes need a Type 2 tag (\(tag.kind.name))"))
    }
    let image = try await type2Image(of: tag)
    do { return try Type2Tag.writePlan(message, into: image, options: options) } catch { throw .tag(error) }
  }

  /// Sends a plan's page writes to a Type 2 tag with WRITE (0xA2), in the plan's order.
  ///
  /// - Throws: ``LibNFCNDEFError/reader(_:)``: ``ReaderError/Code/invalidArgument`` for a
  ///   plan whose blocks are not 4-byte pages (nothing written), and the errors of
  ///   ``LibNFCReader/writePage(_:_:to:)`` (the writes before it stay done).
  public func apply(_ plan: TagWritePlan, to tag: LibNFCTag) async throws(LibNFCNDEFError) {
    guard plan.blockSize == Type2Tag.pageSize, plan.writes.allSatisfy({ $0.bytes.count == Type2Tag.pageSize })
    else {
      throw .reader(
        ReaderError(.invalidArgument, "a Type 2 plan writes 4-byte pages (block size \(plan.blockSize))"))
    }
    for write in plan.writes {
      do { try await writePage(write.block, write.bytes, to: tag) } catch { throw .reader(error) }
    }
  }

  // MARK: Steps

  /// The Type 2 image, every page of the variant (Ultralight's 16 when unknown).
  private func type2Image(of tag: LibNFCTag) async throws(LibNFCNDEFError) -> [UInt8] {
    do {
      return try await readMemory(
        of: tag, pageCount: tag.type2Variant?.pageCount ?? Type2Variant.ultralight.pageCount)
    } catch { throw .reader(error) }
  }

  /// The NDEF message of a Type 2 image, nil when empty or (leniently) absent.
  private static func type2Message(in image: [UInt8], variant: Type2TagVariant?, options: TagDecodingOptions)
    throws(LibNFCNDEFError) -> NDEFMessage?
  {
    let ndefOptions: NDEFDecodingOptions = options.isLenient ? .lenient : .strict
    do {
      let view = try Type2TagView(validating: image.span, variant: variant, options: options)
      return try view.tlvArea.message(options: ndefOptions)
    } catch { throw .tag(error) }
  }

  /// Runs the Type 4 NDEF procedure to its end over the tag's APDU transport.
  private func runType4(_ operation: Type4NDEFProcedure.Operation, on tag: LibNFCTag)
    async throws(LibNFCNDEFError) -> Type4NDEFProcedure
  {
    let transport: LibNFCAPDUTransport
    do { transport = try LibNFCAPDUTransport(reader: self, tag: tag) } catch { throw .reader(error) }
    var exchanger = APDUExchanger(transport: transport)
    var procedure = Type4NDEFProcedure(operation: operation)
    var command: CommandAPDU? = procedure.start()
    while let next = command {
      let response: ResponseAPDU
      do { response = try await exchanger.send(next) } catch {
        switch error {
        case .transport(let failure): throw .reader(failure)
        case .apdu(let failure): throw .apdu(failure)
        }
      }
      do { command = try procedure.receive(response) } catch { throw .tag(error) }
    }
    return procedure
  }

  private static func noNDEFMapping(_ tag: LibNFCTag) -> ReaderError {
    ReaderError(.unsupportedFeature, "NDEF reads and writes need a Type 2 or Type 4 tag (\(tag.kind.name))")
  }
}
