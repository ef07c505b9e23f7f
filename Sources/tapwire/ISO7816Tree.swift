// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCWire

/// The human tree of command and response APDUs (ISO/IEC 7816-4 §5) and BER-TLV data
/// objects (ISO/IEC 8825-1, 7816-4 §6.3), from the `ISO7816` views.
enum ISO7816Tree {
  /// What the class byte says (ISO/IEC 7816-4 §5.4.1).
  static func classMeaning(_ cla: CommandClass) -> String {
    var parts: [String]
    switch cla.kind {
    case .firstInterindustry: parts = ["interindustry"]
    case .furtherInterindustry: parts = ["interindustry (further)"]
    case .proprietary: parts = ["proprietary"]
    case .invalid: return "invalid (0xff)"
    default: return "reserved"
    }
    if let channel = cla.logicalChannel { parts.append("channel \(channel)") }
    parts.append(cla.secureMessaging == .none ? "no SM" : "SM \(cla.secureMessaging.name)")
    parts.append(cla.isChaining ? "chaining: more commands follow" : "last or only command")
    return parts.joined(separator: ", ")
  }

  /// P1 and P2 explained for the commands whose parameters have a fixed meaning.
  static func parameters(_ ins: Instruction, p1: UInt8, p2: UInt8, cla: CommandClass) -> (String, String)? {
    switch ins {
    case .select:
      let p1Text: String
      switch p1 {
      case 0x00: p1Text = "select MF, DF or EF by file identifier"
      case 0x01: p1Text = "select child DF"
      case 0x02: p1Text = "select EF under the current DF"
      case 0x03: p1Text = "select parent DF"
      case 0x04: p1Text = "select by DF name (AID)"
      case 0x08: p1Text = "select by path from the MF"
      case 0x09: p1Text = "select by path from the current DF"
      default: p1Text = "proprietary or reserved"
      }
      let occurrence = [
        "first or only occurrence", "last occurrence", "next occurrence", "previous occurrence",
      ][
        Int(p2 & 0x03)]
      let answer = ["return FCI", "return FCP", "return FMD", "no response data"][Int(p2 >> 2 & 0x03)]
      return (p1Text, "\(occurrence), \(answer)")
    case .readBinary, .updateBinary, .writeBinary, .eraseBinary:
      if p1 & 0x80 != 0 {
        return ("short EF identifier \(p1 & 0x1F)", "offset \(p2)")
      }
      let offset = Int(p1) << 8 | Int(p2)
      return ("offset high byte", "offset low byte (offset \(offset))")
    case .readRecord, .updateRecord:
      let sfi = p2 >> 3
      let mode: String
      switch p2 & 0x07 {
      case 0x04: mode = "record number P1"
      case 0x05: mode = "all records from P1 up to the last"
      case 0x06: mode = "all records from the last up to P1"
      default: mode = "mode \(p2 & 0x07)"
      }
      return ("record \(p1)", sfi == 0 ? "current EF, \(mode)" : "short EF identifier \(sfi), \(mode)")
    case .getData, .getDataBERTLV:
      let tag = Describe.hex16(UInt16(p1) << 8 | UInt16(p2))
      return ("tag high byte", "tag low byte (data object \(tag))")
    case .verify:
      return (p1 == 0 ? "verify" : "P1 \(Describe.hex(p1))", "reference data \(Describe.hex(p2))")
    case .getResponse:
      return ("0", "0")
    default:
      guard !cla.isInterindustry, ins == .gpGetStatus else { return nil }
      // GlobalPlatform GET STATUS (GPC 2.3 §11.4.2).
      let subset: String
      switch p1 {
      case 0x80: subset = "issuer security domain"
      case 0x40: subset = "applications and security domains"
      case 0x20: subset = "executable load files"
      case 0x10: subset = "executable load files and modules"
      default: subset = "subset \(Describe.hex(p1))"
      }
      return (
        subset, (p2 & 0x02 != 0 ? "TLV format" : "legacy format") + (p2 & 0x01 != 0 ? ", next" : ", first")
      )
    }
  }

  static func capdu(_ bytes: [UInt8]) -> [TreeNode] {
    guard let view = try? CommandAPDUView(validating: bytes.span) else { return [] }
    let name = view.commandName ?? "unknown"
    var result = [
      TreeNode(
        bytes, at: 0, count: 1, "CLA", "\(Describe.hex(view.cla.rawValue)) = \(classMeaning(view.cla))"),
      TreeNode(bytes, at: 1, count: 1, "INS", "\(Describe.hex(view.ins.rawValue)) = \(name)"),
    ]
    let explained = parameters(view.ins, p1: view.p1, p2: view.p2, cla: view.cla)
    result.append(
      TreeNode(bytes, at: 2, count: 1, "P1", Describe.hex(view.p1) + (explained.map { " = " + $0.0 } ?? "")))
    result.append(
      TreeNode(bytes, at: 3, count: 1, "P2", Describe.hex(view.p2) + (explained.map { " = " + $0.1 } ?? "")))
    let extended = view.apduCase.isExtended
    if view.apduCase.hasData {
      let lcSize = extended ? 3 : 1
      result.append(
        TreeNode(bytes, at: view.dataOffset - lcSize, count: lcSize, "Lc", "\(view.nc) = Nc, data bytes"))
      var dataText = Describe.bytes(view.nc)
      if view.ins == .select, view.p1 == 0x04 { dataText += ", AID " + Hex.string(view.data).uppercased() }
      result.append(TreeNode(bytes, at: view.dataOffset, count: view.nc, "data", dataText))
    }
    if let ne = view.ne {
      let leSize = extended ? (view.apduCase.hasData ? 2 : 3) : 1
      result.append(
        TreeNode(
          bytes, at: bytes.count - leSize, count: leSize, "Le", "\(ne) = Ne, at most \(ne) response bytes"))
    }
    result.append(
      TreeNode("case", "\(view.apduCase.name) (\(extended ? "extended" : "short") length)"))
    return result
  }

