// SPDX-License-Identifier: Apache-2.0
import JSONOutput
import NFCTags
import NFCWire

/// The page `tapwire view` writes: the decoded tree (``TreeNode``, the one `decode` prints)
/// beside the input's hex, as one HTML document with its style and script inline.
///
/// Every field with bytes is an element with `data-start` and `data-end` (its byte range,
/// end exclusive, inside the input); the n-th `<i>` of `#hex` is byte n. The script marks
/// what is lit with the class `lit` (and the chosen field with `sel`).
struct ViewPage {
  var title: String
  var bytes: [UInt8]
  var formatName: String
  var summary: String
  var nodes: [TreeNode]
  var warnings: [Mark] = []
  var notes: [Mark] = []
  var failure: DecodeFailure?

  /// A warning or note: its text and the byte it is about.
  struct Mark {
    var text: String
    var offset: Int?
  }

  /// What a byte is, for the memory map's colours.
  enum Category: Int, CaseIterable {
    case unused, field, id, cc, lock, control, reserved, tlv, ndefA, ndefB, trailer, mad, altA, altB

    var label: String {
      switch self {
      case .unused: return "unused (in no field)"
      case .field: return "other field"
      case .id: return "UID and manufacturer data"
      case .cc: return "capability container, attribute block, CC file"
      case .lock: return "lock bytes (static and dynamic)"
      case .control: return "lock and memory control TLVs"
      case .reserved: return "reserved"
      case .tlv: return "TLV header, other TLVs"
      case .ndefA: return "NDEF message, records"
      case .ndefB: return "NDEF record (next)"
      case .trailer: return "sector trailer: keys (as dumped), access bits"
      case .mad: return "MAD (MIFARE application directory)"
      case .altA, .altB: return "field"
      }
    }
  }

  /// A decoded input.
  init(title: String, bytes: [UInt8], format: Format, lenient: Bool) {
    self.title = title
    self.bytes = bytes
    formatName = format.name
    let (json, _) = format.json(bytes, lenient)
    switch format.tree(bytes, lenient) {
    case .success(let tree):
      summary = tree.summary
      nodes = tree.nodes
      failure = tree.failure
    case .failure(let failed):
      summary = "\(format.summary) (\(format.name)), \(Describe.bytes(bytes.count)), not decoded"
      nodes = []
      failure = failed
    }
    warnings = Self.marks(json, key: "warnings")
    notes = Self.marks(json, key: "notes")
  }

  /// An input that could not be handed to a decoder (a bad dump file, no nodes), or one a
  /// view-only reading made the nodes of (a script).
  init(
    title: String, bytes: [UInt8], formatName: String, summary: String, nodes: [TreeNode] = [],
    failure: DecodeFailure?
  ) {
    self.title = title
    self.bytes = bytes
    self.formatName = formatName
    self.summary = summary
    self.nodes = nodes
    self.failure = failure
  }

  /// The `{code, offset, message}` objects under `key` of a decode result.
  static func marks(_ json: JSON, key: String) -> [Mark] {
    guard case .object(let pairs) = json, case .array(let items)? = pairs.first(where: { $0.0 == key })?.1
    else { return [] }
    return items.compactMap { item in
      guard case .object(let fields) = item else { return nil }
      var code = ""
      var offset: Int?
      var message = ""
      for (name, value) in fields {
        switch (name, value) {
        case ("code", .string(let text)): code = text
        case ("offset", .int(let number)): offset = number
        case ("message", .string(let text)): message = text
        default: break
        }
      }
      return Mark(text: "\(code) at offset \(offset ?? 0): \(message)", offset: offset)
    }
  }

  static let tagFormats: Set<String> = ["t1t", "t2t", "t3t", "t4t", "t5t", "mfc"]
  static let tableFormats: Set<String> = ["capdu", "rapdu", "adv", "hci", "btsnoop", "bertlv", "apduscript"]

  /// The byte range of a node, clamped to the input (a lock area the CC places past the end
  /// of the image is shown empty at the end); `nil` for a line without bytes.
  func range(_ node: TreeNode) -> Range<Int>? {
    guard let offset = node.offset else { return nil }
    let start = max(0, min(offset, bytes.count))
    return start..<max(start, min(start + node.byteCount, bytes.count))
  }

