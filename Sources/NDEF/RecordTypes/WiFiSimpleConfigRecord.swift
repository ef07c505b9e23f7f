// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A Wi-Fi Simple Configuration attribute type (Wi-Fi Simple Configuration Technical
/// Specification v2.0, §12, table 28): a 16-bit big-endian id.
public struct WSCAttributeType: RawRepresentable, Sendable, Hashable {
  /// The 16-bit attribute id.
  public let rawValue: UInt16
  /// Wraps an id.
  public init(rawValue: UInt16) { self.rawValue = rawValue }
  /// 0x1003 Authentication Type (2 bytes).
  public static let authenticationType = WSCAttributeType(rawValue: 0x1003)
  /// 0x100E Credential (nested attributes).
  public static let credential = WSCAttributeType(rawValue: 0x100E)
  /// 0x100F Encryption Type (2 bytes).
  public static let encryptionType = WSCAttributeType(rawValue: 0x100F)
  /// 0x1020 MAC Address (6 bytes).
  public static let macAddress = WSCAttributeType(rawValue: 0x1020)
  /// 0x1026 Network Index (1 byte).
  public static let networkIndex = WSCAttributeType(rawValue: 0x1026)
  /// 0x1027 Network Key (0...64 bytes).
  public static let networkKey = WSCAttributeType(rawValue: 0x1027)
  /// 0x1045 SSID (up to 32 bytes).
  public static let ssid = WSCAttributeType(rawValue: 0x1045)
  /// 0x1049 Vendor Extension (3-byte vendor id, then vendor data).
  public static let vendorExtension = WSCAttributeType(rawValue: 0x1049)
  /// 0x104A Version (1 byte, deprecated in favour of Version2 but still sent as 0x10).
  public static let version = WSCAttributeType(rawValue: 0x104A)
}

/// Authentication Type flags (WSC §12, table 32).
public struct WSCAuthenticationType: OptionSet, Sendable, Hashable {
  /// The 16-bit flags.
  public let rawValue: UInt16
  /// Wraps flags.
  public init(rawValue: UInt16) { self.rawValue = rawValue }
  /// 0x0001 Open.
  public static let open = WSCAuthenticationType(rawValue: 0x0001)
  /// 0x0002 WPA-Personal (deprecated).
  public static let wpaPersonal = WSCAuthenticationType(rawValue: 0x0002)
  /// 0x0004 Shared (deprecated).
  public static let shared = WSCAuthenticationType(rawValue: 0x0004)
  /// 0x0008 WPA-Enterprise (deprecated).
  public static let wpaEnterprise = WSCAuthenticationType(rawValue: 0x0008)
  /// 0x0010 WPA2-Enterprise.
  public static let wpa2Enterprise = WSCAuthenticationType(rawValue: 0x0010)
  /// 0x0020 WPA2-Personal.
  public static let wpa2Personal = WSCAuthenticationType(rawValue: 0x0020)

  /// Names of the set flags joined by `+` (e.g. `WPA2-Personal`), or the hex value.
  public var name: String {
    let names: [(WSCAuthenticationType, String)] = [
      (.open, "Open"), (.wpaPersonal, "WPA-Personal"), (.shared, "Shared"),
      (.wpaEnterprise, "WPA-Enterprise"), (.wpa2Enterprise, "WPA2-Enterprise"),
      (.wpa2Personal, "WPA2-Personal"),
    ]
    let set = names.filter { contains($0.0) }.map { $0.1 }
    return set.isEmpty ? hex16(rawValue) : set.joined(separator: "+")
  }
}

/// Encryption Type flags (WSC §12, table 33).
public struct WSCEncryptionType: OptionSet, Sendable, Hashable {
  /// The 16-bit flags.
  public let rawValue: UInt16
  /// Wraps flags.
  public init(rawValue: UInt16) { self.rawValue = rawValue }
  /// 0x0001 None.
  public static let none = WSCEncryptionType(rawValue: 0x0001)
  /// 0x0002 WEP (deprecated).
  public static let wep = WSCEncryptionType(rawValue: 0x0002)
  /// 0x0004 TKIP (deprecated).
  public static let tkip = WSCEncryptionType(rawValue: 0x0004)
  /// 0x0008 AES.
  public static let aes = WSCEncryptionType(rawValue: 0x0008)

  /// Names of the set flags joined by `+` (e.g. `AES`), or the hex value.
  public var name: String {
    let names: [(WSCEncryptionType, String)] = [
      (.none, "None"), (.wep, "WEP"), (.tkip, "TKIP"), (.aes, "AES"),
    ]
    let set = names.filter { contains($0.0) }.map { $0.1 }
    return set.isEmpty ? hex16(rawValue) : set.joined(separator: "+")
  }
}

