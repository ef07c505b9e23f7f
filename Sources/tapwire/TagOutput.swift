// SPDX-License-Identifier: Apache-2.0
import JSONOutput
import NDEF
import NFCTags
import NFCWire

/// JSON for tag memory images `t1t`, `t2t`, `t3t`, `t5t` (see `Documentation/cli-json.md`).
enum TagOutput {
  static func failure(_ error: NFCTagError) -> DecodeFailure {
    DecodeFailure(code: error.code.name, offset: error.offset, message: error.code.message)
  }

  static func warningJSON(_ warning: NFCTagWarning) -> JSON {
    .object([
      ("code", .string(warning.code.name)), ("offset", .int(warning.offset)),
      ("message", .string(warning.code.message)),
    ])
  }

  static func tlvsJSON(_ view: borrowing TagTLVAreaView) -> JSON {
    .array(
      view.tlvList().map { tlv in
        .object([
          ("type", .int(Int(tlv.type.rawValue))), ("typeName", .string(tlv.type.name)),
          ("offset", .int(tlv.offset)),
          ("length", .int(tlv.length)),
        ])
      })
  }

  /// The `ndef` object: the message's offset, length and records (offsets absolute in the
  /// image when the message is contiguous, else relative to the assembled bytes).
  static func ndefJSON(_ bytes: [UInt8], offset: Int, options: NDEFDecodingOptions) throws(NDEFError) -> JSON
  {
    if bytes.isEmpty {
      return .object([("offset", .int(offset)), ("length", .int(0)), ("records", .array([]))])
    }
    let message = try NDEFMessageView(validating: bytes.span, baseOffset: offset, options: options)
    var records: [JSON] = []
    var iterator = message.records
    while let record = iterator.next() { records.append(try NDEFOutput.recordJSON(record, options: options)) }
    return .object([("offset", .int(offset)), ("length", .int(bytes.count)), ("records", .array(records))])
  }

  static func envelope(
    _ format: String, cc: [(String, JSON)], tlvs: JSON, ndef: JSON, dataAreaSize: Int, maxNDEFSize: Int,
    readOnly: Bool, warnings: [NFCTagWarning], notes: [NFCTagWarning] = [], lenient: Bool
  ) -> JSON {
    let object = JSON.object([
      ("ok", .bool(true)), ("format", .string(format)), ("capabilityContainer", .object(cc)), ("tlvs", tlvs),
      ("ndef", ndef), ("dataAreaSize", .int(dataAreaSize)), ("maxNDEFSize", .int(maxNDEFSize)),
      ("readOnly", .bool(readOnly)), ("warnings", .array(warnings.map(warningJSON))),
      // What breaks no rule but a reader should know, in both modes (a lock area past the image).
      ("notes", .array(notes.map(warningJSON))),
    ])
    // A record whose payload breaks its record type keeps the image and the message.
    return NDEFDecodedOutput.applyingMalformed(object, lenient: lenient).0
  }

  /// The NDEF message of a TLV area: a view's bytes when contiguous, assembled otherwise.
  static func areaNDEF(_ area: borrowing TagTLVAreaView, options: NDEFDecodingOptions) throws(NFCTagError)
    -> (JSON, [JSON])
  {
    guard let tlv = area.area.ndefTLV else { return (.null, []) }
    let bytes: [UInt8]
    if let span = area.ndefBytes { bytes = span.copiedBytes() } else { bytes = area.assembledNDEFBytes() }
    return try messageJSON(bytes, offset: tlv.valueOffset, options: options)
  }

