// SPDX-License-Identifier: Apache-2.0
import JSONOutput
import NDEF
import NFCTags
import NFCWire

/// JSON for MIFARE Classic dumps, format `mfc` (see `Documentation/cli-json.md`): the card,
/// block 0, every sector with its trailer and access conditions, the MAD and the NDEF TLV
/// area. Keys are shown as the dump holds them (they are the user's own bytes).
enum MifareClassicOutput {
  /// `mini`, `1k` or `4k`.
  static func kindName(_ kind: MifareClassicCardKind) -> String {
    switch kind.sectorCount {
    case 5: return "mini"
    case 16: return "1k"
    default: return "4k"
    }
  }

  /// Whether `bytes` looks like a whole MIFARE Classic dump: 320, 1024 or 4096 bytes, and
  /// block 0's BCC matches or every trailer's access bits are consistent (7-byte UIDs).
  static func isLikely(_ bytes: [UInt8]) -> Bool {
    guard let kind = MifareClassicCardKind(memorySize: bytes.count) else { return false }
    if (try? MifareClassicManufacturerBlock(validating: bytes.span.bytes)) != nil { return true }
    return (0..<kind.sectorCount).allSatisfy { sector in
      guard let block = kind.trailerBlock(ofSector: sector),
        let trailer = try? MifareClassicSectorTrailer(reading: bytes.span.bytes, at: block * 16)
      else { return false }
      return trailer.accessBits.isConsistent
    }
  }

  static func conditionsJSON(_ trailer: MifareClassicSectorTrailer, blocksInSector: Int, firstBlock: Int)
    -> JSON
  {
    var groups: [JSON] = []
    for group in 0..<3 {
      let blocks = (0..<(blocksInSector - 1)).filter {
        MifareClassicAccessBits.group(forBlockIndex: $0, blocksInSector: blocksInSector) == group
      }.map { JSON.int(firstBlock + $0) }
      let bits = trailer.accessBits.condition(forGroup: group)?.description ?? ""
      guard let access = trailer.dataBlockAccess(group: group) else { continue }
      groups.append(
        .object([
          ("group", .int(group)), ("blocks", .array(blocks)), ("bits", .string(bits)),
          ("read", .string(access.read.name)), ("write", .string(access.write.name)),
          ("increment", .string(access.increment.name)),
          ("decrementTransferRestore", .string(access.decrementTransferRestore.name)),
        ]))
    }
    let t = trailer.trailerAccess
    groups.append(
      .object([
        ("group", .int(3)), ("blocks", .array([.int(firstBlock + blocksInSector - 1)])),
        ("bits", .string(trailer.accessBits.trailerCondition.description)),
        ("keyARead", .string(t.keyARead.name)), ("keyAWrite", .string(t.keyAWrite.name)),
        ("accessBitsRead", .string(t.accessBitsRead.name)),
        ("accessBitsWrite", .string(t.accessBitsWrite.name)),
        ("keyBRead", .string(t.keyBRead.name)), ("keyBWrite", .string(t.keyBWrite.name)),
      ]))
    return .array(groups)
  }

  static func sectorsJSON(_ bytes: [UInt8], kind: MifareClassicCardKind, mad: MifareClassicMAD?) -> JSON {
    var sectors: [JSON] = []
    for sector in 0..<kind.sectorCount {
      guard let first = kind.firstBlock(ofSector: sector), let count = kind.blockCount(inSector: sector),
        let trailerBlock = kind.trailerBlock(ofSector: sector),
        let trailer = try? MifareClassicSectorTrailer(reading: bytes.span.bytes, at: trailerBlock * 16)
      else { continue }
      let aid = mad?.aid(forSector: sector)
      sectors.append(
        .object([
          ("sector", .int(sector)), ("firstBlock", .int(first)), ("blockCount", .int(count)),
          ("aid", aid.map { .string($0.description) } ?? .null),
          ("aidName", aid.map { .string($0.name) } ?? .null),
          (
            "trailer",
            .object([
              ("offset", .int(trailerBlock * 16)), ("keyA", .string(Hex.string(trailer.keyA.bytes))),
              ("accessBits", .string(Hex.string(trailer.accessBits.bytes))),
              ("consistent", .bool(trailer.accessBits.isConsistent)),
              ("generalPurposeByte", .int(Int(trailer.generalPurposeByte))),
              ("keyB", .string(Hex.string(trailer.keyB.bytes))),
              ("keyBReadable", .bool(!trailer.isKeyBUsable)),
              ("conditions", conditionsJSON(trailer, blocksInSector: count, firstBlock: first)),
            ])
          ),
        ]))
    }
    return .array(sectors)
  }

