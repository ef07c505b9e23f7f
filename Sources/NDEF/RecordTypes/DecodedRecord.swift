// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A record whose type Tapwire has no decoder for, or a media, external or absolute-URI
/// record whose TYPE was checked for syntax: its type and payload as views.
public struct TypedRecordView: ~Escapable {
  /// The record's TNF.
  public let typeNameFormat: TypeNameFormat
  /// The TYPE field.
  public let type: RawSpan
  /// The payload.
  public let payload: RawSpan
  /// Lenient-mode warnings (a TYPE that breaks its syntax).
  public let warnings: [NDEFWarning]

  @_lifetime(copy type, copy payload)
  init(typeNameFormat: TypeNameFormat, type: RawSpan, payload: RawSpan, warnings: [NDEFWarning]) {
    self.typeNameFormat = typeNameFormat
    self.type = type
    self.payload = payload
    self.warnings = warnings
  }
}

/// The decoded form of a record, by type: the one dispatch entry point over every record
/// type Tapwire knows (NFC Forum RTDs, Connection Handover, Wi-Fi and the AAR). Unknown
/// types are ``unrecognized(_:)``, never an error. Decoding a message never depends on this:
/// ``NDEFMessageView`` checks framing only, and ``init(classifying:options:depth:)`` reports a
/// record-type problem as ``malformed(_:)`` instead of throwing.
public enum DecodedRecord: ~Escapable {
  /// Well-known `T` (RTD Text).
  case text(TextRecordView)
  /// Well-known `U` (RTD URI).
  case uri(URIRecordView)
  /// Well-known `Sp` (RTD Smart Poster).
  case smartPoster(SmartPosterView)
  /// Well-known `Hr`, `Hs`, `Hm` or `Hi` (Connection Handover).
  case handover(HandoverView)
  /// Well-known `Hc` (Handover Carrier).
  case handoverCarrier(HandoverCarrierView)
  /// Well-known `ac` outside a handover message.
  case alternativeCarrier(AlternativeCarrierView)
  /// Well-known `Sig` (Signature RTD 2.0).
  case signature(SignatureRecordView)
  /// Well-known `Di` (Device Information).
  case deviceInformation(DeviceInformationView)
  /// Media `application/vnd.wfa.wsc` (Wi-Fi Simple Configuration).
  case wifiSimpleConfig(WiFiSimpleConfigView)
  /// Media `application/vnd.wfa.p2p` (Wi-Fi P2P carrier).
  case wifiP2P(WiFiP2PView)
  /// Media `application/vnd.bluetooth.ep.oob` (Bluetooth BR/EDR OOB).
  case bluetoothEP(BluetoothEPOOBView)
  /// Media `application/vnd.bluetooth.le.oob` (Bluetooth LE OOB).
  case bluetoothLE(BluetoothLEOOBView)
  /// External `android.com:pkg` (Android Application Record).
  case androidApplication(AndroidApplicationRecordView)
  /// Any other media type (RFC 2046), type syntax checked.
  case media(TypedRecordView)
  /// Any other external type (`domain:type`), syntax checked.
  case external(TypedRecordView)
  /// An absolute-URI record (TNF 3), type syntax checked.
  case absoluteURI(TypedRecordView)
  /// A chunked record: assemble the payload (``NDEFRecordView/assembledPayload(maximumSize:)``)
  /// and decode it with ``init(typeNameFormat:type:payload:payloadOffset:typeOffset:options:depth:)``.
  case chunked
  /// Empty, Unknown, or a well-known type without a decoder here.
  case unrecognized(TypedRecordView)
  /// A record of a known type whose payload (or TYPE) breaks its record type: only the
  /// non-throwing ``init(classifying:options:depth:)`` gives this case.
  case malformed(MalformedRecord)

  /// Decodes a record view by its TNF and type.
  ///
  /// - Throws: the errors of the matching record type's decoder.
  @_lifetime(copy record)
  public init(
    decoding record: borrowing NDEFRecordView, options: NDEFDecodingOptions = .strict, depth: Int = 0
  ) throws(NDEFError) {
    guard !record.isChunked else {
      self = .chunked
      return
    }
    try self.init(
      typeNameFormat: record.typeNameFormat, type: record.type, payload: record.payload,
      payloadOffset: record.payloadOffset, typeOffset: record.typeOffset, options: options, depth: depth)
  }