func hex16(_ value: UInt16) -> String {
  "0x" + Hex.string([UInt8(value >> 8), UInt8(value & 0xFF)])
}

/// Iterates WSC attributes: a 2-byte type, a 2-byte length, the value (all big-endian).
public struct WSCAttributeIterator: ~Escapable {
  var reader: ByteReader

  @_lifetime(copy bytes)
  init(_ bytes: RawSpan, baseOffset: Int) { self.reader = ByteReader(bytes, baseOffset: baseOffset) }

  /// The next attribute's type, value and the value's absolute offset, or `nil`.
  @_lifetime(copy self)
  public mutating func next() -> WSCAttribute? {
    guard let type = reader.readUInt16BE(), let length = reader.readUInt16BE() else { return nil }
    let offset = reader.offset
    guard let value = reader.readSpan(count: Int(length)) else { return nil }
    return WSCAttribute(type: WSCAttributeType(rawValue: type), value: value, valueOffset: offset)
  }

  /// Checks that the attributes exactly fill `bytes`; the offset of the first that does not.
  static func validate(_ bytes: RawSpan, baseOffset: Int) throws(NDEFError) {
    var reader = ByteReader(bytes, baseOffset: baseOffset)
    while !reader.isAtEnd {
      let start = reader.offset
      guard reader.readUInt16BE() != nil, let length = reader.readUInt16BE(), reader.skip(Int(length)) else {
        throw NDEFError(.attributeTruncated, offset: start)
      }
    }
  }
}

/// One WSC attribute.
public struct WSCAttribute: ~Escapable {
  /// The attribute type.
  public let type: WSCAttributeType
  /// The value bytes.
  public let value: RawSpan
  /// Absolute offset of the value.
  public let valueOffset: Int

  @_lifetime(copy value)
  init(type: WSCAttributeType, value: RawSpan, valueOffset: Int) {
    self.type = type
    self.value = value
    self.valueOffset = valueOffset
  }

  /// The attributes nested in the value, with absolute offsets: the Credential attribute
  /// holds Network Index, SSID, Authentication Type and the rest (WSC 2.0 §12).
  public var nestedAttributes: WSCAttributeIterator {
    @_lifetime(copy self)
    get { WSCAttributeIterator(value, baseOffset: valueOffset) }
  }

  /// The value as a big-endian integer when it is `width` bytes long.
  func integer(width: Int) -> UInt16? {
    var reader = ByteReader(value)
    guard value.byteCount == width else { return nil }
    return reader.readBigEndian(UInt16.self, width: width)
  }
}

/// A Wi-Fi credential (WSC §12, Credential attribute), owned.
public struct WiFiCredential: Sendable, Hashable {
  /// Network Index (1 byte; 1 in current practice).
  public var networkIndex: UInt8
  /// The SSID bytes (printable as UTF-8 in practice).
  public var ssid: [UInt8]
  /// Authentication type.
  public var authentication: WSCAuthenticationType
  /// Encryption type.
  public var encryption: WSCEncryptionType
  /// The network key (passphrase or PSK).
  public var networkKey: [UInt8]
  /// The MAC address (6 bytes; FF:FF:FF:FF:FF:FF when not bound to a device).
  public var macAddress: [UInt8]

  /// Creates a credential.
  public init(
    networkIndex: UInt8 = 1, ssid: [UInt8], authentication: WSCAuthenticationType,
    encryption: WSCEncryptionType, networkKey: [UInt8],
    macAddress: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
  ) {
    self.networkIndex = networkIndex
    self.ssid = ssid
    self.authentication = authentication
    self.encryption = encryption
    self.networkKey = networkKey
    self.macAddress = macAddress
  }

