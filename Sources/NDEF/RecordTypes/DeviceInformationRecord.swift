// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A Device Information payload (well-known type `Di`, NFC Forum Device Information RTD
/// 1.0 §3): data elements of a type byte, a length byte and a value. Types 0 (manufacturer
/// name) and 1 (model name) are required; 2 unique name, 3 UUID (16 bytes), 4 firmware
/// version; 5...255 are reserved and kept as they are.
public struct DeviceInformationView: ~Escapable {
  /// The well-known type name `Di`.
  public static let type: [UInt8] = Array("Di".utf8)
  /// Data element type 0: manufacturer name (UTF-8).
  public static let manufacturerElement: UInt8 = 0
  /// Data element type 1: model name (UTF-8).
  public static let modelElement: UInt8 = 1
  /// Data element type 2: unique name (UTF-8).
  public static let uniqueNameElement: UInt8 = 2
  /// Data element type 3: UUID (16 bytes).
  public static let uuidElement: UInt8 = 3
  /// Data element type 4: firmware version (UTF-8).
  public static let firmwareVersionElement: UInt8 = 4

  /// Manufacturer name bytes.
  public let manufacturer: RawSpan?
  /// Model name bytes.
  public let model: RawSpan?
  /// Unique name bytes.
  public let uniqueName: RawSpan?
  /// The 16 UUID bytes.
  public let uuid: RawSpan?
  /// Firmware version bytes.
  public let firmwareVersion: RawSpan?
  /// Lenient-mode warnings.
  public let warnings: [NDEFWarning]
  /// The whole payload, for `elements`.
  let payload: RawSpan
  /// Absolute offset of the payload.
  let payloadOffset: Int

  /// Decodes a `Di` payload.
  ///
  /// - Throws: `attributeTruncated`, `attributeInvalidLength` (a UUID not 16 bytes),
  ///   `invalidUTF8` and `deviceInformationMissingField` (warnings in lenient mode).
  @_lifetime(copy payload)
  public init(validating payload: RawSpan, baseOffset: Int = 0, options: NDEFDecodingOptions = .strict)
    throws(NDEFError)
  {
    var sink = WarningSink(lenient: options.isLenient)
    var reader = ByteReader(payload, baseOffset: baseOffset)
    var manufacturer: RawSpan? = nil
    var model: RawSpan? = nil
    var uniqueName: RawSpan? = nil
    var uuid: RawSpan? = nil
    var firmware: RawSpan? = nil
    while !reader.isAtEnd {
      let at = reader.offset
      guard let type = reader.readUInt8(), let length = reader.readUInt8() else {
        throw NDEFError(.attributeTruncated, offset: at)
      }
      let valueOffset = reader.offset
      guard let value = reader.readSpan(count: Int(length)) else {
        throw NDEFError(.attributeTruncated, offset: at)
      }
      if type != Self.uuidElement && type <= Self.firmwareVersionElement,
        let bad = TextValidation.firstInvalidUTF8(value)
      {
        try sink.report(.invalidUTF8, at: valueOffset &+ bad)
      }
      switch type {
      case Self.manufacturerElement: manufacturer = value
      case Self.modelElement: model = value
      case Self.uniqueNameElement: uniqueName = value
      case Self.uuidElement:
        guard value.byteCount == 16 else { throw NDEFError(.attributeInvalidLength, offset: at) }
        uuid = value
      case Self.firmwareVersionElement: firmware = value
      default: break
      }
    }
    let hasManufacturer = manufacturer.map { $0.byteCount > 0 } ?? false
    let hasModel = model.map { $0.byteCount > 0 } ?? false
    if !hasManufacturer || !hasModel { try sink.report(.deviceInformationMissingField, at: baseOffset) }
    self.manufacturer = manufacturer
    self.model = model
    self.uniqueName = uniqueName
    self.uuid = uuid
    self.firmwareVersion = firmware
    self.warnings = sink.warnings
    self.payload = payload
    self.payloadOffset = baseOffset
  }

  /// Every data element in payload order, reserved types included, with offsets.
  public var elements: DeviceInformationElementIterator {
    @_lifetime(copy self)
    get { DeviceInformationElementIterator(reader: ByteReader(payload, baseOffset: payloadOffset)) }
  }

  /// The UUID in canonical form: 8-4-4-4-12 lowercase hex digits (RFC 4122 §3).
  public var uuidString: String? {
    guard let uuid else { return nil }
    let hex = Hex.string(uuid)
    var text = ""
    for (index, character) in hex.enumerated() {
      if index == 8 || index == 12 || index == 16 || index == 20 { text.append("-") }
      text.append(character)
    }
    return text
  }
}

