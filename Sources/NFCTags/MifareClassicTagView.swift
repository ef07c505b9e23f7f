// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire

/// A MIFARE Classic memory dump (Mini, 1K or 4K, every block from block 0) holding NDEF
/// through the MAD, validated without copying (NXP AN10787, AN1304/AN1305).
///
/// The MAD (sector 0, and sector 16 on a 4K card whose MAD general purpose byte says
/// version 2) names the NDEF sectors (AID `03 E1`). Their data blocks, in sector order,
/// trailers and MAD sectors skipped, form the TLV area: NULL, NDEF, Proprietary and
/// Terminator TLVs as in Type 2 tags (Lock and Memory Control TLVs do not exist here).
///
/// Lenient decoding (``TagDecodingOptions/lenient``) reads what the formatters in the
/// field write wrong, each as an ``NFCTagWarning`` with the code strict decoding throws:
/// - ``NFCTagError/Code/undeclaredMAD2`` (offset 57): a 4K card whose MAD general purpose
///   byte says MAD1 (`C1`, as Android's formatter writes it to both MAD trailers) while
///   sector 16 holds a MAD2 with NDEF entries for sectors 17-39: the MAD2 is read.
/// - ``NFCTagError/Code/madCRCMismatch`` (offset 16 or 1024): a MAD whose CRC does not
///   match, such as the MAD2 Android's formatter writes with MAD1's CRC 0x14.
/// - ``NFCTagError/Code/bccMismatch`` (offset 4): block 0 of a 4-byte UID card whose BCC
///   is wrong (a rewritten UID); ``manufacturerBlock`` is then `nil`.
/// - ``NFCTagError/Code/invalidMADInfo``, ``NFCTagError/Code/unsupportedVersion`` (a MAD
///   version or NFC sector mapping version this module does not know), and
///   ``NFCTagError/Code/inconsistentAccessBits`` in a MAD or NDEF sector trailer,
///   plus the TLV area's lenient rules (``TagDecodingOptions/isLenient``).
///
/// ```swift
/// let tag = try MifareClassicTagView(validating: dump.span.bytes)
/// print(tag.kind, tag.ndefSectors, tag.isReadOnly)
/// let message = try tag.tlvArea.message()
/// ```
public struct MifareClassicTagView: ~Escapable {
  /// The whole image, from block 0.
  public let image: RawSpan
  /// The card's layout, from the image size or the caller.
  public let kind: MifareClassicCardKind
  /// Block 0; `nil` when lenient decoding accepted a wrong BCC.
  public let manufacturerBlock: MifareClassicManufacturerBlock?
  /// The MAD general purpose byte (block 3, byte 9: offset 57).
  public let madGeneralPurposeByte: MifareClassicMADGeneralPurposeByte
  /// The MAD as read (with MAD2 when the general purpose byte announces it, or when
  /// lenient decoding found an undeclared one).
  public let mad: MifareClassicMAD
  /// The NDEF sectors the MAD names that the card has, in order.
  public let ndefSectors: [Int]
  /// The TLV area over the NDEF sectors' data blocks.
  public let tlvArea: TagTLVAreaView
  /// The rules the image broke that lenient decoding accepted.
  public let warnings: [NFCTagWarning]

  /// Offset of the MAD general purpose byte (sector 0 trailer, byte 9).
  public static let madGeneralPurposeByteOffset = 57

