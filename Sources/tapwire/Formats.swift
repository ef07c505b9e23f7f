// SPDX-License-Identifier: Apache-2.0
import ISO7816
import JSONOutput
import NDEF

/// Why an input did not decode: the error's contract code, offset and message.
struct DecodeFailure: Error {
  let code: String
  let offset: Int
  let message: String

  init(code: String, offset: Int, message: String) {
    self.code = code
    self.offset = offset
    self.message = message
  }

  /// `code at offset N: message`.
  var text: String { "\(code) at offset \(offset): \(message)" }

  /// The failure an `{"ok": false, "error": {...}}` object describes.
  init(errorJSON json: JSON) {
    var code = "invalidInput"
    var offset = 0
    var message = "the input did not decode"
    if case .object(let pairs) = json, case .object(let error)? = pairs.first(where: { $0.0 == "error" })?.1 {
      for (key, value) in error {
        switch (key, value) {
        case ("code", .string(let text)): code = text
        case ("offset", .int(let number)): offset = number
        case ("message", .string(let text)): message = text
        default: break
        }
      }
    }
    self.init(code: code, offset: offset, message: message)
  }
}

/// One input format the `decode` command knows: its JSON and its human tree.
struct Format: Sendable {
  let name: String
  let summary: String
  let json: @Sendable (_ bytes: [UInt8], _ lenient: Bool) -> (JSON, Bool)
  /// The human tree (`tshark -V` style): every field with its offset, bytes and meaning.
  let tree: @Sendable (_ bytes: [UInt8], _ lenient: Bool) -> Result<HumanTree, DecodeFailure>
  /// How likely `bytes` is this format (0 = not at all), for `--as` detection.
  let likelihood: @Sendable (_ bytes: [UInt8]) -> Int

  /// The human tree as plain lines (no colour).
  var human: @Sendable (_ bytes: [UInt8], _ lenient: Bool) -> Result<[String], DecodeFailure> {
    let tree = self.tree
    return { bytes, lenient in tree(bytes, lenient).map { $0.lines(colour: false) } }
  }

  static let all: [Format] = [ndef, btsnoop, hci, mfc, t2t, t1t, t5t, t3t, t4t, bertlv, adv, capdu, rapdu]

  /// A format whose JSON comes from `decode`; its human tree comes from `nodes` (called only
  /// once `decode` succeeded), with the JSON's warnings listed after it.
  ///
  /// `guessesPartial`: whether an input that decodes only in part (`"ok": false` with its
  /// parts) still counts as this format when guessing; a tag image does (its header says so),
  /// BER-TLV does not (almost any bytes begin with a few framed objects).
  static func simple(
    _ name: String, _ summary: String, likelihood: Int, guessesPartial: Bool = true,
    _ decode: @escaping @Sendable ([UInt8], Bool) -> Result<JSON, DecodeFailure>,
    nodes: @escaping @Sendable ([UInt8], Bool) -> [TreeNode]
  ) -> Format {
    Format(
      name: name, summary: summary,
      json: { bytes, lenient in
        switch decode(bytes, lenient) {
        case .success(let json): return (json, isOK(json))
        case .failure(let failure):
          return (
            NDEFOutput.errorJSON(
              format: name, code: failure.code, offset: failure.offset, message: failure.message),
            false
          )
        }
      },
      tree: { bytes, lenient in
        decode(bytes, lenient).map { json in
          HumanTree(
            summary: "\(summary) (\(name)), \(Describe.bytes(bytes.count))", nodes: nodes(bytes, lenient),
            warnings: Describe.warnings(json), notes: Describe.warnings(json, key: "notes"),
            failure: isOK(json) ? nil : DecodeFailure(errorJSON: json))
        }
      },
      likelihood: { bytes in
        guard case .success(let json) = decode(bytes, false) else { return 0 }
        return guessesPartial || isOK(json) ? likelihood : 0
      })
  }

  /// Whether a decoded object counts as valid (`"ok": true`): a tag image holding a record
  /// whose payload breaks its record type is decoded but, in strict mode, not valid.
  static func isOK(_ json: JSON) -> Bool {
    guard case .object(let pairs) = json, case .bool(let ok)? = pairs.first(where: { $0.0 == "ok" })?.1 else {
      return false
    }
    return ok
  }

  /// The same format, judged most likely (over BER-TLV and the rest) when `condition` holds.
  func preferring(_ condition: @escaping @Sendable ([UInt8]) -> Bool) -> Format {
    let base = likelihood
    return Format(
      name: name, summary: summary, json: json, tree: tree,
      likelihood: { bytes in condition(bytes) ? 95 : base(bytes) })
  }

