// SPDX-License-Identifier: Apache-2.0
import JSONOutput

/// One line of the human tree, like a field in `tshark -V`: where the field starts in the
/// input, its raw bytes, its name, its value and what the value means; fields inside it
/// are its children, indented under it.
struct TreeNode {
  /// The field's offset in the input, `nil` for a line that stands for no bytes (a summary).
  var offset: Int?
  /// The first bytes of the field (at most `TreeNode.shownBytes + 1`, enough to mark a cut).
  var bytes: [UInt8]
  /// How many bytes the field has in all.
  var byteCount: Int
  /// The field's name.
  var name: String
  /// Its value and meaning (`0x04 = "https://"`), or empty.
  var value: String
  var children: [TreeNode]
  /// Lines printed as they are under the node's line (a hex dump with a caret), indented.
  var extraLines: [String] = []

  /// Bytes shown in the bytes column before the rest is cut with `…`.
  static let shownBytes = 8

  /// A field of `count` bytes at `offset` in `input` (clamped to the input).
  init(
    _ input: [UInt8], at offset: Int, count: Int, _ name: String, _ value: String = "",
    children: [TreeNode] = []
  ) {
    let start = max(0, min(offset, input.count))
    let end = max(start, min(start + count, input.count))
    self.offset = offset
    self.bytes = Array(input[start..<min(end, start + Self.shownBytes + 1)])
    self.byteCount = end - start
    self.name = name
    self.value = value
    self.children = children
  }

  /// A line that stands for no bytes of its own.
  init(_ name: String, _ value: String = "", children: [TreeNode] = []) {
    offset = nil
    bytes = []
    byteCount = 0
    self.name = name
    self.value = value
    self.children = children
  }
}

extension TreeNode {
  /// An `error` line for a typed error where it is: `CODE at offset N: message`, then the
  /// input line holding byte `offset` with a caret under it.
  static func error(_ input: [UInt8], at offset: Int, code: String, message: String) -> TreeNode {
    var node = TreeNode(input, at: offset, count: 1, "error", "\(code) at offset \(offset): \(message)")
    node.extraLines = HexDump.caret(input, at: offset)
    return node
  }
}

/// A decoded input as a tree: a summary line, the fields, and the warnings (lenient mode).
struct HumanTree {
  var summary: String
  var nodes: [TreeNode]
  var warnings: [String] = []
  /// Facts that break no rule (a lock area past the end of the image), in both modes.
  var notes: [String] = []
  /// Set when the input decoded but does not count as valid (strict mode: a record whose
  /// payload breaks its record type): the tree is shown, and the command still fails.
  var failure: DecodeFailure? = nil

  /// Width of the bytes column: eight bytes as `xx ` groups.
  static let bytesColumn = TreeNode.shownBytes * 3 - 1

  /// The lines: `OFFSET  BYTES  name: value`, children indented by two spaces; colour (bold
  /// summary, dim columns, cyan names, yellow warnings) only when `colour` is true.
  func lines(colour: Bool) -> [String] {
    var result = [colour ? Terminal.bold + summary + Terminal.reset : summary]
    let widest = Self.widestOffset(nodes)
    let offsetWidth = max(4, String(widest, radix: 16).count)
    func render(_ node: TreeNode, depth: Int) {
      var offsetText = String(repeating: " ", count: offsetWidth)
      var bytesText = ""
      if let offset = node.offset {
        let digits = String(offset, radix: 16)
        offsetText = String(repeating: "0", count: max(0, offsetWidth - digits.count)) + digits
        let cut = node.byteCount > TreeNode.shownBytes
        let shown = node.bytes.prefix(cut ? TreeNode.shownBytes - 1 : TreeNode.shownBytes)
        bytesText = shown.map(HexDump.byteHex).joined(separator: " ") + (cut ? " …" : "")
      }
      let padding = String(repeating: " ", count: max(0, Self.bytesColumn - bytesText.count))
      var columns = offsetText + "  " + bytesText + padding + "  "
      if colour { columns = Terminal.dim + columns + Terminal.reset }
      let indent = String(repeating: "  ", count: depth)
      let name = colour ? Terminal.cyan + node.name + Terminal.reset : node.name
      result.append(columns + indent + name + (node.value.isEmpty ? "" : ": " + node.value))
      for line in node.extraLines {
        let text = String(repeating: " ", count: offsetWidth + 2) + indent + "  " + line
        result.append(colour ? Terminal.red + text + Terminal.reset : text)
      }
      for child in node.children { render(child, depth: depth + 1) }
    }
    for node in nodes { render(node, depth: 0) }
    for note in notes { result.append("note: " + note) }
    for warning in warnings {
      result.append(colour ? Terminal.yellow + "warning: " + warning + Terminal.reset : "warning: " + warning)
    }
    return result
  }

  static func widestOffset(_ nodes: [TreeNode]) -> Int {
    nodes.reduce(0) { max($0, max($1.offset ?? 0, widestOffset($1.children))) }
  }
}

/// Small helpers shared by the tree builders.
enum Describe {
  /// `0x04`.
  static func hex(_ byte: UInt8) -> String { "0x" + HexDump.byteHex(byte) }

  /// `0x1234` (big-endian display of a 16-bit value).
  static func hex16(_ value: UInt16) -> String {
    "0x" + HexDump.byteHex(UInt8(value >> 8)) + HexDump.byteHex(UInt8(truncatingIfNeeded: value))
  }

  /// `1` or `0` for a flag bit.
  static func bit(_ value: Bool) -> String { value ? "1" : "0" }

  /// Text for people: quoted, with control characters escaped, cut after `limit` characters.
  static func quoted(_ text: String, limit: Int = 64) -> String {
    var shown = ""
    for (index, scalar) in text.unicodeScalars.enumerated() {
      if index == limit {
        shown += "…"
        break
      }
      shown += scalar.value < 0x20 || scalar.value == 0x7F ? scalar.escaped(asASCII: true) : String(scalar)
    }
    return "\"" + shown + "\""
  }

  /// `N byte(s)`.
  static func bytes(_ count: Int) -> String { counted(count, "byte", "bytes") }

  /// The scalar fields of a JSON object as lines without offsets (what a view gives no
  /// offsets for), nested objects and arrays indented.
  static func jsonNodes(_ value: JSON, skip: Set<String> = []) -> [TreeNode] {
    switch value {
    case .object(let pairs):
      return pairs.filter { !skip.contains($0.0) }.map { key, item in
        if let text = JSONTree.scalar(item) { return TreeNode(key, text + JSONTree.annotation(key, item)) }
        return TreeNode(key, children: jsonNodes(item))
      }
    case .array(let items):
      return items.enumerated().map { index, item in
        if let text = JSONTree.scalar(item) { return TreeNode("[\(index)]", text) }
        return TreeNode("[\(index)]", children: jsonNodes(item))
      }
    default:
      return [TreeNode(JSONTree.scalar(value) ?? "")]
    }
  }

  /// `code at offset N: message` for each warning object of a JSON result.
  static func warnings(_ json: JSON, key: String = "warnings") -> [String] {
    guard case .object(let pairs) = json, let list = pairs.first(where: { $0.0 == key })?.1,
      case .array(let items) = list
    else { return [] }
    return items.compactMap { item in
      guard case .object(let fields) = item else { return nil }
      var code = ""
      var offset = 0
      var message = ""
      for (key, value) in fields {
        switch (key, value) {
        case ("code", .string(let text)): code = text
        case ("offset", .int(let number)): offset = number
        case ("message", .string(let text)): message = text
        default: break
        }
      }
      return "\(code) at offset \(offset): \(message)"
    }
  }
}
