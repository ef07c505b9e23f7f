// SPDX-License-Identifier: Apache-2.0
import Foundation
import NFCWire

/// What an option's value is, with its range: the one place a command-line value is checked.
///
/// Every value-taking option of every command names one kind in ``CommandTable``;
/// ``ParsedCommand/parse(_:_:)`` checks each value against it before a command runs, so no
/// command converts a value that could trap (a duration of `1e300` seconds, a count past
/// `Int.max`, `nan`).
public enum OptionKind: Sendable, Equatable {
  /// A duration in seconds (decimal, fractions allowed), finite and in `minimum...maximum`,
  /// with `minimum` excluded when `exclusiveMinimum`.
  case seconds(minimum: Double, maximum: Double, exclusiveMinimum: Bool)
  /// A whole number in the range (decimal, or `0x` hex when `hex` is true).
  case count(ClosedRange<Int>, hex: Bool)
  /// Hex digits (no separators) of a byte count in the range.
  case hexBytes(ClosedRange<Int>)
  /// Hex of exactly one of these byte counts (a key of 16, 24 or 32 bytes, say).
  case hexOneOf([Int])
  /// An application identifier (ISO/IEC 7816-4 §12.2.3: 5 to 16 bytes of hex).
  case aid
  /// A GlobalPlatform key: 16, 24 or 32 bytes of hex, or `test` for the well-known test key.
  case secureChannelKey
  /// A MIFARE Classic key: `A:` or `B:` and 6 bytes of hex.
  case mifareKey
  /// A file that must exist and be readable.
  case inputFile
  /// A path to write (not empty).
  case outputFile
  /// A file that must exist, or hex bytes (at most `maximumBytes`).
  case fileOrHex(maximumBytes: Int)
  /// One of these words.
  case choice([String])
  /// One of these words, ASCII case ignored (`st25tv` for `ST25TV`).
  case choiceIgnoringCase([String])
  /// Text of 1 to `maximumBytes` UTF-8 bytes, without control characters.
  case text(maximumBytes: Int)
  /// An environment variable name (`[A-Za-z_][A-Za-z0-9_]*`).
  case environmentName

  /// The value's placeholder-free description for help text and errors ("seconds, more than 0
  /// and at most 86400").
  public var summary: String {
    switch self {
    case .seconds(let minimum, let maximum, let exclusive):
      return
        "seconds, \(exclusive ? "more than" : "at least") \(Self.number(minimum)) and at most \(Self.number(maximum))"
    case .count(let range, let hex):
      return "a whole number from \(range.lowerBound) to \(range.upperBound)\(hex ? " (0x.. for hex)" : "")"
    case .hexBytes(let range):
      return range.lowerBound == range.upperBound
        ? "\(range.lowerBound) bytes of hex" : "\(range.lowerBound) to \(range.upperBound) bytes of hex"
    case .hexOneOf(let counts):
      return Self.list(counts.map(String.init)) + " bytes of hex"
    case .aid: return "an AID: 5 to 16 bytes of hex"
    case .secureChannelKey: return "16, 24 or 32 bytes of hex, or test"
    case .mifareKey: return "A:HEX or B:HEX, 6 bytes of hex"
    case .inputFile: return "a readable file"
    case .outputFile: return "a file to write"
    case .fileOrHex(let maximum): return "a readable file, or hex (at most \(maximum) bytes)"
    case .choice(let words): return "one of " + words.joined(separator: ", ")
    case .choiceIgnoringCase(let words): return "one of " + words.joined(separator: ", ") + " (any case)"
    case .text(let maximum): return "text (at most \(maximum) bytes)"
    case .environmentName: return "an environment variable name"
    }
  }

  /// A valid value of this kind (for tests, and examples in help): the smallest one where
  /// there is a range; `file` names a readable file for the file kinds.
  public func sampleValue(file: String) -> String {
    switch self {
    case .seconds(let minimum, _, let exclusive): return Self.number(exclusive ? minimum + 1 : minimum)
    case .count(let range, _): return String(range.lowerBound)
    case .hexBytes(let range): return String(repeating: "00", count: range.lowerBound)
    case .hexOneOf(let counts): return String(repeating: "00", count: counts.min() ?? 1)
    case .aid: return "A000000151"
    case .secureChannelKey: return "test"
    case .mifareKey: return "A:FFFFFFFFFFFF"
    case .inputFile: return file
    case .outputFile: return "tapwire-sample.out"
    case .fileOrHex: return "D00000"
    case .choice(let words), .choiceIgnoringCase(let words): return words.first ?? ""
    case .text: return "x"
    case .environmentName: return "TAPWIRE_SAMPLE"
    }
  }

  static func number(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
  }

  static func list(_ words: [String]) -> String {
    words.count <= 1
      ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
  }