  static let t1t = simple(
    "t1t", "NFC Forum Type 1 tag memory", likelihood: 70, TagOutput.t1t, nodes: TagTree.t1t)
  /// A whole MIFARE Classic card (320, 1024 or 4096 bytes): likely only when block 0's
  /// BCC or every trailer's access bits say so, then above the Type 2 reading.
  static let mfc: Format = {
    let base = simple(
      "mfc", "MIFARE Classic memory dump", likelihood: 85, MifareClassicOutput.mfc,
      nodes: MifareClassicTree.mfc)
    return Format(
      name: base.name, summary: base.summary, json: base.json, tree: base.tree,
      likelihood: { MifareClassicOutput.isLikely($0) ? 85 : 0 })
  }()
  static let t2t = simple(
    "t2t", "NFC Forum Type 2 tag memory", likelihood: 75, TagOutput.t2t, nodes: TagTree.t2t)
  static let t3t = simple(
    "t3t", "NFC Forum Type 3 tag memory", likelihood: 60, TagOutput.t3t, nodes: TagTree.t3t)
  /// A Type 4 CC file (optionally followed by its NDEF file): below the memory images.
  static let t4t = simple(
    "t4t", "NFC Forum Type 4 tag CC file", likelihood: 55, T4TOutput.t4t, nodes: TagTree.t4t)
  static let t5t = simple(
    "t5t", "NFC Forum Type 5 tag memory", likelihood: 65, TagOutput.t5t, nodes: TagTree.t5t)
  static let capdu = simple("capdu", "ISO 7816-4 command APDU", likelihood: 30, ISO7816Output.capdu) {
    bytes, _ in ISO7816Tree.capdu(bytes)
  }
  /// A bare status word of a known category reads best as a response APDU.
  static let rapdu = simple("rapdu", "ISO 7816-4 response APDU", likelihood: 20, ISO7816Output.rapdu) {
    bytes, _ in ISO7816Tree.rapdu(bytes)
  }
  .preferring { bytes in
    guard bytes.count == 2 else { return false }
    let category = StatusWord(rawValue: UInt16(bytes[0]) << 8 | UInt16(bytes[1])).category.name
    return ["normal", "warning", "executionError", "checkingError"].contains(category)
  }
  static let bertlv = simple(
    "bertlv", "BER-TLV data objects", likelihood: 50, guessesPartial: false, ISO7816Output.bertlv,
    nodes: ISO7816Tree.bertlv)
  static let adv = simple("adv", "Bluetooth LE advertising data", likelihood: 40, BLEOutput.adv) {
    bytes, lenient in BLETree.adv(bytes, lenient: lenient)
  }
  static let hci = simple("hci", "HCI LE advertising report event", likelihood: 90, BLEOutput.hci) {
    bytes, lenient in BLETree.hci(bytes, lenient: lenient)
  }
  static let btsnoop = simple("btsnoop", "btsnoop capture", likelihood: 100, BLEOutput.btsnoop) {
    bytes, lenient in BLETree.btsnoop(bytes, lenient: lenient)
  }

  static func named(_ name: String) -> Format? { all.first { $0.name == name } }

  /// What a file's extension decides: a format, or a tag dump kind (decoded as t2t).
  struct Named {
    var fileExtension: String
    var format: Format?
    var dump: DumpFile.Kind?
  }

  /// File extensions that decide the format (case-insensitive): every format's own name,
  /// `.apdu` (a command APDU), `.tlv`, `.snoop`, and the tag dump files `.nfc` (Flipper
  /// Zero) and `.mfd` (libnfc; a MIFARE Classic card's, or a Type 2 tag's). Other extensions (`.bin`, `.hex`, `.json`, ...) leave the
  /// choice to the content.
  static let extensions: [String: (Format?, DumpFile.Kind?)] = {
    var table: [String: (Format?, DumpFile.Kind?)] = [:]
    for format in all { table[format.name] = (format, nil) }
    table["apdu"] = (capdu, nil)
    table["tlv"] = (bertlv, nil)
    table["snoop"] = (btsnoop, nil)
    table["nfc"] = (nil, .flipper)
    table["mfd"] = (nil, .mfd)
    return table
  }()

  /// The format (or dump kind) a path's extension decides, `nil` for none or an unknown one.
  static func byExtension(_ path: String) -> Named? {
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
    let fileExtension = name[name.index(after: dot)...].lowercased()
    guard let (format, dump) = extensions[fileExtension] else { return nil }
    return Named(fileExtension: fileExtension, format: format, dump: dump)
  }

  /// The most likely format for `bytes`.
  static func guess(_ bytes: [UInt8]) -> Format {
    all.max { $0.likelihood(bytes) < $1.likelihood(bytes) } ?? ndef
  }

  static let ndef = Format(
    name: "ndef",
    summary: "NFC Forum NDEF message",
    json: { bytes, lenient in NDEFOutput.json(bytes, options: lenient ? .lenient : .strict) },
    tree: { bytes, lenient in
      let options: NDEFDecodingOptions = lenient ? .lenient : .strict
      let (json, ok) = NDEFOutput.json(bytes, options: options)
      // A record-type error (`ok` false) still shows every record; a framing error shows the
      // records before the one that cannot be framed, then the error in place.
      let message: NDEFMessageView
      do throws(NDEFError) {
        message = try NDEFMessageView(validating: bytes.span, options: options)
      } catch {
        let nodes = NDEFTree(source: bytes, options: options).partialRecords(
          bytes, baseOffset: 0, failure: error)
        guard !nodes.isEmpty else { return .failure(DecodeFailure(errorJSON: json)) }
        return .success(
          HumanTree(
            summary:
              "NFC Forum NDEF message (ndef), \(Describe.bytes(bytes.count)), records before a framing error",
            nodes: nodes, warnings: Describe.warnings(json), failure: DecodeFailure(errorJSON: json)))
      }
      return .success(
        HumanTree(
          summary:
            "NFC Forum NDEF message (ndef), \(Describe.bytes(bytes.count)), \(counted(message.recordCount, "record", "records"))",
          nodes: NDEFTree(source: bytes, options: options).records(message),
          warnings: Describe.warnings(json),
          failure: ok ? nil : DecodeFailure(errorJSON: json)))
    },
    likelihood: { bytes in
      (try? NDEFMessageView(validating: bytes.span)) != nil ? 100 : 1
    })
}
