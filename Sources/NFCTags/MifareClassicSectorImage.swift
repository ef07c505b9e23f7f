// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The MAD of a card decoded from the blocks that hold it, for a reader that authenticates
/// sector 0 (and 16) only (NXP AN10787 §3.7-§3.9): the MAD general purpose byte (sector 0
/// trailer, byte 9), MAD1 (blocks 1-2) and, when read, MAD2 (blocks 64-66).
///
/// ``MifareClassicTagView`` decodes a whole image with the same rules: offsets in errors
/// and warnings are the ones they have in a whole image (57, 16, 17, 1024, 1025, the AIDs).
public struct MifareClassicDirectory: Sendable, Hashable {
  /// The MAD general purpose byte.
  public let generalPurposeByte: MifareClassicMADGeneralPurposeByte
  /// The MAD as read (with MAD2 when the general purpose byte announces it, or when
  /// lenient decoding found an undeclared one).
  public let mad: MifareClassicMAD
  /// The sectors the MAD assigns to NDEF (AID `03 E1`) that the card has, in order; their
  /// trailers are not checked here.
  public let ndefSectors: [Int]
  /// The rules the MAD broke that lenient decoding accepted.
  public let warnings: [NFCTagWarning]

  /// Decodes the MAD from its blocks (AN10787 §3.7: DA and ADV of the general purpose byte;
  /// §3.8: the info byte; §3.9: the CRC).
  ///
  /// - Parameters:
  ///   - generalPurposeByte: byte 9 of block 3.
  ///   - mad1: blocks 1-2 (32 bytes).
  ///   - mad2: blocks 64-66 (48 bytes) when sector 16 was read, `nil` otherwise. Without it,
  ///     a general purpose byte saying MAD1 on a 4K card is taken as it says; with it, a
  ///     MAD2 naming NDEF sectors is ``NFCTagError/Code/undeclaredMAD2`` (a warning in
  ///     lenient mode, which then reads it).
  ///   - kind: the card.
  ///   - options: strict or lenient.
  /// - Throws: ``NFCTagError/Code/invalidImageSize`` (offset 16 or 1024 plus the given
  ///   count) for a MAD1 that is not 32 bytes or a MAD2 that is not 48;
  ///   ``NFCTagError/Code/truncatedImage`` (offset 1024) when the general purpose byte says
  ///   MAD2 and `mad2` is `nil`; and as ``MifareClassicTagView/init(validating:kind:uidSize:options:)``:
  ///   ``NFCTagError/Code/missingMAD``, ``NFCTagError/Code/undeclaredMAD2``,
  ///   ``NFCTagError/Code/unsupportedVersion`` (offset 57), ``NFCTagError/Code/madCRCMismatch``,
  ///   ``NFCTagError/Code/invalidMADInfo``, ``NFCTagError/Code/madSectorOutOfRange``.
  public init(
    generalPurposeByte: UInt8, mad1: [UInt8], mad2: [UInt8]?, kind: MifareClassicCardKind,
    options: TagDecodingOptions = .strict
  ) throws(NFCTagError) {
    guard mad1.count == MifareClassicMAD.mad1Size else {
      throw NFCTagError(.invalidImageSize, offset: MifareClassicMAD.mad1Offset &+ mad1.count)
    }
    if let mad2, mad2.count != MifareClassicMAD.mad2Size {
      throw NFCTagError(.invalidImageSize, offset: MifareClassicMAD.mad2Offset &+ mad2.count)
    }
    // The MAD blocks at their offsets in an image, so MifareClassicMAD reads them as in a dump.
    var blocks = [UInt8](repeating: 0, count: MifareClassicMAD.mad1Offset)
    blocks += mad1
    if let mad2 {
      blocks += [UInt8](repeating: 0, count: MifareClassicMAD.mad2Offset &- blocks.count)
      blocks += mad2
    }
    let lenient = options.isLenient
    var warnings: [NFCTagWarning] = []
    func check(_ ok: Bool, _ code: NFCTagError.Code, _ offset: Int) throws(NFCTagError) {
      guard !ok else { return }
      guard lenient else { throw NFCTagError(code, offset: offset) }
      warnings.append(NFCTagWarning(code, offset: offset))
    }
    let gpbOffset = MifareClassicTagView.madGeneralPurposeByteOffset
    let gpb = MifareClassicMADGeneralPurposeByte(rawValue: generalPurposeByte)
    guard gpb.isMADAvailable else { throw NFCTagError(.missingMAD, offset: gpbOffset) }
    let hasSector16 = kind.contains(sector: MifareClassicMAD.mad2Sector)
    var readsMAD2 = false
    switch gpb.madVersion {
    case 1:
      // Android's formatter writes C1 on 4K cards too, with a MAD2 in sector 16: strict
      // decoding refuses it (it would read a shorter NDEF area than the card's writer
      // meant), lenient decoding reads the MAD2.
      if hasSector16 && mad2 != nil {
        let probe = try MifareClassicMAD(reading: blocks.span.bytes, includesMAD2: true)
        if !probe.sectors(of: .ndef).filter({ $0 > MifareClassicMAD.mad2Sector }).isEmpty {
          try check(false, .undeclaredMAD2, gpbOffset)
          readsMAD2 = true
        }
      }
    case 2:
      try check(hasSector16, .unsupportedVersion, gpbOffset)
      readsMAD2 = hasSector16
      if readsMAD2 && mad2 == nil { throw NFCTagError(.truncatedImage, offset: MifareClassicMAD.mad2Offset) }
    default:
      try check(false, .unsupportedVersion, gpbOffset)
    }
    let mad = try MifareClassicMAD(reading: blocks.span.bytes, includesMAD2: readsMAD2)
    try check(mad.mad1CRC == mad.computedMAD1CRC, .madCRCMismatch, MifareClassicMAD.mad1Offset)
    try check(
      MifareClassicTagView.isValidInfo(mad.mad1Info, limit: 0x0F), .invalidMADInfo,
      MifareClassicMAD.mad1Offset &+ 1)
    if let info = mad.mad2Info {
      try check(mad.mad2CRC == mad.computedMAD2CRC, .madCRCMismatch, MifareClassicMAD.mad2Offset)
      try check(
        MifareClassicTagView.isValidInfo(info, limit: 0x27), .invalidMADInfo, MifareClassicMAD.mad2Offset &+ 1
      )
    }
    // NDEF sectors, and AIDs the card cannot hold.
    var sectors: [Int] = []
    for sector in 1..<40 {
      guard let aid = mad.aid(forSector: sector) else { continue }
      guard kind.contains(sector: sector) else {
        let aidOffset =
          sector < 16
          ? MifareClassicMAD.mad1Offset &+ 2 &* sector : MifareClassicMAD.mad2Offset &+ 2 &* (sector &- 16)
        try check(aid == .free || aid == .notApplicable, .madSectorOutOfRange, aidOffset)
        continue
      }
      if aid == .ndef { sectors.append(sector) }
    }
    self.generalPurposeByte = gpb
    self.mad = mad
    self.ndefSectors = sectors
    self.warnings = warnings
  }
}

