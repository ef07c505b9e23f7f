// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// The typed value of one AD structure, owned (Core Specification Supplement Part A §1).
///
/// Every AD type a scanner uses has its own case; types without a decoder here (mesh,
/// indoor positioning, encrypted data, ...) are ``other(_:_:)`` with their raw data.
public enum ADValue: Sendable, Hashable {
  /// §1.3 Flags.
  case flags(ADFlags)
  /// §1.1 Service class UUIDs (16-, 32- or 128-bit), complete or incomplete list.
  case serviceUUIDs([BluetoothUUID], complete: Bool)
  /// §1.2 Local name, complete or shortened (invalid UTF-8 becomes U+FFFD).
  case localName(String, complete: Bool)
  /// §1.5 TX Power Level in dBm.
  case txPowerLevel(Int8)
  /// §1.6 Class of Device (24 bits).
  case classOfDevice(UInt32)
  /// §1.6 Simple Pairing Hash C-192 (`p256` false) or C-256 (`p256` true), 16 octets.
  case simplePairingHash([UInt8], p256: Bool)
  /// §1.6 Simple Pairing Randomizer, 16 octets.
  case simplePairingRandomizer([UInt8], p256: Bool)
  /// §1.8 Security Manager TK Value, 16 octets (little-endian as sent).
  case securityManagerTKValue([UInt8])
  /// §1.7 Security Manager Out of Band Flags.
  case securityManagerOOBFlags(SecurityManagerOOBFlags)
  /// §1.9 Peripheral Connection Interval Range in units of 1.25 ms (0xFFFF: no value).
  case peripheralConnectionIntervalRange(minimum: UInt16, maximum: UInt16)
  /// §1.10 Service solicitation UUIDs.
  case serviceSolicitationUUIDs([BluetoothUUID])
  /// §1.11 Service data: the service UUID and the data after it.
  case serviceData(BluetoothUUID, [UInt8])
  /// §1.13 / §1.14 Target addresses; `random` for Random Target Address.
  case targetAddresses([BluetoothAddress], random: Bool)
  /// §1.12 Appearance.
  case appearance(UInt16)
  /// §1.15 Advertising Interval (or Advertising Interval - long) in units of 0.625 ms.
  case advertisingInterval(UInt32)
  /// §1.16 LE Bluetooth Device Address and whether it is a random address.
  case leDeviceAddress(BluetoothAddress, random: Bool)
  /// §1.17 LE Role.
  case leRole(LERole)
  /// §1.6 LE Secure Connections Confirmation Value, 16 octets.
  case leSecureConnectionsConfirmation([UInt8])
  /// §1.6 LE Secure Connections Random Value, 16 octets.
  case leSecureConnectionsRandom([UInt8])
  /// §1.18 URI, with the scheme code point expanded.
  case uri(String)
  /// §1.19 LE Supported Features: the feature bit mask, octet 0 first.
  case leSupportedFeatures([UInt8])
  /// Public Broadcast Profile §4.2: Broadcast_Name (UTF-8).
  case broadcastName(String)
  /// §1.4 Manufacturer Specific Data: company identifier and the data after it.
  case manufacturerData(CompanyIdentifier, [UInt8])
  /// Any other AD type, with its raw data.
  case other(ADType, [UInt8])

