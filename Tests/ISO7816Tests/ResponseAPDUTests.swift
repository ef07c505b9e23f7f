// SPDX-License-Identifier: Apache-2.0
import NFCWire
import Testing

@testable import ISO7816

@Suite("ResponseAPDU")
struct ResponseAPDUTests {
  @Test(
    "data and status word",
    arguments: [
      ("90 00", "", 0x9000),
      ("6F 07 84 05 A0 00 00 00 03 90 00", "6f078405a000000003", 0x9000),
      ("61 10", "", 0x6110),
    ] as [(String, String, UInt16)])
  func decode(text: String, data: String, sw: UInt16) throws {
    let bytes = hex(text)
    let view = try ResponseAPDUView(validating: bytes.span)
    #expect(Hex.string(view.data) == data)
    #expect(view.statusWord.rawValue == sw)
    #expect(view.statusWordOffset == bytes.count - 2)
    let owned = ResponseAPDU(view)
    #expect(owned.encodedBytes() == bytes)
    #expect(try ResponseAPDU(parsing: bytes) == owned)
  }

  @Test("fewer than two bytes is an error at offset 0", arguments: ["", "90"])
  func truncated(text: String) {
    #expect(throws: APDUError(.truncatedStatusWord, offset: 0)) {
      _ = try ResponseAPDU(parsing: hex(text))
    }
  }

  @Test("encode(into:) matches encodedBytes and checks room")
  func encodeInto() throws {
    let response = ResponseAPDU(data: [1, 2, 3], statusWord: .success)
    let bytes = try [UInt8](capacity: response.encodedCount) {
      (output: inout OutputSpan<UInt8>) throws(APDUError) in try response.encode(into: &output)
    }
    #expect(bytes == hex("01 02 03 90 00"))
    #expect(throws: APDUError(.bufferTooSmall, offset: 0)) {
      _ = try [UInt8](capacity: 2) { (output: inout OutputSpan<UInt8>) throws(APDUError) in
        try response.encode(into: &output)
      }
    }
  }
}

@Suite("ResponseAPDU views")
struct ResponseAPDUViewTests {
  @Test("the data field is a view into the input, with absolute offsets")
  func zeroCopy() throws {
    let bytes = hex("01 02 03 62 82")
    let view = try ResponseAPDUView(validating: bytes.span, baseOffset: 40)
    #expect(view.data.baseAddressForIdentity == bytes.span.bytes.baseAddressForIdentity)
    #expect(view.statusWordOffset == 43)
    #expect(view.statusWord.category == .warning)
  }
}
