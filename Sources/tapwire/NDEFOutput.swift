// SPDX-License-Identifier: Apache-2.0
import JSONOutput
import NDEF
import NFCWire

/// JSON (per `Documentation/cli-json.md`, format `ndef`) and human output for NDEF messages.
enum NDEFOutput {
  static func warningJSON(_ warning: NDEFWarning) -> JSON {
    .object([
      ("code", .string(warning.code.name)), ("offset", .int(warning.offset)),
      ("message", .string(warning.code.message)),
    ])
  }

  static func errorJSON(format: String, code: String, offset: Int, message: String) -> JSON {
    .object([
      ("ok", .bool(false)), ("format", .string(format)),
      ("error", .object([("code", .string(code)), ("offset", .int(offset)), ("message", .string(message))])),
    ])
  }

  /// One RECORD object, with `decoded` when Tapwire knows the record type. Record-type
  /// warnings (lenient mode) go to `collected`.
  static func recordJSON(_ record: borrowing NDEFRecordView, options: NDEFDecodingOptions, depth: Int = 0)
    throws(NDEFError) -> JSON
  {
    var collected: [NDEFWarning] = []
    return try recordJSON(record, options: options, depth: depth, warnings: &collected)
  }

  static func recordJSON(
    _ record: borrowing NDEFRecordView, options: NDEFDecodingOptions, depth: Int,
    warnings: inout [NDEFWarning]
  ) throws(NDEFError) -> JSON {
    var pairs: [(String, JSON)] = [
      ("offset", .int(record.offset)),
      ("tnf", .int(Int(record.typeNameFormat.rawValue))),
      ("tnfName", .string(record.typeNameFormat.name)),
      ("type", .string(Hex.string(record.type))),
    ]
    if record.type.byteCount > 0 && record.type.isPrintableASCII {
      pairs.append(("typeText", .string(String(decoding: record.type.copiedBytes(), as: UTF8.self))))
    }
    let payload = try record.assembledPayload(maximumSize: options.maximumAssembledPayloadSize)
    pairs += [
      ("id", .string(Hex.string(record.id))),
      ("payload", .string(Hex.string(payload))),
      ("chunks", .int(record.chunkCount)),
    ]
    let decoded: JSON?
    if record.isChunked {
      let type = record.type
      let view = DecodedRecord(
        classifying: record.typeNameFormat, type: type, payload: payload.span.bytes,
        payloadOffset: record.payloadOffset, typeOffset: record.typeOffset, options: options, depth: depth)
      collect(view, depth: depth, into: &warnings)
      decoded = try NDEFDecodedOutput.json(view, options: options, depth: depth)
    } else {
      let view = DecodedRecord(classifying: record, options: options, depth: depth)
      collect(view, depth: depth, into: &warnings)
      decoded = try NDEFDecodedOutput.json(view, options: options, depth: depth)
    }
    if let decoded { pairs.append(("decoded", decoded)) }
    return .object(pairs)
  }

  /// A record's lenient warnings, then those of the records nested in it (Smart Poster,
  /// handover), each once: a poster's view already holds its URI and Title warnings.
  static func collect(_ view: borrowing DecodedRecord, depth: Int, into warnings: inout [NDEFWarning]) {
    warnings += NDEFDecodedOutput.warnings(view)
    var nested: [NDEFWarning] = []
    switch view {
    case .smartPoster(let poster):
      nestedWarnings(poster.message, depth: depth + 1, into: &nested)
    case .handover(let handover):
      if let message = handover.message { nestedWarnings(message, depth: depth + 1, into: &nested) }
    default:
      break
    }
    for warning in nested where !warnings.contains(warning) { warnings.append(warning) }
  }

  static func nestedWarnings(
    _ message: borrowing NDEFMessageView, depth: Int, into warnings: inout [NDEFWarning]
  ) {
    var records = message.records
    while let record = records.next() {
      _ = try? recordJSON(record, options: message.options, depth: depth, warnings: &warnings)
    }
  }

