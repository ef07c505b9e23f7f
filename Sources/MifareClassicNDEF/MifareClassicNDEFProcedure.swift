// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCReader
import NFCTags

/// NDEF on a MIFARE Classic card over any ``MifareClassicBlockTransport``: which sectors to
/// authenticate with which keys, in which order, and which blocks to read or write (NXP
/// AN10787 for the MAD, AN1304/AN1305 for NFC sectors).
///
/// - Reading authenticates sector 0 (MAD key A first), reads its trailer's general purpose
///   byte and the MAD, on a 4K card MAD2 in sector 16, then only the NFC sectors the
///   message needs (NFC Forum key A first).
/// - After a refused authentication the card is halted: the procedure selects it again
///   before the next key. Keys are tried in the ``MifareClassicKeyring`` order per sector.
/// - Writing checks every sector it will touch (its trailer's access bits) before the
///   first write, then writes in the tearing-safe order: the block with the NDEF TLV
///   header gets length 0 first, the body next, the real length last.
///
/// Errors never hold key bytes.
public struct MifareClassicNDEFProcedure<Transport: MifareClassicBlockTransport>: Sendable {
  /// The transport.
  public let transport: Transport
  /// The card's size.
  public let kind: MifareClassicCardKind
  /// The keys to try.
  public var keyring: MifareClassicKeyring
  /// Strict or lenient reading of the MAD and the TLV area.
  public var options: TagDecodingOptions

  private var openSector: Int?
  private var openSlot: MifareClassicKeySlot = .a
  private var halted = false
  private var known: [Int: KnownKey] = [:]

  private struct KnownKey: Sendable {
    var slot: MifareClassicKeySlot
    var key: MifareClassicKey
  }

  /// A procedure on a card of `kind` reached through `transport`.
  public init(
    transport: Transport, kind: MifareClassicCardKind, keyring: MifareClassicKeyring = .publicKeys,
    options: TagDecodingOptions = .strict
  ) {
    self.transport = transport
    self.kind = kind
    self.keyring = keyring
    self.options = options
  }

  // MARK: Read

  /// Reads the MAD and the NDEF message (AN10787 §3, AN1304 §6.4).
  ///
  /// - Throws: ``MifareClassicError`` with ``MifareClassicError/Code/notFormatted``,
  ///   ``MifareClassicError/Code/invalidMAD`` (strict: a wrong CRC),
  ///   ``MifareClassicError/Code/noNDEFSectors``, ``MifareClassicError/Code/invalidNDEF``,
  ///   ``MifareClassicError/Code/authenticationFailed`` (sector and key slot),
  ///   ``MifareClassicError/Code/accessDenied``, ``MifareClassicError/Code/tagLost``.
  public mutating func read() async throws(MifareClassicError) -> MifareClassicNDEFContent {
    let mad = try await readMAD()
    guard !mad.sectors.isEmpty else { throw MifareClassicError(.noNDEFSectors, sector: 0) }
    var sectors = MifareClassicSectorImage(kind: kind, ndefSectors: mad.sectors)
    var area: TagTLVArea? = nil
    while area == nil, let sector = sectors.nextSector {
      try await readSector(sector, into: &sectors)
      area = try tagCall(sector: sector) { () throws(NFCTagError) in try sectors.tlvArea(options: options) }
    }
    var message: [UInt8] = []
    if let area, let tlv = area.ndefTLV {
      let view = TagTLVAreaView(image: sectors.image.span.bytes, area: area)
      message = view.assembledNDEFBytes()
      if !message.isEmpty {
        do {
          _ = try NDEFMessage(parsing: message, options: options.isLenient ? .lenient : .strict)
        } catch {
          throw MifareClassicError(
            .invalidNDEF,
            tagError: NFCTagError(
              .invalidNDEFMessage, offset: tlv.valueOffset + error.offset, ndefError: error))
        }
      }
    }
    return MifareClassicNDEFContent(
      madVersion: mad.version, readMAD2: mad.readMAD2, ndefSectors: mad.sectors,
      sectorsRead: sectors.sectorsRead,
      capacity: capacity(of: mad.sectors), message: message, hasNDEFTLV: area?.ndefTLV != nil,
      isReadOnly: sectors.isReadOnly ?? true, notes: mad.notes)
  }

