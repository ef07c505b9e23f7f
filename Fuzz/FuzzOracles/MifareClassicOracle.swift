// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags

/// MIFARE Classic dumps (AN10787 MAD, MF1S50 trailers, AN1304 TLV area). The input is laid
/// over a formatted card of the size nearest its length (320, 1024 or 4096 bytes), so that
/// mutations keep the structure a decoder walks. Checks: the scan's first error is what
/// validation throws; strict success implies lenient success without warnings; every
/// trailer's conditions encode back to its bytes when consistent; a write plan stores the
/// message and never touches a trailer; a read-only plan writes consistent trailers and
/// makes the card read-only; formatting a card with a sound block 0 yields a valid card.
public enum MifareClassicOracle {
  /// A formatted card of each kind, the base the input is laid over.
  static let bases: [[UInt8]] = MifareClassicCardKind.allKinds.map { kind in
    var image = MifareClassic.blankImage(kind)
    if let plan = try? MifareClassic.formatPlan(image, keyB: .transport) { plan.apply(to: &image) }
    return image
  }

  /// The card image for `bytes`: the input as it is when its size is a card's, else laid
  /// over the formatted card of the smallest kind that holds it (cut at 4096 bytes).
  public static func image(_ bytes: [UInt8]) -> [UInt8] {
    let base = bases.first { $0.count >= bytes.count } ?? bases[bases.count - 1]
    var image = base
    for (i, byte) in bytes.prefix(base.count).enumerated() { image[i] = byte }
    return image
  }

  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    let image = Self.image(bytes)
    guard let kind = MifareClassicCardKind(memorySize: image.count) else {
      throw OracleFailure("the laid-over image has no card size")
    }
    try checkTrailers(image, kind: kind)
    // Scan versus validation.
    var validation: NFCTagError? = nil
    do throws(NFCTagError) { _ = try MifareClassicTagView(validating: image.span.bytes) } catch {
      validation = error
    }
    var scanned: NFCTagError? = nil
    do throws(NFCTagError) {
      scanned = try MifareClassicTagView(scanning: image.span.bytes).tlvArea.area.errors.first
    } catch { scanned = error }
    try require(scanned == validation, "the scan's first error is not the validation error")
    let lenient = try? MifareClassicTagView(validating: image.span.bytes, options: .lenient)
    try checkFormat(image)
    guard validation == nil else { return }
    guard let lenient else { throw OracleFailure("strict ok but lenient failed") }
    try require(lenient.warnings.isEmpty, "strict ok but lenient warned")
    guard let view = try? MifareClassicTagView(validating: image.span.bytes) else { return }
    let readOnly = view.isReadOnly
    let message = (try? view.tlvArea.message()).flatMap { try? $0?.encodedBytes() }
    guard !readOnly else { return }
    try checkWrite(image, kind: kind, message: message ?? [])
    try checkReadOnly(image)
  }

  /// A consistent trailer's four conditions encode back to its access bytes.
  static func checkTrailers(_ image: [UInt8], kind: MifareClassicCardKind) throws(OracleFailure) {
    for sector in 0..<kind.sectorCount {
      guard let block = kind.trailerBlock(ofSector: sector),
        let trailer = try? MifareClassicSectorTrailer(reading: image.span.bytes, at: block * 16)
      else { throw OracleFailure("sector \(sector) has no trailer") }
      let bits = trailer.accessBits
      guard bits.isConsistent else { continue }
      let c = (0..<4).compactMap { bits.condition(forGroup: $0) }
      try require(c.count == 4, "a consistent trailer lacks a condition")
      let encoded = MifareClassicAccessBits(group0: c[0], group1: c[1], group2: c[2], trailer: c[3])
      try require(encoded == bits, "sector \(sector): conditions do not encode back to the access bits")
      try require(
        trailer.bytes == Array(image[block * 16..<block * 16 + 16]), "a trailer does not encode back")
    }
  }

  /// The message written by a plan reads back; no write touches a trailer.
  static func checkWrite(_ image: [UInt8], kind: MifareClassicCardKind, message: [UInt8])
    throws(OracleFailure)
  {
    guard let plan = try? MifareClassic.writePlan(message, into: image) else { return }
    for write in plan.writes {
      try require(!kind.isTrailer(block: write.block), "a write plan writes a trailer")
      try require(kind.sector(ofBlock: write.block) == write.sector, "a write names the wrong sector")
    }
    var written = image
    plan.apply(to: &written)
    try require(written == plan.finalImage, "applying the plan does not give its final image")
    guard let reread = try? MifareClassicTagView(validating: written.span.bytes) else {
      throw OracleFailure("the image written by the plan does not decode")
    }
    try require(reread.tlvArea.assembledNDEFBytes() == message, "the written image holds another message")
  }

  /// Locking writes consistent trailers and leaves a read-only card with the same message.
  static func checkReadOnly(_ image: [UInt8]) throws(OracleFailure) {
    guard let plan = try? MifareClassic.readOnlyPlan(image, keyB: .transport) else { return }
    for write in plan.writes {
      guard let trailer = try? MifareClassicSectorTrailer(validating: write.write.bytes.span.bytes) else {
        throw OracleFailure("a read-only plan writes a trailer with inconsistent access bits")
      }
      try require(trailer.accessBits == .readOnly, "a read-only plan writes other access bits")
    }
    guard let locked = try? MifareClassicTagView(validating: plan.finalImage.span.bytes) else {
      throw OracleFailure("the locked image does not decode")
    }
    try require(locked.isReadOnly, "the locked image is not read-only")
  }

  /// Formatting a card whose block 0 is sound gives a valid card with an empty message.
  static func checkFormat(_ image: [UInt8]) throws(OracleFailure) {
    guard (try? MifareClassicManufacturerBlock(validating: image.span.bytes)) != nil,
      let plan = try? MifareClassic.formatPlan(image, keyB: .transport)
    else { return }
    guard let view = try? MifareClassicTagView(validating: plan.finalImage.span.bytes) else {
      throw OracleFailure("a formatted card does not decode")
    }
    let length = view.tlvArea.area.ndefMessageLength
    try require(length == 0, "a formatted card holds a message")
  }
}
