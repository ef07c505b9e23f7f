// SPDX-License-Identifier: Apache-2.0
import JSONOutput

/// The `originality` line `tapwire-nfc dump` prints after a Type 2 tag's memory line when the
/// tag answered GET_VERSION: READ_SIG's signature and its verdict, checked by `tapwire-nfc`
/// (it links libcrypto; `tapwire` does not). Its fields are tab-separated `name=kind:value`
/// (kind `b` bool, `i` integer, `s` string); `text` is the verdict in words.
struct OriginalityLine {
  /// The `originality` object's fields, in order (cli-json.md, `tapwire read --json`).
  var fields: [(String, JSON)] = []
  /// The verdict in words, as `ntag info` prints it.
  var text = ""

  /// Reads `line`; nil unless it is an `originality` line.
  init?(_ line: Substring) {
    let parts = line.split(separator: "\t")
    guard parts.first == "originality" else { return nil }
    for part in parts.dropFirst() {
      guard let equals = part.firstIndex(of: "=") else { continue }
      let name = String(part[..<equals])
      let typed = part[part.index(after: equals)...]
      guard typed.count >= 2, typed.dropFirst().first == ":" else { continue }
      let value = String(typed.dropFirst(2))
      if name == "text" {
        text = value
        continue
      }
      switch typed.first {
      case "b": fields.append((name, .bool(value == "true")))
      case "i": fields.append((name, Int(value).map(JSON.int) ?? .string(value)))
      default: fields.append((name, .string(value)))
      }
    }
  }

  /// The `originality` object.
  var json: JSON { .object(fields) }

  /// The line human and `--dump` output end with.
  var humanLine: String { "originality signature: \(text)" }
}