  /// Every block the keyring opens, as the card answers them (a trailer's key A reads as
  /// zeros, key B as zeros unless readable), and the sectors no key opened (their blocks
  /// zero in the image).
  ///
  /// - Throws: ``MifareClassicError/Code/tagLost`` and reader failures; a sector no key
  ///   opens is listed, not thrown.
  public mutating func readMemory() async throws(MifareClassicError) -> (image: [UInt8], unreadSectors: [Int])
  {
    var image: [UInt8] = []
    var unread: [Int] = []
    for sector in 0..<kind.sectorCount {
      let blocks = dataBlocks(of: sector) + [trailer(of: sector)]
      var bytes: [UInt8] = []
      do {
        try await open(sector, expecting: expectedKey(of: sector))
        for block in blocks { bytes += try await readBlock(block) }
      } catch {
        guard error.code == .authenticationFailed || error.code == .accessDenied else { throw error }
        unread.append(sector)
        bytes = [UInt8](repeating: 0, count: blocks.count * MifareClassic.blockSize)
      }
      image += bytes
    }
    return (image, unread)
  }

  // MARK: Write

  /// Writes `message` (encoded NDEF bytes; empty for an empty NDEF TLV) into the NFC
  /// sectors of a formatted card: the NDEF TLV goes where the current one (or the
  /// terminator) is, a terminator follows when there is room. Every sector to touch is
  /// checked first; the writes then go in the tearing-safe order (AN1305 §6.4 as T2T 1.0
  /// §6.4.2): length 0, body, length.
  ///
  /// - Throws: ``MifareClassicError/Code/messageTooLarge`` and
  ///   ``MifareClassicError/Code/readOnly`` (nothing written), ``MifareClassicError/Code/accessDenied``,
  ///   ``MifareClassicError/Code/tagLost`` (the old message, an empty one or the new one
  ///   stays), and as ``read()``.
  public mutating func write(_ message: [UInt8]) async throws(MifareClassicError) {
    let mad = try await readMAD()
    guard !mad.sectors.isEmpty else { throw MifareClassicError(.noNDEFSectors, sector: 0) }
    var sectors = MifareClassicSectorImage(kind: kind, ndefSectors: mad.sectors)
    var plan: MifareClassicWritePlan? = nil
    while plan == nil, let sector = sectors.nextSector {
      try await readSector(sector, into: &sectors)
      plan = try tagCall(sector: sector) { () throws(NFCTagError) in
        try sectors.writePlan(message, options: options)
      }
    }
    guard let plan else { throw MifareClassicError(.invalidNDEF, sector: mad.sectors[0]) }
    // Check every sector first: a sector that refuses the write would otherwise be found
    // with the length already 0.
    var writers: [Int: MifareClassicKeySlot] = [:]
    for write in plan.writes where writers[write.sector] == nil {
      writers[write.sector] = try await writableSlot(of: write.sector)
    }
    for write in plan.writes {
      try await open(write.sector, expecting: .nfcForumKeyA, slots: [writers[write.sector] ?? write.keySlot])
      try await writeBlock(write.block, write.write.bytes)
    }
  }