  /// Decodes the value of a Credential attribute.
  ///
  /// - Throws: `attributeTruncated`, `attributeInvalidLength` (a fixed-size attribute of
  ///   the wrong size), `wscMissingAttribute` (SSID, authentication, encryption, network
  ///   key or MAC address absent).
  public init(parsing value: RawSpan, baseOffset: Int = 0) throws(NDEFError) {
    try WSCAttributeIterator.validate(value, baseOffset: baseOffset)
    var index: UInt8 = 1
    var ssid: [UInt8]? = nil
    var authentication: UInt16? = nil
    var encryption: UInt16? = nil
    var key: [UInt8]? = nil
    var mac: [UInt8]? = nil
    var attributes = WSCAttributeIterator(value, baseOffset: baseOffset)
    while let attribute = attributes.next() {
      switch attribute.type {
      case .networkIndex:
        guard attribute.value.byteCount == 1, let byte = attribute.value.byte(at: 0) else {
          throw NDEFError(.attributeInvalidLength, offset: attribute.valueOffset)
        }
        index = byte
      case .ssid:
        guard attribute.value.byteCount <= 32 else {
          throw NDEFError(.attributeInvalidLength, offset: attribute.valueOffset)
        }
        ssid = attribute.value.copiedBytes()
      case .authenticationType:
        guard let value = attribute.integer(width: 2) else {
          throw NDEFError(.attributeInvalidLength, offset: attribute.valueOffset)
        }
        authentication = value
      case .encryptionType:
        guard let value = attribute.integer(width: 2) else {
          throw NDEFError(.attributeInvalidLength, offset: attribute.valueOffset)
        }
        encryption = value
      case .networkKey:
        guard attribute.value.byteCount <= 64 else {
          throw NDEFError(.attributeInvalidLength, offset: attribute.valueOffset)
        }
        key = attribute.value.copiedBytes()
      case .macAddress:
        guard attribute.value.byteCount == 6 else {
          throw NDEFError(.attributeInvalidLength, offset: attribute.valueOffset)
        }
        mac = attribute.value.copiedBytes()
      default: break
      }
    }
    guard let ssid, let authentication, let encryption, let key, let mac else {
      throw NDEFError(.wscMissingAttribute, offset: baseOffset)
    }
    self.init(
      networkIndex: index, ssid: ssid, authentication: WSCAuthenticationType(rawValue: authentication),
      encryption: WSCEncryptionType(rawValue: encryption), networkKey: key, macAddress: mac)
  }

  /// The Credential attribute's value: index, SSID, authentication, encryption, key, MAC.
  public var encodedValue: [UInt8] {
    func attribute(_ type: WSCAttributeType, _ value: [UInt8]) -> [UInt8] {
      [
        UInt8(type.rawValue >> 8), UInt8(type.rawValue & 0xFF), UInt8(value.count >> 8),
        UInt8(value.count & 0xFF),
      ]
        + value
    }
    func word(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    return attribute(.networkIndex, [networkIndex]) + attribute(.ssid, ssid)
      + attribute(.authenticationType, word(authentication.rawValue))
      + attribute(.encryptionType, word(encryption.rawValue)) + attribute(.networkKey, networkKey)
      + attribute(.macAddress, macAddress)
  }
}

/// A Wi-Fi Simple Configuration payload (`application/vnd.wfa.wsc`, WSC v2.0 §10.1.2, the
/// NFC configuration token): WSC attributes with Version, one or more Credentials and the
/// WFA vendor extension carrying Version2.
public struct WiFiSimpleConfigView: ~Escapable {
  /// The media type `application/vnd.wfa.wsc`.
  public static let type: [UInt8] = Array("application/vnd.wfa.wsc".utf8)
  /// The Wi-Fi Alliance vendor id in a Vendor Extension (00 37 2A).
  public static let wfaVendorID: [UInt8] = [0x00, 0x37, 0x2A]
  /// The Version2 subelement id inside the WFA vendor extension.
  public static let version2SubelementID: UInt8 = 0x00

  /// The payload's attributes.
  public let attributes: RawSpan
  /// Absolute offset of the payload.
  public let baseOffset: Int
  /// The Version attribute (0x10 for 1.0), when present.
  public let version: UInt8?
  /// The Version2 subelement (e.g. 0x20 for 2.0), when present.
  public let version2: UInt8?
  /// The number of Credential attributes that decode (as ``credentials()`` gives them;
  /// malformed ones are listed by ``malformedCredentials()``).
  public let credentialCount: Int
  /// Lenient-mode warnings.
  public let warnings: [NDEFWarning]

