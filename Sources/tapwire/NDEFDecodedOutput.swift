// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import JSONOutput
import NDEF
import NFCWire

/// The `decoded` object of a RECORD (see `Documentation/cli-json.md`, `ndef`).
enum NDEFDecodedOutput {
  static func text(_ bytes: RawSpan) -> String { String(decoding: bytes.copiedBytes(), as: UTF8.self) }

  static func nullable(_ value: String?) -> JSON { value.map { .string($0) } ?? .null }

  /// The nested message's records, as RECORD objects.
  /// `inPoster`: the message of a Smart Poster, where `act`, `s` and `t` are local record
  /// types (RTD 1.0 §2.3, Smart Poster §3.3.3-§3.3.5): a valid one gets its `decoded` kind
  /// (`smartPosterAction`, `smartPosterSize`, `smartPosterType`), a bad one `malformed`.
  /// `inHandover`: the message of a handover record, where `cr` and `err` are local
  /// (Connection Handover 1.5 §6.3.3, §6.3.4): kinds `collisionResolution`, `handoverError`.
  static func records(
    _ message: borrowing NDEFMessageView, depth: Int, inPoster: Bool = false, inHandover: Bool = false
  )
    throws(NDEFError)
    -> JSON
  {
    var result: [JSON] = []
    var iterator = message.records
    while let record = iterator.next() {
      var json = try NDEFOutput.recordJSON(record, options: message.options, depth: depth)
      var local: JSON? = nil
      if inPoster { local = posterLocalJSON(record, options: message.options) }
      if inHandover { local = handoverLocalJSON(record, options: message.options) }
      if let decoded = local, case .object(var pairs) = json {
        pairs.removeAll { $0.0 == "decoded" }
        pairs.append(("decoded", decoded))
        json = .object(pairs)
      }
      result.append(json)
    }
    return .array(result)
  }

  /// The `decoded` object of a Smart Poster local record, or nil for any other record.
  static func posterLocalJSON(_ record: borrowing NDEFRecordView, options: NDEFDecodingOptions) -> JSON? {
    guard record.typeNameFormat == .wellKnown, !record.isChunked else { return nil }
    if let bad = SmartPosterView.localRecordError(record, options: options) { return malformed(bad) }
    // Lenient mode reports a bad one as a warning of the poster: no kind then.
    guard SmartPosterView.localRecordError(record, options: .strict) == nil else { return nil }
    let payload = record.payload
    if record.hasType(.wellKnown, SmartPosterView.actionType), let byte = payload.byte(at: 0) {
      return .object([
        ("kind", .string("smartPosterAction")), ("action", .string(SmartPosterAction(rawValue: byte).name)),
      ])
    }
    if record.hasType(.wellKnown, SmartPosterView.sizeType) {
      var size = 0
      for index in 0..<payload.byteCount { size = size << 8 | Int(payload.byte(at: index) ?? 0) }
      return .object([("kind", .string("smartPosterSize")), ("size", .int(size))])
    }
    if record.hasType(.wellKnown, SmartPosterView.typeType) {
      return .object([("kind", .string("smartPosterType")), ("mimeType", .string(text(payload)))])
    }
    return nil
  }

  /// The `decoded` object of a handover local record (`cr`, `err`), or nil for any other:
  /// `{"kind": "collisionResolution", "collisionResolution": n}` (the key the handover
  /// object uses), `{"kind": "handoverError", "reason": r, "data": d}`, or `malformed`.
  static func handoverLocalJSON(_ record: borrowing NDEFRecordView, options: NDEFDecodingOptions) -> JSON? {
    guard record.typeNameFormat == .wellKnown, !record.isChunked else { return nil }
    if let bad = HandoverView.localRecordError(record, options: options) { return malformed(bad) }
    // Lenient mode reports a bad one as a warning of the handover record: no kind then.
    guard HandoverView.localRecordError(record, options: .strict) == nil else { return nil }
    let isError = record.hasType(.wellKnown, HandoverView.errorType)
    guard isError || record.hasType(.wellKnown, HandoverView.collisionResolutionType) else { return nil }
    // Big-endian (at most 4 bytes once valid): the whole `cr` payload; an `err`'s data after its reason.
    let payload = record.payload
    var value = 0
    for index in (isError ? 1 : 0)..<payload.byteCount {
      value = value << 8 | Int(payload.byte(at: index) ?? 0)
    }
    guard isError, let reason = payload.byte(at: 0) else {
      return .object([("kind", .string("collisionResolution")), ("collisionResolution", .int(value))])
    }
    return .object([("kind", .string("handoverError")), ("reason", .int(Int(reason))), ("data", .int(value))])
  }

  /// `{"kind": "malformed", "recordType": ..., "error": {code, offset, message}}`: a record of
  /// a known type whose payload breaks its record type (its framing fields stay beside it).
  static func malformed(_ record: MalformedRecord) -> JSON {
    .object([
      ("kind", .string("malformed")), ("recordType", .string(record.recordType.rawValue)),
      ("error", errorJSON(record.error)),
    ])
  }

