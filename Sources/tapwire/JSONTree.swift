import NDEF

/// Renders JSON values as an indented `key: value` tree for the human-readable output.
enum JSONTree {
  static func scalar(_ value: JSON) -> String? {
    switch value {
    case .null: return "(none)"
    case .bool(let b): return b ? "yes" : "no"
    case .int(let i): return String(i)
    case .string(let s): return s.isEmpty ? "(empty)" : s
    case .array(let a) where a.isEmpty: return "(none)"
    case .object(let o) where o.isEmpty: return "(none)"
    default: return nil
    }
  }

  /// A note added after some values, e.g. the URI prefix a code stands for.
  static func annotation(_ key: String, _ value: JSON) -> String {
    if key == "prefixCode", case .int(let code) = value, code < URIRecordView.prefixes.count {
      return " = \"\(URIRecordView.prefixes[code])\""
    }
    // Type 4 CC file access conditions (T4T 3.0 §5.1.2): 00 granted, FF none, 80-FE proprietary.
    if key == "readAccess" || key == "writeAccess", case .int(let condition) = value {
      switch condition {
      case 0x00: return " = granted"
      case 0xFF: return " = no access"
      case 0x80...0xFE: return " = proprietary"
      default: return " = reserved"
      }
    }
    return ""
  }

  static func lines(_ value: JSON, indent: String, skip: Set<String> = []) -> [String] {
    var result: [String] = []
    switch value {
    case .object(let pairs):
      for (key, item) in pairs where !skip.contains(key) {
        if let text = scalar(item) {
          result.append("\(indent)\(key): \(text)\(annotation(key, item))")
        } else {
          result.append("\(indent)\(key):")
          result += lines(item, indent: indent + "  ")
        }
      }
    case .array(let items):
      for (index, item) in items.enumerated() {
        if let text = scalar(item) {
          result.append("\(indent)[\(index)] \(text)")
        } else {
          result.append("\(indent)[\(index)]")
          result += lines(item, indent: indent + "  ")
        }
      }
    default:
      result.append(indent + (scalar(value) ?? ""))
    }
    return result
  }
}
