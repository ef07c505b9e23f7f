// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A Wi-Fi P2P attribute id (Wi-Fi Peer-to-Peer Technical Specification v1.7, §4.1.1,
/// table 6): one byte.
public struct P2PAttributeID: RawRepresentable, Sendable, Hashable {
  /// The attribute id.
  public let rawValue: UInt8
  /// Wraps an id.
  public init(rawValue: UInt8) { self.rawValue = rawValue }
  /// 2 P2P Capability (device and group capability bitmaps, 2 bytes).
  public static let capability = P2PAttributeID(rawValue: 2)
  /// 13 P2P Device Info (§4.1.15).
  public static let deviceInfo = P2PAttributeID(rawValue: 13)
  /// 15 P2P Group ID (device address, then SSID).
  public static let groupID = P2PAttributeID(rawValue: 15)
  /// 19 OOB Group Owner Negotiation Channel (§4.1.25).
  public static let oobGroupOwnerNegotiationChannel = P2PAttributeID(rawValue: 19)
}

/// Iterates P2P attributes: a 1-byte id, a 2-byte little-endian length (P2P §4.1.1), the value.
public struct P2PAttributeIterator: ~Escapable {
  var reader: ByteReader

  @_lifetime(copy bytes)
  init(_ bytes: RawSpan, baseOffset: Int) { self.reader = ByteReader(bytes, baseOffset: baseOffset) }

  /// The next attribute, or `nil` at the end (or at a truncated attribute).
  @_lifetime(copy self)
  public mutating func next() -> P2PAttribute? {
    guard let id = reader.readUInt8(), let length = reader.readUInt16LE() else { return nil }
    let offset = reader.offset
    guard let value = reader.readSpan(count: Int(length)) else { return nil }
    return P2PAttribute(id: P2PAttributeID(rawValue: id), value: value, valueOffset: offset)
  }

  /// Checks that the attributes exactly fill `bytes`; throws at the first that does not.
  static func validate(_ bytes: RawSpan, baseOffset: Int) throws(NDEFError) {
    var reader = ByteReader(bytes, baseOffset: baseOffset)
    while !reader.isAtEnd {
      let start = reader.offset
      guard reader.readUInt8() != nil, let length = reader.readUInt16LE(), reader.skip(Int(length)) else {
        throw NDEFError(.attributeTruncated, offset: start)
      }
    }
  }
}

/// One P2P attribute.
public struct P2PAttribute: ~Escapable {
  /// The attribute id.
  public let id: P2PAttributeID
  /// The value bytes.
  public let value: RawSpan
  /// Absolute offset of the value.
  public let valueOffset: Int

  @_lifetime(copy value)
  init(id: P2PAttributeID, value: RawSpan, valueOffset: Int) {
    self.id = id
    self.value = value
    self.valueOffset = valueOffset
  }
}

/// The P2P Device Info attribute (P2P §4.1.15), owned: device address, WSC config methods
/// and device types (big-endian, as in WSC), and the device name as a WSC Device Name attribute.
public struct P2PDeviceInfo: Sendable, Hashable {
  /// The WSC Device Name attribute type (WSC §12, 0x1011).
  public static let deviceNameAttribute = WSCAttributeType(rawValue: 0x1011)
  /// P2P Device Address (6 bytes).
  public var deviceAddress: [UInt8]
  /// WSC Config Methods (big-endian on the wire).
  public var configMethods: UInt16
  /// Primary Device Type (8 bytes: category, OUI, subcategory).
  public var primaryDeviceType: [UInt8]
  /// Secondary Device Types (8 bytes each).
  public var secondaryDeviceTypes: [[UInt8]]
  /// The device name (UTF-8 in practice).
  public var deviceName: [UInt8]

  /// Creates a Device Info value.
  public init(
    deviceAddress: [UInt8], configMethods: UInt16, primaryDeviceType: [UInt8],
    secondaryDeviceTypes: [[UInt8]] = [], deviceName: [UInt8]
  ) {
    self.deviceAddress = deviceAddress
    self.configMethods = configMethods
    self.primaryDeviceType = primaryDeviceType
    self.secondaryDeviceTypes = secondaryDeviceTypes
    self.deviceName = deviceName
  }

