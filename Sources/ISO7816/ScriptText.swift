// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The plain text format of applet-update scripts.
///
/// One command per line, as hex; an optional expectation after `->`; comments after `#`,
/// `;` or `//`; blank lines ignored. Grammar (whitespace is spaces and tabs; lines end with
/// LF or CR LF):
///
/// ```text
/// script      = *( line EOL ) [ line ]
/// line        = [ step ] [ comment ]
/// comment     = ( "#" / ";" / "//" ) *any-character
/// step        = command [ "->" expectation ]
/// command     = hex-bytes                      ; one command APDU (ISO/IEC 7816-4 §5.1)
/// expectation = [ hex-bytes ] patterns         ; expected response data, then status words
/// patterns    = pattern *( "|" pattern )       ; one token: no whitespace around "|"
/// pattern     = 4( HEXDIG / "X" / "x" )        ; X ignores a nibble: 9000, 61XX, 63CX, XXXX
/// hex-bytes   = an even number of HEXDIG, whitespace allowed between digits
/// ```
///
/// The last whitespace-separated token of an expectation is always the status word list;
/// anything before it is the exact response data expected. A step without `->` expects
/// 9000; `-> XXXX` accepts any status word. Example:
///
/// ```text
/// # select the issuer security domain
/// 00A4040008A000000151000000 -> 9000
/// 80CA9F7F00 -> 61XX|9000        ; CPLC, possibly through GET RESPONSE
/// 0020008008 2412345FFFFFFFFF -> 9000|63CX
/// 80CA006600 -> 6600 XXXX        // data 66 00, any status word
/// ```
extension Script {
  /// Parses the plain text format.
  ///
  /// - Throws: ``APDUError`` with the UTF-8 byte offset in `text` and the step index:
  ///   ``APDUError/Code/invalidHex`` (a character that is not a hex digit, an odd digit
  ///   count, an expectation without a command), ``APDUError/Code/invalidStatusWordPattern``,
  ///   or the command APDU's decoding error at the offending byte.
  public init(parsingText text: String) throws(APDUError) {
    let bytes = Array(text.utf8)
    var steps: [ScriptStep] = []
    var lineStart = 0
    while lineStart < bytes.count {
      var lineEnd = lineStart
      while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
      var contentEnd = lineEnd
      var index = lineStart
      while index < lineEnd {
        let c = bytes[index]
        if c == UInt8(ascii: "#") || c == UInt8(ascii: ";")
          || (c == UInt8(ascii: "/") && index + 1 < lineEnd && bytes[index + 1] == UInt8(ascii: "/"))
        {
          contentEnd = index
          break
        }
        index += 1
      }
      if let step = try Self.parseLine(bytes, lineStart, contentEnd, stepIndex: steps.count) {
        steps.append(step)
      }
      lineStart = lineEnd + 1
    }
    self.steps = steps
  }

  private static func isSpace(_ c: UInt8) -> Bool {
    c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") || c == UInt8(ascii: "\r")
  }

  private static func nibble(_ c: UInt8) -> UInt8? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
    default: return nil
    }
  }

  /// Hex digits in `start..<end` (whitespace skipped), with each byte's text offset.
  private static func hexBytes(_ text: [UInt8], _ start: Int, _ end: Int, step: Int)
    throws(APDUError) -> (bytes: [UInt8], offsets: [Int])
  {
    var result: [UInt8] = []
    var offsets: [Int] = []
    var high: UInt8? = nil
    for index in start..<end {
      let c = text[index]
      if isSpace(c) { continue }
      guard let value = nibble(c) else { throw APDUError(.invalidHex, offset: index, step: step) }
      if let h = high {
        result.append(h << 4 | value)
        high = nil
      } else {
        high = value
        offsets.append(index)
      }
    }
    if high != nil, let last = offsets.last { throw APDUError(.invalidHex, offset: last, step: step) }
    return (result, offsets)
  }

  private static func parseLine(_ text: [UInt8], _ start: Int, _ end: Int, stepIndex: Int)
    throws(APDUError) -> ScriptStep?
  {
    var arrow: Int? = nil
    var index = start
    while index + 1 < end {
      if text[index] == UInt8(ascii: "-") && text[index + 1] == UInt8(ascii: ">") {
        arrow = index
        break
      }
      index += 1
    }
    let commandEnd = arrow ?? end
    let command = try hexBytes(text, start, commandEnd, step: stepIndex)
    if command.bytes.isEmpty {
      if let arrow { throw APDUError(.invalidHex, offset: arrow, step: stepIndex) }
      return nil
    }
    let view: CommandAPDU
    let extended: Bool
    do {
      let parsed = try CommandAPDUView(validating: command.bytes.span.bytes)
      view = CommandAPDU(parsed)
      extended = parsed.apduCase.isExtended
    } catch {
      let mapped = error.offset < command.offsets.count ? command.offsets[error.offset] : commandEnd
      throw APDUError(error.code, offset: mapped, step: stepIndex)
    }
    var step = ScriptStep(command: view, lengthEncoding: extended ? .extended : .shortest)
    guard let arrow else { return step }
    // Tokens of the expectation.
    var tokens: [(start: Int, end: Int)] = []
    index = arrow + 2
    while index < end {
      while index < end && isSpace(text[index]) { index += 1 }
      guard index < end else { break }
      let tokenStart = index
      while index < end && !isSpace(text[index]) { index += 1 }
      tokens.append((tokenStart, index))
    }
    guard let last = tokens.last else {
      throw APDUError(.invalidStatusWordPattern, offset: arrow, step: stepIndex)
    }
    var patterns: [StatusWordPattern] = []
    var patternStart = last.start
    for position in last.start...last.end {
      if position == last.end || text[position] == UInt8(ascii: "|") {
        let slice = String(decoding: text[patternStart..<position], as: UTF8.self)
        guard let pattern = StatusWordPattern(text: Substring(slice)) else {
          throw APDUError(.invalidStatusWordPattern, offset: patternStart, step: stepIndex)
        }
        if pattern != .any { patterns.append(pattern) } else { patterns = []; break }
        patternStart = position + 1
      }
    }
    step.expectedStatusWords = patterns
    if tokens.count > 1 {
      step.expectedData = try hexBytes(text, tokens[0].start, tokens[tokens.count - 2].end, step: stepIndex)
        .bytes
    }
    return step
  }

  /// The script in the plain text format: one line per step, uppercase hex, `-> data SW`.
  ///
  /// - Throws: ``APDUError/Code/invalidStatusWordPattern`` (with the step) for a mask that
  ///   does not ignore whole nibbles, and the command encoder's errors.
  public func text() throws(APDUError) -> String {
    var lines = ""
    for (index, step) in steps.enumerated() {
      let command: [UInt8]
      do { command = try step.command.encodedBytes(lengthEncoding: step.lengthEncoding) } catch {
        throw error.at(step: index)
      }
      lines += Hex.string(command).uppercased() + " -> "
      if let data = step.expectedData, !data.isEmpty { lines += Hex.string(data).uppercased() + " " }
      if step.expectedStatusWords.isEmpty {
        lines += "XXXX"
      } else {
        var first = true
        for pattern in step.expectedStatusWords {
          guard let text = pattern.text else {
            throw APDUError(.invalidStatusWordPattern, offset: 0, step: index)
          }
          lines += (first ? "" : "|") + text
          first = false
        }
      }
      lines += "\n"
    }
    return lines
  }
}
