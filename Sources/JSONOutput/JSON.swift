// SPDX-License-Identifier: Apache-2.0
/// A JSON value with ordered object keys, so output follows the contract's field order: the
/// one JSON writer of both executables (`tapwire` and `tapwire-nfc`).
package enum JSON: Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// An integer, in decimal.
  case int(Int)
  /// A string (RFC 8259 §7 escapes; non-ASCII as it is).
  case string(String)
  /// An array, in order.
  case array([JSON])
  /// An object whose members are written in the order given.
  case object([(String, JSON)])

  /// How a value is spaced on its one line.
  package struct Layout: Sendable {
    /// Written between two array elements or two object members.
    let elementSeparator: String
    /// Written between an object member's name and its value.
    let nameSeparator: String

    /// `{"a":1,"b":[2,3]}`: no spaces (decoding, `--lines`, discovery and connection events).
    package static let compact = Layout(elementSeparator: ",", nameSeparator: ":")
    /// `{"a": 1, "b": [2, 3]}`: a space after each comma and colon (the reader and PC/SC
    /// commands' results).
    package static let spaced = Layout(elementSeparator: ", ", nameSeparator: ": ")
  }

  /// `.int(value)`, or `.null` when there is none.
  package init(_ value: Int?) { self = value.map(JSON.int) ?? .null }

  /// `.string(value)`, or `.null` when there is none.
  package init(_ value: String?) { self = value.map(JSON.string) ?? .null }

  /// Compact serialization (one line), as `--lines` needs.
  package var serialized: String { serialized(.compact) }

  /// The value on one line, spaced as `layout` says.
  package func serialized(_ layout: Layout) -> String {
    var out = ""
    write(into: &out, layout)
    return out
  }

  private func write(into out: inout String, _ layout: Layout) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .int(let value): out += String(value)
    case .string(let value): JSON.writeString(value, into: &out)
    case .array(let values):
      out += "["
      for (index, value) in values.enumerated() {
        if index > 0 { out += layout.elementSeparator }
        value.write(into: &out, layout)
      }
      out += "]"
    case .object(let pairs):
      out += "{"
      for (index, (key, value)) in pairs.enumerated() {
        if index > 0 { out += layout.elementSeparator }
        JSON.writeString(key, into: &out)
        out += layout.nameSeparator
        value.write(into: &out, layout)
      }
      out += "}"
    }
  }

  /// A string literal (RFC 8259 §7): `"` and `\` escaped, `\n`, `\r` and `\t` as their
  /// two-character escapes, other controls below U+0020 as `\u00xx`; everything else,
  /// non-ASCII included, as it is.
  private static func writeString(_ value: String, into out: inout String) {
    out += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 {
          let digits = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}