  /// Formats a card as shipped (transport keys) for NDEF (AN1304 §6.3, AN10787 §3): every
  /// sector but the MAD ones becomes an NFC sector (key A `D3F7D3F7D3F7`, access bits
  /// `7F 07 88`, GPB `40`, key B `keyB`) with an empty NDEF TLV in the first; then MAD2 on
  /// a 4K card and MAD1 last (key A `A0A1A2A3A4A5`, `78 77 88`, GPB `C1`, or `C2` with a
  /// MAD2), so a torn format leaves no MAD pointing at unformatted sectors.
  ///
  /// - Throws: ``MifareClassicError/Code/notBlank`` (a trailer the keys cannot rewrite),
  ///   ``MifareClassicError/Code/authenticationFailed``, ``MifareClassicError/Code/tagLost``.
  public mutating func format(keyB: MifareClassicKey) async throws(MifareClassicError) {
    let sectors = MifareClassicLayout.nfcSectors(of: kind)
    let mad = MifareClassicMAD.ndef(for: kind)
    let gpb: MifareClassicMADGeneralPurposeByte = mad.hasMAD2 ? .mad2 : .mad1
    for (i, sector) in sectors.enumerated() {
      try await openBlank(sector)
      if i == 0 {
        let first = dataBlocks(of: sector)[0]
        try await writeBlock(first, [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 13))
      }
      try await writeTrailer(of: sector, MifareClassic.nfcSectorTrailer(keyB: keyB))
    }
    let size = MifareClassic.blockSize
    if mad.hasMAD2 {
      let mad2 = mad.mad2Bytes
      try await openBlank(MifareClassicMAD.mad2Sector)
      for (i, block) in dataBlocks(of: MifareClassicMAD.mad2Sector).enumerated() {
        try await writeBlock(block, Array(mad2[(i * size)..<((i + 1) * size)]))
      }
      try await writeTrailer(
        of: MifareClassicMAD.mad2Sector, MifareClassic.madSectorTrailer(generalPurposeByte: gpb, keyB: keyB))
    }
    let mad1 = mad.mad1Bytes
    try await openBlank(MifareClassicLayout.mad1Sector)
    try await writeBlock(1, Array(mad1[0..<size]))
    try await writeBlock(2, Array(mad1[size..<(2 * size)]))
    try await writeTrailer(
      of: MifareClassicLayout.mad1Sector, MifareClassic.madSectorTrailer(generalPurposeByte: gpb, keyB: keyB))
  }

  /// Makes a formatted card read-only (AN1304 §6.3.2, AN10787 §3.7): every NFC sector's
  /// trailer becomes `D3F7… 07 8F 0F 43 keyB`, then the MAD sectors' `A0A1… 07 8F 0F GPB
  /// keyB` (data read with key A or B, never written; the trailers frozen). This cannot be
  /// undone. Needs each sector's key B (the keyring's key B candidates).
  ///
  /// - Throws: ``MifareClassicError/Code/authenticationFailed`` (key B of a sector),
  ///   ``MifareClassicError/Code/accessDenied``, and as ``read()``.
  public mutating func makeReadOnly() async throws(MifareClassicError) {
    let mad = try await readMAD()
    guard !mad.sectors.isEmpty else { throw MifareClassicError(.noNDEFSectors, sector: 0) }
    var madSectors = [MifareClassicLayout.mad1Sector]
    if mad.readMAD2 { madSectors.insert(MifareClassicLayout.mad2Sector, at: 0) }
    for sector in mad.sectors + madSectors {
      let isMAD = madSectors.contains(sector)
      let key = try await open(sector, expecting: nil, slots: [.b]).key
      let current = try await readBlock(trailer(of: sector))
      let gpb =
        isMAD ? current[MifareClassic.trailerGeneralPurposeByteOffset] : MifareClassicLayout.nfcGPBReadOnly
      try await writeTrailer(
        of: sector,
        MifareClassicSectorTrailer(
          keyA: isMAD ? .madKeyA : .nfcForumKeyA, accessBits: .readOnly, generalPurposeByte: gpb, keyB: key))
    }
  }

  // MARK: MAD and area

  private struct MAD {
    var version: Int
    var readMAD2: Bool
    var sectors: [Int]
    var notes: [String]
  }

