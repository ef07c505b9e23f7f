// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// How to recognize a card reader in advertising data and where its serial number and
/// battery level are: data, not code, so an app can ship or download profiles.
///
/// Every criterion that is set must hold, on the advertising data merged with the scan
/// response (``AdvertisingData/merging(scanResponse:)``): the local name matches
/// ``localNamePattern``, manufacturer data with ``companyID`` is present and starts with
/// ``manufacturerDataPrefix``, and ``serviceUUID`` is listed or carries service data.
///
/// ## Example profile
///
/// ``example`` describes a made-up reader family used by Tapwire's tests and docs; it is
/// not any vendor's real format:
///
/// | where | content |
/// |---|---|
/// | Complete Local Name | `TW-` followed by anything (pattern `TW-*`) |
/// | Manufacturer Specific Data, company 0xFFFF (SIG: testing only) | octet 0: layout version 0x01; octets 1...8: serial number, 8 ASCII characters; octet 9 (optional): battery in percent |
/// | Service Data for 0x180F (Battery Service), often in the scan response | octet 0: battery in percent |
///
/// The battery is read from the manufacturer data when present, else from the service
/// data (the profile's ``battery`` and ``alternateBattery`` fields).
public struct ReaderProfile: Sendable, Hashable {
  /// A label for the profile (shown to people, not matched).
  public var name: String
  /// A glob over the local name (`*` any run, `?` one octet), or `nil` for any name.
  public var localNamePattern: String?
  /// The company identifier the manufacturer data must carry, or `nil`.
  public var companyID: CompanyIdentifier?
  /// Octets the manufacturer data (after the company identifier) must start with.
  public var manufacturerDataPrefix: [UInt8]
  /// A service UUID that must be listed or carry service data, or `nil`.
  public var serviceUUID: BluetoothUUID?
  /// Where the serial number is. A device that matches but has no serial yet (it may
  /// come in the scan response) is not reported until it has one.
  public var serial: ReaderField
  /// Where the battery level (percent, 0...100) is, if advertised.
  public var battery: ReaderField?
  /// A second place for the battery level, used when ``battery`` gives nothing.
  public var alternateBattery: ReaderField?

  /// Creates a profile.
  public init(
    name: String, localNamePattern: String? = nil, companyID: CompanyIdentifier? = nil,
    manufacturerDataPrefix: [UInt8] = [], serviceUUID: BluetoothUUID? = nil,
    serial: ReaderField, battery: ReaderField? = nil, alternateBattery: ReaderField? = nil
  ) {
    self.name = name
    self.localNamePattern = localNamePattern
    self.companyID = companyID
    self.manufacturerDataPrefix = manufacturerDataPrefix
    self.serviceUUID = serviceUUID
    self.serial = serial
    self.battery = battery
    self.alternateBattery = alternateBattery
  }

  /// The documented example profile (see the type's documentation); not a real vendor's.
  public static let example = ReaderProfile(
    name: "Tapwire example reader",
    localNamePattern: "TW-*",
    companyID: .testing,
    manufacturerDataPrefix: [0x01],
    serial: ReaderField(source: .manufacturerData(.testing), offset: 1, count: 8, format: .ascii),
    battery: ReaderField(
      source: .manufacturerData(.testing), offset: 9, count: 1, format: .unsignedLittleEndian),
    alternateBattery: ReaderField(
      source: .serviceData(BluetoothUUID(uuid16: 0x180F)), offset: 0, count: 1,
      format: .unsignedLittleEndian))

  /// Whether `data` (advertising merged with scan response) satisfies every criterion.
  public func matches(_ data: AdvertisingData) -> Bool {
    if let pattern = localNamePattern {
      guard let name = data.localName, Self.glob(Array(pattern.utf8), Array(name.utf8)) else {
        return false
      }
    }
    if let companyID {
      guard let bytes = data.manufacturerData(for: companyID),
        bytes.starts(with: manufacturerDataPrefix)
      else { return false }
    }
    if let serviceUUID {
      guard data.serviceUUIDs.contains(serviceUUID) || data.serviceData(for: serviceUUID) != nil
      else { return false }
    }
    return true
  }

  /// The serial number in `data`, when the profile matches and the field is present.
  public func serialNumber(in data: AdvertisingData) -> String? {
    guard matches(data) else { return nil }
    return serial.text(in: data)
  }