  /// The colour category a field's name gives (children inherit their parent's).
  func category(of name: String) -> Category? {
    let lower = name.lowercased()
    switch lower {
    case "serial number", "uid", "internal", "block 0", "bcc", "sak", "atqa": return .id
    case "capability container", "attribute information block", "cclen", "versiontext", "mle", "mlc":
      return .cc
    case "static lock bytes", "lock area": return .lock
    case "tlv lockcontrol", "tlv memorycontrol": return .control
    case "reserved area", "reserved block", "unused": return .reserved
    case "ndef message", "nlen", "enlen": return .ndefA
    case "mad", "mad1", "mad2": return .mad
    default: break
    }
    if lower.hasPrefix("sector ") { return .trailer }
    if lower.hasPrefix("tlv ") { return formatName == "t4t" ? .cc : .tlv }
    return nil
  }

  /// Each byte's category: fields in tree order, inner fields over outer ones.
  func byteCategories() -> [Category] {
    var result = [Category](repeating: .unused, count: bytes.count)
    let isTag = Self.tagFormats.contains(formatName)
    func walk(_ node: TreeNode, inherited: Category?, ownOverride: Category?) {
      var own = ownOverride ?? category(of: node.name) ?? inherited
      if own == nil, range(node) != nil { own = .field }
      if let own, let range = range(node) {
        for index in range { result[index] = own }
      }
      let isMessage = node.name == "NDEF message"
      for (index, child) in node.children.enumerated() {
        walk(child, inherited: own, ownOverride: isMessage ? (index % 2 == 0 ? .ndefA : .ndefB) : nil)
      }
    }
    for (index, node) in nodes.enumerated() {
      let top: Category? =
        formatName == "ndef"
        ? (index % 2 == 0 ? .ndefA : .ndefB) : isTag ? nil : (index % 2 == 0 ? .altA : .altB)
      walk(node, inherited: nil, ownOverride: top)
    }
    return result
  }