  /// Decodes a payload of the given TNF and type (for an assembled chunked payload).
  ///
  /// - Throws: the errors of the matching record type's decoder.
  @_lifetime(copy type, copy payload)
  public init(
    typeNameFormat: TypeNameFormat, type: RawSpan, payload: RawSpan, payloadOffset: Int = 0,
    typeOffset: Int = 0, options: NDEFDecodingOptions = .strict, depth: Int = 0
  ) throws(NDEFError) {
    var sink = WarningSink(lenient: options.isLenient)
    if let (code, index) = RecordTypeName.firstInvalid(type, typeNameFormat: typeNameFormat) {
      try sink.report(code, at: typeOffset &+ index)
    }
    let typed = TypedRecordView(
      typeNameFormat: typeNameFormat, type: type, payload: payload, warnings: sink.warnings)
    switch RecordKind(typeNameFormat: typeNameFormat, type: type) {
    case .text:
      self = .text(try TextRecordView(validating: payload, baseOffset: payloadOffset, options: options))
    case .uri:
      self = .uri(try URIRecordView(validating: payload, baseOffset: payloadOffset, options: options))
    case .smartPoster:
      self = .smartPoster(
        try SmartPosterView(validating: payload, baseOffset: payloadOffset, options: options, depth: depth))
    case .handoverRequest, .handoverSelect, .handoverMediation, .handoverInitiate:
      let kind = HandoverKind.all.first(where: { type.elementsEqual($0.rawValue) }) ?? .request
      self = .handover(
        try HandoverView(
          validating: payload, kind: kind, baseOffset: payloadOffset, options: options, depth: depth))
    case .handoverCarrier:
      self = .handoverCarrier(try HandoverCarrierView(validating: payload, baseOffset: payloadOffset))
    case .alternativeCarrier:
      self = .alternativeCarrier(try AlternativeCarrierView(validating: payload, baseOffset: payloadOffset))
    case .signature:
      self = .signature(try SignatureRecordView(validating: payload, baseOffset: payloadOffset))
    case .deviceInformation:
      self = .deviceInformation(
        try DeviceInformationView(validating: payload, baseOffset: payloadOffset, options: options))
    case .wifiSimpleConfig:
      self = .wifiSimpleConfig(
        try WiFiSimpleConfigView(validating: payload, baseOffset: payloadOffset, options: options))
    case .wifiP2P:
      self = .wifiP2P(try WiFiP2PView(validating: payload, baseOffset: payloadOffset, options: options))
    case .bluetoothEP:
      self = .bluetoothEP(
        try BluetoothEPOOBView(validating: payload, baseOffset: payloadOffset, options: options))
    case .bluetoothLE:
      self = .bluetoothLE(
        try BluetoothLEOOBView(validating: payload, baseOffset: payloadOffset, options: options))
    case .androidApplication:
      self = .androidApplication(
        try AndroidApplicationRecordView(validating: payload, baseOffset: payloadOffset, options: options))
    case .media:
      self = .media(typed)
    case .external:
      self = .external(typed)
    case .absoluteURI:
      self = .absoluteURI(typed)
    default:
      self = .unrecognized(typed)
    }
  }

  /// Decodes a record view by its TNF and type without ever failing: a record whose payload
  /// (or TYPE) breaks its record type is ``malformed(_:)``, carrying the kind it would have
  /// had and the typed error. The framing of the record was checked when its message was
  /// validated, so a record-type problem never hides the record or its message (NDEF 1.0 §3.2
  /// frames a record independently of its type's payload rules).
  @_lifetime(copy record)
  public init(
    classifying record: borrowing NDEFRecordView, options: NDEFDecodingOptions = .strict, depth: Int = 0
  ) {
    do throws(NDEFError) {
      self = try DecodedRecord(decoding: record, options: options, depth: depth)
    } catch {
      self = .malformed(
        MalformedRecord(
          recordType: RecordKind(typeNameFormat: record.typeNameFormat, type: record.type), error: error))
    }
  }

