// SPDX-License-Identifier: Apache-2.0
import NDEF
import Testing

/// The README's API example, compiled and checked here so it cannot rot.
@Suite("README example")
struct ReadmeExampleTests {
  @Test func example() throws {
    // README example begins
    let bytes: [UInt8] = [0xD1, 0x01, 0x08, 0x55, 0x01, 0x6E, 0x66, 0x63, 0x2E, 0x63, 0x6F, 0x6D]

    // Zero-copy: validate once, then walk records as views into `bytes`.
    let message = try NDEFMessageView(validating: bytes.span)
    var records = message.records
    while let record = records.next() {
      print(record.typeNameFormat, record.type.byteCount, record.payloadLength)
    }

    // Owned model: build, edit, encode (exact size first, then into a buffer).
    var owned = try NDEFMessage(message)
    owned.records.append(
      NDEFRecord(typeNameFormat: .wellKnown, type: Array("T".utf8), payload: [0x02] + Array("enHi".utf8)))
    let encoded = try owned.encodedBytes()
    // README example ends
    #expect(message.recordCount == 1)
    #expect(owned.records.count == 2)
    #expect(encoded.count == owned.records.reduce(0) { $0 + 3 + $1.type.count + $1.payload.count })
    #expect(Array(encoded[0..<12]) == [0x91] + bytes[1...])
    #expect(encoded[12] == 0x51)
  }
}
