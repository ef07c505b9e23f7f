// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

@Suite("ADValue")
struct ADValueTests {
  static let u180f = BluetoothUUID(uuid16: 0x180F)

  /// One AD structure (Length, type, data) and its typed value, every decoded AD type.
  static let vectors: [(String, ADValue)] = [
    ("020106", .flags([.leGeneralDiscoverable, .brEDRNotSupported])),
    ("0101", .flags([])),
    ("0503 0f18 0a18", .serviceUUIDs([u180f, BluetoothUUID(uuid16: 0x180A)], complete: true)),
    ("0302 0f18", .serviceUUIDs([u180f], complete: false)),
    ("0505 78563412", .serviceUUIDs([BluetoothUUID(uuid32: 0x1234_5678)], complete: true)),
    ("0504 0f180000", .serviceUUIDs([u180f], complete: false)),
    (
      "1107 fb349b5f800000800010000078563412",
      .serviceUUIDs([BluetoothUUID("12345678-0000-1000-8000-00805f9b34fb")!], complete: true)
    ),
    (
      "1106 00112233445566778899aabbccddeeff",
      .serviceUUIDs([BluetoothUUID("ffeeddcc-bbaa-9988-7766-554433221100")!], complete: false)
    ),
    ("0408 545721", .localName("TW!", complete: false)),
    ("0309 c3a9", .localName("é", complete: true)),
    ("020a f4", .txPowerLevel(-12)),
    ("040d 0c025a", .classOfDevice(0x5A_020C)),
    ("110e 000102030405060708090a0b0c0d0e0f", .simplePairingHash(Array(0...15), p256: false)),
    ("110f 000102030405060708090a0b0c0d0e0f", .simplePairingRandomizer(Array(0...15), p256: false)),
    ("111d 000102030405060708090a0b0c0d0e0f", .simplePairingHash(Array(0...15), p256: true)),
    ("111e 000102030405060708090a0b0c0d0e0f", .simplePairingRandomizer(Array(0...15), p256: true)),
    ("1110 000102030405060708090a0b0c0d0e0f", .securityManagerTKValue(Array(0...15))),
    ("0211 0b", .securityManagerOOBFlags([.oobDataPresent, .leSupportedHost, .randomAddress])),
    ("0512 0600 8000", .peripheralConnectionIntervalRange(minimum: 6, maximum: 0x80)),
    ("0314 0f18", .serviceSolicitationUUIDs([u180f])),
    ("051f 0f180000", .serviceSolicitationUUIDs([u180f])),
    (
      "1115 fb349b5f800000800010000078563412",
      .serviceSolicitationUUIDs([BluetoothUUID(uuid32: 0x1234_5678)])
    ),
    ("0416 0f18 64", .serviceData(u180f, [0x64])),
    ("0720 0f180000 0102", .serviceData(u180f, [1, 2])),
    ("1121 fb349b5f80000080001000000f180000", .serviceData(u180f, [])),
    ("0717 665544332211", .targetAddresses([BluetoothAddress("11:22:33:44:55:66")!], random: false)),
    (
      "0d18 665544332211 060504030201",
      .targetAddresses(
        [BluetoothAddress("11:22:33:44:55:66")!, BluetoothAddress("01:02:03:04:05:06")!],
        random: true)
    ),
    ("0319 c103", .appearance(0x03C1)),
    ("031a 2000", .advertisingInterval(0x20)),
    ("042f 000001", .advertisingInterval(0x01_0000)),
    ("052f 00000100", .advertisingInterval(0x01_0000)),
    ("081b 665544332211 01", .leDeviceAddress(BluetoothAddress("11:22:33:44:55:66")!, random: true)),
    ("081b 665544332211 00", .leDeviceAddress(BluetoothAddress("11:22:33:44:55:66")!, random: false)),
    ("021c 02", .leRole(.peripheralPreferred)),
    ("1122 000102030405060708090a0b0c0d0e0f", .leSecureConnectionsConfirmation(Array(0...15))),
    ("1123 000102030405060708090a0b0c0d0e0f", .leSecureConnectionsRandom(Array(0...15))),
    ("0b24 17 2f2f6578616d706c65", .uri("https://example")),
    ("0624 01 613a6263", .uri("a:bc")),
    ("0524 c2bb 3a78", .uri("bluetooth::x")),
    ("0327 0140", .leSupportedFeatures([0x01, 0x40])),
    ("0530 54657374", .broadcastName("Test")),
    ("05ff 4c00 0215", .manufacturerData(.apple, [0x02, 0x15])),
    ("03ff ffff", .manufacturerData(.testing, [])),
    ("032a 0102", .other(.meshMessage, [1, 2])),
    ("0299 00", .other(ADType(rawValue: 0x99), [0])),
  ]