  /// Decodes a WSC payload.
  ///
  /// The attributes' framing and the token's own attributes are checked here; a Credential
  /// attribute whose value does not decode (WSC 2.0 §12) does not fail the token: it is listed
  /// by ``malformedCredentials()`` and the other credentials still decode.
  ///
  /// - Throws: `attributeTruncated`, `attributeInvalidLength` (Version, Version2), and
  ///   `wscMissingCredential` (no Credential attribute at all; a warning in lenient mode).
  @_lifetime(copy payload)
  public init(validating payload: RawSpan, baseOffset: Int = 0, options: NDEFDecodingOptions = .strict)
    throws(NDEFError)
  {
    var sink = WarningSink(lenient: options.isLenient)
    try WSCAttributeIterator.validate(payload, baseOffset: baseOffset)
    var version: UInt8? = nil
    var version2: UInt8? = nil
    var credentials = 0
    var credentialAttributes = 0
    var iterator = WSCAttributeIterator(payload, baseOffset: baseOffset)
    while let attribute = iterator.next() {
      switch attribute.type {
      case .version:
        guard attribute.value.byteCount == 1 else {
          throw NDEFError(.attributeInvalidLength, offset: attribute.valueOffset)
        }
        version = attribute.value.byte(at: 0)
      case .credential:
        // A Credential that does not decode is present (no `wscMissingCredential`) but not
        // counted: ``malformedCredentials()`` lists it.
        credentialAttributes += 1
        if (try? WiFiCredential(parsing: attribute.value, baseOffset: attribute.valueOffset)) != nil {
          credentials += 1
        }
      case .vendorExtension:
        var reader = ByteReader(attribute.value, baseOffset: attribute.valueOffset)
        guard let vendor = reader.readSpan(count: 3), vendor.elementsEqual(Self.wfaVendorID) else { continue }
        // WFA subelements: id (1 byte), length (1 byte), value.
        while !reader.isAtEnd {
          let at = reader.offset
          guard let id = reader.readUInt8(), let length = reader.readUInt8(),
            let value = reader.readSpan(count: Int(length))
          else { throw NDEFError(.attributeTruncated, offset: at) }
          if id == Self.version2SubelementID {
            guard value.byteCount == 1 else { throw NDEFError(.attributeInvalidLength, offset: at) }
            version2 = value.byte(at: 0)
          }
        }
      default: break
      }
    }
    if credentialAttributes == 0 { try sink.report(.wscMissingCredential, at: baseOffset) }
    self.attributes = payload
    self.baseOffset = baseOffset
    self.version = version
    self.version2 = version2
    self.credentialCount = credentials
    self.warnings = sink.warnings
  }

  /// The attributes in order.
  public var allAttributes: WSCAttributeIterator {
    @_lifetime(copy self)
    get { WSCAttributeIterator(attributes, baseOffset: baseOffset) }
  }

  /// The Credential attributes whose value does not decode (a fixed-size attribute of the
  /// wrong size, a missing SSID, ..., WSC 2.0 §12), in order, with their index and typed error.
  /// In strict mode a token with any is not valid; lenient callers may treat them as warnings.
  public func malformedCredentials() -> [MalformedWiFiCredential] {
    var result: [MalformedWiFiCredential] = []
    var iterator = allAttributes
    var index = 0
    while let attribute = iterator.next() {
      guard attribute.type == .credential else { continue }
      do throws(NDEFError) {
        _ = try WiFiCredential(parsing: attribute.value, baseOffset: attribute.valueOffset)
      } catch {
        result.append(MalformedWiFiCredential(index: index, error: error))
      }
      index += 1
    }
    return result
  }

  /// The credentials that decode, in order (owned: they are small and hold secrets the caller
  /// copies); see ``malformedCredentials()`` for the others.
  public func credentials() -> [WiFiCredential] {
    var result: [WiFiCredential] = []
    var iterator = allAttributes
    while let attribute = iterator.next() {
      if attribute.type == .credential,
        let credential = try? WiFiCredential(parsing: attribute.value, baseOffset: attribute.valueOffset)
      {
        result.append(credential)
      }
    }
    return result
  }
}

/// A Credential attribute of a WSC payload that does not decode (WSC 2.0 §12): which one and
/// its typed error.
public struct MalformedWiFiCredential: Sendable, Hashable {
  /// The index among the payload's Credential attributes (0 for the first).
  public let index: Int
  /// The error, with the absolute offset of the first offending byte.
  public let error: NDEFError

  /// Wraps an index and an error.
  public init(index: Int, error: NDEFError) {
    self.index = index
    self.error = error
  }
}

/// An owned Wi-Fi configuration token for building (`application/vnd.wfa.wsc`).
public struct WiFiSimpleConfig: Sendable, Hashable {
  /// The credentials.
  public var credentials: [WiFiCredential]
  /// Version2 (0x20 = 2.0); `nil` to leave out the vendor extension.
  public var version2: UInt8?

  /// Creates a configuration token.
  public init(credentials: [WiFiCredential], version2: UInt8? = 0x20) {
    self.credentials = credentials
    self.version2 = version2
  }

  /// The payload: Version 0x10, the credentials, then the WFA vendor extension.
  public var payload: [UInt8] {
    var bytes: [UInt8] = [0x10, 0x4A, 0x00, 0x01, 0x10]
    for credential in credentials {
      let value = credential.encodedValue
      bytes += [0x10, 0x0E, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
    }
    if let version2 {
      bytes += [0x10, 0x49, 0x00, 0x06] + WiFiSimpleConfigView.wfaVendorID + [0x00, 0x01, version2]
    }
    return bytes
  }

  /// The NDEF record (TNF Media, `application/vnd.wfa.wsc`).
  public func record(id: [UInt8] = []) -> NDEFRecord {
    NDEFRecord(typeNameFormat: .media, type: WiFiSimpleConfigView.type, id: id, payload: payload)
  }
}
