// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

/// A Wi-Fi Simple Configuration token's Credential attributes (WSC 2.0 §12) decode one by
/// one: a malformed one is listed with its index and its error at the absolute offset, and the
/// others still decode (issue 21).
@Suite("WSC credentials, one by one")
struct WSCCredentialScanTests {
  static let first = WiFiCredential(
    ssid: Array("A".utf8), authentication: .wpa2Personal, encryption: .aes, networkKey: Array("k".utf8))
  static let third = WiFiCredential(
    ssid: Array("C".utf8), authentication: .open, encryption: .none, networkKey: [])

  static func credentialAttribute(_ value: [UInt8]) -> [UInt8] {
    [0x10, 0x0E, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
  }

  /// Version at 0; Credential 0 at 5 (value 37 bytes); Credential 1 at 46 whose MAC Address
  /// (value at 54) is 5 bytes; Credential 2 at 59.
  static let tokenWithBadMiddleCredential: [UInt8] =
    hex("10 4A 00 01 10") + credentialAttribute(first.encodedValue)
    + hex("10 0E 00 09 10 20 00 05 01 02 03 04 05") + credentialAttribute(third.encodedValue)

  @Test func aBadCredentialIsListedAndTheOthersDecode() throws {
    let bytes = Self.tokenWithBadMiddleCredential
    #expect(Self.first.encodedValue.count == 37)
    for options in [NDEFDecodingOptions.strict, .lenient] {
      let view = try WiFiSimpleConfigView(validating: bytes.span.bytes, baseOffset: 100, options: options)
      #expect(view.credentialCount == 2)
      #expect(view.credentials() == [Self.first, Self.third])
      #expect(
        view.malformedCredentials()
          == [MalformedWiFiCredential(index: 1, error: NDEFError(.attributeInvalidLength, offset: 154))])
      #expect(view.warnings.isEmpty)
      #expect(view.version == 0x10)
    }
  }

  @Test func aTokenWhoseOnlyCredentialIsBadIsNotMissingOne() throws {
    // Credential at 0 whose nested SSID header at 4 announces 3 bytes with 1 left.
    let bytes = hex("10 0E 00 05 10 45 00 03 41")
    let strict = try WiFiSimpleConfigView(validating: bytes.span.bytes)
    #expect(strict.credentialCount == 0)
    #expect(
      strict.malformedCredentials()
        == [MalformedWiFiCredential(index: 0, error: NDEFError(.attributeTruncated, offset: 4))])
    let lenient = try WiFiSimpleConfigView(validating: bytes.span.bytes, options: .lenient)
    #expect(lenient.warnings.isEmpty)
    // No Credential attribute at all is still `wscMissingCredential`.
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try WiFiSimpleConfigView(validating: hex("10 4A 00 01 10").span.bytes, baseOffset: 7)
      } == NDEFError(.wscMissingCredential, offset: 7))
  }

  @Test func everyBadCredentialIsListedInOrder() throws {
    // Credential 0 at 0 without SSID (value at 4); Credential 1 at 9 with a 2-byte Network
    // Index (value at 17).
    let bytes = hex("10 0E 00 05 10 26 00 01 01" + " 10 0E 00 06 10 26 00 02 01 01")
    let view = try WiFiSimpleConfigView(validating: bytes.span.bytes)
    #expect(
      view.malformedCredentials() == [
        MalformedWiFiCredential(index: 0, error: NDEFError(.wscMissingAttribute, offset: 4)),
        MalformedWiFiCredential(index: 1, error: NDEFError(.attributeInvalidLength, offset: 17)),
      ])
    #expect(view.credentials().isEmpty)
  }

  @Test func theTokenClassifiesAsOneWithItsMalformedCredential() throws {
    let record = NDEFRecord(
      typeNameFormat: .media, type: WiFiSimpleConfigView.type, payload: Self.tokenWithBadMiddleCredential)
    // Short record: header, type length, payload length, 23-byte type, payload at 26.
    let bytes = try NDEFMessage(records: [record]).encodedBytes()
    let message = try NDEFMessageView(validating: bytes.span)
    var records = message.records
    guard let view = records.next() else {
      Issue.record("no record")
      return
    }
    guard case .wifiSimpleConfig(let token) = DecodedRecord(classifying: view) else {
      Issue.record("the WSC record is not decoded as one")
      return
    }
    #expect(token.credentials().count == 2)
    #expect(token.malformedCredentials().map { $0.error.offset } == [26 + 54])
  }
}
