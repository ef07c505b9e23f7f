// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// Command APDUs: a decoded APDU re-encodes (shortest form) to bytes that decode to the same
/// model; when the input already used the shortest form it comes back byte for byte.
public enum CommandAPDUOracle {
  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    let view: CommandAPDUView
    do { view = try CommandAPDUView(validating: bytes.span) } catch {
      try require(error.offset >= 0 && error.offset <= bytes.count, "error offset \(error)")
      return
    }
    let model = CommandAPDU(view)
    try require(model.data.count == view.data.byteCount && model.ne == view.ne, "view and model differ")
    do {
      let encoded = try model.encodedBytes()
      try require(try CommandAPDU(parsing: encoded) == model, "decode(encode(m)) != m")
      if try model.apduCase() == view.apduCase {
        try require(encoded == bytes, "shortest-form input did not re-encode byte for byte")
      }
      let extended = try model.encodedBytes(lengthEncoding: .extended)
      try require(try CommandAPDU(parsing: extended) == model, "extended re-encoding differs")
    } catch let failure as OracleFailure {
      throw failure
    } catch {
      throw OracleFailure("re-encoding failed: \(error)")
    }
  }
}

/// Response APDUs: data and status word re-encode to the input exactly.
public enum ResponseAPDUOracle {
  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    guard let model = try? ResponseAPDU(parsing: bytes) else {
      try require(bytes.count < 2, "a response of two or more bytes failed to decode")
      return
    }
    try require(model.encodedBytes() == bytes, "response did not re-encode byte for byte")
    _ = model.statusWord.meaning
    _ = model.statusWord.category.name
  }
}

/// BER-TLV: strict decoding is canonical (minimal lengths), so a decoded sequence must
/// re-encode byte for byte; strict success implies lenient success with the same objects.
public enum BERTLVOracle {
  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    for options in [BERTLVDecodingOptions.strict, .lenient] {
      var thrown: APDUError? = nil
      do throws(APDUError) {
        _ = try BERTLVSequenceView(validating: bytes.span.bytes, options: options)
      } catch {
        thrown = error
      }
      let scanned = try firstScanError(BERTLVScanner(bytes.span.bytes, options: options), end: bytes.count)
      try require(scanned == thrown, "the first scan error is not the validation error")
    }
    _ = GlobalPlatformRegistryEntry.scanStatusResponse(bytes)
    let strict = try? BERTLV.parseSequence(bytes)
    let lenient = try? BERTLV.parseSequence(bytes, options: .lenient)
    guard let strict else { return }
    try require(lenient == strict, "strict ok but lenient differs")
    do {
      try require(
        try BERTLV.encodedBytes(of: strict) == bytes, "strict BER-TLV did not re-encode byte for byte")
    } catch let failure as OracleFailure {
      throw failure
    } catch {
      throw OracleFailure("encoding failed: \(error)")
    }
  }
}

extension BERTLVOracle {
  /// The first error of a depth-first scan; every framed object must lie inside the input.
  static func firstScanError(_ scanner: consuming BERTLVScanner, end: Int) throws(OracleFailure) -> APDUError?
  {
    while let item = scanner.next() {
      switch item {
      case .malformed(let error):
        try require(error.offset >= 0 && error.offset <= end, "a scan error offset outside the input")
        return error
      case .object(let object):
        try require(
          object.offset >= 0 && object.valueOffset + object.length <= end,
          "a scanned object outside the input")
        if object.isConstructed, let error = try firstScanError(object.scannedChildren, end: end) {
          return error
        }
      }
    }
    return nil
  }
}

/// Applet-update scripts: the text format and both remote-APDU structures, each parsed,
/// re-encoded and parsed again to the same model.
public enum APDUScriptOracle {
  /// Checks one input against every script format.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    do {
      if let text = String(validating: bytes, as: UTF8.self), let script = try? Script(parsingText: text) {
        try require(try Script(parsingText: try script.text()) == script, "text script round trip differs")
      }
      if let command = try? RemoteCommandScript(parsing: bytes) {
        try require(
          try RemoteCommandScript(parsing: try command.encodedBytes()) == command,
          "remote command round trip differs")
      }
      if let response = try? RemoteResponseScript(parsing: bytes) {
        try require(
          try RemoteResponseScript(parsing: response.encodedBytes()) == response,
          "remote response round trip differs")
      }
    } catch let failure as OracleFailure {
      throw failure
    } catch {
      throw OracleFailure("re-encoding failed: \(error)")
    }
  }
}

/// Answers to reset (ISO/IEC 7816-3 §8): whatever parses re-encodes byte for byte (TCK
/// recomputed), and the span entry point at a base offset gives the same model.
public enum AnswerToResetOracle {
  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    let parsed = try? AnswerToReset(parsing: bytes)
    let atOffset = try? AnswerToReset(parsing: bytes.span.bytes, baseOffset: 1000)
    try require(parsed == atOffset, "the array and span entry points disagree")
    guard let parsed else { return }
    try require(bytes.count <= AnswerToReset.maximumSize, "an ATR over 33 bytes decoded")
    try require(
      (try? parsed.encodedBytes()) == bytes, "ATR did not re-encode byte for byte")
    try require(parsed.encodedCount == bytes.count, "encodedCount differs from the input size")
    _ = parsed.protocols
    _ = parsed.clockRateConversion
  }
}