  /// Decodes the typed value of `structure`.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/invalidDataLength`` at the structure's Length
  ///   octet when the data has the wrong size for its type, and
  ///   ``BLEAdvertisingError/Code/invalidURIScheme`` for a URI without a valid scheme
  ///   code point.
  public init(_ structure: borrowing ADStructureView) throws(BLEAdvertisingError) {
    let data = structure.data
    let type = structure.type
    var reader = ByteReader(data, baseOffset: structure.dataOffset)
    func bad() -> BLEAdvertisingError {
      BLEAdvertisingError(.invalidDataLength, offset: structure.offset)
    }
    switch type {
    case .flags:
      self = .flags(structure.flags ?? [])
    case .incompleteServiceUUIDs16, .completeServiceUUIDs16, .incompleteServiceUUIDs32,
      .completeServiceUUIDs32, .incompleteServiceUUIDs128, .completeServiceUUIDs128:
      self = .serviceUUIDs(
        try Self.uuids(structure), complete: type.isCompleteServiceUUIDList)
    case .serviceSolicitationUUIDs16, .serviceSolicitationUUIDs32, .serviceSolicitationUUIDs128:
      self = .serviceSolicitationUUIDs(try Self.uuids(structure))
    case .shortenedLocalName, .completeLocalName:
      self = .localName(
        String(decoding: data.copiedBytes(), as: UTF8.self), complete: type == .completeLocalName)
    case .txPowerLevel:
      self = .txPowerLevel(try structure.txPowerLevel() ?? 0)
    case .classOfDevice:
      try structure.expect(count: 3)
      self = .classOfDevice(reader.readLittleEndian(UInt32.self, width: 3) ?? 0)
    case .simplePairingHashC192, .simplePairingHashC256:
      try structure.expect(count: 16)
      self = .simplePairingHash(data.copiedBytes(), p256: type == .simplePairingHashC256)
    case .simplePairingRandomizerR192, .simplePairingRandomizerR256:
      try structure.expect(count: 16)
      self = .simplePairingRandomizer(
        data.copiedBytes(), p256: type == .simplePairingRandomizerR256)
    case .securityManagerTKValue:
      try structure.expect(count: 16)
      self = .securityManagerTKValue(data.copiedBytes())
    case .securityManagerOOBFlags:
      try structure.expect(count: 1)
      self = .securityManagerOOBFlags(SecurityManagerOOBFlags(rawValue: data.byte(at: 0) ?? 0))
    case .peripheralConnectionIntervalRange:
      try structure.expect(count: 4)
      let minimum = reader.readUInt16LE() ?? 0
      let maximum = reader.readUInt16LE() ?? 0
      self = .peripheralConnectionIntervalRange(minimum: minimum, maximum: maximum)
    case .serviceData16, .serviceData32, .serviceData128:
      guard let view = try structure.serviceData() else { throw bad() }
      self = .serviceData(view.uuid, view.data.copiedBytes())
    case .publicTargetAddress, .randomTargetAddress:
      try structure.expect(multipleOf: 6)
      var addresses: [BluetoothAddress] = []
      addresses.reserveCapacity(data.byteCount / 6)
      while let v = reader.readLittleEndian(UInt64.self, width: 6) {
        addresses.append(BluetoothAddress(v))
      }
      self = .targetAddresses(addresses, random: type == .randomTargetAddress)
    case .appearance:
      self = .appearance(try structure.appearance() ?? 0)
    case .advertisingInterval:
      try structure.expect(count: 2)
      self = .advertisingInterval(UInt32(reader.readUInt16LE() ?? 0))
    case .advertisingIntervalLong:
      guard data.byteCount == 3 || data.byteCount == 4 else { throw bad() }
      self = .advertisingInterval(
        reader.readLittleEndian(UInt32.self, width: data.byteCount) ?? 0)
    case .leDeviceAddress:
      try structure.expect(count: 7)
      let address = BluetoothAddress(reader.readLittleEndian(UInt64.self, width: 6) ?? 0)
      let kind = reader.readUInt8() ?? 0
      self = .leDeviceAddress(address, random: kind & 0x01 == 0x01)
    case .leRole:
      try structure.expect(count: 1)
      self = .leRole(LERole(rawValue: data.byte(at: 0) ?? 0))
    case .leSecureConnectionsConfirmationValue:
      try structure.expect(count: 16)
      self = .leSecureConnectionsConfirmation(data.copiedBytes())
    case .leSecureConnectionsRandomValue:
      try structure.expect(count: 16)
      self = .leSecureConnectionsRandom(data.copiedBytes())
    case .uri:
      self = .uri(try Self.uri(data, offset: structure.offset))
    case .leSupportedFeatures:
      self = .leSupportedFeatures(data.copiedBytes())
    case .broadcastName:
      self = .broadcastName(String(decoding: data.copiedBytes(), as: UTF8.self))
    case .manufacturerSpecificData:
      guard let view = try structure.manufacturerData() else { throw bad() }
      self = .manufacturerData(view.companyID, view.data.copiedBytes())
    default:
      self = .other(type, data.copiedBytes())
    }
  }

  private static func uuids(_ structure: borrowing ADStructureView) throws(BLEAdvertisingError)
    -> [BluetoothUUID]
  {
    guard let list = try structure.uuidList() else { return [] }
    var result: [BluetoothUUID] = []
    result.reserveCapacity(list.count)
    for i in 0..<list.count {
      if let uuid = list.uuid(at: i) { result.append(uuid) }
    }
    return result
  }

  /// Decodes the URI AD data (§1.18): a UTF-8 scheme code point, then the rest of the URI.
  static func uri(_ data: RawSpan, offset: Int) throws(BLEAdvertisingError) -> String {
    let fail = BLEAdvertisingError(.invalidURIScheme, offset: offset &+ 2)
    guard let first = data.byte(at: 0) else { throw fail }
    var codePoint: UInt32
    var start = 1
    if first < 0x80 {
      codePoint = UInt32(first)
    } else if first >= 0xC2 && first <= 0xDF, let second = data.byte(at: 1),
      second & 0xC0 == 0x80
    {
      codePoint = UInt32(first & 0x1F) << 6 | UInt32(second & 0x3F)
      start = 2
    } else {
      throw fail
    }
    guard let scheme = URIScheme.name(for: codePoint) else { throw fail }
    let rest = data.extracting(start..<data.byteCount).copiedBytes()
    return scheme + String(decoding: rest, as: UTF8.self)
  }