  /// `{"code", "offset", "message"}` of a record-type error.
  static func errorJSON(_ error: NDEFError) -> JSON {
    .object([
      ("code", .string(error.code.name)), ("offset", .int(error.offset)),
      ("message", .string(error.code.message)),
    ])
  }

  /// The `error` objects of every `malformed` record in `json` (nested records included) and
  /// of every entry of a `malformedCredentials` list (a WSC token's), in input order.
  static func malformedErrors(in json: JSON) -> [JSON] {
    switch json {
    case .object(let pairs):
      var result: [JSON] = []
      for (key, value) in pairs {
        if key == "decoded", case .object(let fields) = value,
          fields.contains(where: { isMalformedKind($0) }),
          let error = fields.first(where: { $0.0 == "error" })?.1
        {
          result.append(error)
        } else if key == "malformedCredentials", case .array(let items) = value {
          for case .object(let fields) in items {
            if let error = fields.first(where: { $0.0 == "error" })?.1 { result.append(error) }
          }
        } else {
          result += malformedErrors(in: value)
        }
      }
      return result
    case .array(let items):
      return items.flatMap(malformedErrors(in:))
    default:
      return []
    }
  }

  static func isMalformedKind(_ pair: (String, JSON)) -> Bool {
    if pair.0 == "kind", case .string("malformed") = pair.1 { return true }
    return false
  }

  /// `envelope` with its record-type errors applied: in strict mode `"ok": false` and the
  /// first one as `error` (every record kept); in lenient mode they join `warnings`.
  static func applyingMalformed(_ envelope: JSON, lenient: Bool) -> (JSON, Bool) {
    let errors = malformedErrors(in: envelope)
    guard let first = errors.first, case .object(var pairs) = envelope else { return (envelope, true) }
    if lenient {
      if let index = pairs.firstIndex(where: { $0.0 == "warnings" }), case .array(let list) = pairs[index].1 {
        pairs[index].1 = .array(list + errors)
      }
      return (.object(pairs), true)
    }
    if let index = pairs.firstIndex(where: { $0.0 == "ok" }) { pairs[index].1 = .bool(false) }
    let at = (pairs.firstIndex(where: { $0.0 == "format" }) ?? 0) + 1
    pairs.insert(("error", first), at: min(at, pairs.count))
    return (.object(pairs), false)
  }