  /// Validates a MIFARE Classic dump.
  ///
  /// - Parameters:
  ///   - image: every block from block 0 (320, 1024 or 4096 bytes).
  ///   - kind: the card, when known; otherwise it follows from the image size.
  ///   - uidSize: the UID size block 0 holds (4-byte UIDs carry a BCC).
  ///   - options: strict or lenient.
  /// - Throws: ``NFCTagError/Code/invalidImageSize`` (offset: the image size) for a size
  ///   that is no card's, or not `kind`'s; ``NFCTagError/Code/bccMismatch`` (offset 4);
  ///   ``NFCTagError/Code/inconsistentAccessBits`` (offset: the trailer's byte 6 or 7) in the
  ///   trailer of sector 0, 16 (with a MAD2) or an NDEF sector;
  ///   ``NFCTagError/Code/missingMAD`` (offset 57: DA is clear);
  ///   ``NFCTagError/Code/undeclaredMAD2`` (offset 57: ADV is 1 on a 4K card whose sector 16
  ///   holds a MAD2 naming NDEF sectors);
  ///   ``NFCTagError/Code/unsupportedVersion`` (offset 57: ADV is 0 or 3, or 2 on a card
  ///   without sector 16; offset: an NDEF trailer's byte 9 whose major mapping version is
  ///   not 1); ``NFCTagError/Code/madCRCMismatch`` (offset 16 or 1024);
  ///   ``NFCTagError/Code/invalidMADInfo`` (offset 17 or 1025: the card publisher sector is
  ///   0x10 or past the MAD's range); ``NFCTagError/Code/madSectorOutOfRange`` (offset: the
  ///   AID of a sector the card does not have that is not free or not applicable); and the
  ///   errors of ``TagTLVArea/init(image:map:options:)`` (``NFCTagError/Code/missingNDEFTLV``
  ///   at offset 64 when no sector is NDEF).
  @_lifetime(copy image)
  public init(
    validating image: RawSpan, kind: MifareClassicCardKind? = nil,
    uidSize: MifareClassicManufacturerBlock.UIDSize = .single, options: TagDecodingOptions = .strict
  ) throws(NFCTagError) {
    try self.init(validating: image, kind: kind, uidSize: uidSize, options: options, collecting: false)
  }

  /// Decodes the image as the `validating` initializer does, but keeps the strict-mode
  /// errors of the TLV area where the NDEF TLV and the rest can still be located (in
  /// ``TagTLVAreaView/area``'s ``TagTLVArea/errors``).
  ///
  /// - Throws: the `validating` initializer's errors that leave the NDEF TLV unlocated.
  @_lifetime(copy image)
  public init(
    scanning image: RawSpan, kind: MifareClassicCardKind? = nil,
    uidSize: MifareClassicManufacturerBlock.UIDSize = .single, options: TagDecodingOptions = .strict
  ) throws(NFCTagError) {
    try self.init(validating: image, kind: kind, uidSize: uidSize, options: options, collecting: true)
  }