  /// Decodes a Device Info attribute value.
  ///
  /// - Throws: `attributeTruncated` (a field runs past the value, offset of the field) and
  ///   `attributeInvalidLength` (the device name is not one WSC Device Name attribute that
  ///   ends the value, offset of that attribute).
  public init(parsing value: RawSpan, baseOffset: Int = 0) throws(NDEFError) {
    var reader = ByteReader(value, baseOffset: baseOffset)
    guard let address = reader.readSpan(count: 6) else {
      throw NDEFError(.attributeTruncated, offset: baseOffset)
    }
    let methodsAt = reader.offset
    guard let methods = reader.readUInt16BE() else { throw NDEFError(.attributeTruncated, offset: methodsAt) }
    let primaryAt = reader.offset
    guard let primary = reader.readSpan(count: 8) else {
      throw NDEFError(.attributeTruncated, offset: primaryAt)
    }
    let countAt = reader.offset
    guard let count = reader.readUInt8() else { throw NDEFError(.attributeTruncated, offset: countAt) }
    var secondary: [[UInt8]] = []
    for _ in 0..<Int(count) {
      let at = reader.offset
      guard let type = reader.readSpan(count: 8) else { throw NDEFError(.attributeTruncated, offset: at) }
      secondary.append(type.copiedBytes())
    }
    let nameAt = reader.offset
    guard let type = reader.readUInt16BE(), let length = reader.readUInt16BE(),
      let name = reader.readSpan(count: Int(length))
    else { throw NDEFError(.attributeTruncated, offset: nameAt) }
    guard type == Self.deviceNameAttribute.rawValue, reader.isAtEnd else {
      throw NDEFError(.attributeInvalidLength, offset: nameAt)
    }
    self.init(
      deviceAddress: address.copiedBytes(), configMethods: methods, primaryDeviceType: primary.copiedBytes(),
      secondaryDeviceTypes: secondary, deviceName: name.copiedBytes())
  }

  /// The attribute value (without the P2P id and length).
  public var encodedValue: [UInt8] {
    var bytes = deviceAddress + [UInt8(configMethods >> 8), UInt8(configMethods & 0xFF)] + primaryDeviceType
    bytes.append(UInt8(truncatingIfNeeded: secondaryDeviceTypes.count))
    for type in secondaryDeviceTypes { bytes += type }
    let type = Self.deviceNameAttribute.rawValue
    bytes += [UInt8(type >> 8), UInt8(type & 0xFF), UInt8(truncatingIfNeeded: deviceName.count >> 8)]
    bytes += [UInt8(truncatingIfNeeded: deviceName.count)] + deviceName
    return bytes
  }
}

/// A Wi-Fi P2P carrier payload (`application/vnd.wfa.p2p`, Wi-Fi P2P v1.7 §4.2 with
/// WSC v2.0 §10.1): a big-endian 16-bit length and the WSC attributes, then a big-endian
/// 16-bit length and the P2P attributes (whose own lengths are little-endian).
public struct WiFiP2PView: ~Escapable {
  /// The media type `application/vnd.wfa.p2p`.
  public static let type: [UInt8] = Array("application/vnd.wfa.p2p".utf8)

  /// The WSC attribute bytes.
  public let wscBytes: RawSpan
  /// Absolute offset of the WSC attributes.
  public let wscOffset: Int
  /// The P2P attribute bytes.
  public let p2pBytes: RawSpan
  /// Absolute offset of the P2P attributes.
  public let p2pOffset: Int
  /// Lenient-mode warnings.
  public let warnings: [NDEFWarning]

