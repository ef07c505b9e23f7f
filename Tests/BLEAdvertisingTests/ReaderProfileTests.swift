// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

/// Advertising data of the example profile's made-up reader.
func exampleAdvertising(serial: String, battery: UInt8? = nil, name: String? = nil, txPower: Int8? = nil)
  -> [UInt8]
{
  var values: [ADValue] = [.flags([.leGeneralDiscoverable, .brEDRNotSupported])]
  var maker: [UInt8] = [0x01] + Array(serial.utf8)
  if let battery { maker.append(battery) }
  values.append(.manufacturerData(.testing, maker))
  if let txPower { values.append(.txPowerLevel(txPower)) }
  values.append(.localName(name ?? "TW-\(serial.suffix(4))", complete: true))
  return (try? AdvertisingData(values: values).encodedBytes(budget: .legacy)) ?? []
}

/// Scan response carrying the battery in Battery Service data.
func exampleScanResponse(battery: UInt8) -> [UInt8] {
  (try? AdvertisingData(values: [.serviceData(BluetoothUUID(uuid16: 0x180F), [battery])])
    .encodedBytes(budget: .legacy)) ?? []
}

@Suite("ReaderProfile")
struct ReaderProfileTests {
  @Test func exampleProfileReadsSerialAndBattery() throws {
    let adv = try AdvertisingData(parsing: exampleAdvertising(serial: "00012345", battery: 77))
    let profile = ReaderProfile.example
    #expect(profile.matches(adv))
    #expect(profile.serialNumber(in: adv) == "00012345")
    #expect(profile.batteryLevel(in: adv) == 77)
    // The seed in Corpus/adv/seeds/example-reader-adv.bin has no battery octet.
    let seed = try AdvertisingData(parsing: hex("0201060cffffff013030303132333435020a04050954572d41"))
    #expect(profile.serialNumber(in: seed) == "00012345")
    #expect(profile.batteryLevel(in: seed) == nil)
    let merged = seed.merging(scanResponse: try AdvertisingData(parsing: hex("04160f185a")))
    #expect(profile.batteryLevel(in: merged) == 90)
  }

  @Test func unknownBatteryAndMismatches() throws {
    let profile = ReaderProfile.example
    let unknown = try AdvertisingData(parsing: exampleAdvertising(serial: "00012345", battery: 0xFF))
    #expect(profile.batteryLevel(in: unknown) == nil)
    let wrongName = try AdvertisingData(parsing: exampleAdvertising(serial: "00012345", name: "XX-1"))
    #expect(!profile.matches(wrongName))
    #expect(profile.serialNumber(in: wrongName) == nil)
    var wrongVersion = AdvertisingData(values: [
      .manufacturerData(.testing, [0x02] + Array("00012345".utf8)), .localName("TW-1", complete: true),
    ])
    #expect(!profile.matches(wrongVersion))
    wrongVersion.structures[0] = ADStructure(.manufacturerData(.testing, [0x01] + Array("0001".utf8)))
    #expect(profile.matches(wrongVersion))
    #expect(profile.serialNumber(in: wrongVersion) == nil)  // too short for 8 octets
  }

  @Test func fieldFormats() throws {
    let adv = AdvertisingData(values: [
      .manufacturerData(CompanyIdentifier(rawValue: 0x1234), [0xAB, 0x01, 0x02, 0x41, 0x42, 0x00]),
      .serviceData(BluetoothUUID(uuid16: 0xFEAA), [0x10, 0x20]),
      .localName("Reader-77", complete: true),
    ])
    let company = ReaderField.Source.manufacturerData(CompanyIdentifier(rawValue: 0x1234))
    #expect(ReaderField(source: company, offset: 0, count: 1, format: .hexadecimal).text(in: adv) == "ab")
    #expect(
      ReaderField(source: company, offset: 1, count: 2, format: .unsignedLittleEndian).integer(in: adv)
        == 0x0201)
    #expect(
      ReaderField(source: company, offset: 1, count: 2, format: .unsignedBigEndian).integer(in: adv) == 0x0102
    )
    #expect(ReaderField(source: company, offset: 3, format: .ascii).text(in: adv) == "AB")
    #expect(ReaderField(source: company, offset: 5, count: 2, format: .ascii).text(in: adv) == nil)
    #expect(ReaderField(source: company, offset: 7, format: .ascii).text(in: adv) == nil)
    #expect(ReaderField(source: company, offset: -1, count: 1, format: .ascii).text(in: adv) == nil)
    #expect(ReaderField(source: company, offset: 1, count: Int.max, format: .ascii).text(in: adv) == nil)
    #expect(
      ReaderField(source: .serviceData(BluetoothUUID(uuid16: 0xFEAA)), format: .unsignedBigEndian).text(
        in: adv) == "4128")
    #expect(ReaderField(source: .localName, offset: 7, format: .ascii).text(in: adv) == "77")
    #expect(
      ReaderField(source: .serviceData(BluetoothUUID(uuid16: 0x180F)), format: .ascii).text(in: adv) == nil)
  }

  static let globs: [(String, String, Bool)] = [
    ("TW-*", "TW-1234", true), ("TW-*", "TW-", true), ("TW-*", "TX-1", false),
    ("TW-????", "TW-1234", true), ("TW-????", "TW-123", false), ("*-12*", "AB-1234", true),
    ("*", "", true), ("", "", true), ("", "A", false), ("a*b*c", "aXbYbZc", true),
    ("a*b*c", "aXbYbZ", false), ("**x", "x", true),
  ]

  @Test(arguments: 0..<globs.count)
  func localNamePatterns(index: Int) {
    let (pattern, name, expected) = Self.globs[index]
    let profile = ReaderProfile(
      name: "p", localNamePattern: pattern,
      serial: ReaderField(source: .localName, format: .ascii))
    let adv = AdvertisingData(values: [.localName(name, complete: true)])
    #expect(profile.matches(adv) == expected)
  }

  @Test func serviceUUIDCriterion() {
    let profile = ReaderProfile(
      name: "svc", serviceUUID: BluetoothUUID(uuid16: 0xFEAA),
      serial: ReaderField(source: .serviceData(BluetoothUUID(uuid16: 0xFEAA)), format: .hexadecimal))
    let listed = AdvertisingData(values: [.serviceUUIDs([BluetoothUUID(uuid16: 0xFEAA)], complete: true)])
    let withData = AdvertisingData(values: [.serviceData(BluetoothUUID(uuid16: 0xFEAA), [1, 2])])
    #expect(profile.matches(listed))
    #expect(profile.serialNumber(in: listed) == nil)
    #expect(profile.serialNumber(in: withData) == "0102")
    #expect(!profile.matches(AdvertisingData()))
  }
}
