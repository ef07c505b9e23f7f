// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

@Suite("AdvertisingData")
struct AdvertisingDataTests {
  static let battery = BluetoothUUID(uuid16: 0x180F)

  @Test func contractSummary() throws {
    let bytes = hex(
      "020106 0308 5457 05 09 54572d31 0308 5458 020a fc 0319 c103"
        + " 0302 0f18 0503 0a18 0f18 0416 0f18 50 0416 0f18 64 0620 0a180000 01"
        + " 05ff ffff 0102 04ff 4c00 09 05ff ffff 0304")
    let adv = try AdvertisingData(parsing: bytes)
    #expect(adv.flags?.rawValue == 0x06)
    #expect(adv.localName == "TW-1")
    #expect(adv.isLocalNameComplete == true)
    #expect(adv.txPowerLevel == -4)
    #expect(adv.appearance == 0x03C1)
    #expect(
      adv.serviceUUIDs.map(\.description) == [
        "0000180f-0000-1000-8000-00805f9b34fb", "0000180a-0000-1000-8000-00805f9b34fb",
        "0000180f-0000-1000-8000-00805f9b34fb",
      ])
    #expect(
      adv.serviceData == [
        ServiceData(uuid: Self.battery, data: [0x64]),
        ServiceData(uuid: BluetoothUUID(uuid16: 0x180A), data: [1]),
      ])
    #expect(
      adv.manufacturerData == [
        ManufacturerData(companyID: .testing, data: [3, 4]),
        ManufacturerData(companyID: .apple, data: [9]),
      ])
    #expect(adv.serviceData(for: Self.battery) == [0x64])
    #expect(adv.manufacturerData(for: .apple) == [9])
    #expect(adv.values.count == adv.structures.count)
  }

  @Test func shortenedNameWhenNoComplete() throws {
    let adv = try AdvertisingData(parsing: hex("0308 5457"))
    #expect(adv.localName == "TW")
    #expect(adv.isLocalNameComplete == false)
    let none = try AdvertisingData(parsing: hex("020106"))
    #expect(none.localName == nil)
    #expect(none.isLocalNameComplete == nil)
    #expect(none.txPowerLevel == nil)
    #expect(none.appearance == nil)
  }

  @Test func malformedTypedStructuresAreSkipped() throws {
    let adv = try AdvertisingData(parsing: hex("030a 0102 0219 01 0203 0f 01ff"))
    #expect(adv.txPowerLevel == nil)
    #expect(adv.appearance == nil)
    #expect(adv.serviceUUIDs.isEmpty)
    #expect(adv.manufacturerData.isEmpty)
    #expect(adv.values.isEmpty)
  }

  @Test func leOutOfBandValues() throws {
    // NFC LE OOB record payload: LE Bluetooth Device Address, LE Role, then more AD.
    let payload = hex("08 1b 665544332211 01  02 1c 02  03 19 c103")
    let view = try AdvertisingDataView(validating: payload.span.bytes, baseOffset: 40)
    var it = view.structures
    var offsets: [Int] = []
    while let s = it.next() { offsets.append(s.offset) }
    #expect(offsets == [40, 49, 52])
    let adv = AdvertisingData(view)
    #expect(adv.leDeviceAddress?.address.description == "11:22:33:44:55:66")
    #expect(adv.leDeviceAddress?.isRandom == true)
    #expect(adv.leRole == .peripheralPreferred)
    #expect(adv.appearance == 0x03C1)
    #expect(AdvertisingData().leDeviceAddress == nil)
    #expect(AdvertisingData().leRole == nil)
  }

  @Test func scanResponseMerge() throws {
    let adv = try AdvertisingData(parsing: hex("020106 0308 5457 0416 0f18 50"))
    let scan = try AdvertisingData(parsing: hex("05 09 54572d31 0416 0f18 64"))
    let merged = adv.merging(scanResponse: scan)
    #expect(merged.localName == "TW-1")
    #expect(merged.isLocalNameComplete == true)
    #expect(merged.serviceData(for: Self.battery) == [0x64])
    #expect(merged.flags?.rawValue == 0x06)
    #expect(merged.structures.count == 5)
  }

  @Test func encodesWithinBudgets() throws {
    let name = ADStructure(.localName(String(repeating: "A", count: 26), complete: true))
    let adv = AdvertisingData(structures: [ADStructure(.flags([.leGeneralDiscoverable])), name])
    #expect(try adv.encodedCount(budget: .legacy) == 31)
    let bytes = try adv.encodedBytes(budget: .legacy)
    #expect(bytes.count == 31)
    #expect(Array(bytes[0..<5]) == [0x02, 0x01, 0x02, 0x1B, 0x09])
    // One more octet breaks the legacy budget at the name's offset.
    let longer = AdvertisingData(structures: [
      ADStructure(.flags([.leGeneralDiscoverable])),
      ADStructure(.localName(String(repeating: "A", count: 27), complete: true)),
    ])
    do {
      _ = try longer.encodedBytes(budget: .legacy)
      Issue.record("expected exceedsBudget")
    } catch {
      #expect(error.code == .exceedsBudget)
      #expect(error.offset == 3)
    }
    #expect(try longer.encodedCount(budget: .extended) == 32)
  }

  @Test func extendedAndChainedBudgets() throws {
    let big = ADStructure(
      type: .manufacturerSpecificData, data: [0xFF, 0xFF] + Array(repeating: 7, count: 250))
    let one = AdvertisingData(structures: [big])
    #expect(try one.encodedCount(budget: .extended) == 254)
    let chained = AdvertisingData(structures: Array(repeating: big, count: 6))
    #expect(try chained.encodedCount(budget: .chained) == 254 * 6)
    let seven = AdvertisingData(structures: Array(repeating: big, count: 7))
    #expect(throws: BLEAdvertisingError(.exceedsBudget, offset: 254 * 6)) {
      try seven.encodedCount(budget: .chained)
    }
    let tooLong = AdvertisingData(structures: [ADStructure(type: .uri, data: Array(repeating: 1, count: 255))]
    )
    #expect(throws: BLEAdvertisingError(.structureTooLong, offset: 0)) {
      try tooLong.encodedCount(budget: .chained)
    }
  }

  @Test func chainedFragments() throws {
    let big = ADStructure(
      type: .manufacturerSpecificData, data: [0xFF, 0xFF] + Array(repeating: 7, count: 250))
    let adv = AdvertisingData(structures: Array(repeating: big, count: 6))
    let fragments = try adv.encodedFragments()
    #expect(fragments.map { $0.count } == [254, 254, 254, 254, 254, 254])
    let small = try adv.encodedFragments(fragmentSize: 200)
    #expect(small.map { $0.count } == [200, 200, 200, 200, 200, 200, 200, 124])
    #expect(small.flatMap { $0 } == (try adv.encodedBytes()))
    #expect(try AdvertisingData().encodedFragments() == [[]])
    #expect(throws: BLEAdvertisingError(.exceedsBudget, offset: 0)) {
      _ = try adv.encodedFragments(fragmentSize: 255)
    }
    #expect(throws: BLEAdvertisingError(.exceedsBudget, offset: 254)) {
      _ = try adv.encodedFragments(budget: .extended)
    }
  }

  @Test func bufferTooSmallWritesNothing() throws {
    let adv = AdvertisingData(values: [.flags([.leGeneralDiscoverable]), .txPowerLevel(0)])
    var storage = [UInt8](repeating: 0, count: 4)
    let result: Result<Int, BLEAdvertisingError> = storage.withUnsafeMutableBytes { raw in
      do throws(BLEAdvertisingError) {
        let typed = raw.bindMemory(to: UInt8.self)
        var output = OutputSpan<UInt8>(buffer: typed, initializedCount: 0)
        try adv.encode(into: &output)
        return .success(output.finalize(for: typed))
      } catch {
        return .failure(error)
      }
    }
    #expect(throws: BLEAdvertisingError(.bufferTooSmall, offset: 0)) { try result.get() }
  }

  @Test func splitsIntoAdvertisingAndScanResponse() throws {
    let adv = AdvertisingData(values: [
      .flags([.leGeneralDiscoverable, .brEDRNotSupported]),
      .manufacturerData(.testing, Array(repeating: 1, count: 24)),
      .localName("TW-12345", complete: true),
      .serviceData(Self.battery, [0x50]),
    ])
    let (first, second) = try adv.split()
    #expect(first.structures.count == 2)
    #expect(second.structures.count == 2)
    #expect(try first.encodedCount(budget: .legacy) == 31)
    #expect(first.merging(scanResponse: second) == adv)
  }

  @Test func randomRoundTrip() throws {
    let seed = testSeed("AdvertisingData.randomRoundTrip")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<300 {
      var structures: [ADStructure] = []
      var total = 0
      while total < 200, Int.random(in: 0..<8, using: &rng) != 0 {
        let count = Int.random(in: 0...40, using: &rng)
        let type = ADType(rawValue: UInt8.random(in: 0...255, using: &rng))
        let data = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
        structures.append(ADStructure(type: type, data: data))
        total += count + 2
      }
      let model = AdvertisingData(structures: structures)
      let bytes = try model.encodedBytes()
      let decoded = try AdvertisingData(parsing: bytes)
      #expect(decoded == model, "seed \(seed)")
      let again = try decoded.encodedBytes()
      #expect(again == bytes, "seed \(seed)")
      // Every typed decoder either decodes or throws one of its codes; never traps.
      for s in decoded.structures {
        do { _ = try s.value() } catch {
          #expect(error.code == .invalidDataLength || error.code == .invalidURIScheme)
        }
      }
    }
  }

  @Test func randomBytesNeverTrap() {
    let seed = testSeed("AdvertisingData.randomBytesNeverTrap")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<500 {
      let count = Int.random(in: 0...64, using: &rng)
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
      let strict = adError(bytes)
      if let strict { #expect(strict.0 == "structureLengthExceedsInput") }
      if let lenient = try? AdvertisingData(parsing: bytes, options: .lenient) {
        _ = (lenient.localName, lenient.serviceUUIDs, lenient.serviceData, lenient.manufacturerData)
      } else {
        Issue.record("lenient decoding failed, seed \(seed)")
      }
    }
  }
}