  /// Sector 0's GPB and MAD1, and MAD2 when the GPB says version 2 (or, leniently, on any
  /// 4K card whose sector 16 opens with the MAD key), decoded by NFCTags'
  /// `MifareClassicDirectory` (AN10787 §3.7-§3.9).
  private mutating func readMAD() async throws(MifareClassicError) -> MAD {
    try await open(MifareClassicLayout.mad1Sector, expecting: .madKeyA)
    let gpb = try await readBlock(trailer(of: 0))[MifareClassic.trailerGeneralPurposeByteOffset]
    let version = Int(gpb & 0x03)
    var mad1 = try await readBlock(1)
    mad1 += try await readBlock(2)
    var mad2: [UInt8]? = nil
    let has4K = kind.contains(sector: MifareClassicLayout.mad2Sector)
    if gpb & MifareClassicLayout.gpbDA != 0 && has4K && (version == 2 || options.isLenient) {
      do {
        try await open(MifareClassicLayout.mad2Sector, expecting: .madKeyA, slots: [.a])
        var bytes: [UInt8] = []
        for block in dataBlocks(of: MifareClassicLayout.mad2Sector) { bytes += try await readBlock(block) }
        mad2 = bytes
      } catch {
        if version == 2 || error.code == .tagLost { throw error }
      }
    }
    let directory: MifareClassicDirectory
    do {
      directory = try MifareClassicDirectory(
        generalPurposeByte: gpb, mad1: mad1, mad2: mad2, kind: kind, options: options)
    } catch {
      let block = error.offset / MifareClassic.blockSize
      if error.code == .missingMAD { throw MifareClassicError(.notFormatted, sector: 0, block: 3) }
      throw MifareClassicError(
        .invalidMAD, sector: kind.sector(ofBlock: block), block: block, tagError: error)
    }
    return MAD(
      version: version, readMAD2: directory.mad.hasMAD2, sectors: directory.ndefSectors,
      notes: directory.warnings.map { $0.description })
  }

  /// Reads the data blocks and trailer of `sector` (NFC Forum key A first) into `sectors`.
  private mutating func readSector(_ sector: Int, into sectors: inout MifareClassicSectorImage)
    async throws(MifareClassicError)
  {
    try await open(sector, expecting: .nfcForumKeyA)
    var bytes: [UInt8] = []
    for block in dataBlocks(of: sector) + [trailer(of: sector)] { bytes += try await readBlock(block) }
    try tagCall(sector: sector) { () throws(NFCTagError) in try sectors.append(bytes) }
  }

  /// Runs an NFCTags step, its errors as ``MifareClassicError``: a read-only area
  /// (``MifareClassicError/Code/readOnly``), a message too large, or an invalid TLV area
  /// (``MifareClassicError/Code/invalidNDEF``).
  private func tagCall<T>(sector: Int, _ body: () throws(NFCTagError) -> T) throws(MifareClassicError) -> T {
    do { return try body() } catch {
      switch error.code {
      case .readOnly: throw MifareClassicError(.readOnly, sector: sector, tagError: error)
      case .messageTooLarge: throw MifareClassicError(.messageTooLarge, sector: sector, tagError: error)
      default: throw MifareClassicError(.invalidNDEF, tagError: error)
      }
    }
  }

  /// Which key may write `sector`'s data blocks (read from its trailer), opened with it.
  private mutating func writableSlot(of sector: Int) async throws(MifareClassicError) -> MifareClassicKeySlot
  {
    let opened = try await open(sector, expecting: .nfcForumKeyA).slot
    let trailerBytes = try await readBlock(trailer(of: sector))
    guard let parsed = try? MifareClassicSectorTrailer(reading: trailerBytes.span.bytes),
      let count = kind.blockCount(inSector: sector)
    else { throw MifareClassicError(.accessDenied, sector: sector) }
    if parsed.canWrite(blockIndex: 0, blocksInSector: count, with: opened) { return opened }
    if opened == .a && parsed.canWrite(blockIndex: 0, blocksInSector: count, with: .b) {
      try await open(sector, expecting: nil, slots: [.b])
      return .b
    }
    let dataWrite = parsed.dataBlockAccess(group: 0)?.write
    throw MifareClassicError(dataWrite == .never ? .readOnly : .accessDenied, sector: sector, keySlot: opened)
  }

  // MARK: Sectors and keys

  private func capacity(of sectors: [Int]) -> Int {
    sectors.reduce(0) { $0 + dataBlocks(of: $1).count * MifareClassic.blockSize }
  }

  private func dataBlocks(of sector: Int) -> [Int] {
    guard let first = kind.firstBlock(ofSector: sector), let last = kind.trailerBlock(ofSector: sector) else {
      return []
    }
    return Array(first..<last)
  }

  private func trailer(of sector: Int) -> Int { kind.trailerBlock(ofSector: sector) ?? 3 }

