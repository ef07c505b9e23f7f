// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

/// `DeviceInformationView.elements`: every data element with its absolute offset (Device
/// Information RTD 1.0 §3), reserved types included.
@Suite struct DeviceInformationElementTests {
  @Test func elementsCarryTypesValuesAndOffsets() throws {
    // manufacturer "AB", model "C", reserved type 9 with one byte, firmware "1".
    let payload = hex("00 02 41 42 01 01 43 09 01 FF 04 01 31")
    let view = try DeviceInformationView(validating: payload.span.bytes, baseOffset: 40)
    var found: [(UInt8, [UInt8], Int)] = []
    var elements = view.elements
    while let element = elements.next() {
      found.append((element.type, element.value.copiedBytes(), element.offset))
    }
    #expect(found.map(\.0) == [0, 1, 9, 4])
    #expect(found.map(\.1) == [[0x41, 0x42], [0x43], [0xFF], [0x31]])
    #expect(found.map(\.2) == [40, 44, 47, 50])
  }

  @Test func emptyPayloadHasNoElements() throws {
    let view = try DeviceInformationView(validating: [UInt8]().span.bytes, options: .lenient)
    var elements = view.elements
    var count = 0
    while let _ = elements.next() { count += 1 }
    #expect(count == 0)
  }
}