  /// Decodes a payload of the given TNF and type without ever failing (see
  /// ``init(classifying:options:depth:)``); for an assembled chunked payload.
  @_lifetime(copy type, copy payload)
  public init(
    classifying typeNameFormat: TypeNameFormat, type: RawSpan, payload: RawSpan, payloadOffset: Int = 0,
    typeOffset: Int = 0, options: NDEFDecodingOptions = .strict, depth: Int = 0
  ) {
    do throws(NDEFError) {
      self = try DecodedRecord(
        typeNameFormat: typeNameFormat, type: type, payload: payload, payloadOffset: payloadOffset,
        typeOffset: typeOffset, options: options, depth: depth)
    } catch {
      self = .malformed(
        MalformedRecord(recordType: RecordKind(typeNameFormat: typeNameFormat, type: type), error: error))
    }
  }

  /// The typed error of a ``malformed(_:)`` record, `nil` for any other.
  public var error: NDEFError? {
    if case .malformed(let record) = self { return record.error }
    return nil
  }
}

/// A record whose framing is valid but whose payload (or TYPE) breaks the rules of its
/// record type: the kind it would have decoded as and the first rule broken.
public struct MalformedRecord: Sendable, Hashable {
  /// The record type the TNF and TYPE name (e.g. ``RecordKind/androidApplication``).
  public let recordType: RecordKind
  /// The record-type error, with the absolute offset of the first offending byte.
  public let error: NDEFError

  /// Wraps a record type and its error.
  public init(recordType: RecordKind, error: NDEFError) {
    self.recordType = recordType
    self.error = error
  }
}

