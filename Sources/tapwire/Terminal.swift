// SPDX-License-Identifier: Apache-2.0
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
}
