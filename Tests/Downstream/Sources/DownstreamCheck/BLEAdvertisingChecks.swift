// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising

/// What the documented example reader (``ReaderProfile/example``) advertises.
func exampleReaderAdvertising(serial: String, battery: UInt8) throws(BLEAdvertisingError) -> [UInt8] {
  try AdvertisingData(values: [
    .flags([.leGeneralDiscoverable, .brEDRNotSupported]),
    .manufacturerData(.testing, [0x01] + Array(serial.utf8) + [battery]),
    .localName("TW-" + serial.suffix(4), complete: true),
  ]).encodedBytes(budget: .legacy)
}

/// Picks the nearest reader from timestamped reports (article "Picking a Bluetooth reader
/// by proximity"): `reports` stands for a scanner's callbacks, each at an instant of the
/// caller's monotonic clock.
func pickNearestReader(
  _ reports: [(time: MonotonicInstant, report: AdvertisingReport)]
) -> DiscoveredReader? {
  var discovery = ReaderDiscovery(profiles: [.example], mode: .proximity)
  var events = discovery.start(at: reports.first?.time ?? .origin)
  var chosen: DiscoveredReader?
  for (time, report) in reports {
    events += discovery.receive(report, at: time)
    events += discovery.advance(to: time)  // timeouts and silence are measured here
    for event in events {
      switch event {
      case .readerChosen(let reader): chosen = reader  // connect to reader.address now
      case .readerDetails(let reader): print("  battery of \(reader.serial): \(reader.batteryLevel ?? -1) %")
      case .readerLost: chosen = nil  // discovery searches again
      case .notFound: return nil
      case .readersChanged, .scanEnded: break  // scan mode only
      }
    }
    events = []
  }
  return chosen
}

func checkBLEAdvertising() {
  group("BLEAdvertising: advertising data encodes and decodes") {
    let bytes = try exampleReaderAdvertising(serial: "00000042", battery: 80)
    check(bytes.count <= 31, "fits the legacy budget")
    let view = try AdvertisingDataView(validating: bytes.span.bytes)
    var count = 0
    var structures = view.structures
    while structures.next() != nil { count += 1 }
    expectEqual(count, 3, "AD structures")
    let owned = AdvertisingData(view)
    expectEqual(owned.localName, "TW-0042", "local name")
    expectEqual(owned.manufacturerData(for: .testing)?.count, 10, "manufacturer data")
    expectEqual(try AdvertisingData(parsing: bytes), owned, "parse = copy of the view")
  }
}

func checkReaderDiscovery() {
  group("BLEAdvertising: proximity picks the nearer of two readers") {
    let near = BluetoothAddress(0xC0_00_00_00_00_01)
    let far = BluetoothAddress(0xC0_00_00_00_00_02)
    let nearData = try exampleReaderAdvertising(serial: "00000001", battery: 90)
    let farData = try exampleReaderAdvertising(serial: "00000002", battery: 50)
    var reports: [(time: MonotonicInstant, report: AdvertisingReport)] = []
    for tick in 0..<30 {
      let time = MonotonicInstant.origin + .milliseconds(100) * tick
      reports.append((time, AdvertisingReport(address: far, rssi: -75, data: farData)))
      reports.append((time, AdvertisingReport(address: near, rssi: -55, data: nearData)))
    }
    let chosen = pickNearestReader(reports)
    expectEqual(chosen?.serial, "00000001", "chosen serial")
    expectEqual(chosen?.address, near, "chosen address")
  }
}
