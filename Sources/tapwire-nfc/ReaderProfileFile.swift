// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import Foundation

/// A reader-profile file (`tapwire discover --profile FILE`): JSON describing one or more
/// `ReaderProfile`s, field by field (Documentation/cli.md documents the format):
///
///     {"version": 1, "profiles": [{"name": "...", "localNamePattern": "ACME-*",
///       "companyID": "0xFFFF", "manufacturerDataPrefix": "02", "serviceUUID": "FFF0",
///       "serial": {"source": "manufacturerData", "offset": 1, "count": 6, "format": "hexadecimal"},
///       "battery": {"source": "serviceData", "uuid": "FFF0", "format": "unsignedBigEndian", "count": 1}}]}
///
/// Every key is checked: an unknown key, a wrong JSON type, a missing required key or a value
/// out of range is a ``ReaderProfileFileError`` naming the key's path (`profiles[0].serial.offset`).
enum ReaderProfileFile {
  /// The largest offset or count: an AD structure's length is one octet, so its data is
  /// at most 254 octets.
  static let maximumOctets = 254

  static func load(path: String) throws(ReaderProfileFileError) -> [ReaderProfile] {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ReaderProfileFileError(field: nil, problem: "cannot read the file")
    }
    return try parse(data)
  }

  static func parse(_ data: Data) throws(ReaderProfileFileError) -> [ReaderProfile] {
    let root: Any
    do { root = try JSONSerialization.jsonObject(with: data) } catch {
      throw ReaderProfileFileError(field: nil, problem: "not valid JSON")
    }
    let top = try object(root, "(top level)")
    try allow(top, ["version", "profiles"], nil)
    if let version = top["version"] {
      guard try integer(version, "version") == 1 else {
        throw ReaderProfileFileError(field: "version", problem: "unsupported version (only 1)")
      }
    }
    guard let list = top["profiles"] else { throw .missing("profiles") }
    guard let profiles = list as? [Any] else { throw .type("profiles", "an array") }
    guard !profiles.isEmpty else { throw ReaderProfileFileError(field: "profiles", problem: "is empty") }
    var result: [ReaderProfile] = []
    for (i, item) in profiles.enumerated() { result.append(try profile(item, "profiles[\(i)]")) }
    return result
  }

  static func profile(_ value: Any, _ path: String) throws(ReaderProfileFileError) -> ReaderProfile {
    let o = try object(value, path)
    try allow(
      o,
      [
        "name", "localNamePattern", "companyID", "manufacturerDataPrefix", "serviceUUID", "serial", "battery",
        "alternateBattery",
      ], path)
    guard let nameValue = o["name"] else { throw .missing("\(path).name") }
    let name = try string(nameValue, "\(path).name")
    let pattern = try o["localNamePattern"].map { v throws(ReaderProfileFileError) in
      try string(v, "\(path).localNamePattern")
    }
    let company = try o["companyID"].map { v throws(ReaderProfileFileError) in
      try companyID(v, "\(path).companyID")
    }
    var prefix: [UInt8] = []
    if let v = o["manufacturerDataPrefix"] {
      prefix = try hex(v, "\(path).manufacturerDataPrefix")
      if !prefix.isEmpty && company == nil {
        throw ReaderProfileFileError(field: "\(path).manufacturerDataPrefix", problem: "needs companyID")
      }
    }
    let service = try o["serviceUUID"].map { v throws(ReaderProfileFileError) in
      try uuid(v, "\(path).serviceUUID")
    }
    guard let serialValue = o["serial"] else { throw .missing("\(path).serial") }
    let serial = try field(serialValue, "\(path).serial", company: company, service: service, integer: false)
    let battery = try o["battery"].map { v throws(ReaderProfileFileError) in
      try field(v, "\(path).battery", company: company, service: service, integer: true)
    }
    let alternate = try o["alternateBattery"].map { v throws(ReaderProfileFileError) in
      try field(v, "\(path).alternateBattery", company: company, service: service, integer: true)
    }
    return ReaderProfile(
      name: name, localNamePattern: pattern, companyID: company, manufacturerDataPrefix: prefix,
      serviceUUID: service, serial: serial, battery: battery, alternateBattery: alternate)
  }

  static let formats: [String: ReaderField.Format] = [
    "ascii": .ascii, "hexadecimal": .hexadecimal, "unsignedLittleEndian": .unsignedLittleEndian,
    "unsignedBigEndian": .unsignedBigEndian,
  ]

  /// A `ReaderField`; `integer` for battery fields (read as an unsigned integer of 1...8 octets).
  static func field(
    _ value: Any, _ path: String, company: CompanyIdentifier?, service: BluetoothUUID?,
    integer isInteger: Bool
  ) throws(ReaderProfileFileError) -> ReaderField {
    let o = try object(value, path)
    try allow(o, ["source", "company", "uuid", "offset", "count", "format"], path)
    guard let sourceValue = o["source"] else { throw .missing("\(path).source") }
    let source: ReaderField.Source
    switch try string(sourceValue, "\(path).source") {
    case "manufacturerData":
      if o["uuid"] != nil {
        throw ReaderProfileFileError(field: "\(path).uuid", problem: "is for serviceData")
      }
      if let v = o["company"] {
        source = .manufacturerData(try companyID(v, "\(path).company"))
      } else if let company {
        source = .manufacturerData(company)
      } else {
        throw ReaderProfileFileError(
          field: "\(path).company", problem: "missing (and the profile has no companyID)")
      }
    case "serviceData":
      if o["company"] != nil {
        throw ReaderProfileFileError(field: "\(path).company", problem: "is for manufacturerData")
      }
      if let v = o["uuid"] {
        source = .serviceData(try uuid(v, "\(path).uuid"))
      } else if let service {
        source = .serviceData(service)
      } else {
        throw ReaderProfileFileError(
          field: "\(path).uuid", problem: "missing (and the profile has no serviceUUID)")
      }
    case "localName":
      for key in ["company", "uuid"] where o[key] != nil {
        throw ReaderProfileFileError(field: "\(path).\(key)", problem: "is not used by localName")
      }
      source = .localName
    case let other:
      throw ReaderProfileFileError(
        field: "\(path).source",
        problem: "unknown source \"\(other)\" (manufacturerData, serviceData, localName)")
    }
    let offset = try o["offset"].map { v throws(ReaderProfileFileError) in
      try integer(v, "\(path).offset", in: 0...maximumOctets)
    }
    let count = try o["count"].map { v throws(ReaderProfileFileError) in
      try integer(v, "\(path).count", in: 1...(isInteger ? 8 : maximumOctets))
    }
    guard let formatValue = o["format"] else { throw .missing("\(path).format") }
    let formatName = try string(formatValue, "\(path).format")
    guard let format = formats[formatName] else {
      throw ReaderProfileFileError(
        field: "\(path).format",
        problem: "unknown format \"\(formatName)\" (\(formats.keys.sorted().joined(separator: ", ")))")
    }
    if isInteger {
      guard format == .unsignedLittleEndian || format == .unsignedBigEndian else {
        throw ReaderProfileFileError(
          field: "\(path).format", problem: "a battery level needs unsignedLittleEndian or unsignedBigEndian")
      }
      guard count != nil else { throw .missing("\(path).count") }
    }
    return ReaderField(source: source, offset: offset ?? 0, count: count, format: format)
  }

  // MARK: JSON values

  static func object(_ value: Any, _ path: String) throws(ReaderProfileFileError) -> [String: Any] {
    guard let o = value as? [String: Any] else { throw .type(path, "an object") }
    return o
  }

  static func allow(_ o: [String: Any], _ keys: Set<String>, _ path: String?) throws(ReaderProfileFileError) {
    if let unknown = o.keys.sorted().first(where: { !keys.contains($0) }) {
      throw ReaderProfileFileError(
        field: path.map { "\($0).\(unknown)" } ?? unknown,
        problem: "unknown field (known: \(keys.sorted().joined(separator: ", ")))")
    }
  }

  static func string(_ value: Any, _ path: String) throws(ReaderProfileFileError) -> String {
    guard let s = value as? String else { throw .type(path, "a string") }
    return s
  }

  static func integer(_ value: Any, _ path: String, in range: ClosedRange<Int>? = nil)
    throws(ReaderProfileFileError) -> Int
  {
    // JSONSerialization gives NSNumber for booleans too ("c"); they are not integers.
    guard let number = value as? NSNumber, String(cString: number.objCType) != "c",
      let n = Int(exactly: number.doubleValue)
    else { throw .type(path, "an integer") }
    if let range, !range.contains(n) {
      throw ReaderProfileFileError(
        field: path, problem: "\(n) is out of range \(range.lowerBound)...\(range.upperBound)")
    }
    return n
  }

  /// An integer 0...0xFFFF, or a string "0xFFFF".
  static func companyID(_ value: Any, _ path: String) throws(ReaderProfileFileError) -> CompanyIdentifier {
    if let text = value as? String {
      let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? text.dropFirst(2) : Substring(text)
      guard !digits.isEmpty, digits.count <= 4, digits.allSatisfy(\.isHexDigit),
        let n = UInt16(digits, radix: 16)
      else {
        throw ReaderProfileFileError(
          field: path, problem: "\"\(text)\" is not a 16-bit hex company identifier")
      }
      return CompanyIdentifier(rawValue: n)
    }
    do {
      return CompanyIdentifier(rawValue: UInt16(try integer(value, path, in: 0...0xFFFF)))
    } catch  where error.problem.hasPrefix("needs") {
      throw .type(path, "an integer or a \"0x...\" string")
    }
  }

  static func uuid(_ value: Any, _ path: String) throws(ReaderProfileFileError) -> BluetoothUUID {
    let text = try string(value, path)
    guard let uuid = BluetoothUUID(text) else {
      throw ReaderProfileFileError(
        field: path, problem: "\"\(text)\" is not a UUID (xxxx, xxxxxxxx or 8-4-4-4-12 hex digits)")
    }
    return uuid
  }

  /// A string of hex digit pairs (spaces allowed between octets).
  static func hex(_ value: Any, _ path: String) throws(ReaderProfileFileError) -> [UInt8] {
    let text = try string(value, path)
    let digits = Array(text.filter { $0 != " " })
    guard digits.allSatisfy(\.isHexDigit) else {
      throw ReaderProfileFileError(field: path, problem: "\"\(text)\" is not hex octets")
    }
    var bytes: [UInt8] = []
    var i = 0
    while i < digits.count {
      guard i + 1 < digits.count, let byte = UInt8(String(digits[i...i + 1]), radix: 16) else {
        throw ReaderProfileFileError(field: path, problem: "\"\(text)\" is not hex octets")
      }
      bytes.append(byte)
      i += 2
    }
    guard bytes.count <= maximumOctets else {
      throw ReaderProfileFileError(field: path, problem: "longer than \(maximumOctets) octets")
    }
    return bytes
  }
}

/// What is wrong with a reader-profile file, and where (`tapwire` prints it and exits 2).
struct ReaderProfileFileError: Error, CustomStringConvertible {
  /// The key's path, e.g. `profiles[0].serial.offset`; `nil` for the whole file.
  var field: String?
  var problem: String

  static func missing(_ field: String) -> Self { Self(field: field, problem: "missing field") }
  static func type(_ field: String, _ expected: String) -> Self {
    Self(field: field, problem: "needs \(expected)")
  }

  var description: String { field.map { "\($0): \(problem)" } ?? problem }
}