  private func expectedKey(of sector: Int) -> MifareClassicKey {
    sector == MifareClassicLayout.mad1Sector || sector == MifareClassicLayout.mad2Sector
      ? .madKeyA : .nfcForumKeyA
  }

  /// Opens a sector of a blank card: the transport key first, then the keyring.
  private mutating func openBlank(_ sector: Int) async throws(MifareClassicError) {
    do { try await open(sector, expecting: .transport) } catch {
      if error.code == .authenticationFailed { throw MifareClassicError(.notBlank, sector: sector) }
      throw error
    }
  }

  /// Authenticates `sector` unless it is open with one of `slots`: the key that opened
  /// it before, then the keyring's candidates (`expecting` first); the card is selected
  /// again after each refusal. Returns the key that opened it.
  @discardableResult
  private mutating func open(
    _ sector: Int, expecting expected: MifareClassicKey?, slots: [MifareClassicKeySlot] = [.a, .b]
  ) async throws(MifareClassicError) -> (slot: MifareClassicKeySlot, key: MifareClassicKey) {
    if openSector == sector, slots.contains(openSlot), let known = known[sector], known.slot == openSlot {
      return (known.slot, known.key)
    }
    guard let block = kind.firstBlock(ofSector: sector) else {
      throw MifareClassicError(.authenticationFailed, sector: sector, keysTried: 0)
    }
    var candidates = keyring.candidates(expecting: expected, slots: slots)
    if let known = known[sector], slots.contains(known.slot) {
      candidates.removeAll { $0.0 == known.slot && $0.1 == known.key }
      candidates.insert((known.slot, known.key), at: 0)
    }
    var tried = 0
    var lastSlot = slots.first ?? .a
    for (slot, key) in candidates {
      do {
        if halted {
          try await transport.reselect()
          halted = false
        }
        tried += 1
        lastSlot = slot
        openSector = nil
        if try await transport.authenticate(block: block, slot: slot, key: key) {
          openSector = sector
          openSlot = slot
          known[sector] = KnownKey(slot: slot, key: key)
          return (slot, key)
        }
        halted = true
      } catch {
        throw map(error, sector: sector, block: block)
      }
    }
    throw MifareClassicError(.authenticationFailed, sector: sector, keySlot: lastSlot, keysTried: tried)
  }

  private mutating func readBlock(_ block: Int) async throws(MifareClassicError) -> [UInt8] {
    do throws(ReaderError) {
      let bytes = try await transport.readBlock(block)
      guard bytes.count == MifareClassic.blockSize else {
        throw ReaderError(.tagError, "READ \(block) answered \(bytes.count) bytes, not 16")
      }
      return bytes
    } catch {
      throw refused(error, block: block)
    }
  }

  private mutating func writeBlock(_ block: Int, _ bytes: [UInt8]) async throws(MifareClassicError) {
    do { try await transport.writeBlock(block, bytes) } catch { throw refused(error, block: block) }
  }

  /// Writes a sector trailer, never one whose access bits are inconsistent.
  private mutating func writeTrailer(of sector: Int, _ trailer: MifareClassicSectorTrailer)
    async throws(MifareClassicError)
  {
    guard trailer.accessBits.isConsistent else {
      throw MifareClassicError(.inconsistentAccessBits, sector: sector, block: self.trailer(of: sector))
    }
    try await writeBlock(self.trailer(of: sector), trailer.bytes)
  }

  /// A failed READ or WRITE: the card went back to IDLE, so it is selected again first next time.
  private mutating func refused(_ error: ReaderError, block: Int) -> MifareClassicError {
    halted = true
    openSector = nil
    return map(error, sector: kind.sector(ofBlock: block), block: block)
  }

  private func map(_ error: ReaderError, sector: Int?, block: Int?) -> MifareClassicError {
    switch error.code {
    case .tagLost: MifareClassicError(.tagLost, sector: sector, block: block, readerError: error)
    case .tagError: MifareClassicError(.accessDenied, sector: sector, block: block, readerError: error)
    default: MifareClassicError(.reader, sector: sector, block: block, readerError: error)
    }
  }
}