  /// The `ndef` object of a tag's message, and its framing error as a list (empty when it
  /// frames). A message whose record N cannot be framed keeps records 0..<N and gets an
  /// `error` (NDEF 1.0 §3.2: nothing after it can be located); when N is 0 it throws
  /// `invalidNDEFMessage`, as the whole image cannot be shown with it.
  static func messageJSON(_ bytes: [UInt8], offset: Int, options: NDEFDecodingOptions) throws(NFCTagError)
    -> (JSON, [JSON])
  {
    do throws(NDEFError) {
      return (try ndefJSON(bytes, offset: offset, options: options), [])
    } catch {
      var warnings: [NDEFWarning] = []
      guard
        let records = NDEFOutput.partialRecords(
          bytes, baseOffset: offset, options: options, failure: error, warnings: &warnings)
      else { throw NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error) }
      let errorJSON = NDEFOutput.warningJSON(NDEFWarning(error.code, offset: error.offset))
      let ndef = JSON.object([
        ("offset", .int(offset)), ("length", .int(bytes.count)), ("records", .array(records)),
        ("error", errorJSON),
      ])
      return (ndef, [errorJSON])
    }
  }

  /// The object for a tag whose NDEF lives in a TLV area (Types 1, 2 and 5).
  static func tlvImage(
    _ format: String, cc: [(String, JSON)], area: borrowing TagTLVAreaView, dataAreaSize: Int,
    maxNDEFSize: Int, readOnly: Bool, warnings: [NFCTagWarning], options: NDEFDecodingOptions
  ) throws(NFCTagError) -> JSON {
    let (ndef, framing) = try areaNDEF(area, options: options)
    let object = envelope(
      format, cc: cc, tlvs: tlvsJSON(area), ndef: ndef, dataAreaSize: dataAreaSize, maxNDEFSize: maxNDEFSize,
      readOnly: readOnly, warnings: warnings, notes: area.notes,
      lenient: options.isLenient)
    return applyingErrors(
      object, area.area.errors.map { warningJSON(NFCTagWarning($0.code, offset: $0.offset)) } + framing)
  }

  /// Errors that left the image decoded: a TLV area's strict-mode errors that left the NDEF
  /// TLV located (``TagTLVArea/errors``), then the NDEF message's framing error. `"ok":
  /// false`, `error` is the first (what strict validation reports) and `errors` lists them,
  /// then the malformed records' errors.
  static func applyingErrors(_ object: JSON, _ tlvErrors: [JSON]) -> JSON {
    guard !tlvErrors.isEmpty, case .object(var pairs) = object else { return object }
    let recordErrors = NDEFDecodedOutput.malformedErrors(in: object)
    if let index = pairs.firstIndex(where: { $0.0 == "ok" }) { pairs[index].1 = .bool(false) }
    pairs.removeAll { $0.0 == "error" }
    let at = (pairs.firstIndex(where: { $0.0 == "format" }) ?? 0) + 1
    pairs.insert(("error", tlvErrors[0]), at: at)
    pairs.insert(("errors", .array(tlvErrors + recordErrors)), at: at + 1)
    return .object(pairs)
  }

  static func decode(
    _ bytes: [UInt8], lenient: Bool,
    _ body: (TagDecodingOptions, NDEFDecodingOptions) throws(NFCTagError) -> JSON
  ) -> Result<JSON, DecodeFailure> {
    do throws(NFCTagError) {
      return .success(try body(lenient ? .lenient : .strict, lenient ? .lenient : .strict))
    } catch {
      if let inner = error.ndefError {
        return .failure(
          DecodeFailure(code: inner.code.name, offset: inner.offset, message: inner.code.message))
      }
      return .failure(failure(error))
    }
  }

  static func t1t(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    decode(bytes, lenient: lenient) { options, ndefOptions throws(NFCTagError) in
      let view = try Type1TagView(scanning: bytes.span.bytes, options: options)
      let cc = view.capabilityContainer
      return try tlvImage(
        "t1t",
        cc: [
          ("magic", .int(Int(cc.magic))), ("version", .int(Int(cc.version))), ("size", .int(Int(cc.size))),
          ("access", .int(Int(cc.access))), ("memorySize", .int(cc.memorySize)),
          ("static", .bool(cc.isStatic)),
        ], area: view.tlvArea, dataAreaSize: view.dataAreaSize,
        maxNDEFSize: view.maximumNDEFSize, readOnly: view.isReadOnly, warnings: view.warnings,
        options: ndefOptions)
    }
  }

  static func t2t(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    decode(bytes, lenient: lenient) { options, ndefOptions throws(NFCTagError) in
      let view = try Type2TagView(scanning: bytes.span.bytes, options: options)
      let cc = view.capabilityContainer
      return try tlvImage(
        "t2t",
        cc: [
          ("magic", .int(Int(cc.magic))), ("version", .int(Int(cc.version))), ("size", .int(Int(cc.size))),
          ("access", .int(Int(cc.access))),
        ], area: view.tlvArea, dataAreaSize: view.dataAreaSize,
        maxNDEFSize: view.maximumNDEFSize, readOnly: view.isReadOnly, warnings: view.warnings,
        options: ndefOptions)
    }
  }

  static func t3t(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    decode(bytes, lenient: lenient) { options, ndefOptions throws(NFCTagError) in
      let view = try Type3TagView(validating: bytes.span.bytes, options: options)
      let aib = view.attributeInformation
      let ndefBytes = view.ndefBytes.copiedBytes()
      let (ndef, framing) = try messageJSON(ndefBytes, offset: Type3TagView.ndefOffset, options: ndefOptions)
      let object = envelope(
        "t3t",
        cc: [
          ("version", .int(Int(aib.version))), ("nbr", .int(Int(aib.blocksPerRead))),
          ("nbw", .int(Int(aib.blocksPerWrite))), ("nmaxb", .int(aib.maximumBlocks)),
          ("writeFlag", .int(Int(aib.writeFlag))), ("rwFlag", .int(Int(aib.accessFlag))),
          ("ln", .int(aib.ndefLength)),
          ("checksum", .int(Int(view.checksum))),
        ], tlvs: .array([]), ndef: ndef, dataAreaSize: view.dataAreaSize, maxNDEFSize: view.maximumNDEFSize,
        readOnly: view.isReadOnly, warnings: view.warnings, lenient: lenient)
      return applyingErrors(object, framing)
    }
  }

  static func t5t(_ bytes: [UInt8], lenient: Bool) -> Result<JSON, DecodeFailure> {
    decode(bytes, lenient: lenient) { options, ndefOptions throws(NFCTagError) in
      let view = try Type5TagView(scanning: bytes.span.bytes, options: options)
      let cc = view.capabilityContainer
      return try tlvImage(
        "t5t",
        cc: [
          ("magic", .int(Int(cc.magic))), ("version", .int(cc.majorVersion * 10 + cc.minorVersion)),
          ("size", .int(cc.byteCount)), ("access", .int(Int(cc.versionAndAccess & 0x0F))),
          ("mlen", .int(cc.mlen)),
          ("features", .int(Int(cc.features))),
        ], area: view.tlvArea, dataAreaSize: view.dataAreaSize,
        maxNDEFSize: view.maximumNDEFSize, readOnly: view.isReadOnly, warnings: view.warnings,
        options: ndefOptions)
    }
  }
}
