// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// Hex and ASCII views of bytes for the human-readable output.
enum HexDump {
  /// Lines of `0000  xx xx ...  ascii`, 16 bytes a line, offsets starting at `baseOffset`.
  static func lines(_ bytes: [UInt8], baseOffset: Int = 0, indent: String = "") -> [String] {
    var result: [String] = []
    var start = 0
    while start < bytes.count {
      let end = min(start + 16, bytes.count)
      let row = bytes[start..<end]
      var hexPart = row.map { byteHex($0) }.joined(separator: " ")
      hexPart += String(repeating: " ", count: (16 - row.count) * 3)
      let ascii = String(row.map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "." })
      result.append("\(indent)\(offsetText(baseOffset + start))  \(hexPart) \(ascii)")
      start = end
    }
    return result
  }

  /// The dump line holding `offset` and a caret under that byte (or just past the end).
  static func caret(_ bytes: [UInt8], at offset: Int) -> [String] {
    guard !bytes.isEmpty else { return ["  (no bytes)"] }
    let clamped = max(0, min(offset, bytes.count))
    let lineStart = min(clamped / 16 * 16, max(0, (bytes.count - 1) / 16 * 16))
    let line = lines(
      Array(bytes[lineStart..<min(lineStart + 16, bytes.count)]), baseOffset: lineStart, indent: "  ")
    let column = 2 + 4 + 2 + (clamped - lineStart) * 3
    return line + [String(repeating: " ", count: column) + "^^ offset \(offset)"]
  }

  static func byteHex(_ byte: UInt8) -> String { Hex.string([byte]) }

  static func offsetText(_ offset: Int) -> String {
    let text = String(offset, radix: 16)
    return String(repeating: "0", count: max(0, 4 - text.count)) + text
  }
}