  @Test(arguments: 0..<vectors.count)
  func decodesTypedValue(index: Int) throws {
    let (text, expected) = Self.vectors[index]
    let bytes = hex(text)
    let view = try AdvertisingDataView(validating: bytes.span.bytes)
    var it = view.structures
    var got: ADValue? = nil
    while let s = it.next() { got = try ADValue(s) }
    #expect(got == expected)
    // Owned structure decodes the same.
    let owned = try AdvertisingData(parsing: bytes)
    #expect(try owned.structures.first?.value() == expected)
  }

  /// Values whose canonical encoding equals the vector re-encode to the same bytes.
  @Test(arguments: 0..<vectors.count)
  func valueRoundTrip(index: Int) throws {
    let (_, value) = Self.vectors[index]
    let encoded = try AdvertisingData(values: [value]).encodedBytes()
    let decoded = try AdvertisingData(parsing: encoded)
    #expect(try decoded.structures.first?.value() == value)
  }

  /// (structure hex, code, offset of the error).
  static let malformed: [(String, String, Int)] = [
    ("0102 ", "", 0),
    ("0203 0f", "invalidDataLength", 0),
    ("0405 0f1800", "invalidDataLength", 0),
    ("0307 0f18", "invalidDataLength", 0),
    ("010a", "invalidDataLength", 0),
    ("030a 0000", "invalidDataLength", 0),
    ("030d 0000", "invalidDataLength", 0),
    ("100e 000102030405060708090a0b0c0d0e", "invalidDataLength", 0),
    ("0111", "invalidDataLength", 0),
    ("0412 060080", "invalidDataLength", 0),
    ("0216 0f", "invalidDataLength", 0),
    ("0420 0f1800", "invalidDataLength", 0),
    ("0617 6655443322", "invalidDataLength", 0),
    ("0117", "invalidDataLength", 0),
    ("0219 c1", "invalidDataLength", 0),
    ("021a 20", "invalidDataLength", 0),
    ("032f 0000", "invalidDataLength", 0),
    ("071b 665544332211", "invalidDataLength", 0),
    ("011c", "invalidDataLength", 0),
    ("0124", "invalidURIScheme", 2),
    ("0324 00 61", "invalidURIScheme", 2),
    ("0324 ff 61", "invalidURIScheme", 2),
    ("0424 c2bd 61", "invalidURIScheme", 2),
    ("02ff 4c", "invalidDataLength", 0),
  ]

  @Test(arguments: 0..<malformed.count)
  func rejectsWrongSizes(index: Int) throws {
    let (text, code, offset) = Self.malformed[index]
    // Put a Flags structure first so offsets are checked as absolute (+3).
    let bytes = hex("020106" + text)
    let view = try AdvertisingDataView(validating: bytes.span.bytes)
    var it = view.structures
    var result: (String, Int)? = nil
    while let s = it.next() {
      do { _ = try ADValue(s) } catch { result = (error.code.name, error.offset) }
    }
    if code.isEmpty {
      #expect(result == nil)
    } else {
      #expect(result?.0 == code)
      #expect(result?.1 == offset + 3)
    }
  }

  @Test func typeNames() {
    #expect(ADType.flags.name == "flags")
    #expect(ADType.completeLocalName.name == "completeLocalName")
    #expect(ADType.manufacturerSpecificData.name == "manufacturerSpecificData")
    #expect(ADType(rawValue: 0x99).name == "unknown")
    #expect(ADType.flags.description == "flags (0x01)")
    #expect(ADType.manufacturerSpecificData.description == "manufacturerSpecificData (0xff)")
  }

  @Test func uriSchemeTable() {
    #expect(URIScheme.name(for: 0x01) == "")
    #expect(URIScheme.name(for: 0x02) == "aaa:")
    #expect(URIScheme.name(for: 0x16) == "http:")
    #expect(URIScheme.name(for: 0x17) == "https:")
    #expect(URIScheme.name(for: 0xBC) == "bl:")
    #expect(URIScheme.name(for: 0xBD) == nil)
    #expect(URIScheme.name(for: 0x00) == nil)
  }
}

