// SPDX-License-Identifier: Apache-2.0
import NDEF

/// One line per record of an NDEF message (article "Decoding a tag's NDEF message").
func describeRecords(_ bytes: [UInt8], options: NDEFDecodingOptions = .strict) throws(NDEFError) -> [String] {
  let message = try NDEFMessageView(validating: bytes.span, options: options)
  var lines: [String] = []
  var records = message.records
  while let record = records.next() {
    switch try DecodedRecord(decoding: record, options: options) {
    case .uri(let uri):
      lines.append("URI \(uri.uri)")
    case .text(let text):
      lines.append("Text [\(text.language)] \(text.string)")
    case .smartPoster(let poster):
      var titles = poster.titles
      var line = "Smart Poster \(poster.uri?.uri ?? "(no URI)")"
      while let title = titles.next() { line += " [\(title.language)] \(title.string)" }
      lines.append(line)
    case .chunked:
      let payload = try record.assembledPayload()
      lines.append("chunked record, \(payload.count) bytes assembled")
    default:
      lines.append("\(record.typeNameFormat) record, \(record.payloadLength) payload bytes")
    }
  }
  for warning in message.warnings { lines.append("warning: \(warning)") }
  return lines
}

/// The Smart Poster of the article "Building and writing a Smart Poster".
func menuPoster() throws(NDEFError) -> NDEFMessage {
  let poster = SmartPoster(
    uri: "https://example.com/menu",
    titles: [
      TextRecord(language: "en", text: "Today's menu"),
      TextRecord(language: "fr", text: "Menu du jour"),
    ],
    action: .doAction)
  return NDEFMessage(records: [try poster.record()])
}

/// The round-trip oracle of the article "Fuzzing and benchmarking", for one input.
func roundTrips(_ input: [UInt8]) -> Bool {
  guard let message = try? NDEFMessage(parsing: input) else { return true }  // rejected: fine
  guard let encoded = try? message.encodedBytes() else { return false }
  return (try? NDEFMessage(parsing: encoded)) == message
}

func checkNDEF() {
  group("NDEF: README example (view, owned model, encoder)") {
    let bytes: [UInt8] = [0xD1, 0x01, 0x08, 0x55, 0x01, 0x6E, 0x66, 0x63, 0x2E, 0x63, 0x6F, 0x6D]
    let message = try NDEFMessageView(validating: bytes.span)
    expectEqual(message.recordCount, 1, "record count")
    var owned = try NDEFMessage(message)
    owned.records.append(
      NDEFRecord(typeNameFormat: .wellKnown, type: Array("T".utf8), payload: [0x02] + Array("enHi".utf8)))
    let encoded = try owned.encodedBytes()
    expectEqual(encoded.count, try owned.encodedCount(), "encodedCount is exact")
    expectEqual(try describeRecords(encoded), ["URI http://www.nfc.com", "Text [en] Hi"], "decoded records")
  }

  group("NDEF: errors carry a code and an absolute offset") {
    let truncated: [UInt8] = [0xD1, 0x01, 0x09, 0x55, 0x01, 0x6E]
    do throws(NDEFError) {
      _ = try NDEFMessageView(validating: truncated.span, baseOffset: 100)
      check(false, "a truncated record must not validate")
    } catch {
      expectEqual(error.code, .payloadLengthExceedsInput, "error code")
      check(error.offset >= 100, "offset \(error.offset) is absolute")
    }
    // Lenient decoding accepts a missing MB and reports it.
    let noBegin: [UInt8] = [0x51, 0x01, 0x00, 0x58]
    let lines = try describeRecords(noBegin, options: .lenient)
    check(
      lines.count == 2 && lines[0] == "wellKnown (0x01) record, 0 payload bytes"
        && lines[1].hasPrefix("warning: missingMessageBegin at offset 0: "),
      "lenient warning listed: \(lines)")
  }

  group("NDEF: a malformed record is classified, not thrown") {
    // A URI record with the reserved prefix code 0x30, then a valid text record.
    let bytes: [UInt8] = [0x91, 0x01, 0x02, 0x55, 0x30, 0x61, 0x51, 0x01, 0x04, 0x54, 0x02, 0x65, 0x6E, 0x21]
    let message = try NDEFMessageView(validating: bytes.span)
    var records = message.records
    var kinds: [String] = []
    while let record = records.next() {
      switch DecodedRecord(classifying: record) {
      case .malformed(let bad):
        kinds.append("malformed \(bad.recordType) \(bad.error.code) at \(bad.error.offset)")
      case .text(let text): kinds.append("text \(text.string)")
      default: kinds.append("other")
      }
    }
    expectEqual(kinds, ["malformed uri uriReservedPrefix at 4", "text !"], "classified records")
  }

  group("NDEF: Smart Poster built, encoded and decoded back") {
    let message = try menuPoster()
    let bytes = try message.encodedBytes()
    expectEqual(bytes.count, 71, "encoded size (article)")
    expectEqual(Array(bytes.prefix(5)), [0xD1, 0x02, 0x42, 0x53, 0x70], "encoded header (article)")
    expectEqual(
      try describeRecords(bytes),
      ["Smart Poster https://example.com/menu [en] Today's menu [fr] Menu du jour"], "poster")
    let view = try NDEFMessageView(validating: bytes.span)
    var records = view.records
    guard let record = records.next() else { return check(false, "no record") }
    let poster = try SmartPoster(SmartPosterView(validating: record))
    expectEqual(poster.action, .doAction, "action")
    expectEqual(poster.titles.map(\.text), ["Today's menu", "Menu du jour"], "titles")
    expectEqual(try NDEFMessage(parsing: bytes), message, "owned model round trip")
  }

  group("NDEF: round-trip oracle over a few inputs") {
    let inputs: [[UInt8]] = [
      [0xD1, 0x01, 0x08, 0x55, 0x01, 0x6E, 0x66, 0x63, 0x2E, 0x63, 0x6F, 0x6D],
      [0xD0, 0x00, 0x00], [0x00], [], [0xB5, 0x01, 0x00],
    ]
    for input in inputs { check(roundTrips(input), "round trip of \(input)") }
  }
}
