// SPDX-License-Identifier: Apache-2.0
import NDEF

/// The NDEF fuzz oracle: strict and lenient decoding, the owned model and the encoder
/// must agree on every input.
///
/// The whole input is the message; its first byte also picks the encoder's chunk size, so
/// raw `.ndef` seed files work unchanged.
public enum NDEFOracle {
  /// Checks one input; throws the first oracle that fails.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    let span = bytes.span.bytes
    let strict: Result<NDEFMessageView, NDEFError>
    do { strict = .success(try NDEFMessageView(validating: span)) } catch { strict = .failure(error) }
    let lenientView: NDEFMessageView?
    let lenientError: NDEFError?
    do {
      lenientView = try NDEFMessageView(validating: span, options: .lenient)
      lenientError = nil
    } catch {
      lenientView = nil
      lenientError = error
    }
    // Every error offset lies inside the input or at its end.
    if case .failure(let error) = strict {
      try require(error.offset >= 0 && error.offset <= bytes.count, "strict error offset \(error)")
    }
    if let lenientError {
      try require(lenientError.offset <= bytes.count, "lenient error offset \(lenientError)")
    }

    try checkSinglePass(span, strict: strict)

    switch strict {
    case .success(let view):
      // Strict success implies lenient success with no warnings and the same records.
      guard let lenientView else { throw OracleFailure("strict ok but lenient failed: \(lenientError!)") }
      try require(lenientView.warnings.isEmpty, "strict ok but lenient warned \(lenientView.warnings)")
      try require(lenientView.recordCount == view.recordCount, "record counts differ")
      try checkModel(view, bytes)
    case .failure(let error):
      if let lenientView {
        try require(!lenientView.warnings.isEmpty, "strict failed (\(error)) but lenient had no warning")
        // The lenient view still converts to a model without trapping.
        _ = try? NDEFMessage(lenientView)
      }
    }
  }

  /// `NDEFMessageView.checkedRecords` (one pass) hands out the records strict validation
  /// then iterates, or throws strict validation's error at the same offset.
  static func checkSinglePass(_ span: RawSpan, strict: borrowing Result<NDEFMessageView, NDEFError>)
    throws(OracleFailure)
  {
    var checked = NDEFMessageView.checkedRecords(span)
    var handedOut: [(offset: Int, chunks: Int, payload: Int, bytes: Int)] = []
    var failure: NDEFError? = nil
    do throws(NDEFError) {
      while let record = try checked.next() {
        handedOut.append((record.offset, record.chunkCount, record.payloadLength, record.bytes.byteCount))
      }
    } catch {
      failure = error
    }
    try require((try? checked.next()) == nil, "the checked iterator went on after its end")
    switch strict {
    case .failure(let error):
      try require(failure == error, "single pass threw \(String(describing: failure)), strict threw \(error)")
    case .success(let view):
      try require(failure == nil, "single pass threw \(failure!) on a valid message")
      var records = view.records
      var index = 0
      while let record = records.next() {
        try require(index < handedOut.count, "single pass handed out fewer records")
        let other = handedOut[index]
        try require(
          other.offset == record.offset && other.chunks == record.chunkCount
            && other.payload == record.payloadLength
            && other.bytes == record.bytes.byteCount, "single pass record \(index) differs")
        index += 1
      }
      try require(index == handedOut.count, "single pass handed out more records")
    }
  }

  /// View and owned model agree; the model encodes and decodes back; canonical input
  /// re-encodes byte for byte; chunked re-encoding decodes to the same model.
  static func checkModel(_ view: borrowing NDEFMessageView, _ bytes: [UInt8]) throws(OracleFailure) {
    let model: NDEFMessage
    do { model = try NDEFMessage(view) } catch { throw OracleFailure("model from strict view: \(error)") }
    try require(model.records.count == view.recordCount, "model record count")
    var canonical = view.bytes.byteCount == bytes.count
    var iterator = view.records
    var index = 0
    while let record = iterator.next() {
      let owned = model.records[index]
      try require(owned.typeNameFormat == record.typeNameFormat, "tnf of record \(index)")
      try require(record.type.byteCount == owned.type.count, "type of record \(index)")
      try require(record.payloadLength == owned.payload.count, "payload length of record \(index)")
      try require(record.id.byteCount == owned.id.count, "id of record \(index)")
      if record.isChunked || record.header.shortRecord != (record.payloadLength <= 255)
        || record.header.idLengthPresent != (record.id.byteCount > 0)
      {
        canonical = false
      }
      index += 1
    }
    let encoded: [UInt8]
    do { encoded = try model.encodedBytes() } catch {
      throw OracleFailure("encode of decoded model: \(error)")
    }
    if canonical { try require(encoded == bytes, "canonical input did not re-encode byte for byte") }
    do {
      try require(try NDEFMessage(parsing: encoded) == model, "decode(encode(m)) != m")
      let chunkSize = Int(bytes.first ?? 0) % 64 + 1
      let chunked = try model.encodedBytes(options: NDEFEncodingOptions(maximumChunkPayloadSize: chunkSize))
      try require(try NDEFMessage(parsing: chunked) == model, "chunked re-encoding differs")
    } catch let error as NDEFError {
      throw OracleFailure("re-decode failed: \(error)")
    } catch let error as OracleFailure {
      throw error
    } catch {
      throw OracleFailure("unexpected \(error)")
    }
  }
}
