// SPDX-License-Identifier: Apache-2.0
import JSONOutput
import NDEF

/// Scalar JSON values as text for the human tree, and notes on some of them.
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
}