  static func rapdu(_ bytes: [UInt8]) -> [TreeNode] {
    guard let view = try? ResponseAPDUView(validating: bytes.span) else { return [] }
    let sw = view.statusWord
    var result: [TreeNode] = []
    if view.data.byteCount > 0 {
      result.append(
        TreeNode(bytes, at: 0, count: view.data.byteCount, "data", Describe.bytes(view.data.byteCount)))
    }
    result.append(
      TreeNode(
        bytes, at: view.statusWordOffset, count: 2, "SW", "\(sw.hexString.uppercased()) = \(sw.meaning)",
        children: [
          TreeNode(bytes, at: view.statusWordOffset, count: 1, "SW1", Describe.hex(sw.sw1)),
          TreeNode(bytes, at: view.statusWordOffset + 1, count: 1, "SW2", Describe.hex(sw.sw2)),
          TreeNode("category", sw.category.name),
        ]))
    return result
  }

  /// Names of common data objects (ISO/IEC 7816-4 §7-8, EMV 4.4 Book 3 Annex A, GPC 2.3 §11).
  static let tagNames: [UInt32: String] = [
    0x06: "object identifier", 0x4F: "application identifier (AID)", 0x50: "application label",
    0x57: "track 2 equivalent data", 0x5A: "application PAN", 0x5F20: "cardholder name",
    0x5F24: "application expiration date", 0x5F25: "application effective date",
    0x5F28: "issuer country code",
    0x5F2D: "language preference", 0x5F34: "PAN sequence number", 0x61: "application template",
    0x62: "file control parameters (FCP)", 0x63: "card recognition data (wrapper)",
    0x64: "file management data (FMD)",
    0x66: "card data", 0x6F: "file control information (FCI)", 0x70: "record template",
    0x73: "discretionary data template", 0x77: "response message template format 2",
    0x80: "response message template format 1", 0x82: "application interchange profile", 0x84: "DF name",
    0x87: "application priority indicator", 0x88: "short file identifier (SFI)", 0x8C: "CDOL1", 0x8D: "CDOL2",
    0x8E: "CVM list", 0x94: "application file locator (AFL)", 0x9F02: "amount, authorised",
    0x9F10: "issuer application data", 0x9F12: "application preferred name", 0x9F26: "application cryptogram",
    0x9F27: "cryptogram information data", 0x9F36: "application transaction counter", 0x9F38: "PDOL",
    0x9F65: "maximum length of command data", 0x9F6E: "application production life cycle data",
    0x9F70: "life cycle state", 0x9F7F: "card production life cycle (CPLC)", 0xA5: "FCI proprietary template",
    0xBF0C: "FCI issuer discretionary data", 0xC4: "load file AID / load file data block", 0xC5: "privileges",
    0xC9: "application parameters", 0xCC: "associated security domain AID", 0xCE: "load file version",
    0xE3: "GlobalPlatform registry entry",
  ]

  /// The objects of one level, every framed object kept; where the framing breaks, an
  /// `error` line at its offset with the input line and a caret under the byte.
  static func tlvNodes(_ scanner: consuming BERTLVScanner, source: [UInt8]) -> [TreeNode] {
    var result: [TreeNode] = []
    while let item = scanner.next() {
      let tlv: BERTLVView
      switch item {
      case .malformed(let error):
        result.append(.error(source, at: error.offset, code: error.code.name, message: error.code.message))
        return result
      case .object(let object):
        tlv = object
      }
      let tag = tlv.tag
      let tagText =
        "\(tag.hexString.uppercased()) = \(tag.tagClass.name), \(tag.isConstructed ? "constructed" : "primitive"), number \(tag.number)"
      var children = [
        TreeNode(source, at: tlv.offset, count: tag.byteCount, "tag", tagText),
        TreeNode(
          source, at: tlv.lengthOffset, count: tlv.valueOffset - tlv.lengthOffset, "length", "\(tlv.length)"),
      ]
      if tlv.isConstructed {
        children += tlvNodes(tlv.scannedChildren, source: source)
      } else {
        var value = Hex.string(tlv.value)
        if tlv.value.byteCount > 0, tlv.value.isPrintableASCII {
          value = Describe.quoted(String(decoding: tlv.value.copiedBytes(), as: UTF8.self))
        } else if tlv.value.byteCount > TreeNode.shownBytes {
          value = Describe.bytes(tlv.value.byteCount)
        }
        children.append(TreeNode(source, at: tlv.valueOffset, count: tlv.length, "value", value))
      }
      let name = tagNames[tag.rawValue] ?? "(no name known)"
      result.append(
        TreeNode(
          source, at: tlv.offset, count: tlv.valueOffset + tlv.length - tlv.offset,
          "TLV \(tag.hexString.uppercased())",
          name, children: children))
    }
    return result
  }

  static func bertlv(_ bytes: [UInt8], lenient: Bool) -> [TreeNode] {
    tlvNodes(BERTLVScanner(bytes.span.bytes, options: lenient ? .lenient : .strict), source: bytes)
  }
}