  /// The JSON object for a decoded message.
  static func messageJSON(_ message: borrowing NDEFMessageView) throws(NDEFError) -> JSON {
    var records: [JSON] = []
    var warnings = message.warnings
    var iterator = message.records
    while let record = iterator.next() {
      records.append(try recordJSON(record, options: message.options, depth: 0, warnings: &warnings))
    }
    return .object([
      ("ok", .bool(true)), ("format", .string("ndef")), ("records", .array(records)),
      ("warnings", .array(warnings.map(warningJSON))),
    ])
  }

  /// Decodes `bytes` and renders JSON; the Bool is whether decoding succeeded.
  static func json(_ bytes: [UInt8], options: NDEFDecodingOptions) -> (JSON, Bool) {
    do {
      let message = try NDEFMessageView(validating: bytes.span, options: options)
      return NDEFDecodedOutput.applyingMalformed(try messageJSON(message), lenient: options.isLenient)
    } catch {
      if let partial = partialJSON(bytes, options: options, failure: error) { return (partial, false) }
      return (
        errorJSON(format: "ndef", code: error.code.name, offset: error.offset, message: error.code.message),
        false
      )
    }
  }

  /// The records before the one that cannot be framed (NDEF 1.0 §3.2: nothing after a bad
  /// record's lengths can be located), when there are any and the strict record walk stops
  /// at exactly `failure`: `"ok": false`, `error` (the framing error), `records`, `errors`
  /// (the framing error, then each kept malformed record's). `nil` otherwise.
  static func partialJSON(_ bytes: [UInt8], options: NDEFDecodingOptions, failure: NDEFError) -> JSON? {
    var warnings: [NDEFWarning] = []
    guard
      let records = partialRecords(
        bytes, baseOffset: 0, options: options, failure: failure, warnings: &warnings)
    else { return nil }
    let error = warningJSON(NDEFWarning(failure.code, offset: failure.offset))
    let recordsJSON = JSON.array(records)
    return .object([
      ("ok", .bool(false)), ("format", .string("ndef")), ("error", error), ("records", recordsJSON),
      ("errors", .array([error] + NDEFDecodedOutput.malformedErrors(in: recordsJSON))),
      ("warnings", .array(warnings.map(warningJSON))),
    ])
  }

  /// The RECORD objects before the one that cannot be framed, when there are any and the
  /// strict record walk over `bytes` (at `baseOffset`) stops at exactly `failure`.
  static func partialRecords(
    _ bytes: [UInt8], baseOffset: Int, options: NDEFDecodingOptions, failure: NDEFError,
    warnings: inout [NDEFWarning]
  ) -> [JSON]? {
    var records: [JSON] = []
    let reached = forEachFramedRecord(bytes, baseOffset: baseOffset, options: options, failure: failure) {
      (record) throws(NDEFError) in
      records.append(try recordJSON(record, options: options, depth: 0, warnings: &warnings))
    }
    guard reached, !records.isEmpty else { return nil }
    return records
  }

  /// Calls `body` with each record that can be framed before the strict walk over `bytes`
  /// stops, and says whether it stopped at exactly `failure`.
  ///
  /// After `missingMessageEnd` or `dataAfterMessageEnd` (NDEF 1.0 §3.2.2) every record is
  /// framed and broke no per-record rule, the last one included, so they all come from the
  /// lenient view of the same bytes; after any other error, the records before it.
  static func forEachFramedRecord(
    _ bytes: [UInt8], baseOffset: Int, options: NDEFDecodingOptions, failure: NDEFError,
    _ body: (borrowing NDEFRecordView) throws(NDEFError) -> Void
  ) -> Bool {
    if failure.code == .missingMessageEnd || failure.code == .dataAfterMessageEnd {
      var lenient = options
      lenient.isLenient = true
      if let message = try? NDEFMessageView(validating: bytes.span, baseOffset: baseOffset, options: lenient),
        message.warnings == [NDEFWarning(failure.code, offset: failure.offset)]
      {
        var iterator = message.records
        do throws(NDEFError) {
          while let record = iterator.next() { try body(record) }
        } catch {
          return false
        }
        return true
      }
    }
    var iterator = NDEFMessageView.checkedRecords(
      bytes.span.bytes, baseOffset: baseOffset, maximumRecordCount: options.maximumRecordCount)
    do throws(NDEFError) {
      while let record = try iterator.next() { try body(record) }
    } catch {
      return error == failure
    }
    return false
  }
}