  static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.unicodeScalars.append(character)
      }
    }
    return result
  }

  static func hexByte(_ byte: UInt8) -> String { Hex.string([byte]) }

  /// The whole page.
  func html() -> String {
    var out = ""
    out.reserveCapacity(bytes.count * 40 + 4096)
    let categories = byteCategories()
    out += """
      <!DOCTYPE html>
      <html lang="en"><head><meta charset="utf-8">
      <meta http-equiv="Content-Security-Policy" content="\(ViewAssets.contentSecurityPolicy)">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>tapwire view: \(Self.escaped(title))</title>
      <style>\(ViewAssets.style)</style>
      </head>
      <body data-format="\(Self.escaped(formatName))" data-length="\(bytes.count)">
      <header><h1>\(Self.escaped(summary))</h1>
      <p class="source">\(Self.escaped(title)), \(Describe.bytes(bytes.count)), format \(Self.escaped(formatName))</p>

      """
    out += messages()
    if Self.tagFormats.contains(formatName) || formatName == "ndef" { out += legend(categories) }
    out += "</header>\n"
    if Self.tableFormats.contains(formatName) { out += table() }
    out += "<main>\n<section id=\"tree\"><h2>Structure</h2>\n<ul>\n"
    for node in nodes { render(node, into: &out) }
    out += "</ul></section>\n<section id=\"hex\"><h2>Bytes</h2>\n"
    out += hexPane(categories)
    out += "</section>\n</main>\n<pre id=\"selftest\" hidden></pre>\n"
    out += "<script>\(ViewAssets.script)</script>\n</body></html>\n"
    return out
  }

  /// The failure, warnings and notes, each a field over the byte it is about.
  func messages() -> String {
    var items: [(String, String, Int?)] = []
    if let failure { items.append(("error", failure.text, failure.offset)) }
    for warning in warnings { items.append(("warning", warning.text, warning.offset)) }
    for note in notes { items.append(("note", note.text, note.offset)) }
    guard !items.isEmpty else { return "" }
    var out = "<ul id=\"messages\">\n"
    for (kind, text, offset) in items {
      var attributes = ""
      if let offset {
        let start = max(0, min(offset, bytes.count))
        attributes = " data-start=\"\(start)\" data-end=\"\(min(start + 1, bytes.count))\" tabindex=\"0\""
      }
      out += "<li class=\"\(kind)\"\(attributes)><b>\(kind):</b> \(Self.escaped(text))</li>\n"
    }
    return out + "</ul>\n"
  }

  func legend(_ categories: [Category]) -> String {
    var present = Set(categories)
    present.remove(.altA)
    present.remove(.altB)
    var out = "<ul id=\"legend\">"
    for category in Category.allCases where present.contains(category) {
      out += "<li><i class=\"c\(category.rawValue)\"></i>\(Self.escaped(category.label))</li>"
    }
    if failure != nil || !warnings.isEmpty || nodes.contains(where: Self.hasError) {
      out += "<li><i class=\"e\"></i>error or warning here</li>"
    }
    return out + "</ul>\n"
  }

  static func hasError(_ node: TreeNode) -> Bool {
    node.name == "error" || node.children.contains(where: hasError)
  }

  /// One tree line: a field element with its range (when it has bytes), its children under it.
  func render(_ node: TreeNode, into out: inout String) {
    let error = node.name == "error"
    out += "<li>"
    let text =
      "<b>\(Self.escaped(node.name))</b>" + (node.value.isEmpty ? "" : ": " + Self.escaped(node.value))
    if let range = range(node) {
      let hexRange =
        range.isEmpty
        ? ""
        : "<code>\(String(range.lowerBound, radix: 16))-\(String(range.upperBound - 1, radix: 16))</code> "
      out +=
        "<span class=\"f\(error ? " err" : "")\" data-start=\"\(range.lowerBound)\" data-end=\"\(range.upperBound)\" tabindex=\"0\">\(hexRange)\(text)</span>"
    } else {
      out += "<span class=\"n\">\(text)</span>"
    }
    if !node.children.isEmpty {
      out += "<ul>"
      for child in node.children { render(child, into: &out) }
      out += "</ul>"
    }
    out += "</li>\n"
  }

  /// The top-level parts as a table: offset, bytes, name, meaning (APDUs, AD structures,
  /// capture records, data objects), each row a field.
  func table() -> String {
    var out =
      "<section id=\"parts\"><h2>Parts</h2><table><thead><tr><th>offset</th><th>bytes</th><th>part</th><th>meaning</th></tr></thead><tbody>\n"
    for node in nodes {
      guard let range = range(node) else {
        out +=
          "<tr><td></td><td></td><td>\(Self.escaped(node.name))</td><td>\(Self.escaped(node.value))</td></tr>\n"
        continue
      }
      let shown =
        bytes[range].prefix(16).map(Self.hexByte).joined(separator: " ") + (range.count > 16 ? " …" : "")
      var meaning = Self.escaped(node.value)
      let parts = node.children.prefix(12).map { child in
        "<b>\(Self.escaped(child.name))</b>" + (child.value.isEmpty ? "" : " " + Self.escaped(child.value))
      }
      if !parts.isEmpty {
        meaning += (meaning.isEmpty ? "" : "<br>") + parts.joined(separator: "; ")
        if node.children.count > 12 { meaning += "; …" }
      }
      // The AD structures anywhere under a capture record or report, each on its own line.
      for structure in Self.descendants(of: node, named: "AD structure").prefix(32) {
        let fields = structure.children.filter { $0.name != "length" && $0.name != "AD type" }.map {
          Self.escaped($0.name) + ($0.value.isEmpty ? "" : " " + Self.escaped($0.value))
        }
        meaning +=
          "<br>AD <b>\(Self.escaped(structure.value))</b>" + (fields.isEmpty ? "" : ": ")
          + fields.joined(separator: ", ")
      }
      out +=
        "<tr class=\"f\(node.name == "error" ? " err" : "")\" data-start=\"\(range.lowerBound)\" data-end=\"\(range.upperBound)\" tabindex=\"0\"><td>\(range.lowerBound)</td><td><code>\(shown)</code></td><td>\(Self.escaped(node.name))</td><td>\(meaning)</td></tr>\n"
    }
    return out + "</tbody></table></section>\n"
  }

  /// The nodes named `name` below `node` (not `node` itself), in tree order.
  static func descendants(of node: TreeNode, named name: String) -> [TreeNode] {
    node.children.flatMap { child in (child.name == name ? [child] : []) + descendants(of: child, named: name)
    }
  }

  /// Bytes marked as errors or warnings: where error fields, warnings and the failure point.
  func markedBytes() -> Set<Int> {
    var result = Set<Int>()
    func walk(_ node: TreeNode) {
      if node.name == "error", let offset = node.offset, offset < bytes.count {
        result.insert(max(0, offset))
      }
      node.children.forEach(walk)
    }
    nodes.forEach(walk)
    for mark in warnings {
      if let offset = mark.offset, offset >= 0, offset < bytes.count { result.insert(offset) }
    }
    if let failure, failure.offset >= 0, failure.offset < bytes.count { result.insert(failure.offset) }
    return result
  }

  /// The rows of the hex pane, each row a block (or page) of the tag, with the MIFARE
  /// Classic sectors as headed groups and each block's access conditions beside it.
  func hexPane(_ categories: [Category]) -> String {
    let marked = markedBytes()
    let rowWidth = formatName == "t1t" ? 8 : 16
    var out = "<div class=\"rows\">\n"
    let classic = formatName == "mfc" ? MifareClassicCardKind(memorySize: bytes.count) : nil
    let blockNotes = classic.map { _ in classicBlockNotes() } ?? [:]
    let sectorHeads = classic.map { classicSectorHeads($0) } ?? [:]
    var offset = 0
    while offset < bytes.count {
      let end = min(offset + rowWidth, bytes.count)
      if let head = sectorHeads[offset / 16] { out += "<div class=\"sector\">\(Self.escaped(head))</div>\n" }
      var label = String(offset, radix: 16)
      label = String(repeating: "0", count: max(0, 4 - label.count)) + label
      switch formatName {
      case "t2t": label += " p\(offset / 4)"
      case "t1t": label += " b\(offset / 8)"
      case "t3t", "mfc": label += " b\(offset / 16)"
      case "t5t": label += " b\(offset / 4)"
      default: break
      }
      out += "<div class=\"row\"><span class=\"a\">\(label)</span><span class=\"x\">"
      var ascii = ""
      for index in offset..<end {
        let byte = bytes[index]
        out +=
          "<i class=\"c\(categories[index].rawValue)\(marked.contains(index) ? " e" : "")\">\(Self.hexByte(byte))</i>"
        ascii += (0x20..<0x7F).contains(byte) ? Self.escaped(String(UnicodeScalar(byte))) : "."
      }
      out += "</span><span class=\"t\">\(ascii)</span>"
      if let note = blockNotes[offset / 16] { out += "<span class=\"k\">\(Self.escaped(note))</span>" }
      out += "</div>\n"
      offset = end
    }
    return out + "</div>\n"
  }

  /// The heading above each MIFARE Classic sector (the tree's `sector N` line), by its first block.
  func classicSectorHeads(_ kind: MifareClassicCardKind) -> [Int: String] {
    var result: [Int: String] = [:]
    for node in nodes where node.name.hasPrefix("sector ") {
      guard let sector = Int(node.name.dropFirst(7)), let first = kind.firstBlock(ofSector: sector) else {
        continue
      }
      result[first] = node.name + ": " + node.value
    }
    if result.isEmpty {
      for sector in 0..<kind.sectorCount {
        if let first = kind.firstBlock(ofSector: sector) { result[first] = "sector \(sector)" }
      }
    }
    return result
  }

  /// Each block's access conditions, spelled out, from the trailers' lines in the tree
  /// (`block 4`, `blocks 128-132`, `trailer (block 7)`); block 0 is the manufacturer block.
  func classicBlockNotes() -> [Int: String] {
    var result: [Int: String] = [0: "manufacturer block"]
    func walk(_ node: TreeNode) {
      let name = node.name
      var blocks: ClosedRange<Int>?
      var prefix = "data: "
      if name.hasPrefix("trailer (block "), let block = Int(name.dropFirst(15).dropLast()) {
        blocks = block...block
        prefix = "trailer: "
      } else if name.hasPrefix("blocks "), case let parts = name.dropFirst(7).split(separator: "-"),
        parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]), low <= high
      {
        blocks = low...high
      } else if name.hasPrefix("block "), let block = Int(name.dropFirst(6)) {
        blocks = block...block
      }
      if let blocks, node.offset == nil {
        for block in blocks where block != 0 { result[block] = prefix + node.value }
      }
      node.children.forEach(walk)
    }
    nodes.forEach(walk)
    return result
  }
}
