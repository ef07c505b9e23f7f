// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

@Suite("AdvertisingDataView")
struct AdvertisingDataViewTests {
  /// (hex, [(type, data hex, offset)]) hand-checked against CSS Part A layouts.
  static let valid: [(String, [(UInt8, String, Int)])] = [
    ("", []),
    ("020106", [(0x01, "06", 0)]),
    ("0201060303 0f18", [(0x01, "06", 0), (0x03, "0f18", 3)]),
    ("00 020106 00 00", [(0x01, "06", 1)]),
    ("0109", [(0x09, "", 0)]),
    ("05 09 54 57 2d 31 02 0a f4", [(0x09, "54572d31", 0), (0x0a, "f4", 6)]),
    ("0000000000", []),
  ]

  @Test(arguments: 0..<valid.count)
  func iteratesStructuresWithOffsets(index: Int) throws {
    let (text, expected) = Self.valid[index]
    let got = try adStructures(hex(text))
    #expect(got.count == expected.count)
    for (g, e) in zip(got, expected) {
      #expect(g.0 == e.0)
      #expect(g.1 == e.1)
      #expect(g.2 == e.2)
    }
  }

  @Test func baseOffsetMakesOffsetsAbsolute() throws {
    let got = try adStructures(hex("020106 0303 0f18"), baseOffset: 100)
    #expect(got.map(\.2) == [100, 103])
  }

  /// (hex, code, offset) for malformed input.
  static let malformed: [(String, String, Int)] = [
    ("02", "structureLengthExceedsInput", 0),
    ("0201", "structureLengthExceedsInput", 0),
    ("020106 05 09 41", "structureLengthExceedsInput", 3),
    ("00 00 ff 01", "structureLengthExceedsInput", 2),
    ("020106 00 03 03", "structureLengthExceedsInput", 4),
  ]

  @Test(arguments: 0..<malformed.count)
  func rejectsLengthPastEnd(index: Int) {
    let (text, code, offset) = Self.malformed[index]
    let error = adError(hex(text))
    #expect(error?.0 == code)
    #expect(error?.1 == offset)
  }

  @Test func lenientStopsWithWarning() throws {
    let bytes = hex("020106 05 09 41")
    let view = try AdvertisingDataView(validating: bytes.span.bytes, options: .lenient)
    let count = view.structureCount
    let warnings = view.warnings
    let kept = view.bytes.byteCount
    #expect(count == 1)
    #expect(kept == 3)
    #expect(warnings == [BLEAdvertisingWarning(.structureLengthExceedsInput, offset: 3)])
    let strict = adError(bytes, lenient: false)
    #expect(strict?.0 == "structureLengthExceedsInput")
  }

  @Test func truncationAtEveryOffset() {
    let bytes = hex("020106 0303 0f18 05 09 54572d31 03 19 c1 03 07 ff ffff 01 02 03 04")
    // Structure boundaries: a prefix ending on one parses; otherwise the error points at
    // the Length octet of the structure that was cut.
    let starts = [0, 3, 7, 13, 17]
    for cut in 0...bytes.count {
      let prefix = Array(bytes[0..<cut])
      let error = adError(prefix)
      if starts.contains(cut) || cut == bytes.count {
        #expect(error == nil, "cut \(cut)")
      } else {
        let start = starts.last(where: { $0 < cut }) ?? 0
        #expect(error?.0 == "structureLengthExceedsInput", "cut \(cut)")
        #expect(error?.1 == start, "cut \(cut)")
      }
    }
  }

  @Test func viewsPointIntoTheInput() throws {
    let bytes = hex("020106 05 09 54572d31")
    let span = bytes.span.bytes
    let view = try AdvertisingDataView(validating: span)
    let base = span.baseAddressForIdentity
    var it = view.structures
    var addresses: [UInt] = []
    while let s = it.next() { addresses.append(s.data.baseAddressForIdentity) }
    #expect(addresses == [base + 2, base + 5])
  }

  @Test func accessorsFindContractValues() throws {
    let bytes = hex(
      "020106 0308 5457 05 09 54572d31 020a 04 0319 c103 0416 0f18 50 0416 0f18 64 0302 0503 05ff ffff 0102 05ff ffff 0304"
    )
    let view = try AdvertisingDataView(validating: bytes.span.bytes)
    let flags = view.flags?.rawValue
    let tx = view.txPowerLevel
    let appearance = view.appearance
    let name = view.localName()?.string
    let complete = view.localName()?.isComplete
    var batteryHex: String? = nil
    if let battery = view.serviceData(for: BluetoothUUID(uuid16: 0x180F)) {
      batteryHex = Hex.string(battery.data)
    }
    var makerHex: String? = nil
    var makerOffset: Int? = nil
    if let maker = view.manufacturerData(for: .testing) {
      makerHex = Hex.string(maker.data)
      makerOffset = maker.dataOffset
    }
    let has0305 = view.containsServiceUUID(BluetoothUUID(uuid16: 0x0305))
    let has180F = view.containsServiceUUID(BluetoothUUID(uuid16: 0x180F))
    #expect(flags == 0x06)
    #expect(tx == 4)
    #expect(appearance == 0x03C1)
    #expect(name == "TW-1")
    #expect(complete == true)
    #expect(batteryHex == "64")
    #expect(makerHex == "0304")
    #expect(makerOffset == bytes.count - 2)
    #expect(has0305)
    #expect(!has180F)
  }

  @Test func typedViewErrors() throws {
    let bytes = hex("030a 0102 0403 010203 02ff 01 0116")
    let view = try AdvertisingDataView(validating: bytes.span.bytes)
    var it = view.structures
    var codes: [(String, Int)] = []
    while let s = it.next() {
      do {
        _ = try ADValue(s)
        codes.append(("ok", s.offset))
      } catch {
        codes.append((error.code.name, error.offset))
      }
    }
    #expect(
      codes.map(\.0) == ["invalidDataLength", "invalidDataLength", "invalidDataLength", "invalidDataLength"])
    #expect(codes.map(\.1) == [0, 4, 9, 12])
  }
}
