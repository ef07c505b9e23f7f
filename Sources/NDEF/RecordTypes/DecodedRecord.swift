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
/// types are ``unrecognized(_:)``, never an error.
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
    switch typeNameFormat {
    case .wellKnown:
      if type.elementsEqual(TextRecordView.type) {
        self = .text(try TextRecordView(validating: payload, baseOffset: payloadOffset, options: options))
      } else if type.elementsEqual(URIRecordView.type) {
        self = .uri(try URIRecordView(validating: payload, baseOffset: payloadOffset, options: options))
      } else if type.elementsEqual(SmartPosterView.type) {
        self = .smartPoster(
          try SmartPosterView(validating: payload, baseOffset: payloadOffset, options: options, depth: depth))
      } else if let kind = HandoverKind.all.first(where: { type.elementsEqual($0.rawValue) }) {
        self = .handover(
          try HandoverView(
            validating: payload, kind: kind, baseOffset: payloadOffset, options: options, depth: depth))
      } else if type.elementsEqual(HandoverCarrierView.type) {
        self = .handoverCarrier(try HandoverCarrierView(validating: payload, baseOffset: payloadOffset))
      } else if type.elementsEqual(AlternativeCarrierView.type) {
        self = .alternativeCarrier(try AlternativeCarrierView(validating: payload, baseOffset: payloadOffset))
      } else if type.elementsEqual(SignatureRecordView.type) {
        self = .signature(try SignatureRecordView(validating: payload, baseOffset: payloadOffset))
      } else if type.elementsEqual(DeviceInformationView.type) {
        self = .deviceInformation(
          try DeviceInformationView(validating: payload, baseOffset: payloadOffset, options: options))
      } else {
        self = .unrecognized(typed)
      }
    case .media:
      if asciiCaseInsensitiveEqual(type, WiFiSimpleConfigView.type) {
        self = .wifiSimpleConfig(
          try WiFiSimpleConfigView(validating: payload, baseOffset: payloadOffset, options: options))
      } else if asciiCaseInsensitiveEqual(type, WiFiP2PView.type) {
        self = .wifiP2P(try WiFiP2PView(validating: payload, baseOffset: payloadOffset, options: options))
      } else if asciiCaseInsensitiveEqual(type, BluetoothEPOOBView.type) {
        self = .bluetoothEP(
          try BluetoothEPOOBView(validating: payload, baseOffset: payloadOffset, options: options))
      } else if asciiCaseInsensitiveEqual(type, BluetoothLEOOBView.type) {
        self = .bluetoothLE(
          try BluetoothLEOOBView(validating: payload, baseOffset: payloadOffset, options: options))
      } else {
        self = .media(typed)
      }
    case .external:
      if asciiCaseInsensitiveEqual(type, AndroidApplicationRecordView.type) {
        self = .androidApplication(
          try AndroidApplicationRecordView(validating: payload, baseOffset: payloadOffset, options: options))
      } else {
        self = .external(typed)
      }
    case .absoluteURI:
      self = .absoluteURI(typed)
    default:
      self = .unrecognized(typed)
    }
  }
}