  /// The `decoded` object for a record's type, or `nil` when Tapwire has no decoder for it.
  static func json(_ decoded: borrowing DecodedRecord, options: NDEFDecodingOptions, depth: Int)
    throws(NDEFError)
    -> JSON?
  {
    switch decoded {
    case .text(let view):
      return .object([
        ("kind", .string("text")), ("language", .string(view.language)),
        ("encoding", .string(view.encoding.name)),
        ("text", .string(view.string)),
      ])
    case .uri(let view):
      return .object([
        ("kind", .string("uri")), ("uri", .string(view.uri)), ("prefixCode", .int(Int(view.prefixCode))),
      ])
    case .smartPoster(let view):
      var titles: [JSON] = []
      var iterator = view.titles
      while let title = iterator.next() {
        titles.append(.object([("language", .string(title.language)), ("text", .string(title.string))]))
      }
      var uri: String? = nil
      if let u = view.uri { uri = u.uri }
      var mimeType: String? = nil
      if let m = view.mimeType { mimeType = text(m) }
      return .object([
        ("kind", .string("smartPoster")), ("uri", nullable(uri)), ("titles", .array(titles)),
        ("action", nullable(view.action?.name)), ("size", view.size.map { .int(Int($0)) } ?? .null),
        ("mimeType", nullable(mimeType)),
        ("records", try records(view.message, depth: depth + 1, inPoster: true)),
      ])
    case .handover(let view):
      var carriers: [JSON] = []
      var iterator = view.alternativeCarriers
      while let carrier = iterator.next() {
        var auxiliary: [JSON] = []
        var references = carrier.auxiliaryDataReferences
        while let reference = references.next() { auxiliary.append(.string(Hex.string(reference))) }
        carriers.append(
          .object([
            ("powerState", .string(carrier.powerState.name)),
            ("dataReference", .string(Hex.string(carrier.dataReference))),
            ("auxiliaryDataReferences", .array(auxiliary)),
          ]))
      }
      var nested: JSON = .array([])
      if let message = view.message { nested = try records(message, depth: depth + 1, inHandover: true) }
      return .object([
        ("kind", .string(view.kind.name)), ("version", .string(view.version)),
        ("alternativeCarriers", .array(carriers)),
        ("collisionResolution", view.collisionResolution.map { .int(Int($0)) } ?? .null), ("records", nested),
      ])
    case .handoverCarrier(let view):
      return .object([
        ("kind", .string("handoverCarrier")),
        ("carrierTypeFormat", .int(Int(view.carrierTypeFormat.rawValue))),
        ("carrierType", .string(Hex.string(view.carrierType))),
        ("carrierData", .string(Hex.string(view.carrierData))),
      ])
    case .bluetoothEP(let view):
      return .object([
        ("kind", .string("bluetoothEP")), ("address", .string(view.address.description)),
        ("advertising", .object(BLEOutput.advertisingFields(view.advertising))),
      ])
    case .bluetoothLE(let view):
      return .object([
        ("kind", .string("bluetoothLE")), ("address", .string(view.address.description)),
        ("addressType", .string(view.isRandomAddress ? "random" : "public")),
        ("role", nullable(view.role?.name)),
        ("advertising", .object(BLEOutput.advertisingFields(view.advertising))),
      ])
    case .wifiSimpleConfig(let view):
      let credentials = view.credentials().map { credential -> JSON in
        .object([
          ("ssid", .string(String(decoding: credential.ssid, as: UTF8.self))),
          ("networkKey", .string(String(decoding: credential.networkKey, as: UTF8.self))),
          ("authentication", .string(credential.authentication.name)),
          ("encryption", .string(credential.encryption.name)),
          (
            "macAddress",
            .string(credential.macAddress.map { HexDump.byteHex($0).uppercased() }.joined(separator: ":"))
          ),
        ])
      }
      let version2 = view.version2.map { JSON.string("\($0 >> 4).\($0 & 0x0F)") } ?? .null
      let malformedCredentials = view.malformedCredentials().map { credential -> JSON in
        .object([("index", .int(credential.index)), ("error", errorJSON(credential.error))])
      }
      return .object([
        ("kind", .string("wifiSimpleConfig")), ("credentials", .array(credentials)), ("version2", version2),
        ("malformedCredentials", .array(malformedCredentials)),
      ])
    case .wifiP2P(let view):
      var attributes: [JSON] = []
      var iterator = view.p2pAttributes
      while let attribute = iterator.next() {
        attributes.append(
          .object([
            ("id", .int(Int(attribute.id.rawValue))), ("offset", .int(attribute.valueOffset)),
            ("value", .string(Hex.string(attribute.value))),
          ]))
      }
      var deviceName: JSON = .null
      var deviceAddress: JSON = .null
      if let info = view.deviceInfo {
        deviceName = .string(String(decoding: info.deviceName, as: UTF8.self))
        deviceAddress = .string(
          info.deviceAddress.map { HexDump.byteHex($0).uppercased() }.joined(separator: ":"))
      }
      return .object([
        ("kind", .string("wifiP2P")), ("wsc", .string(Hex.string(view.wscBytes))),
        ("p2pAttributes", .array(attributes)), ("deviceAddress", deviceAddress), ("deviceName", deviceName),
      ])
    case .signature(let view):
      var certificates: [JSON] = []
      var iterator = view.certificateChain
      while let certificate = iterator.next() { certificates.append(.string(Hex.string(certificate))) }
      var pairs: [(String, JSON)] = [
        ("kind", .string("signature")), ("version", .string("\(view.version >> 4).\(view.version & 0x0F)")),
        ("signatureType", .int(Int(view.signatureType))), ("hashType", .int(Int(view.hashType))),
      ]
      pairs.append(
        view.signatureIsURI
          ? ("signatureURI", .string(text(view.signature)))
          : ("signature", .string(Hex.string(view.signature))))
      pairs += [
        ("certificateFormat", .int(Int(view.certificateFormat))), ("certificates", .array(certificates)),
      ]
      return .object(pairs)
    case .deviceInformation(let view):
      func field(_ span: RawSpan?) -> JSON {
        switch span {
        case .some(let bytes): return .string(text(bytes))
        case .none: return .null
        }
      }
      return .object([
        ("kind", .string("deviceInformation")), ("manufacturer", field(view.manufacturer)),
        ("model", field(view.model)), ("uniqueName", field(view.uniqueName)),
        ("uuid", nullable(view.uuidString)),
        ("firmwareVersion", field(view.firmwareVersion)),
      ])
    case .androidApplication(let view):
      return .object([("kind", .string("androidApplication")), ("package", .string(view.package))])
    case .malformed(let record):
      return malformed(record)
    case .alternativeCarrier, .media, .external, .absoluteURI, .chunked, .unrecognized:
      return nil
    }
  }

  /// The warnings a decoded record type collected (lenient mode).
  static func warnings(_ decoded: borrowing DecodedRecord) -> [NDEFWarning] {
    switch decoded {
    case .text(let v): return v.warnings
    case .uri(let v): return v.warnings
    case .smartPoster(let v): return v.warnings
    case .handover(let v): return v.warnings
    case .bluetoothEP(let v): return v.warnings
    case .bluetoothLE(let v): return v.warnings
    case .wifiSimpleConfig(let v): return v.warnings
    case .wifiP2P(let v): return v.warnings
    case .deviceInformation(let v): return v.warnings
    case .androidApplication(let v): return v.warnings
    case .media(let v), .external(let v), .absoluteURI(let v), .unrecognized(let v): return v.warnings
    case .handoverCarrier, .alternativeCarrier, .signature, .chunked, .malformed: return []
    }
  }
}
