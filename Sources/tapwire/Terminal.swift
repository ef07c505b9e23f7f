import Foundation

/// ANSI colour for the human tree and error lines, only on a terminal: never when the
/// stream is not a tty, when `NO_COLOR` is set to anything non-empty (no-color.org), or
/// when `TERM` is `dumb`.
enum Terminal {
  static let bold = "\u{1B}[1m"
  static let cyan = "\u{1B}[36m"
  static let dim = "\u{1B}[2m"
  static let red = "\u{1B}[31m"
  static let yellow = "\u{1B}[33m"
  static let reset = "\u{1B}[0m"

  /// Whether output to file descriptor `descriptor` gets colour.
  static func colours(_ descriptor: Int32) -> Bool {
    guard isatty(descriptor) == 1 else { return false }
    let environment = ProcessInfo.processInfo.environment
    if let value = environment["NO_COLOR"], !value.isEmpty { return false }
    return environment["TERM"] != "dumb"
  }

  /// The tree with the summary line bold, keys cyan and array indices dim; lines of other
  /// shapes (keys with spaces, free text) are left as they are.
  static func highlighted(_ lines: [String]) -> [String] {
    lines.enumerated().map { index, line in
      if index == 0 { return bold + line + reset }
      let body = line.drop { $0 == " " }
      let indent = String(line.prefix(line.count - body.count))
      if body.hasPrefix("["), let close = body.firstIndex(of: "]") {
        return indent + dim + body[...close] + reset + body[body.index(after: close)...]
      }
      let key: Substring
      if let separator = body.range(of: ": ") {
        key = body[..<separator.lowerBound]
      } else if body.hasSuffix(":") {
        key = body.dropLast()
      } else {
        return line
      }
      guard !key.isEmpty, !key.contains(" ") else { return line }
      return indent + cyan + key + reset + body[key.endIndex...]
    }
  }
}
