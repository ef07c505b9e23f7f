// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

@Suite("IBeacon")
struct IBeaconTests {
  static let frame = "020106 1aff 4c00 0215 e2c56db5dffb48d2b060d0f5a71096e0 0001 0002 c5"

  @Test func decodesAppleLayout() throws {
    let bytes = hex(Self.frame)
    let view = try AdvertisingDataView(validating: bytes.span.bytes)
    let beacon = try IBeacon(view)
    #expect(beacon?.proximityUUID.description == "e2c56db5-dffb-48d2-b060-d0f5a71096e0")
    #expect(beacon?.major == 1)
    #expect(beacon?.minor == 2)
    #expect(beacon?.measuredPower == -59)
    // Round trip through the encoder.
    let encoded = try AdvertisingData(structures: [
      ADStructure(.flags([.leGeneralDiscoverable, .brEDRNotSupported])), beacon!.structure,
    ]).encodedBytes(budget: .legacy)
    #expect(encoded == bytes)
  }

  static let notBeacons: [(String, String?, Int)] = [
    ("05ff 4c00 1005", nil, 0),
    ("1aff 4d00 0215 e2c56db5dffb48d2b060d0f5a71096e0 0001 0002 c5", nil, 0),
    ("19ff 4c00 0215 e2c56db5dffb48d2b060d0f5a71096e0 0001 0002", "invalidBeaconLength", 4),
    ("05ff 4c00 0215", "invalidBeaconLength", 4),
  ]

  @Test(arguments: 0..<notBeacons.count)
  func otherManufacturerData(index: Int) throws {
    let (text, code, offset) = Self.notBeacons[index]
    let bytes = hex(text)
    let view = try AdvertisingDataView(validating: bytes.span.bytes)
    do {
      let beacon = try IBeacon(view)
      #expect(beacon == nil)
      #expect(code == nil)
    } catch {
      #expect(error.code.name == code)
      #expect(error.offset == offset)
    }
  }
}

@Suite("EddystoneFrame")
struct EddystoneFrameTests {
  static func frame(_ serviceDataHex: String) throws(BLEAdvertisingError) -> EddystoneFrame? {
    let data = hex("aafe" + serviceDataHex)
    let bytes = [UInt8(data.count + 1), 0x16] + data
    let view = try AdvertisingDataView(validating: bytes.span.bytes)
    var it = view.structures
    guard let s = it.next(), let sd = try s.serviceData() else { return nil }
    return try EddystoneFrame(sd)
  }

  static let vectors: [(String, EddystoneFrame)] = [
    (
      "00 ee 00010203040506070809 0a0b0c0d0e0f 0000",
      .uid(txPower: -18, namespace: Array(0...9), instance: Array(10...15))
    ),
    ("10 f6 03 676f6f676c65 07", .url(txPower: -10, url: "https://google.com")),
    ("10 f6 01 6578616d706c65 00 61", .url(txPower: -10, url: "https://www.example.com/a")),
    (
      "20 00 0bb8 1780 00000064 00000a00",
      .telemetry(
        EddystoneTelemetry(
          batteryMillivolts: 3000, temperatureRaw: 0x1780, advertisingCount: 100,
          uptimeDeciseconds: 2560))
    ),
    ("20 01 000102030405060708090a0b0c0d0e0f", .encryptedTelemetry(Array(0...15))),
    ("30 f0 0102030405060708", .eid(txPower: -16, identifier: Array(1...8))),
    ("40 0102", .other(frameType: 0x40, [1, 2])),
  ]

  @Test(arguments: 0..<vectors.count)
  func decodesFrames(index: Int) throws {
    let (text, expected) = Self.vectors[index]
    let got = try Self.frame(text)
    #expect(got == expected)
    #expect(Hex.string(expected.frameBytes) == text.filter { $0 != " " })
  }

  @Test func uidWithoutReservedOctets() throws {
    let got = try Self.frame("00 ee 00010203040506070809 0a0b0c0d0e0f")
    #expect(got == .uid(txPower: -18, namespace: Array(0...9), instance: Array(10...15)))
  }

  static let malformed: [(String, String, Int)] = [
    ("00 ee 00010203040506070809 0a0b0c0d0e", "invalidBeaconLength", 4),
    ("10 f6", "invalidBeaconLength", 4),
    ("10 f6 04 61", "invalidURIScheme", 6),
    ("10 f6 02 61 0e", "invalidURIScheme", 8),
    ("20 00 0bb8", "invalidBeaconLength", 4),
    ("20 01 0001", "invalidBeaconLength", 4),
    ("30 f0 01", "invalidBeaconLength", 4),
  ]

  @Test(arguments: 0..<malformed.count)
  func rejectsMalformedFrames(index: Int) {
    let (text, code, offset) = Self.malformed[index]
    do throws(BLEAdvertisingError) {
      _ = try Self.frame(text)
      Issue.record("expected \(code)")
    } catch {
      #expect(error.code.name == code)
      #expect(error.offset == offset)
    }
  }

  @Test func notEddystone() throws {
    let bytes = hex("0416 0f18 64")
    let view = try AdvertisingDataView(validating: bytes.span.bytes)
    var it = view.structures
    var isNil = false
    if let s = it.next(), let sd = try s.serviceData() { isNil = try EddystoneFrame(sd) == nil }
    #expect(isNil)
  }
}