/// Iterates the data elements of a validated `Di` payload (Device Information RTD 1.0 §3).
public struct DeviceInformationElementIterator: ~Escapable {
  var reader: ByteReader

  @_lifetime(copy reader)
  init(reader: consuming ByteReader) { self.reader = reader }

  /// The next element, or `nil` at the end.
  @_lifetime(copy self)
  public mutating func next() -> DeviceInformationElement? {
    let offset = reader.offset
    guard let type = reader.readUInt8(), let length = reader.readUInt8(),
      let value = reader.readSpan(count: Int(length))
    else { return nil }
    return DeviceInformationElement(type: type, value: value, offset: offset)
  }
}

/// One Device Information data element: type byte, length byte, value.
public struct DeviceInformationElement: ~Escapable {
  /// The element type (0 manufacturer, 1 model, 2 unique name, 3 UUID, 4 firmware version).
  public let type: UInt8
  /// The value bytes.
  public let value: RawSpan
  /// Absolute offset of the type byte; the value starts 2 bytes later.
  public let offset: Int

  @_lifetime(copy value)
  init(type: UInt8, value: RawSpan, offset: Int) {
    self.type = type
    self.value = value
    self.offset = offset
  }
}

extension Optional where Wrapped == RawSpan {
  /// `map` for optional spans (Optional.map needs an escapable payload).
  func map<T>(_ transform: (RawSpan) -> T) -> T? {
    switch self {
    case .some(let span): return transform(span)
    case .none: return nil
    }
  }
}

/// An owned Device Information record for building.
public struct DeviceInformation: Sendable, Hashable {
  /// Manufacturer name (required).
  public var manufacturer: String
  /// Model name (required).
  public var model: String
  /// Unique name.
  public var uniqueName: String?
  /// The 16 UUID bytes.
  public var uuid: [UInt8]?
  /// Firmware version.
  public var firmwareVersion: String?

  /// Creates a Device Information model.
  public init(
    manufacturer: String, model: String, uniqueName: String? = nil, uuid: [UInt8]? = nil,
    firmwareVersion: String? = nil
  ) {
    self.manufacturer = manufacturer
    self.model = model
    self.uniqueName = uniqueName
    self.uuid = uuid
    self.firmwareVersion = firmwareVersion
  }

  /// Copies a view.
  public init(_ view: borrowing DeviceInformationView) {
    func text(_ span: RawSpan?) -> String? { span.map { TextValidation.string(utf8: $0) } }
    self.manufacturer = text(view.manufacturer) ?? ""
    self.model = text(view.model) ?? ""
    self.uniqueName = text(view.uniqueName)
    self.uuid = view.uuid.map { $0.copiedBytes() }
    self.firmwareVersion = text(view.firmwareVersion)
  }

  /// The payload.
  ///
  /// - Throws: `deviceInformationMissingField`, `attributeInvalidLength` (a UUID not 16
  ///   bytes or a value over 255 bytes).
  public func payload() throws(NDEFError) -> [UInt8] {
    guard !manufacturer.isEmpty, !model.isEmpty else {
      throw NDEFError(.deviceInformationMissingField, offset: 0)
    }
    var bytes: [UInt8] = []
    func element(_ type: UInt8, _ value: [UInt8]) throws(NDEFError) {
      guard value.count <= 255 else { throw NDEFError(.attributeInvalidLength, offset: bytes.count) }
      bytes += [type, UInt8(value.count)] + value
    }
    try element(DeviceInformationView.manufacturerElement, Array(manufacturer.utf8))
    try element(DeviceInformationView.modelElement, Array(model.utf8))
    if let uniqueName { try element(DeviceInformationView.uniqueNameElement, Array(uniqueName.utf8)) }
    if let uuid {
      guard uuid.count == 16 else { throw NDEFError(.attributeInvalidLength, offset: bytes.count) }
      try element(DeviceInformationView.uuidElement, uuid)
    }
    if let firmwareVersion {
      try element(DeviceInformationView.firmwareVersionElement, Array(firmwareVersion.utf8))
    }
    return bytes
  }

  /// The NDEF record (TNF Well Known, type `Di`).
  public func record(id: [UInt8] = []) throws(NDEFError) -> NDEFRecord {
    NDEFRecord(typeNameFormat: .wellKnown, type: DeviceInformationView.type, id: id, payload: try payload())
  }
}