  /// Decodes a P2P carrier payload.
  ///
  /// - Throws: `p2pLengthExceedsPayload` (a 16-bit length claims more than remains, offset
  ///   of the length field), `attributeTruncated`, the Device Info errors, and
  ///   `p2pTrailingBytes` (bytes after the P2P attributes; a warning in lenient mode).
  @_lifetime(copy payload)
  public init(validating payload: RawSpan, baseOffset: Int = 0, options: NDEFDecodingOptions = .strict)
    throws(NDEFError)
  {
    var sink = WarningSink(lenient: options.isLenient)
    var reader = ByteReader(payload, baseOffset: baseOffset)
    let wscLengthAt = reader.offset
    guard let wscLength = reader.readUInt16BE() else {
      throw NDEFError(.p2pLengthExceedsPayload, offset: wscLengthAt)
    }
    let wscOffset = reader.offset
    guard let wsc = reader.readSpan(count: Int(wscLength)) else {
      throw NDEFError(.p2pLengthExceedsPayload, offset: wscLengthAt)
    }
    try WSCAttributeIterator.validate(wsc, baseOffset: wscOffset)
    let p2pLengthAt = reader.offset
    guard let p2pLength = reader.readUInt16BE() else {
      throw NDEFError(.p2pLengthExceedsPayload, offset: p2pLengthAt)
    }
    let p2pOffset = reader.offset
    guard let p2p = reader.readSpan(count: Int(p2pLength)) else {
      throw NDEFError(.p2pLengthExceedsPayload, offset: p2pLengthAt)
    }
    try P2PAttributeIterator.validate(p2p, baseOffset: p2pOffset)
    var attributes = P2PAttributeIterator(p2p, baseOffset: p2pOffset)
    while let attribute = attributes.next() {
      if attribute.id == .deviceInfo {
        _ = try P2PDeviceInfo(parsing: attribute.value, baseOffset: attribute.valueOffset)
      }
    }
    if !reader.isAtEnd { try sink.report(.p2pTrailingBytes, at: reader.offset) }
    self.wscBytes = wsc
    self.wscOffset = wscOffset
    self.p2pBytes = p2p
    self.p2pOffset = p2pOffset
    self.warnings = sink.warnings
  }

  /// The WSC attributes in order.
  public var wscAttributes: WSCAttributeIterator {
    @_lifetime(copy self)
    get { WSCAttributeIterator(wscBytes, baseOffset: wscOffset) }
  }

  /// The P2P attributes in order.
  public var p2pAttributes: P2PAttributeIterator {
    @_lifetime(copy self)
    get { P2PAttributeIterator(p2pBytes, baseOffset: p2pOffset) }
  }

  /// The first P2P Device Info attribute, decoded.
  public var deviceInfo: P2PDeviceInfo? {
    var attributes = p2pAttributes
    while let attribute = attributes.next() {
      if attribute.id == .deviceInfo {
        return try? P2PDeviceInfo(parsing: attribute.value, baseOffset: attribute.valueOffset)
      }
    }
    return nil
  }
}

/// An owned P2P attribute: id and value.
public struct P2PAttributeValue: Sendable, Hashable {
  /// The attribute id.
  public var id: P2PAttributeID
  /// The value bytes.
  public var value: [UInt8]
  /// Creates an attribute.
  public init(id: P2PAttributeID, value: [UInt8]) {
    self.id = id
    self.value = value
  }
}

/// An owned Wi-Fi P2P carrier payload for building (`application/vnd.wfa.p2p`).
public struct WiFiP2P: Sendable, Hashable {
  /// The WSC attribute bytes (type, big-endian length, value, repeated).
  public var wscAttributes: [UInt8]
  /// The P2P attributes.
  public var p2pAttributes: [P2PAttributeValue]

  /// Creates a payload model.
  public init(wscAttributes: [UInt8], p2pAttributes: [P2PAttributeValue]) {
    self.wscAttributes = wscAttributes
    self.p2pAttributes = p2pAttributes
  }

  /// Copies a view.
  public init(_ view: borrowing WiFiP2PView) {
    var attributes: [P2PAttributeValue] = []
    var iterator = view.p2pAttributes
    while let attribute = iterator.next() {
      attributes.append(P2PAttributeValue(id: attribute.id, value: attribute.value.copiedBytes()))
    }
    self.init(wscAttributes: view.wscBytes.copiedBytes(), p2pAttributes: attributes)
  }

  /// The payload.
  ///
  /// - Throws: `payloadTooLong` when a part or an attribute exceeds 65535 bytes.
  public func payload() throws(NDEFError) -> [UInt8] {
    var p2p: [UInt8] = []
    for attribute in p2pAttributes {
      guard attribute.value.count <= 0xFFFF else { throw NDEFError(.payloadTooLong, offset: 0) }
      p2p += [attribute.id.rawValue, UInt8(attribute.value.count & 0xFF), UInt8(attribute.value.count >> 8)]
      p2p += attribute.value
    }
    guard wscAttributes.count <= 0xFFFF, p2p.count <= 0xFFFF else {
      throw NDEFError(.payloadTooLong, offset: 0)
    }
    return [UInt8(wscAttributes.count >> 8), UInt8(wscAttributes.count & 0xFF)] + wscAttributes
      + [UInt8(p2p.count >> 8), UInt8(p2p.count & 0xFF)] + p2p
  }
}
