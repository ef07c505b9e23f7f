// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire

/// The human tree of a MIFARE Classic dump (MF1S50/MF1S70, AN10787, AN1304).
enum MifareClassicTree {
  static func trailerNodes(_ bytes: [UInt8], sector: Int, kind: MifareClassicCardKind) -> [TreeNode] {
    guard let first = kind.firstBlock(ofSector: sector), let count = kind.blockCount(inSector: sector),
      let block = kind.trailerBlock(ofSector: sector),
      let trailer = try? MifareClassicSectorTrailer(reading: bytes.span.bytes, at: block * 16)
    else { return [] }
    let offset = block * 16
    var conditions: [TreeNode] = []
    for group in 0..<3 {
      guard let access = trailer.dataBlockAccess(group: group),
        let bits = trailer.accessBits.condition(forGroup: group)
      else { continue }
      let blocks = (0..<(count - 1)).filter {
        MifareClassicAccessBits.group(forBlockIndex: $0, blocksInSector: count) == group
      }.map { first + $0 }
      let label = blocks.count == 1 ? "block \(blocks[0])" : "blocks \(blocks.first ?? 0)-\(blocks.last ?? 0)"
      conditions.append(
        TreeNode(
          label,
          "C1C2C3 \(bits): read \(access.read), write \(access.write), increment \(access.increment), decrement \(access.decrementTransferRestore)"
        ))
    }
    let t = trailer.trailerAccess
    conditions.append(
      TreeNode(
        "trailer (block \(block))",
        "C1C2C3 \(trailer.accessBits.trailerCondition): key A write \(t.keyAWrite), access bits read \(t.accessBitsRead), write \(t.accessBitsWrite), key B read \(t.keyBRead), write \(t.keyBWrite)"
          + (trailer.isKeyBUsable ? "" : " (key B readable: not a key)")))
    let consistency =
      trailer.accessBits.isConsistent
      ? "consistent" : "INCONSISTENT: the card blocks this sector"
    return [
      TreeNode(bytes, at: offset, count: 6, "key A", "as dumped"),
      TreeNode(
        bytes, at: offset + 6, count: 3, "access bits", consistency,
        children: trailer.accessBits.isConsistent ? conditions : []),
      TreeNode(
        bytes, at: offset + 9, count: 1, "general purpose byte", Describe.hex(trailer.generalPurposeByte)),
      TreeNode(bytes, at: offset + 10, count: 6, "key B", "as dumped"),
    ]
  }

  static func sectorNodes(_ bytes: [UInt8], kind: MifareClassicCardKind, mad: MifareClassicMAD?) -> [TreeNode]
  {
    (0..<kind.sectorCount).compactMap { sector in
      guard let first = kind.firstBlock(ofSector: sector), let count = kind.blockCount(inSector: sector)
      else { return nil }
      var value = "blocks \(first)-\(first + count - 1)"
      if sector == 0 || (sector == 16 && mad?.hasMAD2 == true) {
        value += ", MAD"
      } else if let aid = mad?.aid(forSector: sector) {
        value += ", AID \(aid) (\(aid.name))"
      }
      let trailer = (kind.trailerBlock(ofSector: sector) ?? 0) * 16
      return TreeNode(
        bytes, at: trailer, count: 16, "sector \(sector)", value,
        children: trailerNodes(bytes, sector: sector, kind: kind))
    }
  }

  static func mfc(_ bytes: [UInt8], lenient: Bool) -> [TreeNode] {
    guard let kind = MifareClassicCardKind(memorySize: bytes.count) else { return [] }
    let options: TagDecodingOptions = lenient ? .lenient : .strict
    var result: [TreeNode] = [
      TreeNode("card", "\(kind.name), \(kind.sectorCount) sectors, \(kind.blockCount) blocks")
    ]
    let bcc = MifareClassicManufacturerBlock.bcc(of: Array(bytes[0..<4]))
    result.append(
      TreeNode(
        bytes, at: 0, count: 16, "block 0", "manufacturer block",
        children: [
          TreeNode(bytes, at: 0, count: 4, "UID", ""),
          TreeNode(
            bytes, at: 4, count: 1, "BCC", bcc == bytes[4] ? "matches the UID" : "does not match the UID"),
          TreeNode(bytes, at: 5, count: 1, "SAK", Describe.hex(bytes[5])),
          TreeNode(bytes, at: 6, count: 2, "ATQA", Describe.hex16(UInt16(bytes[6]) | UInt16(bytes[7]) << 8)),
        ]))
    guard let view = try? MifareClassicTagView(scanning: bytes.span.bytes, options: options) else {
      result += sectorNodes(bytes, kind: kind, mad: nil)
      return result
    }
    let mad = view.mad
    // MAD1 is blocks 1-2, MAD2 blocks 64-66 (AN10787 §3.3, §3.4): their lines carry the
    // blocks' bytes, the CRC and info bytes under them.
    var madChildren = [
      TreeNode(
        bytes, at: MifareClassicTagView.madGeneralPurposeByteOffset, count: 1, "general purpose byte",
        "\(Describe.hex(view.madGeneralPurposeByte.rawValue)) = MAD version \(view.madGeneralPurposeByte.madVersion)"
          + (view.madGeneralPurposeByte.isMultiApplication ? ", multi-application" : "")),
      TreeNode(
        bytes, at: MifareClassicMAD.mad1Offset, count: 32, "MAD1", "blocks 1-2",
        children: [
          TreeNode(
            bytes, at: MifareClassicMAD.mad1Offset, count: 1, "MAD1 CRC",
            mad.mad1CRC == mad.computedMAD1CRC ? "matches" : "expected \(Describe.hex(mad.computedMAD1CRC))"),
          TreeNode(
            bytes, at: MifareClassicMAD.mad1Offset + 1, count: 1, "MAD1 info",
            "card publisher sector \(mad.mad1Info & 0x3F)"),
        ]),
    ]
    if let crc = mad.mad2CRC, let computed = mad.computedMAD2CRC {
      madChildren.append(
        TreeNode(
          bytes, at: MifareClassicMAD.mad2Offset, count: 48, "MAD2", "blocks 64-66",
          children: [
            TreeNode(
              bytes, at: MifareClassicMAD.mad2Offset, count: 1, "MAD2 CRC",
              crc == computed ? "matches" : "expected \(Describe.hex(computed))")
          ]))
    }
    result.append(
      TreeNode(
        "MAD", "NDEF sectors " + view.ndefSectors.map(String.init).joined(separator: ", "),
        children: madChildren))
    result += sectorNodes(bytes, kind: kind, mad: mad)
    result += TagTree.area(view.tlvArea, image: bytes, options: lenient ? .lenient : .strict)
    result += TagTree.summary(
      dataAreaSize: view.tlvArea.area.dataByteCount, maxNDEFSize: view.maximumNDEFSize,
      readOnly: view.isReadOnly)
    return result
  }
}