  /// The AD type this value encodes as; UUID lists pick the width of their widest UUID.
  public var type: ADType {
    switch self {
    case .flags: return .flags
    case .serviceUUIDs(let uuids, let complete):
      switch Self.width(of: uuids) {
      case 2: return complete ? .completeServiceUUIDs16 : .incompleteServiceUUIDs16
      case 4: return complete ? .completeServiceUUIDs32 : .incompleteServiceUUIDs32
      default: return complete ? .completeServiceUUIDs128 : .incompleteServiceUUIDs128
      }
    case .localName(_, let complete): return complete ? .completeLocalName : .shortenedLocalName
    case .txPowerLevel: return .txPowerLevel
    case .classOfDevice: return .classOfDevice
    case .simplePairingHash(_, let p256): return p256 ? .simplePairingHashC256 : .simplePairingHashC192
    case .simplePairingRandomizer(_, let p256):
      return p256 ? .simplePairingRandomizerR256 : .simplePairingRandomizerR192
    case .securityManagerTKValue: return .securityManagerTKValue
    case .securityManagerOOBFlags: return .securityManagerOOBFlags
    case .peripheralConnectionIntervalRange: return .peripheralConnectionIntervalRange
    case .serviceSolicitationUUIDs(let uuids):
      switch Self.width(of: uuids) {
      case 2: return .serviceSolicitationUUIDs16
      case 4: return .serviceSolicitationUUIDs32
      default: return .serviceSolicitationUUIDs128
      }
    case .serviceData(let uuid, _):
      switch uuid.shortestWidth {
      case 2: return .serviceData16
      case 4: return .serviceData32
      default: return .serviceData128
      }
    case .targetAddresses(_, let random): return random ? .randomTargetAddress : .publicTargetAddress
    case .appearance: return .appearance
    case .advertisingInterval(let v): return v <= 0xFFFF ? .advertisingInterval : .advertisingIntervalLong
    case .leDeviceAddress: return .leDeviceAddress
    case .leRole: return .leRole
    case .leSecureConnectionsConfirmation: return .leSecureConnectionsConfirmationValue
    case .leSecureConnectionsRandom: return .leSecureConnectionsRandomValue
    case .uri: return .uri
    case .leSupportedFeatures: return .leSupportedFeatures
    case .broadcastName: return .broadcastName
    case .manufacturerData: return .manufacturerSpecificData
    case .other(let type, _): return type
    }
  }

  /// The AD data octets (after the type octet) this value encodes to.
  public var data: [UInt8] {
    func le(_ v: UInt64, _ width: Int) -> [UInt8] {
      (0..<width).map { UInt8(truncatingIfNeeded: v >> UInt64($0 * 8)) }
    }
    switch self {
    case .flags(let f): return [f.rawValue]
    case .serviceUUIDs(let uuids, _), .serviceSolicitationUUIDs(let uuids):
      let width = Self.width(of: uuids)
      return uuids.flatMap { $0.littleEndianBytes(width: width) ?? [] }
    case .localName(let name, _): return Array(name.utf8)
    case .txPowerLevel(let p): return [UInt8(bitPattern: p)]
    case .classOfDevice(let c): return le(UInt64(c), 3)
    case .simplePairingHash(let b, _), .simplePairingRandomizer(let b, _),
      .securityManagerTKValue(let b), .leSecureConnectionsConfirmation(let b),
      .leSecureConnectionsRandom(let b), .leSupportedFeatures(let b):
      return b
    case .securityManagerOOBFlags(let f): return [f.rawValue]
    case .peripheralConnectionIntervalRange(let minimum, let maximum):
      return le(UInt64(minimum), 2) + le(UInt64(maximum), 2)
    case .serviceData(let uuid, let bytes):
      return (uuid.littleEndianBytes(width: uuid.shortestWidth) ?? []) + bytes
    case .targetAddresses(let addresses, _): return addresses.flatMap { $0.littleEndianBytes }
    case .appearance(let a): return le(UInt64(a), 2)
    case .advertisingInterval(let v): return le(UInt64(v), v <= 0xFFFF ? 2 : 4)
    case .leDeviceAddress(let address, let random):
      return address.littleEndianBytes + [random ? 1 : 0]
    case .leRole(let role): return [role.rawValue]
    case .uri(let uri):
      let (codePoint, length) = URIScheme.codePoint(for: uri)
      var bytes: [UInt8] =
        codePoint < 0x80
        ? [UInt8(codePoint)]
        : [0xC0 | UInt8(truncatingIfNeeded: codePoint >> 6), 0x80 | UInt8(codePoint & 0x3F)]
      bytes += Array(uri.utf8).dropFirst(length)
      return bytes
    case .broadcastName(let name): return Array(name.utf8)
    case .manufacturerData(let company, let bytes): return le(UInt64(company.rawValue), 2) + bytes
    case .other(_, let bytes): return bytes
    }
  }

  /// The owned AD structure this value encodes as.
  public var structure: ADStructure { ADStructure(type: type, data: data) }

  private static func width(of uuids: [BluetoothUUID]) -> Int {
    uuids.map { $0.shortestWidth }.max() ?? 2
  }
}