  /// Checks `value`; returns nil when it is one, else why not (never the value itself, so a
  /// secret cannot leak through the message).
  public func problem(with value: String) -> String? {
    switch self {
    case .seconds(let minimum, let maximum, let exclusive):
      guard let seconds = Self.decimal(value) else { return "not a number of seconds" }
      if exclusive ? seconds <= minimum : seconds < minimum {
        return "must be \(exclusive ? "more than" : "at least") \(Self.number(minimum)) seconds"
      }
      if seconds > maximum { return "must be at most \(Self.number(maximum)) seconds" }
      return nil
    case .count(let range, let hex):
      guard let number = Self.wholeNumber(value, hex: hex) else { return "not a whole number" }
      guard range.contains(number) else { return "must be from \(range.lowerBound) to \(range.upperBound)" }
      return nil
    case .hexBytes(let range):
      guard let count = Self.hexByteCount(value) else {
        return "not hex bytes (an even number of hex digits)"
      }
      guard range.contains(count) else { return "needs \(summary), got \(count)" }
      return nil
    case .hexOneOf(let counts):
      guard let count = Self.hexByteCount(value) else {
        return "not hex bytes (an even number of hex digits)"
      }
      guard counts.contains(count) else { return "needs \(summary), got \(count)" }
      return nil
    case .aid:
      return OptionKind.hexBytes(5...16).problem(with: value).map { _ in "needs \(summary)" }
    case .secureChannelKey:
      if value == "test" { return nil }
      return OptionKind.hexOneOf([16, 24, 32]).problem(with: value).map { _ in "needs \(summary)" }
    case .mifareKey:
      let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
      guard parts.count == 2, ["A", "B", "a", "b"].contains(String(parts[0])),
        Self.hexByteCount(String(parts[1])) == 6
      else { return "needs \(summary)" }
      return nil
    case .inputFile:
      guard !value.isEmpty else { return "needs a file name" }
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: value, isDirectory: &isDirectory) else {
        return "no such file: \(Self.shown(value))"
      }
      guard !isDirectory.boolValue else { return "\(Self.shown(value)) is a directory" }
      guard FileManager.default.isReadableFile(atPath: value) else {
        return "cannot read \(Self.shown(value))"
      }
      return nil
    case .outputFile:
      return value.isEmpty ? "needs a file name" : Self.controlProblem(value)
    case .fileOrHex(let maximum):
      if !value.isEmpty, FileManager.default.fileExists(atPath: value) {
        return OptionKind.inputFile.problem(with: value)
      }
      guard let count = Self.hexByteCount(value) else { return "neither a readable file nor hex bytes" }
      guard count <= maximum else { return "at most \(maximum) bytes, got \(count)" }
      return nil
    case .choice(let words):
      guard words.contains(value) else {
        let hint = Self.closest(to: value, among: words).map { "; did you mean '\($0)'?" } ?? ""
        return "unknown value \(Self.shown(value)) (\(words.joined(separator: ", ")))\(hint)"
      }
      return nil
    case .choiceIgnoringCase(let words):
      let lowered = words.map { $0.lowercased() }
      return lowered.contains(value.lowercased()) ? nil : OptionKind.choice(words).problem(with: value)
    case .text(let maximum):
      guard !value.isEmpty else { return "needs text" }
      guard value.utf8.count <= maximum else { return "at most \(maximum) bytes, got \(value.utf8.count)" }
      return Self.controlProblem(value)
    case .environmentName:
      let bytes = Array(value.utf8)
      guard let first = bytes.first, first == 0x5F || Self.isLetter(first),
        bytes.allSatisfy({ $0 == 0x5F || Self.isLetter($0) || (0x30...0x39).contains($0) })
      else { return "not an environment variable name ([A-Za-z_][A-Za-z0-9_]*)" }
      return nil
    }
  }

  /// A decimal number (no `inf`, `nan` or hex floats); nil when not one or not finite.
  public static func decimal(_ text: String) -> Double? {
    let allowed = Set("0123456789.eE+-".utf8)
    guard !text.isEmpty, text.utf8.allSatisfy(allowed.contains), let value = Double(text), value.isFinite
    else { return nil }
    return value
  }

  /// A whole number: decimal, or `0x`-prefixed hex when `hex`; nil past `Int`'s range.
  public static func wholeNumber(_ text: String, hex: Bool) -> Int? {
    if hex, text.hasPrefix("0x") || text.hasPrefix("0X") {
      let digits = text.dropFirst(2)
      guard !digits.isEmpty, digits.allSatisfy(\.isHexDigit) else { return nil }
      return Int(digits, radix: 16)
    }
    let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
    guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return Int(text)
  }

  /// The bytes of hex text (digits only, either case), or nil: NFCWire's `Hex.bytes`.
  public static func hexBytes(_ text: String) -> [UInt8]? { Hex.bytes(text) }

  /// How many bytes non-empty hex text holds, or nil when it is not hex.
  static func hexByteCount(_ text: String) -> Int? {
    guard !text.isEmpty, let bytes = Hex.bytes(text) else { return nil }
    return bytes.count
  }

  static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }

  static func controlProblem(_ value: String) -> String? {
    if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      return "contains a control character"
    }
    if value.unicodeScalars.contains("\u{FFFD}") { return "is not valid UTF-8" }
    return nil
  }

  /// A value as an error message shows it: quoted, cut after 40 characters, controls escaped.
  static func shown(_ value: String) -> String {
    let cut = value.count > 40 ? String(value.prefix(40)) + "…" : value
    return "'" + cut.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : String($0) }.joined()
      + "'"
  }

  /// The closest word (edit distance at most 2), for "did you mean".
  public static func closest(to word: String, among candidates: [String]) -> String? {
    guard word.count < 64 else { return nil }
    let scored = candidates.map { ($0, distance(Array(word), Array($0))) }
    guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
    return best.0
  }

  static func distance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, ca) in a.enumerated() {
      var current = [i + 1]
      for (j, cb) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (ca == cb ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
