// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NDEF

/// NDEF record-type payloads: the first input byte picks the record type, the rest is its
/// payload. Strict success implies lenient success without warnings, and the owned model
/// re-encodes to a payload that decodes to the same model.
public enum NDEFRecordTypeOracle {
  /// The record types, in the order the first byte selects them.
  static let types: [(TypeNameFormat, [UInt8])] = [
    (.wellKnown, Array("T".utf8)), (.wellKnown, Array("U".utf8)), (.wellKnown, Array("Sp".utf8)),
    (.wellKnown, Array("Hr".utf8)), (.wellKnown, Array("Hs".utf8)), (.wellKnown, Array("Hc".utf8)),
    (.wellKnown, Array("ac".utf8)), (.wellKnown, Array("Sig".utf8)), (.wellKnown, Array("Di".utf8)),
    (.media, Array("application/vnd.wfa.wsc".utf8)), (.media, Array("application/vnd.bluetooth.ep.oob".utf8)),
    (.media, Array("application/vnd.bluetooth.le.oob".utf8)), (.external, Array("android.com:pkg".utf8)),
    (.media, Array("application/vnd.wfa.p2p".utf8)),
  ]

  /// Checks one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    guard let selector = bytes.first else { return }
    let (tnf, type) = types[Int(selector) % types.count]
    let payload = Array(bytes.dropFirst())
    let strict = decode(tnf, type, payload, .strict)
    let lenient = decode(tnf, type, payload, .lenient)
    try checkClassifying(tnf, type, payload)
    if let strict {
      guard let lenient else { throw OracleFailure("strict decoded \(type) but lenient failed") }
      try require(lenient.warnings == 0, "strict ok but lenient warned")
      try require(lenient.summary == strict.summary, "strict and lenient decode differently")
      if let reencoded = strict.reencoded {
        let again = decode(tnf, type, reencoded, .strict)
        try require(
          again?.summary == strict.summary, "re-encoded \(String(decoding: type, as: UTF8.self)) differs")
      }
    } else if let lenient {
      try require(lenient.warnings > 0, "strict failed but lenient had no warning")
    }
  }

  /// The non-throwing dispatch agrees with the throwing one: `malformed` exactly when it
  /// throws, with the same error and the kind the TNF and TYPE select.
  static func checkClassifying(_ tnf: TypeNameFormat, _ type: [UInt8], _ payload: [UInt8])
    throws(OracleFailure)
  {
    var thrown: NDEFError? = nil
    do throws(NDEFError) {
      _ = try DecodedRecord(typeNameFormat: tnf, type: type.span.bytes, payload: payload.span.bytes)
    } catch {
      thrown = error
    }
    let classified = DecodedRecord(classifying: tnf, type: type.span.bytes, payload: payload.span.bytes)
    try require(classified.error == thrown, "classifying and throwing dispatch disagree")
    if case .malformed(let record) = classified {
      try require(
        record.recordType == RecordKind(typeNameFormat: tnf, type: type.span.bytes), "malformed kind differs")
    }
  }

  /// How many records of a nested message are malformed when it is decoded in strict mode
  /// (its strict framing failing counts as one: the lenient container then warned already).
  static func nestedMalformedInStrictMode(_ message: borrowing NDEFMessageView) -> Int {
    guard let strict = try? NDEFMessageView(validating: message.bytes, baseOffset: message.baseOffset)
    else { return 1 }
    return strict.malformedRecords(depth: 1).count
  }

  /// How many records of a Smart Poster payload are malformed in strict mode, its local
  /// records (`act`, `s`, `t`) included (its strict decoding failing counts as one).
  static func posterMalformedInStrictMode(_ payload: [UInt8]) -> Int {
    guard let strict = try? SmartPosterView(validating: payload.span.bytes, options: .strict) else {
      return 1
    }
    return strict.malformedRecords().count
  }

  /// How many records of a handover payload are malformed in strict mode, its local records
  /// (`cr`, `err`) included (its strict decoding failing counts as one).
  static func handoverMalformedInStrictMode(_ payload: [UInt8], kind: HandoverKind) -> Int {
    guard let strict = try? HandoverView(validating: payload.span.bytes, kind: kind, options: .strict) else {
      return 1
    }
    return strict.malformedRecords().count
  }

  struct Outcome {
    /// The owned model (or the decoded values), compared with `==`. Not a `String`: describing
    /// a model through reflection cost ~6 µs per AD structure and made a 3.8 KB input slow.
    var summary: AnyHashable
    var warnings: Int
    var reencoded: [UInt8]?
  }

  /// Decodes with the dispatch entry point and summarizes the owned model.
  static func decode(
    _ tnf: TypeNameFormat, _ type: [UInt8], _ payload: [UInt8], _ options: NDEFDecodingOptions
  )
    -> Outcome?
  {
    guard
      let decoded = try? DecodedRecord(
        typeNameFormat: tnf, type: type.span.bytes, payload: payload.span.bytes, options: options)
    else { return nil }
    switch decoded {
    case .text(let view):
      let model = TextRecord(view)
      return Outcome(summary: model, warnings: view.warnings.count, reencoded: try? model.payload())
    case .uri(let view):
      let model = URIRecord(view)
      return Outcome(summary: model.uri, warnings: view.warnings.count, reencoded: model.payload)
    case .smartPoster(let view):
      // A nested record malformed in strict mode (a local `act`, `s`, `t` included) makes the
      // poster not valid in strict mode and counts as a warning in lenient mode.
      let malformed = posterMalformedInStrictMode(payload)
      guard options.isLenient || malformed == 0, let model = try? SmartPoster(view) else { return nil }
      return Outcome(
        summary: model, warnings: view.warnings.count + malformed, reencoded: try? model.record().payload)
    case .handover(let view):
      // A nested record malformed in strict mode (a local `cr`, `err` included) makes the
      // handover record not valid in strict mode and counts as a warning in lenient mode.
      let malformed = handoverMalformedInStrictMode(payload, kind: view.kind)
      guard options.isLenient || malformed == 0 else { return nil }
      let model = Handover(view)
      return Outcome(
        summary: model, warnings: view.warnings.count + malformed, reencoded: try? model.payload())
    case .signature(let view):
      let model = SignatureRecord(view)
      return Outcome(summary: model, warnings: 0, reencoded: try? model.payload())
    case .deviceInformation(let view):
      let model = DeviceInformation(view)
      return Outcome(summary: model, warnings: view.warnings.count, reencoded: try? model.payload())
    case .wifiSimpleConfig(let view):
      // A malformed Credential makes the token not valid in strict mode and counts as a
      // warning in lenient mode.
      let malformed = view.malformedCredentials().count
      guard options.isLenient || malformed == 0 else { return nil }
      let credentials = view.credentials()
      let model = WiFiSimpleConfig(credentials: credentials, version2: view.version2)
      // A token without credentials only decodes leniently; re-encode only full ones.
      return Outcome(
        summary: [AnyHashable(credentials), AnyHashable(view.version2)],
        warnings: view.warnings.count + malformed,
        reencoded: credentials.isEmpty ? nil : model.payload)
    case .bluetoothEP(let view):
      let model = BluetoothOOB(address: view.address, advertising: AdvertisingData(view.advertising))
      return Outcome(summary: model, warnings: view.warnings.count, reencoded: try? model.payload())
    case .bluetoothLE(let view):
      return Outcome(
        summary: [AnyHashable(view.address), AnyHashable(view.isRandomAddress), AnyHashable(view.role)],
        warnings: view.warnings.count, reencoded: nil)
    case .wifiP2P(let view):
      let model = WiFiP2P(view)
      return Outcome(summary: model, warnings: view.warnings.count, reencoded: try? model.payload())
    case .androidApplication(let view):
      return Outcome(summary: view.package, warnings: view.warnings.count, reencoded: nil)
    case .handoverCarrier(let view):
      return Outcome(
        summary: [AnyHashable(view.carrierTypeFormat), AnyHashable(view.carrierType.byteCount)], warnings: 0,
        reencoded: nil)
    case .alternativeCarrier(let view):
      return Outcome(summary: AlternativeCarrier(view), warnings: 0, reencoded: nil)
    case .media, .external, .absoluteURI, .chunked, .unrecognized:
      return Outcome(summary: "generic", warnings: 0, reencoded: nil)
    case .malformed:
      // Only the non-throwing `init(classifying:...)` gives this case.
      return nil
    }
  }
}