  @_lifetime(copy image)
  init(
    validating image: RawSpan, kind: MifareClassicCardKind?,
    uidSize: MifareClassicManufacturerBlock.UIDSize, options: TagDecodingOptions, collecting: Bool
  ) throws(NFCTagError) {
    let lenient = options.isLenient
    var warnings: [NFCTagWarning] = []
    func check(_ ok: Bool, _ code: NFCTagError.Code, _ offset: Int) throws(NFCTagError) {
      guard !ok else { return }
      guard lenient else { throw NFCTagError(code, offset: offset) }
      warnings.append(NFCTagWarning(code, offset: offset))
    }
    guard let kind = kind ?? MifareClassicCardKind(memorySize: image.byteCount),
      image.byteCount == kind.memorySize
    else { throw NFCTagError(.invalidImageSize, offset: image.byteCount) }

    var manufacturer: MifareClassicManufacturerBlock? = nil
    do { manufacturer = try MifareClassicManufacturerBlock(validating: image, uidSize: uidSize) } catch {
      try check(false, error.code, error.offset)
    }
    // Sector 0: the MAD trailer and its general purpose byte.
    let madTrailer = try MifareClassicSectorTrailer(reading: image, at: 48)
    if let bad = madTrailer.accessBits.inconsistentByte {
      try check(false, .inconsistentAccessBits, 48 &+ MifareClassic.trailerAccessBitsOffset &+ bad)
    }
    let mad1 = MifareClassicMAD.mad1Offset
    let mad2 = MifareClassicMAD.mad2Offset
    let directory = try MifareClassicDirectory(
      generalPurposeByte: madTrailer.generalPurposeByte,
      mad1: (mad1..<mad1 &+ MifareClassicMAD.mad1Size).map { image.byte(at: $0) ?? 0 },
      mad2: kind.contains(sector: MifareClassicMAD.mad2Sector)
        ? (mad2..<mad2 &+ MifareClassicMAD.mad2Size).map { image.byte(at: $0) ?? 0 } : nil,
      kind: kind, options: options)
    warnings += directory.warnings
    let gpb = directory.generalPurposeByte
    let mad = directory.mad
    if mad.hasMAD2 {
      let trailer = try MifareClassicSectorTrailer(reading: image, at: 67 &* MifareClassic.blockSize)
      if let bad = trailer.accessBits.inconsistentByte {
        try check(false, .inconsistentAccessBits, 67 &* 16 &+ MifareClassic.trailerAccessBitsOffset &+ bad)
      }
    }
    // The NDEF sectors' trailers.
    var sectors: [Int] = []
    var mask: UInt64 = 0
    for sector in directory.ndefSectors {
      guard let trailerBlock = kind.trailerBlock(ofSector: sector) else { continue }
      let trailerOffset = trailerBlock &* MifareClassic.blockSize
      let trailer = try MifareClassicSectorTrailer(reading: image, at: trailerOffset)
      if let bad = trailer.accessBits.inconsistentByte {
        try check(
          false, .inconsistentAccessBits, trailerOffset &+ MifareClassic.trailerAccessBitsOffset &+ bad)
      }
      let nfcGPB = MifareClassicNFCSectorGeneralPurposeByte(rawValue: trailer.generalPurposeByte)
      try check(
        nfcGPB.majorVersion == 1, .unsupportedVersion,
        trailerOffset &+ MifareClassic.trailerGeneralPurposeByteOffset)
      sectors.append(sector)
      mask |= 1 << UInt64(sector)
    }
    let map: TagMemoryMap
    if let first = sectors.first, let last = sectors.last, let start = kind.firstBlock(ofSector: first),
      let end = kind.trailerBlock(ofSector: last)
    {
      map = TagMemoryMap(
        mifareClassicSectors: mask, dataAreaStart: start &* MifareClassic.blockSize,
        dataAreaEnd: end &* MifareClassic.blockSize)
    } else {
      let start = 4 &* MifareClassic.blockSize
      map = TagMemoryMap(mifareClassicSectors: 0, dataAreaStart: start, dataAreaEnd: start)
    }
    let area = try TagTLVAreaView(image: image, map: map, options: options, collecting: collecting)
    warnings.append(contentsOf: area.area.warnings)
    self.image = image
    self.kind = kind
    self.manufacturerBlock = manufacturer
    self.madGeneralPurposeByte = gpb
    self.mad = mad
    self.ndefSectors = sectors
    self.tlvArea = area
    self.warnings = warnings
  }

  /// Whether a MAD info byte names an allowed card publisher sector: bits 5-0 at most
  /// `limit` and not 0x10 (AN10787 §3.8).
  static func isValidInfo(_ info: UInt8, limit: UInt8) -> Bool {
    let sector = info & 0x3F
    return sector <= limit && sector != 0x10
  }

  /// The trailer of `sector` as stored in the dump (inconsistent access bits included);
  /// `nil` for a sector the card does not have.
  public func trailer(ofSector sector: Int) -> MifareClassicSectorTrailer? {
    MifareClassic.trailer(ofSector: sector, in: image, kind: kind)
  }

  /// Whether the NDEF data of `sector` may be written: its NFC general purpose byte grants
  /// writing (AN1304 §6.3.1) and its access bits let key A or a usable key B write every
  /// data block (MF1S50 §8.7.2).
  public func isSectorWritable(_ sector: Int) -> Bool {
    MifareClassic.isSectorWritable(sector, in: image, kind: kind)
  }

  /// The key that writes the data blocks of `sector`: key A when the access bits allow it,
  /// else key B; `nil` when neither may.
  public func writingKey(forSector sector: Int) -> MifareClassicKeySlot? {
    MifareClassic.writingKey(forSector: sector, in: image, kind: kind)
  }

  /// Whether the tag is read-only (AN1304 §6.4 READ-ONLY state): the first NDEF sector may
  /// not be written (its general purpose byte denies it, or its access bits do), as NFC
  /// readers decide it. `true` without NDEF sectors.
  public var isReadOnly: Bool {
    guard let first = ndefSectors.first else { return true }
    return !isSectorWritable(first)
  }

  /// The largest NDEF message a write can store.
  public var maximumNDEFSize: Int { tlvArea.area.maximumNDEFSize }
}
