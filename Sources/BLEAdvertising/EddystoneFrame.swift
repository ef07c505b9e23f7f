// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// An Eddystone frame, carried in Service Data for the 16-bit UUID 0xFEAA (Google's
/// Eddystone protocol specification: UID, URL, TLM and EID frames).
public enum EddystoneFrame: Sendable, Hashable {
  /// Frame 0x00 UID: TX power at 0 m, 10-octet namespace and 6-octet instance.
  case uid(txPower: Int8, namespace: [UInt8], instance: [UInt8])
  /// Frame 0x10 URL: TX power at 0 m and the URL with its scheme and expansions decoded.
  case url(txPower: Int8, url: String)
  /// Frame 0x20 version 0x00: unencrypted telemetry.
  case telemetry(EddystoneTelemetry)
  /// Frame 0x20 version 0x01: encrypted telemetry (the 16 octets after the version).
  case encryptedTelemetry([UInt8])
  /// Frame 0x30 EID: TX power at 0 m and the 8-octet ephemeral identifier.
  case eid(txPower: Int8, identifier: [UInt8])
  /// Any other frame type, with the octets after it.
  case other(frameType: UInt8, [UInt8])

  /// The Eddystone service UUID, 0xFEAA.
  public static let serviceUUID = BluetoothUUID(uuid16: 0xFEAA)

  static let uidFrame: UInt8 = 0x00
  static let urlFrame: UInt8 = 0x10
  static let tlmFrame: UInt8 = 0x20
  static let eidFrame: UInt8 = 0x30

  /// URL scheme prefixes, by their code.
  static let schemes = ["http://www.", "https://www.", "http://", "https://"]
  /// URL expansion codes 0x00...0x0D.
  static let expansions = [
    ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/",
    ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov",
  ]

  /// Decodes an Eddystone frame; `nil` when the service data is not for 0xFEAA or empty.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/invalidBeaconLength`` at the frame when its
  ///   length is wrong for its type, ``BLEAdvertisingError/Code/invalidURIScheme`` for an
  ///   unknown URL scheme code or a reserved URL octet.
  public init?(_ serviceData: borrowing ServiceDataView) throws(BLEAdvertisingError) {
    guard serviceData.uuid == Self.serviceUUID else { return nil }
    let data = serviceData.data
    let at = serviceData.dataOffset
    var reader = ByteReader(data, baseOffset: at)
    guard let frameType = reader.readUInt8() else { return nil }
    let bad = BLEAdvertisingError(.invalidBeaconLength, offset: at)
    switch frameType {
    case Self.uidFrame:
      // 18 octets, or 20 with the two reserved octets.
      guard data.byteCount == 18 || data.byteCount == 20, let power = reader.readUInt8(),
        let namespace = reader.readSpan(count: 10), let instance = reader.readSpan(count: 6)
      else { throw bad }
      self = .uid(
        txPower: Int8(bitPattern: power), namespace: namespace.copiedBytes(),
        instance: instance.copiedBytes())
    case Self.urlFrame:
      guard data.byteCount >= 3, data.byteCount <= 20, let power = reader.readUInt8(),
        let scheme = reader.readUInt8()
      else { throw bad }
      guard Int(scheme) < Self.schemes.count else {
        throw BLEAdvertisingError(.invalidURIScheme, offset: at &+ 2)
      }
      var url = Self.schemes[Int(scheme)]
      while let byte = reader.readUInt8() {
        if Int(byte) < Self.expansions.count {
          url += Self.expansions[Int(byte)]
        } else if byte > 0x20 && byte < 0x7F {
          url += String(decoding: [byte], as: UTF8.self)
        } else {
          throw BLEAdvertisingError(.invalidURIScheme, offset: reader.offset &- 1)
        }
      }
      self = .url(txPower: Int8(bitPattern: power), url: url)
    case Self.tlmFrame:
      guard let version = reader.readUInt8() else { throw bad }
      if version == 0x00 {
        guard data.byteCount == 14, let battery = reader.readUInt16BE(),
          let temperature = reader.readUInt16BE(), let count = reader.readUInt32BE(),
          let seconds = reader.readUInt32BE()
        else { throw bad }
        self = .telemetry(
          EddystoneTelemetry(
            batteryMillivolts: battery, temperatureRaw: Int16(bitPattern: temperature),
            advertisingCount: count, uptimeDeciseconds: seconds))
      } else {
        guard data.byteCount == 18 else { throw bad }
        self = .encryptedTelemetry(reader.readRemaining().copiedBytes())
      }
    case Self.eidFrame:
      guard data.byteCount == 10, let power = reader.readUInt8(),
        let eid = reader.readSpan(count: 8)
      else { throw bad }
      self = .eid(txPower: Int8(bitPattern: power), identifier: eid.copiedBytes())
    default:
      self = .other(frameType: frameType, reader.readRemaining().copiedBytes())
    }
  }

