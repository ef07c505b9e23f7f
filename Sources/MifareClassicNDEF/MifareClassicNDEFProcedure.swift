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
    let area = try await readArea(mad.sectors, wholeMessage: true)
    var message: [UInt8] = []
    var hasTLV = false
    switch MifareClassicLayout.scan(area.bytes, complete: true) {
    case .ndef(let offset, let header, let length):
      hasTLV = true
      guard offset + header + length <= area.bytes.count else {
        throw MifareClassicError(
          .invalidNDEF, tagError: NFCTagError(.truncatedImage, offset: area.bytes.count))
      }
      message = Array(area.bytes[(offset + header)..<(offset + header + length)])
      if !message.isEmpty {
        do {
          _ = try NDEFMessage(parsing: message, options: options.isLenient ? .lenient : .strict)
        } catch {
          throw MifareClassicError(
            .invalidNDEF,
            tagError: NFCTagError(
              .invalidNDEFMessage, offset: offset + header + error.offset, ndefError: error))
        }
      }
    case .noNDEF, .needMore:
      if !options.isLenient {
        throw MifareClassicError(.invalidNDEF, tagError: NFCTagError(.missingNDEFTLV, offset: 0))
      }
    }
    return MifareClassicNDEFContent(
      madVersion: mad.version, readMAD2: mad.readMAD2, ndefSectors: mad.sectors, sectorsRead: area.sectors,
      capacity: capacity(of: mad.sectors), message: message, hasNDEFTLV: hasTLV, isReadOnly: area.readOnly,
      notes: mad.notes)
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
    let area = try await readArea(mad.sectors, wholeMessage: false)
    if area.readOnly { throw MifareClassicError(.readOnly, sector: mad.sectors[0]) }
    let insertion: Int
    switch MifareClassicLayout.scan(area.bytes, complete: area.sectors.count == mad.sectors.count) {
    case .ndef(let offset, _, _): insertion = offset
    case .noNDEF(let offset): insertion = offset
    case .needMore: insertion = 0
    }
    let capacity = capacity(of: mad.sectors)
    let header: [UInt8] =
      message.count < 0xFF
      ? [0x03, UInt8(message.count)] : [0x03, 0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
    var tlv = header + message
    guard insertion + tlv.count <= capacity else {
      throw MifareClassicError(.messageTooLarge, sector: mad.sectors[0])
    }
    if insertion + tlv.count < capacity { tlv.append(0xFE) }
    // The area's blocks, the new bytes over the old ones (zeros where not read).
    let blocks = mad.sectors.flatMap { dataBlocks(of: $0) }
    let size = MifareClassic.blockSize
    let firstBlock = insertion / size
    let lastBlock = (insertion + tlv.count - 1) / size
    var new = area.bytes + [UInt8](repeating: 0, count: max(0, (lastBlock + 1) * size - area.bytes.count))
    for (i, byte) in tlv.enumerated() { new[insertion + i] = byte }
    let headerBlocks = Set((insertion / size)...((insertion + header.count - 1) / size))
    // Check every sector first: a sector that refuses the write would otherwise be found
    // with the length already 0.
    var writers: [Int: MifareClassicKeySlot] = [:]
    for index in firstBlock...lastBlock {
      let sector = kind.sector(ofBlock: blocks[index]) ?? 0
      if writers[sector] == nil { writers[sector] = try await writableSlot(of: sector) }
    }
    func blockBytes(_ index: Int, from image: [UInt8]) -> [UInt8] {
      Array(image[(index * size)..<((index + 1) * size)])
    }
    if lastBlock > firstBlock || headerBlocks.count > 1 {
      // 1. An empty NDEF TLV (and a terminator) where the header goes.
      var zero = new
      let empty: [UInt8] = [0x03, 0x00, 0xFE]
      for i in 0..<empty.count where insertion + i < zero.count { zero[insertion + i] = empty[i] }
      for i in (insertion + empty.count)..<((insertion / size + 1) * size) where i < zero.count {
        zero[i] = 0
      }
      let zeroBlocks = (insertion / size)...((min(insertion + empty.count, zero.count) - 1) / size)
      for index in zeroBlocks {
        try await writeArea(blocks[index], blockBytes(index, from: zero), writers)
      }
    }
    // 2. The body; 3. the header with the real length.
    for index in firstBlock...lastBlock where !headerBlocks.contains(index) {
      try await writeArea(blocks[index], blockBytes(index, from: new), writers)
    }
    for index in headerBlocks.sorted() {
      try await writeArea(blocks[index], blockBytes(index, from: new), writers)
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
  /// 4K card whose sector 16 opens with the MAD key).
  private mutating func readMAD() async throws(MifareClassicError) -> MAD {
    try await open(MifareClassicLayout.mad1Sector, expecting: .madKeyA)
    let gpb = try await readBlock(trailer(of: 0))[MifareClassic.trailerGeneralPurposeByteOffset]
    guard gpb & MifareClassicLayout.gpbDA != 0 else {
      throw MifareClassicError(.notFormatted, sector: 0, block: 3)
    }
    let version = Int(gpb & 0x03)
    var notes: [String] = []
    let has4K = kind.sectorCount > MifareClassicLayout.mad2Sector
    guard version == 1 || (version == 2 && has4K) || options.isLenient else {
      throw MifareClassicError(.invalidMAD, sector: 0, block: 3)
    }
    var mad1 = try await readBlock(1)
    mad1 += try await readBlock(2)
    var sectors = try madSectors(mad1, firstSector: 1, block: 1, notes: &notes)
    var readMAD2 = false
    if has4K && (version == 2 || options.isLenient) {
      do {
        try await open(MifareClassicLayout.mad2Sector, expecting: .madKeyA, slots: [.a])
        var mad2: [UInt8] = []
        for block in dataBlocks(of: MifareClassicLayout.mad2Sector) { mad2 += try await readBlock(block) }
        sectors += try madSectors(mad2, firstSector: 17, block: 64, notes: &notes)
        readMAD2 = true
        if version != 2 { notes.append("GPB announces MAD version \(version) on a 4K card that has a MAD2") }
      } catch {
        if version == 2 || error.code == .tagLost { throw error }
      }
    }
    sectors = sectors.filter {
      kind.contains(sector: $0) && $0 != MifareClassicLayout.mad1Sector
        && $0 != MifareClassicLayout.mad2Sector
    }
    return MAD(version: version, readMAD2: readMAD2, sectors: sectors, notes: notes)
  }

  private func madSectors(_ bytes: [UInt8], firstSector: Int, block: Int, notes: inout [String])
    throws(MifareClassicError) -> [Int]
  {
    if let sectors = MifareClassicLayout.ndefSectors(inMAD: bytes, firstSector: firstSector) {
      return sectors
    }
    guard options.isLenient else {
      throw MifareClassicError(
        .invalidMAD, sector: kind.sector(ofBlock: block), block: block,
        tagError: NFCTagError(.madCRCMismatch, offset: block * MifareClassic.blockSize))
    }
    notes.append("MAD CRC of block \(block) is wrong")
    var fixed = bytes
    fixed[0] = MifareClassicMAD.crc(Array(bytes.dropFirst()))
    return MifareClassicLayout.ndefSectors(inMAD: fixed, firstSector: firstSector) ?? []
  }

  private struct Area {
    var bytes: [UInt8]
    var sectors: [Int]
    var readOnly: Bool
  }

  /// The TLV area of the NFC sectors in order, sector by sector, until the first NDEF TLV
  /// is whole (`wholeMessage`) or its header is known; the first sector's trailer tells
  /// whether the area is read-only.
  private mutating func readArea(_ sectors: [Int], wholeMessage: Bool) async throws(MifareClassicError)
    -> Area
  {
    var bytes: [UInt8] = []
    var read: [Int] = []
    var readOnly = false
    for (i, sector) in sectors.enumerated() {
      let slot = try await open(sector, expecting: .nfcForumKeyA).slot
      if i == 0 {
        let trailer = try await readBlock(trailer(of: sector))
        readOnly = isReadOnly(trailer, sector: sector, slot: slot)
      }
      for block in dataBlocks(of: sector) { bytes += try await readBlock(block) }
      read.append(sector)
      switch MifareClassicLayout.scan(bytes, complete: i == sectors.count - 1) {
      case .needMore: continue
      case .noNDEF: return Area(bytes: bytes, sectors: read, readOnly: readOnly)
      case .ndef(let offset, let header, let length):
        if !wholeMessage || offset + header + length <= bytes.count {
          return Area(bytes: bytes, sectors: read, readOnly: readOnly)
        }
      }
    }
    return Area(bytes: bytes, sectors: read, readOnly: readOnly)
  }

  /// Read-only: neither key may write the first data block, or the GPB's write access is 11.
  private func isReadOnly(_ trailer: [UInt8], sector: Int, slot: MifareClassicKeySlot) -> Bool {
    guard let parsed = try? MifareClassicSectorTrailer(reading: trailer.span.bytes),
      let count = kind.blockCount(inSector: sector)
    else { return true }
    let writable =
      parsed.canWrite(blockIndex: 0, blocksInSector: count, with: .a)
      || parsed.canWrite(blockIndex: 0, blocksInSector: count, with: .b)
    return !writable || parsed.generalPurposeByte & 0x03 == 0x03
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

  /// Writes one block of the area with the key that may write its sector.
  private mutating func writeArea(_ block: Int, _ bytes: [UInt8], _ writers: [Int: MifareClassicKeySlot])
    async throws(MifareClassicError)
  {
    let sector = kind.sector(ofBlock: block) ?? 0
    try await open(sector, expecting: .nfcForumKeyA, slots: [writers[sector] ?? .a])
    try await writeBlock(block, bytes)
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