/// The NDEF sectors of a card as a reader gets them, sector by sector in MAD order: the
/// part read so far placed at its offsets in a whole-card image (zeros elsewhere), so the
/// TLV area, the read-only state and the write plan are the ones ``MifareClassicTagView``
/// and ``MifareClassic/writePlan(_:into:options:)-([UInt8],_,_)`` compute on a whole image
/// (NXP AN1304 §6.4: the TLV area is the NDEF sectors' data blocks in order, trailers and
/// MAD sectors skipped).
public struct MifareClassicSectorImage: Sendable, Hashable {
  /// The card.
  public let kind: MifareClassicCardKind
  /// Every NDEF sector of the card, in MAD order (``MifareClassicDirectory/ndefSectors``).
  public let ndefSectors: [Int]
  /// How many of ``ndefSectors`` have been added.
  public private(set) var readCount: Int = 0
  /// A whole-card image holding the sectors added, zeros elsewhere.
  public private(set) var image: [UInt8]

  /// An image of `kind` with no sector read yet.
  ///
  /// - Parameters:
  ///   - kind: the card.
  ///   - ndefSectors: the NDEF sectors in order; sectors the card does not have, sector 0
  ///     and sector 16 are dropped.
  public init(kind: MifareClassicCardKind, ndefSectors: [Int]) {
    self.kind = kind
    self.ndefSectors = ndefSectors.filter {
      kind.contains(sector: $0) && $0 != 0 && $0 != MifareClassicMAD.mad2Sector
    }
    self.image = [UInt8](repeating: 0, count: kind.memorySize)
  }

  /// Whether every NDEF sector has been added.
  public var isComplete: Bool { readCount >= ndefSectors.count }

  /// The sectors added so far.
  public var sectorsRead: [Int] { Array(ndefSectors.prefix(readCount)) }

  /// The next NDEF sector to read; `nil` when all are read.
  public var nextSector: Int? { isComplete ? nil : ndefSectors[readCount] }

  /// Adds the blocks of ``nextSector`` as read, data blocks then trailer (4 or 16 blocks
  /// of 16 bytes; key A of the trailer reads as zeros, which nothing here uses).
  ///
  /// - Throws: ``NFCTagError/Code/invalidImageSize`` (offset: the byte count given) when
  ///   `blocks` is not the sector's size, ``NFCTagError/Code/procedureFinished`` (offset 0)
  ///   when every sector was added.
  public mutating func append(_ blocks: [UInt8]) throws(NFCTagError) {
    guard let sector = nextSector, let first = kind.firstBlock(ofSector: sector),
      let count = kind.blockCount(inSector: sector)
    else { throw NFCTagError(.procedureFinished, offset: 0) }
    guard blocks.count == count &* MifareClassic.blockSize else {
      throw NFCTagError(.invalidImageSize, offset: blocks.count)
    }
    let offset = first &* MifareClassic.blockSize
    image.replaceSubrange(offset..<offset &+ blocks.count, with: blocks)
    readCount &+= 1
  }

