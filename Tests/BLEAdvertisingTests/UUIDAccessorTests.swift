// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

/// `UUIDListView.uuid(at:)` and `ADStructureView.serviceData()` read UUIDs in place; these
/// vectors are checked by hand against CSS Part A §1.1 and §1.11 (UUIDs little-endian).
@Suite struct UUIDAccessorTests {
  struct Missing: Error {}

  static func firstStructure<R>(_ bytes: [UInt8], _ body: (borrowing ADStructureView) throws -> R) throws -> R
  {
    let view = try AdvertisingDataView(validating: bytes.span)
    var structures = view.structures
    guard let structure = structures.next() else { throw Missing() }
    return try body(structure)
  }

  @Test func uuidListsOfEveryWidth() throws {
    // 16-bit: 0x180F, 0x1812.
    let list16 = try Self.firstStructure([0x05, 0x03, 0x0F, 0x18, 0x12, 0x18]) { s in
      guard let list = try s.uuidList() else { throw Missing() }
      return (0..<3).map { list.uuid(at: $0)?.description }
    }
    #expect(list16 == ["180f", "1812", nil].map { $0.map { "0000\($0)-0000-1000-8000-00805f9b34fb" } })
    // 32-bit: 0x12345678.
    let list32 = try Self.firstStructure([0x05, 0x05, 0x78, 0x56, 0x34, 0x12]) { s in
      guard let list = try s.uuidList() else { throw Missing() }
      return [list.uuid(at: 0)?.description, list.uuid(at: 1)?.description, list.uuid(at: -1)?.description]
    }
    #expect(list32 == ["12345678-0000-1000-8000-00805f9b34fb", nil, nil])
    // 128-bit: 6E400001-B5A3-F393-E0A9-E50E24DCCA9E (Nordic UART), sent least significant first.
    let nus: [UInt8] = [
      0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E,
    ]
    let list128 = try Self.firstStructure([0x11, 0x07] + nus) { s in
      guard let list = try s.uuidList() else { throw Missing() }
      return [list.count.description, list.uuid(at: 0)?.description, list.uuid(at: 1)?.description]
    }
    #expect(list128 == ["1", "6e400001-b5a3-f393-e0a9-e50e24dcca9e", nil])
  }

  @Test func serviceDataOfEveryWidth() throws {
    // 16-bit 0xFEAA (Eddystone) with two data octets.
    let sd16 = try Self.firstStructure([0x05, 0x16, 0xAA, 0xFE, 0x10, 0x20]) { s in
      guard let d = try s.serviceData() else { throw Missing() }
      return [d.uuid.description, "\(d.data.byteCount)", "\(d.dataOffset)", "\(d.data.byte(at: 0) ?? 0)"]
    }
    #expect(sd16 == ["0000feaa-0000-1000-8000-00805f9b34fb", "2", "4", "16"])
    // 32-bit with no data.
    let sd32 = try Self.firstStructure([0x05, 0x20, 0x78, 0x56, 0x34, 0x12]) { s in
      guard let d = try s.serviceData() else { throw Missing() }
      return [d.uuid.description, "\(d.data.byteCount)"]
    }
    #expect(sd32 == ["12345678-0000-1000-8000-00805f9b34fb", "0"])
    let nus: [UInt8] = [
      0x9E, 0xCA, 0xDC, 0x24, 0x0E, 0xE5, 0xA9, 0xE0, 0x93, 0xF3, 0xA3, 0xB5, 0x01, 0x00, 0x40, 0x6E,
    ]
    let sd128 = try Self.firstStructure([0x12, 0x21] + nus + [0x7F]) { s in
      guard let d = try s.serviceData() else { throw Missing() }
      return [d.uuid.description, "\(d.data.byteCount)", "\(d.data.byte(at: 0) ?? 0)"]
    }
    #expect(sd128 == ["6e400001-b5a3-f393-e0a9-e50e24dcca9e", "1", "127"])
  }

  @Test func serviceDataShorterThanItsUUIDIsAnError() throws {
    // Each width one octet short: the error names the structure's Length octet.
    for bytes: [UInt8] in [
      [0x02, 0x16, 0xAA], [0x04, 0x20, 0x78, 0x56, 0x34], [0x10, 0x21] + Array(repeating: 0, count: 15),
    ] {
      let code = try Self.firstStructure(bytes) { s in
        do throws(BLEAdvertisingError) {
          _ = try s.serviceData()
          return nil as BLEAdvertisingError.Code?
        } catch { return error.code }
      }
      #expect(code == .invalidDataLength)
    }
  }
}
