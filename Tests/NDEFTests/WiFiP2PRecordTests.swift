// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

/// Hand-built `application/vnd.wfa.p2p` payload (Wi-Fi P2P v1.7 §4.2): WSC Version 1.0, then
/// P2P Capability (device 0x25, group 0x00) and Device Info "Test" (P2P lengths little-endian).
private let p2pPayload = hex(
  """
  0005 104A 0001 10
  0021
  02 0200 2500
  0D 1900 021122334455 0188 000A0050F2040005 00 1011 0004 54657374
  """)

@Suite struct WiFiP2PRecordTests {
  @Test func decodesHandBuiltVector() throws {
    #expect(p2pPayload.count == 42)
    let view = try WiFiP2PView(validating: p2pPayload.span.bytes, baseOffset: 100)
    var wsc: [(UInt16, [UInt8], Int)] = []
    var wscIterator = view.wscAttributes
    while let attribute = wscIterator.next() {
      wsc.append((attribute.type.rawValue, attribute.value.copiedBytes(), attribute.valueOffset))
    }
    #expect(wsc.count == 1)
    #expect(wsc.first?.0 == 0x104A && wsc.first?.1 == [0x10] && wsc.first?.2 == 106)
    var p2p: [(UInt8, Int, Int)] = []
    var p2pIterator = view.p2pAttributes
    while let attribute = p2pIterator.next() {
      p2p.append((attribute.id.rawValue, attribute.value.byteCount, attribute.valueOffset))
    }
    #expect(p2p.map { $0.0 } == [2, 13])
    #expect(p2p.map { $0.1 } == [2, 25])
    #expect(p2p.map { $0.2 } == [112, 117])
    let info = view.deviceInfo
    #expect(info?.deviceAddress == [0x02, 0x11, 0x22, 0x33, 0x44, 0x55])
    #expect(info?.configMethods == 0x0188)
    #expect(info?.primaryDeviceType == [0x00, 0x0A, 0x00, 0x50, 0xF2, 0x04, 0x00, 0x05])
    #expect(info?.secondaryDeviceTypes == [])
    #expect(info?.deviceName == Array("Test".utf8))
    #expect(view.warnings.isEmpty)
  }

  @Test(arguments: [
    (0, [0x00, 0xFF], "p2pLengthExceedsPayload", 0),  // WSC data length
    (7, [0x00, 0xFF], "p2pLengthExceedsPayload", 7),  // P2P data length
    (4, [0x00, 0x05], "attributeTruncated", 2),  // WSC attribute length
    (10, [0xFF, 0x00], "attributeTruncated", 9),  // P2P attribute length (little-endian)
    (36, [0x00, 0x05], "attributeTruncated", 34),  // Device Name length inside Device Info
    (34, [0x10, 0x12], "attributeInvalidLength", 34),  // not a Device Name attribute
  ])
  func malformedLengthField(at index: Int, bytes: [UInt8], code: String, offset: Int) {
    var payload = p2pPayload
    payload.replaceSubrange(index..<index + bytes.count, with: bytes)
    do {
      _ = try WiFiP2PView(validating: payload.span.bytes)
      Issue.record("decoded malformed payload")
    } catch {
      #expect(error.code.name == code)
      #expect(error.offset == offset)
    }
  }

  @Test func trailingBytesStrictAndLenient() throws {
    let payload = p2pPayload + [0x00]
    #expect(throws: NDEFError(.p2pTrailingBytes, offset: 42)) {
      _ = try WiFiP2PView(validating: payload.span.bytes)
    }
    let view = try WiFiP2PView(validating: payload.span.bytes, options: .lenient)
    #expect(view.warnings == [NDEFWarning(.p2pTrailingBytes, offset: 42)])
  }

  @Test func truncationAtEveryOffsetThrows() {
    for count in 0..<p2pPayload.count {
      let prefix = Array(p2pPayload.prefix(count))
      var failed = false
      do { _ = try WiFiP2PView(validating: prefix.span.bytes, options: .lenient) } catch { failed = true }
      #expect(failed, "prefix of \(count) bytes decoded")
    }
  }

  @Test func roundTrip() throws {
    let view = try WiFiP2PView(validating: p2pPayload.span.bytes)
    let model = WiFiP2P(view)
    #expect(try model.payload() == p2pPayload)
    let info = P2PDeviceInfo(
      deviceAddress: [0x02, 0x11, 0x22, 0x33, 0x44, 0x55], configMethods: 0x0188,
      primaryDeviceType: [0x00, 0x0A, 0x00, 0x50, 0xF2, 0x04, 0x00, 0x05], deviceName: Array("Test".utf8))
    let built = WiFiP2P(
      wscAttributes: [0x10, 0x4A, 0x00, 0x01, 0x10],
      p2pAttributes: [
        P2PAttributeValue(id: .capability, value: [0x25, 0x00]),
        P2PAttributeValue(id: .deviceInfo, value: info.encodedValue),
      ])
    #expect(try built.payload() == p2pPayload)
  }
}