  /// The memory map of the TLV area over the first `count` NDEF sectors.
  func map(sectors count: Int) -> TagMemoryMap {
    let sectors = ndefSectors.prefix(count)
    guard let firstSector = sectors.first, let lastSector = sectors.last,
      let start = kind.firstBlock(ofSector: firstSector), let end = kind.trailerBlock(ofSector: lastSector)
    else {
      let start = 4 &* MifareClassic.blockSize
      return TagMemoryMap(mifareClassicSectors: 0, dataAreaStart: start, dataAreaEnd: start)
    }
    var mask: UInt64 = 0
    for sector in sectors { mask |= 1 << UInt64(sector) }
    return TagMemoryMap(
      mifareClassicSectors: mask, dataAreaStart: start &* MifareClassic.blockSize,
      dataAreaEnd: end &* MifareClassic.blockSize)
  }

  /// The TLV area over every NDEF sector once read (offsets into ``image``), as
  /// ``MifareClassicTagView/tlvArea`` holds it; before that, the area over the sectors read
  /// when the NDEF TLV lies whole in them and strict decoding finds nothing wrong up to it.
  ///
  /// - Returns: `nil` when more sectors are needed to know.
  /// - Throws: once every sector is read, the errors of ``TagTLVArea/init(image:map:options:)``
  ///   (``NFCTagError/Code/missingNDEFTLV`` at offset 64 when there is no NDEF sector).
  public func tlvArea(options: TagDecodingOptions = .strict) throws(NFCTagError) -> TagTLVArea? {
    if isComplete {
      return try TagTLVArea(image: image.span.bytes, map: map(sectors: readCount), options: options)
    }
    // A partial area decides only when strict decoding of it is clean: anything else may
    // change with the next sector (a TLV running on), and is decided on the whole area.
    guard
      let area = try? TagTLVArea(scanning: image.span.bytes, map: map(sectors: readCount), options: .strict),
      area.errors.isEmpty, area.ndefTLV != nil
    else { return nil }
    return area
  }

  /// Whether the NDEF sectors are read-only (AN1304 §6.4 READ-ONLY state), as
  /// ``MifareClassicTagView/isReadOnly``: from the first NDEF sector's trailer.
  ///
  /// - Returns: `nil` before the first NDEF sector is added; `true` without NDEF sectors.
  public var isReadOnly: Bool? {
    guard let first = ndefSectors.first else { return true }
    guard readCount > 0 else { return nil }
    return !MifareClassic.isSectorWritable(first, in: image.span.bytes, kind: kind)
  }

  /// The tearing-safe writes that store `message` (encoded NDEF bytes), the ones
  /// ``MifareClassic/writePlan(_:into:options:)-([UInt8],_,_)`` gives for a whole image
  /// with the same NDEF sectors (AN1304 §6.4.3; T2T 1.0 §6.4.2: length 0, body, length,
  /// the block holding the length byte last).
  ///
  /// - Returns: `nil` when the sectors read do not yet hold the NDEF TLV's header and every
  ///   block the new TLV (and its terminator) covers.
  /// - Throws: ``NFCTagError/Code/readOnly`` and ``NFCTagError/Code/messageTooLarge`` as
  ///   the whole-image plan; once every sector is read, the TLV area's errors.
  public func writePlan(_ message: [UInt8], options: TagDecodingOptions = .strict) throws(NFCTagError)
    -> MifareClassicWritePlan?
  {
    guard let readOnly = isReadOnly else { return nil }
    if readOnly {
      let sector = ndefSectors.first ?? 1
      let trailer = kind.trailerBlock(ofSector: sector) ?? 3
      throw NFCTagError(
        .readOnly, offset: trailer &* MifareClassic.blockSize &+ MifareClassic.trailerGeneralPurposeByteOffset
      )
    }
    // The whole area, unread sectors as zeros (NULL TLVs): the NDEF TLV is where a whole
    // image has it once the sectors up to its header are read.
    let full = map(sectors: ndefSectors.count)
    let area: TagTLVArea
    if isComplete {
      area = try TagTLVArea(image: image.span.bytes, map: full, options: options)
    } else {
      guard (try? tlvArea(options: options)) != nil,
        let whole = try? TagTLVArea(scanning: image.span.bytes, map: full, options: options)
      else { return nil }
      area = whole
      // Every block the new TLV and a terminator cover must hold what the card holds (a
      // message too large for the whole area is refused by the plan below).
      let count = TagTLVArea.ndefTLVBytes(message: message, room: 0).count
      let positions = full.positions(from: area.ndefInsertionOffset, count: count &+ 1)
      if positions.count >= count {
        let read = sectorsRead
        for position in positions {
          guard let sector = kind.sector(ofBlock: position / MifareClassic.blockSize), read.contains(sector)
          else { return nil }
        }
      }
    }
    return try MifareClassic.writePlan(message, into: image, kind: kind, area: area)
  }
}