  /// The battery level in percent (0...100) in `data`, if advertised; values above 100
  /// (such as 0xFF for "unknown") read as absent.
  public func batteryLevel(in data: AdvertisingData) -> Int? {
    for field in [battery, alternateBattery] {
      if let value = field?.integer(in: data), value <= 100 { return Int(value) }
    }
    return nil
  }

  /// Glob match without recursion: `*` backtracks to the last star only, so the time is
  /// bounded by pattern length times text length.
  static func glob(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
    var p = 0
    var t = 0
    var star = -1
    var mark = 0
    while t < text.count {
      if p < pattern.count, pattern[p] == UInt8(ascii: "*") {
        star = p
        mark = t
        p += 1
      } else if p < pattern.count, pattern[p] == UInt8(ascii: "?") || pattern[p] == text[t] {
        p += 1
        t += 1
      } else if star >= 0 {
        p = star + 1
        mark += 1
        t = mark
      } else {
        return false
      }
    }
    while p < pattern.count, pattern[p] == UInt8(ascii: "*") { p += 1 }
    return p == pattern.count
  }
}

/// A byte range in advertising data that holds one value of a ``ReaderProfile``.
public struct ReaderField: Sendable, Hashable {
  /// Which part of the advertising data the range is in.
  public enum Source: Sendable, Hashable {
    /// The manufacturer data of a company, after the company identifier (last value).
    case manufacturerData(CompanyIdentifier)
    /// The service data of a service, after the UUID (last value).
    case serviceData(BluetoothUUID)
    /// The local name's UTF-8 octets (complete, else shortened).
    case localName
  }

  /// How the octets are read.
  public enum Format: Sendable, Hashable {
    /// Text (UTF-8; invalid sequences become U+FFFD), trailing NUL octets dropped.
    case ascii
    /// Lowercase hexadecimal of the octets.
    case hexadecimal
    /// An unsigned integer, least significant octet first (1...8 octets).
    case unsignedLittleEndian
    /// An unsigned integer, most significant octet first (1...8 octets).
    case unsignedBigEndian
  }

  /// The source.
  public var source: Source
  /// Offset of the first octet inside the source.
  public var offset: Int
  /// Number of octets; `nil` for "to the end of the source".
  public var count: Int?
  /// How the octets are read.
  public var format: Format

  /// Creates a field.
  public init(source: Source, offset: Int = 0, count: Int? = nil, format: Format) {
    self.source = source
    self.offset = offset
    self.count = count
    self.format = format
  }

  /// The field's octets, or `nil` when the source is absent or too short.
  public func bytes(in data: AdvertisingData) -> [UInt8]? {
    let source: [UInt8]?
    switch self.source {
    case .manufacturerData(let company): source = data.manufacturerData(for: company)
    case .serviceData(let uuid): source = data.serviceData(for: uuid)
    case .localName: source = data.localName.map { Array($0.utf8) }
    }
    guard let source, offset >= 0, offset <= source.count else { return nil }
    let length = count ?? (source.count - offset)
    guard length >= 0, let end = Checked.add(offset, length), end <= source.count else {
      return nil
    }
    return Array(source[offset..<end])
  }

  /// The field as text (any format: integers in decimal).
  public func text(in data: AdvertisingData) -> String? {
    guard let bytes = bytes(in: data) else { return nil }
    switch format {
    case .ascii:
      var trimmed = bytes
      while trimmed.last == 0 { trimmed.removeLast() }
      return String(decoding: trimmed, as: UTF8.self)
    case .hexadecimal: return Hex.string(bytes)
    case .unsignedLittleEndian, .unsignedBigEndian:
      return integer(in: data).map { "\($0)" }
    }
  }

  /// The field as an unsigned integer (integer formats, 1...8 octets), else `nil`.
  public func integer(in data: AdvertisingData) -> UInt64? {
    guard let bytes = bytes(in: data), !bytes.isEmpty, bytes.count <= 8 else { return nil }
    switch format {
    case .unsignedLittleEndian:
      return bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    case .unsignedBigEndian:
      return bytes.reduce(0) { $0 << 8 | UInt64($1) }
    default: return nil
    }
  }
}