@Suite("BluetoothUUID")
struct BluetoothUUIDTests {
  @Test func printsFull128BitLowercase() {
    #expect(BluetoothUUID(uuid16: 0x180F).description == "0000180f-0000-1000-8000-00805f9b34fb")
    #expect(BluetoothUUID(uuid32: 0xABCD_1234).description == "abcd1234-0000-1000-8000-00805f9b34fb")
  }

  static let texts: [(String, String?)] = [
    ("180F", "0000180f-0000-1000-8000-00805f9b34fb"),
    ("0000fe2c", "0000fe2c-0000-1000-8000-00805f9b34fb"),
    ("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "e2c56db5-dffb-48d2-b060-d0f5a71096e0"),
    ("E2C56DB5DFFB48D2B060D0F5A71096E0", nil),
    ("180", nil),
    ("xyz1", nil),
    ("e2c56db5-dffb-48d2-b060-d0f5a71096e", nil),
    ("e2c56db5-dffb-48d2b-060-d0f5a71096e0", nil),
  ]

  @Test(arguments: 0..<texts.count)
  func parsesText(index: Int) {
    let (text, expected) = Self.texts[index]
    #expect(BluetoothUUID(text)?.description == expected)
  }

  @Test func shorthands() {
    let u = BluetoothUUID(uuid16: 0xFEAA)
    #expect(u.uuid16 == 0xFEAA)
    #expect(u.uuid32 == 0xFEAA)
    #expect(u.shortestWidth == 2)
    #expect(BluetoothUUID(uuid32: 0x1_0000).uuid16 == nil)
    #expect(BluetoothUUID(uuid32: 0x1_0000).shortestWidth == 4)
    let custom = BluetoothUUID("e2c56db5-dffb-48d2-b060-d0f5a71096e0")!
    #expect(custom.uuid32 == nil)
    #expect(custom.shortestWidth == 16)
    #expect(u.littleEndianBytes(width: 2) == [0xAA, 0xFE])
    #expect(u.littleEndianBytes(width: 4) == [0xAA, 0xFE, 0, 0])
    #expect(custom.littleEndianBytes(width: 2) == nil)
    #expect(Hex.string(custom.littleEndianBytes(width: 16)!) == "e09610a7f5d060b0d248fbdfb56dc5e2")
    // Width does not matter for equality.
    let wire: [UInt8] = [0xAA, 0xFE, 0, 0]
    let le32 = BluetoothUUID(littleEndian: wire.span.bytes)
    #expect(le32 == u)
  }
}

@Suite("BluetoothAddress")
struct BluetoothAddressTests {
  @Test func printsMostSignificantFirst() {
    let wire: [UInt8] = [0x66, 0x55, 0x44, 0x33, 0x22, 0x11]
    let address = BluetoothAddress(littleEndian: wire.span.bytes)
    #expect(address?.description == "11:22:33:44:55:66")
    #expect(address?.littleEndianBytes == wire)
    #expect(BluetoothAddress(0xAA_BB_CC_DD_EE_0F).description == "AA:BB:CC:DD:EE:0F")
  }

  static let texts: [(String, UInt64?)] = [
    ("AA:BB:CC:DD:EE:FF", 0xAABB_CCDD_EEFF),
    ("aa-bb-cc-dd-ee-ff", 0xAABB_CCDD_EEFF),
    ("AA:BB:CC:DD:EE", nil),
    ("AA:BB:CC:DD:EE:GG", nil),
    ("AABBCCDDEEFF", nil),
    ("AA:BB:CC:DD:EE:FF:", nil),
  ]

  @Test(arguments: 0..<texts.count)
  func parsesText(index: Int) {
    let (text, value) = Self.texts[index]
    #expect(BluetoothAddress(text)?.value == value)
  }

  @Test func randomKinds() {
    #expect(BluetoothAddress(0xC0_0000_0000_01).randomAddressKind == .staticDevice)
    #expect(BluetoothAddress(0x40_0000_0000_01).randomAddressKind == .resolvablePrivate)
    #expect(BluetoothAddress(0x00_0000_0000_01).randomAddressKind == .nonResolvablePrivate)
    #expect(BluetoothAddress(0x80_0000_0000_01).randomAddressKind == .reserved)
    #expect(BluetoothAddressType.randomDevice.name == "random")
    #expect(BluetoothAddressType.publicDevice.name == "public")
    #expect(BluetoothAddressType.anonymous.name == "anonymous")
  }
}
