// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A one-line progress display on standard error (`[  12/200] name`), redrawn in place with
/// `\r`, only when standard error is a terminal (never in a pipe or a file, nor with
/// `TERM=dumb` or `NO_COLOR` set, which ask for plain output), at most every 100 ms, and
/// erased when the work ends.
struct Progress {
  let total: Int
  let enabled: Bool
  var lastDraw: UInt64 = 0
  var drawn = false

  /// Seconds between redraws, in nanoseconds.
  static let interval: UInt64 = 100_000_000

  init(total: Int) {
    self.total = total
    self.enabled = total > 1 && Self.shown(STDERR_FILENO)
  }

  /// Whether progress goes to `descriptor`: a terminal that is not `dumb`, without `NO_COLOR`.
  static func shown(_ descriptor: Int32) -> Bool {
    guard isatty(descriptor) == 1 else { return false }
    let environment = ProcessInfo.processInfo.environment
    if let value = environment["NO_COLOR"], !value.isEmpty { return false }
    return environment["TERM"] != "dumb"
  }

  mutating func update(_ done: Int, label: String) {
    guard enabled else { return }
    let now = DispatchTime.now().uptimeNanoseconds
    guard !drawn || now &- lastDraw >= Self.interval || done == total else { return }
    lastDraw = now
    drawn = true
    let width = String(total).count
    let count = String(repeating: " ", count: max(0, width - String(done).count)) + String(done)
    let name = label.count > 60 ? "…" + label.suffix(59) : label
    FileHandle.standardError.write(Data("\r\u{1B}[K[\(count)/\(total)] \(name)".utf8))
  }

  /// Erases the line (before other output, or at the end).
  mutating func clear() {
    guard enabled, drawn else { return }
    FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    drawn = false
  }

  mutating func finish() { clear() }
}

/// Standard output of a batch (a directory, a `--lines` input), written in pieces of about
/// 64 KB with the progress line erased before each write, so the two never interleave.
struct BatchOutput {
  var progress: Progress
  private var text = ""

  init(total: Int) { progress = Progress(total: total) }

  /// Appends one entry's output (ending in a newline).
  mutating func append(_ entry: String) {
    text += entry
    if text.utf8.count > 1 << 16 { flush() }
  }

  /// Erases the progress line and writes what remains.
  mutating func finish() {
    progress.finish()
    flush()
  }

  private mutating func flush() {
    progress.clear()
    FileHandle.standardOutput.write(Data(text.utf8))
    text = ""
  }
}