  /// The service data octets after the UUID that encode this frame. A URL is encoded
  /// with the longest scheme prefix and expansions that match; characters outside
  /// 0x21...0x7E are not representable and are dropped.
  public var frameBytes: [UInt8] {
    switch self {
    case .uid(let power, let namespace, let instance):
      return [Self.uidFrame, UInt8(bitPattern: power)] + namespace + instance + [0, 0]
    case .url(let power, let url):
      return [Self.urlFrame, UInt8(bitPattern: power)] + Self.encodeURL(url)
    case .telemetry(let t):
      var bytes: [UInt8] = [Self.tlmFrame, 0x00]
      func be(_ v: UInt32, _ width: Int) {
        for i in stride(from: width - 1, through: 0, by: -1) {
          bytes.append(UInt8(truncatingIfNeeded: v >> UInt32(i * 8)))
        }
      }
      be(UInt32(t.batteryMillivolts), 2)
      be(UInt32(UInt16(bitPattern: t.temperatureRaw)), 2)
      be(t.advertisingCount, 4)
      be(t.uptimeDeciseconds, 4)
      return bytes
    case .encryptedTelemetry(let bytes): return [Self.tlmFrame, 0x01] + bytes
    case .eid(let power, let identifier):
      return [Self.eidFrame, UInt8(bitPattern: power)] + identifier
    case .other(let type, let bytes): return [type] + bytes
    }
  }

  /// The Service Data value that encodes this frame.
  public var serviceData: ServiceData { ServiceData(uuid: Self.serviceUUID, data: frameBytes) }

  static func encodeURL(_ url: String) -> [UInt8] {
    let utf8 = Array(url.utf8)
    var out: [UInt8] = []
    var index = 0
    var bestScheme = -1
    for (code, scheme) in schemes.enumerated() {
      let s = Array(scheme.utf8)
      if utf8.starts(with: s), bestScheme < 0 || s.count > schemes[bestScheme].utf8.count {
        bestScheme = code
      }
    }
    if bestScheme >= 0 {
      out.append(UInt8(bestScheme))
      index = schemes[bestScheme].utf8.count
    } else {
      out.append(0x02)
    }
    while index < utf8.count {
      var matched = false
      for (code, expansion) in expansions.enumerated() {
        let e = Array(expansion.utf8)
        if utf8[index...].starts(with: e) {
          out.append(UInt8(code))
          index += e.count
          matched = true
          break
        }
      }
      if !matched {
        let byte = utf8[index]
        if byte > 0x20 && byte < 0x7F { out.append(byte) }
        index += 1
      }
    }
    return out
  }
}

/// Eddystone-TLM (version 0x00) telemetry values.
public struct EddystoneTelemetry: Sendable, Hashable {
  /// Battery voltage in mV; 0 when not supported.
  public var batteryMillivolts: UInt16
  /// Temperature as signed 8.8 fixed point °C; -128.0 (0x8000) when not supported.
  public var temperatureRaw: Int16
  /// Advertising PDUs sent since power-up or reboot.
  public var advertisingCount: UInt32
  /// Time since power-up or reboot, in 0.1 s.
  public var uptimeDeciseconds: UInt32

  /// Creates telemetry values.
  public init(
    batteryMillivolts: UInt16, temperatureRaw: Int16, advertisingCount: UInt32,
    uptimeDeciseconds: UInt32
  ) {
    self.batteryMillivolts = batteryMillivolts
    self.temperatureRaw = temperatureRaw
    self.advertisingCount = advertisingCount
    self.uptimeDeciseconds = uptimeDeciseconds
  }

  /// The temperature in 1/256 °C steps; `nil` when 0x8000 (not supported).
  public var temperatureIn256thsOfDegree: Int? {
    temperatureRaw == Int16.min ? nil : Int(temperatureRaw)
  }
}