/// The record type a TNF and TYPE select for ``DecodedRecord``, named as the JSON
/// contract's `kind` (`text`, `uri`, `androidApplication`, ...).
public struct RecordKind: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The kind's name.
  public let rawValue: String
  /// Wraps a kind name.
  public init(rawValue: String) { self.rawValue = rawValue }
  /// The kind's name.
  public var description: String { rawValue }

  /// Well-known `T` (NFC Forum Text RTD).
  public static let text = RecordKind(rawValue: "text")
  /// Well-known `U` (NFC Forum URI RTD).
  public static let uri = RecordKind(rawValue: "uri")
  /// Well-known `Sp` (NFC Forum Smart Poster RTD).
  public static let smartPoster = RecordKind(rawValue: "smartPoster")
  /// Well-known `Hr` (Connection Handover §6.1).
  public static let handoverRequest = RecordKind(rawValue: "handoverRequest")
  /// Well-known `Hs` (Connection Handover §6.2).
  public static let handoverSelect = RecordKind(rawValue: "handoverSelect")
  /// Well-known `Hm` (Connection Handover 1.4 §6.4).
  public static let handoverMediation = RecordKind(rawValue: "handoverMediation")
  /// Well-known `Hi` (Connection Handover 1.4 §6.5).
  public static let handoverInitiate = RecordKind(rawValue: "handoverInitiate")
  /// Well-known `Hc` (Connection Handover §6.6).
  public static let handoverCarrier = RecordKind(rawValue: "handoverCarrier")
  /// Well-known `ac` (Connection Handover §6.3).
  public static let alternativeCarrier = RecordKind(rawValue: "alternativeCarrier")
  /// Well-known `Sig` (Signature RTD 2.0).
  public static let signature = RecordKind(rawValue: "signature")
  /// Well-known `Di` (Device Information RTD).
  public static let deviceInformation = RecordKind(rawValue: "deviceInformation")
  /// Media `application/vnd.wfa.wsc`.
  public static let wifiSimpleConfig = RecordKind(rawValue: "wifiSimpleConfig")
  /// Media `application/vnd.wfa.p2p`.
  public static let wifiP2P = RecordKind(rawValue: "wifiP2P")
  /// Media `application/vnd.bluetooth.ep.oob`.
  public static let bluetoothEP = RecordKind(rawValue: "bluetoothEP")
  /// Media `application/vnd.bluetooth.le.oob`.
  public static let bluetoothLE = RecordKind(rawValue: "bluetoothLE")
  /// External `android.com:pkg` (Android Application Record).
  public static let androidApplication = RecordKind(rawValue: "androidApplication")
  /// Any other media type (TNF 2).
  public static let media = RecordKind(rawValue: "media")
  /// Any other external type (TNF 4).
  public static let external = RecordKind(rawValue: "external")
  /// An absolute-URI record (TNF 3).
  public static let absoluteURI = RecordKind(rawValue: "absoluteURI")
  /// Smart Poster local `act` (RTD Smart Poster 1.0 §3.3.3), inside a poster only.
  public static let smartPosterAction = RecordKind(rawValue: "smartPosterAction")
  /// Smart Poster local `s` (RTD Smart Poster 1.0 §3.3.4), inside a poster only.
  public static let smartPosterSize = RecordKind(rawValue: "smartPosterSize")
  /// Smart Poster local `t` (RTD Smart Poster 1.0 §3.3.5), inside a poster only.
  public static let smartPosterType = RecordKind(rawValue: "smartPosterType")
  /// Handover local `cr`, Collision Resolution (Connection Handover 1.5 §6.3.3), inside a
  /// handover record only.
  public static let collisionResolution = RecordKind(rawValue: "collisionResolution")
  /// Handover local `err`, Error (Connection Handover 1.5 §6.3.4), inside a handover record only.
  public static let handoverError = RecordKind(rawValue: "handoverError")
  /// Empty, Unknown, or a well-known type without a decoder.
  public static let unrecognized = RecordKind(rawValue: "unrecognized")

  /// The kind a TNF and TYPE select (media and external types compare ASCII
  /// case-insensitively, RFC 2046 §4 and NFC Forum RTD 1.0 §2.4).
  public init(typeNameFormat: TypeNameFormat, type: RawSpan) {
    switch typeNameFormat {
    case .wellKnown:
      let known: [(RecordKind, [UInt8])] = [
        (.text, TextRecordView.type), (.uri, URIRecordView.type), (.smartPoster, SmartPosterView.type),
        (.handoverRequest, HandoverKind.request.rawValue), (.handoverSelect, HandoverKind.select.rawValue),
        (.handoverMediation, HandoverKind.mediation.rawValue),
        (.handoverInitiate, HandoverKind.initiate.rawValue), (.handoverCarrier, HandoverCarrierView.type),
        (.alternativeCarrier, AlternativeCarrierView.type), (.signature, SignatureRecordView.type),
        (.deviceInformation, DeviceInformationView.type),
      ]
      self = known.first(where: { type.elementsEqual($0.1) })?.0 ?? .unrecognized
    case .media:
      let known: [(RecordKind, [UInt8])] = [
        (.wifiSimpleConfig, WiFiSimpleConfigView.type), (.wifiP2P, WiFiP2PView.type),
        (.bluetoothEP, BluetoothEPOOBView.type), (.bluetoothLE, BluetoothLEOOBView.type),
      ]
      self = known.first(where: { asciiCaseInsensitiveEqual(type, $0.1) })?.0 ?? .media
    case .external:
      self =
        asciiCaseInsensitiveEqual(type, AndroidApplicationRecordView.type) ? .androidApplication : .external
    case .absoluteURI:
      self = .absoluteURI
    default:
      self = .unrecognized
    }
  }
}

/// A malformed record of a nested message (the message inside a Smart Poster or a handover
/// record): where it is in that message and its typed result.
public struct NestedMalformedRecord: Sendable, Hashable {
  /// The record's index in the nested message (0 for its first record).
  public let index: Int
  /// The kind the record would have decoded as and its error (absolute offset).
  public let malformed: MalformedRecord

  /// Wraps an index and a malformed result.
  public init(index: Int, malformed: MalformedRecord) {
    self.index = index
    self.malformed = malformed
  }
}

extension NDEFMessageView {
  /// The records of this message whose payload breaks their record type, classified as
  /// ``DecodedRecord/init(classifying:options:depth:)`` does (with this message's options),
  /// in order. A message's framing never depends on this (NDEF 1.0 §3.2). Records of this
  /// message only: a nested Smart Poster or handover record that decodes reports its own
  /// records through its view. Chunked records are not assembled here (they are never listed).
  public func malformedRecords(depth: Int = 0) -> [NestedMalformedRecord] {
    var result: [NestedMalformedRecord] = []
    var records = self.records
    var index = 0
    while let record = records.next() {
      if case .malformed(let malformed) = DecodedRecord(classifying: record, options: options, depth: depth) {
        result.append(NestedMalformedRecord(index: index, malformed: malformed))
      }
      index += 1
    }
    return result
  }
}