  static func manufacturerJSON(_ bytes: [UInt8]) -> JSON {
    guard bytes.count >= 16 else { return .null }
    let block = Array(bytes[0..<16])
    let bcc = MifareClassicManufacturerBlock.bcc(of: Array(block[0..<4]))
    return .object([
      ("uid", .string(Hex.string(Array(block[0..<4])))), ("bcc", .int(Int(block[4]))),
      ("bccValid", .bool(bcc == block[4])), ("sak", .int(Int(block[5]))),
      ("atqa", .int(Int(block[6]) | Int(block[7]) << 8)),
      ("manufacturerData", .string(Hex.string(Array(block[8..<16])))),
    ])
  }

  static func madJSON(_ view: borrowing MifareClassicTagView) -> JSON {
    let mad = view.mad
    func part(crc: UInt8, computed: UInt8, info: UInt8) -> JSON {
      .object([
        ("crc", .int(Int(crc))), ("crcValid", .bool(crc == computed)), ("info", .int(Int(info))),
        ("cardPublisherSector", .int(Int(info & 0x3F))),
      ])
    }
    var mad2 = JSON.null
    if let crc = mad.mad2CRC, let computed = mad.computedMAD2CRC, let info = mad.mad2Info {
      mad2 = part(crc: crc, computed: computed, info: info)
    }
    let gpb = view.madGeneralPurposeByte
    return .object([
      ("generalPurposeByte", .int(Int(gpb.rawValue))), ("version", .int(gpb.madVersion)),
      ("multiApplication", .bool(gpb.isMultiApplication)),
      ("mad1", part(crc: mad.mad1CRC, computed: mad.computedMAD1CRC, info: mad.mad1Info)), ("mad2", mad2),
      ("ndefSectors", .array(view.ndefSectors.map(JSON.int))),
    ])
  }

  static func mfc(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    guard let kind = MifareClassicCardKind(memorySize: bytes.count) else {
      return .failure(
        DecodeFailure(
          code: NFCTagError.Code.invalidImageSize.name, offset: bytes.count,
          message: "a MIFARE Classic dump is 320 (Mini), 1024 (1K) or 4096 (4K) bytes"))
    }
    let card = JSON.object([
      ("kind", .string(kindName(kind))), ("name", .string(kind.name)),
      ("sectorCount", .int(kind.sectorCount)),
      ("blockCount", .int(kind.blockCount)), ("memorySize", .int(kind.memorySize)),
    ])
    let options: TagDecodingOptions = lenient ? .lenient : .strict
    let ndefOptions: NDEFDecodingOptions = lenient ? .lenient : .strict
    do throws(NFCTagError) {
      let view = try MifareClassicTagView(scanning: bytes.span.bytes, options: options)
      let (ndef, framing) = try TagOutput.areaNDEF(view.tlvArea, options: ndefOptions)
      let object = JSON.object([
        ("ok", .bool(true)), ("format", .string("mfc")), ("card", card),
        ("manufacturer", manufacturerJSON(bytes)),
        ("sectors", sectorsJSON(bytes, kind: kind, mad: view.mad)), ("mad", madJSON(view)),
        ("tlvs", TagOutput.tlvsJSON(view.tlvArea)), ("ndef", ndef),
        ("dataAreaSize", .int(view.tlvArea.area.dataByteCount)), ("maxNDEFSize", .int(view.maximumNDEFSize)),
        ("readOnly", .bool(view.isReadOnly)), ("warnings", .array(view.warnings.map(TagOutput.warningJSON))),
        ("notes", .array(view.tlvArea.notes.map(TagOutput.warningJSON))),
      ])
      let applied = NDEFDecodedOutput.applyingMalformed(object, lenient: lenient).0
      return .success(
        TagOutput.applyingErrors(
          applied,
          view.tlvArea.area.errors.map { TagOutput.warningJSON(NFCTagWarning($0.code, offset: $0.offset)) }
            + framing))
    } catch {
      // The layout is still shown: the sectors and trailers of a card without NDEF.
      let failure: DecodeFailure
      if let inner = error.ndefError {
        failure = DecodeFailure(code: inner.code.name, offset: inner.offset, message: inner.code.message)
      } else {
        failure = TagOutput.failure(error)
      }
      return .success(
        .object([
          ("ok", .bool(false)), ("format", .string("mfc")),
          (
            "error",
            .object([
              ("code", .string(failure.code)), ("offset", .int(failure.offset)),
              ("message", .string(failure.message)),
            ])
          ),
          ("card", card), ("manufacturer", manufacturerJSON(bytes)),
          ("sectors", sectorsJSON(bytes, kind: kind, mad: nil)), ("mad", .null), ("tlvs", .array([])),
          ("ndef", .null), ("warnings", .array([])), ("notes", .array([])),
        ]))
    }
  }
}
