// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NDEF
import NFCWire
import Testing

/// Decodes the first record of `message` with the dispatch entry point and hands the result
/// to `body` (non-escapable values cannot leave the closure).
func withDecoded<T>(
  _ message: [UInt8], options: NDEFDecodingOptions = .strict, index: Int = 0,
  _ body: (borrowing DecodedRecord) throws -> T
) throws -> T {
  let view = try NDEFMessageView(validating: message.span, options: options)
  var records = view.records
  var position = 0
  while let record = records.next() {
    if position == index {
      let decoded = try DecodedRecord(decoding: record, options: options)
      return try body(decoded)
    }
    position += 1
  }
  throw NDEFError(.emptyInput, offset: 0)
}

/// The error a payload decoder throws, or nil.
func payloadError(_ body: () throws(NDEFError) -> Void) -> NDEFError? {
  do {
    try body()
    return nil
  } catch { return error }
}

@Suite("Text records (RTD Text)")
struct TextRecordTests {
  @Test func decodesSpecificationLayout() throws {
    // Status 0x02 (UTF-8, language length 2), "en", "Hello, world!" (RTD Text §3.3 layout).
    let payload = hex("02 65 6E 48 65 6C 6C 6F 2C 20 77 6F 72 6C 64 21")
    let view = try TextRecordView(validating: payload.span.bytes, baseOffset: 4)
    #expect(view.encoding == .utf8)
    #expect(view.language == "en")
    #expect(view.string == "Hello, world!")
    #expect(view.textOffset == 7)
    let textAddress = view.text.baseAddressForIdentity
    let payloadAddress = payload.span.bytes.baseAddressForIdentity
    #expect(textAddress == payloadAddress + 3)
    #expect(try TextRecord(language: "en", text: "Hello, world!").payload() == payload)
  }

  @Test func utf16WithAndWithoutByteOrderMark() throws {
    let bigEndianNoMark = hex("82 65 6E 00 48 00 69")
    #expect(try TextRecord(parsing: bigEndianNoMark).text == "Hi")
    let littleEndianMark = hex("82 65 6E FF FE 48 00 69 00")
    #expect(try TextRecord(parsing: littleEndianMark).text == "Hi")
    let bigEndianMark = hex("82 65 6E FE FF 00 48 00 69")
    #expect(try TextRecord(parsing: bigEndianMark).text == "Hi")
    let encoded = try TextRecord(language: "en", text: "Hi", encoding: .utf16).payload()
    #expect(encoded == bigEndianMark)
  }

  struct Bad: Sendable, CustomStringConvertible {
    var payload: String
    var code: NDEFError.Code
    var offset: Int
    var lenientOK: Bool
    var description: String { payload }
  }

  static let bad: [Bad] = [
    Bad(payload: "", code: .emptyPayload, offset: 0, lenientOK: false),
    Bad(payload: "42 65 6E 41", code: .textReservedBitSet, offset: 0, lenientOK: true),
    Bad(payload: "05 65 6E", code: .textLanguageLengthExceedsPayload, offset: 0, lenientOK: false),
    Bad(payload: "00 41", code: .textLanguageMissing, offset: 0, lenientOK: true),
    Bad(payload: "02 65 20 41", code: .invalidLanguageCode, offset: 2, lenientOK: true),
    Bad(payload: "02 65 6E 41 C3 28", code: .invalidUTF8, offset: 4, lenientOK: true),
    Bad(payload: "02 65 6E ED A0 80", code: .invalidUTF8, offset: 3, lenientOK: true),
    Bad(payload: "82 65 6E 00 48 00", code: .invalidUTF16, offset: 5, lenientOK: true),
    Bad(payload: "82 65 6E DC 00", code: .invalidUTF16, offset: 3, lenientOK: true),
  ]

  @Test(arguments: bad)
  func malformedPayloads(_ bad: Bad) {
    let payload = hex(bad.payload)
    let error = payloadError { () throws(NDEFError) in _ = try TextRecordView(validating: payload.span.bytes)
    }
    #expect(error == NDEFError(bad.code, offset: bad.offset))
    let lenient = payloadError { () throws(NDEFError) in
      let view = try TextRecordView(validating: payload.span.bytes, options: .lenient)
      #expect(view.warnings.map(\.code) == [bad.code])
    }
    #expect((lenient == nil) == bad.lenientOK)
  }

  @Test func refusesBadLanguageOnEncode() {
    #expect(throws: NDEFError(.invalidLanguageCode, offset: 1)) {
      _ = try TextRecord(language: "", text: "x").payload()
    }
    #expect(throws: NDEFError(.invalidLanguageCode, offset: 1)) {
      _ = try TextRecord(language: String(repeating: "a", count: 64), text: "x").payload()
    }
  }
}

@Suite("URI records (RTD URI)")
struct URIRecordTests {
  static let table: [(String, UInt8, String)] = [
    ("http://www.nfc.com", 0x01, "6E 66 63 2E 63 6F 6D"),
    ("https://www.nfc.com", 0x02, "6E 66 63 2E 63 6F 6D"),
    ("http://nfc.com", 0x03, "6E 66 63 2E 63 6F 6D"),
    ("https://a", 0x04, "61"),
    ("tel:+358", 0x05, "2B 33 35 38"),
    ("mailto:x@y", 0x06, "78 40 79"),
    ("ftp://anonymous:anonymous@h", 0x07, "68"),
    ("ftp://ftp.h", 0x08, "68"),
    ("ftp://h", 0x0D, "68"),
    ("urn:epc:id:x", 0x1E, "78"),
    ("urn:epc:x", 0x22, "78"),
    ("urn:nfc:sn", 0x23, "73 6E"),
    ("urn:x", 0x13, "78"),
    ("geo:1,2", 0x00, "67 65 6F 3A 31 2C 32"),
  ]

  @Test(arguments: table)
  func longestPrefixAndBack(_ entry: (String, UInt8, String)) throws {
    let record = URIRecord(entry.0)
    #expect(record.prefixCode == entry.1)
    #expect(record.payload == [entry.1] + hex(entry.2))
    let view = try URIRecordView(validating: record.payload.span.bytes)
    #expect(view.uri == entry.0)
  }

  @Test func everyIdentifierCodeExpands() throws {
    #expect(URIRecordView.prefixes.count == 0x24)
    for code in 0..<0x24 {
      let view = try URIRecordView(validating: [UInt8(code), 0x78].span.bytes)
      #expect(view.uri == URIRecordView.prefixes[code] + "x")
    }
  }

  @Test func reservedCodesAndBadUTF8() throws {
    #expect(
      payloadError { () throws(NDEFError) in _ = try URIRecordView(validating: hex("24 61").span.bytes) }
        == NDEFError(.uriReservedPrefix, offset: 0))
    let lenient = try URIRecordView(validating: hex("FF 61").span.bytes, baseOffset: 9, options: .lenient)
    #expect(lenient.uri == "a")
    #expect(lenient.warnings == [NDEFWarning(.uriReservedPrefix, offset: 9)])
    #expect(
      payloadError { () throws(NDEFError) in _ = try URIRecordView(validating: hex("04 61 FF").span.bytes) }
        == NDEFError(.invalidUTF8, offset: 2))
    #expect(
      payloadError { () throws(NDEFError) in _ = try URIRecordView(validating: [UInt8]().span.bytes) }
        == NDEFError(.emptyPayload, offset: 0))
  }

  @Test func dispatchRecognizesURIRecord() throws {
    let kind = try withDecoded(hex("D1 01 08 55 01 6E 66 63 2E 63 6F 6D")) { decoded -> String in
      switch decoded {
      case .uri(let uri): return uri.uri
      default: return "other"
      }
    }
    #expect(kind == "http://www.nfc.com")
  }
}

@Suite("Smart Poster records")
struct SmartPosterTests {
  /// URI https://www.nfc.com, title "Hello" (en), action do; hand-assembled.
  static let poster = hex(
    "D1 02 1F 53 70  91 01 08 55 02 6E 66 63 2E 63 6F 6D  11 01 08 54 02 65 6E 48 65 6C 6C 6F  51 03 01 61 63 74 00"
  )

  @Test func decodesNestedRecordsAsViews() throws {
    let summary = try withDecoded(Self.poster) { decoded -> String in
      guard case .smartPoster(let poster) = decoded else { return "not a poster" }
      var titles: [String] = []
      var iterator = poster.titles
      while let title = iterator.next() { titles.append("\(title.language):\(title.string)") }
      let uri = poster.uri?.uri ?? "-"
      let offset = poster.uri?.remainderOffset ?? -1
      return "\(uri) \(titles) \(poster.action?.name ?? "-") \(poster.titleCount) \(offset)"
    }
    #expect(summary == "https://www.nfc.com [\"en:Hello\"] doAction 1 10")
  }

  @Test func iconsAreCounted() throws {
    let icon = NDEFRecord(typeNameFormat: .media, type: Array("image/png".utf8), payload: [0x89, 0x50])
    let other = NDEFRecord(typeNameFormat: .media, type: Array("text/plain".utf8), payload: [0x41])
    let payload = try NDEFMessage(records: [URIRecord("https://a").record(), icon, other]).encodedBytes()
    let view = try SmartPosterView(validating: payload.span.bytes)
    var icons = view.icons
    var iconOffsets: [Int] = []
    while let record = icons.next() { iconOffsets.append(record.offset) }
    let count = view.iconCount
    #expect(count == 1)
    #expect(iconOffsets == [6])
    let model = try SmartPoster(view)
    #expect(model.otherRecords == [icon, other])
  }

  @Test func ownedModelRoundTrips() throws {
    let model = SmartPoster(
      uri: "https://example.com",
      titles: [TextRecord(language: "en", text: "Ex"), TextRecord(language: "de", text: "Bsp")],
      action: .saveForLater, size: 1024, mimeType: "text/html")
    let record = try model.record()
    let message = try NDEFMessage(records: [record]).encodedBytes()
    let decoded = try withDecoded(message) { decoded -> SmartPoster? in
      guard case .smartPoster(let view) = decoded else { return nil }
      return try SmartPoster(view)
    }
    #expect(decoded == model)
  }

  static func posterPayload(_ records: [NDEFRecord]) throws -> [UInt8] {
    try NDEFMessage(records: records).encodedBytes()
  }

  @Test func rulesAreEnforced() throws {
    let uri = URIRecord("https://a").record()
    let title = try TextRecord(language: "en", text: "x").record()
    let titleUpper = try TextRecord(language: "EN", text: "y").record()
    func error(_ records: [NDEFRecord]) throws -> NDEFError? {
      let payload = try Self.posterPayload(records)
      return payloadError { () throws(NDEFError) in _ = try SmartPosterView(validating: payload.span.bytes) }
    }
    #expect(try error([title])?.code == .smartPosterMissingURI)
    #expect(try error([uri, uri])?.code == .smartPosterMultipleURIs)
    #expect(try error([uri, title, titleUpper])?.code == .smartPosterDuplicateTitle)
    let badAction = NDEFRecord(typeNameFormat: .wellKnown, type: Array("act".utf8), payload: [3])
    // A bad local record is a malformed nested record (issue 21), not an error of the poster.
    #expect(try error([uri, badAction]) == nil)
    let badSize = NDEFRecord(typeNameFormat: .wellKnown, type: Array("s".utf8), payload: [0, 1])
    let sizePayload = try Self.posterPayload([uri, badSize])
    #expect(
      try SmartPosterView(validating: sizePayload.span.bytes).malformedRecords()
        == [
          NestedMalformedRecord(
            index: 1,
            malformed: MalformedRecord(
              recordType: .smartPosterSize, error: NDEFError(.smartPosterInvalidSize, offset: 10)))
        ])
    // Lenient: the first URI is used, duplicates are warnings.
    let payload = try Self.posterPayload([uri, uri, title, titleUpper])
    let lenient = try SmartPosterView(validating: payload.span.bytes, options: .lenient)
    #expect(lenient.warnings.map(\.code) == [.smartPosterMultipleURIs, .smartPosterDuplicateTitle])
  }

  @Test func nestingIsBounded() throws {
    // A Smart Poster whose URI... carries a nested poster record: each level nests one more.
    var payload = try Self.posterPayload([URIRecord("https://a").record()])
    for _ in 0..<6 {
      payload = try Self.posterPayload([
        URIRecord("https://a").record(),
        NDEFRecord(typeNameFormat: .wellKnown, type: Array("Sp".utf8), payload: payload),
      ])
    }
    let options = NDEFDecodingOptions(maximumNestingDepth: 2)
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try SmartPosterView(validating: payload.span.bytes, options: options, depth: 2)
      } == NDEFError(.nestingTooDeep, offset: 0))
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try SmartPosterView(validating: payload.span.bytes, options: options, depth: 1)
      } == nil)
  }
}

@Suite("Connection Handover records")
struct HandoverTests {
  /// Handover Request 1.2: cr 0x1234, one ac (active, reference "0"); then a media
  /// carrier record with id "0".
  static let request = hex(
    "91 02 11 48 72 12  91 02 02 63 72 12 34  51 02 04 61 63 01 01 30 00  5A 03 02 01 61 2F 62 30 01 02")

  @Test func decodesRequestAndResolvesReferences() throws {
    let message = try NDEFMessageView(validating: Self.request.span)
    guard let first = message.firstRecord else {
      Issue.record("no record")
      return
    }
    let handover = try DecodedRecord(decoding: first)
    guard case .handover(let view) = handover else {
      Issue.record("not a handover record")
      return
    }
    #expect(view.kind == .request)
    #expect(view.version == "1.2")
    #expect(view.collisionResolution == 0x1234)
    #expect(view.alternativeCarrierCount == 1)
    var carriers = view.alternativeCarriers
    guard let carrier = carriers.next() else {
      Issue.record("no carrier")
      return
    }
    #expect(carrier.powerState == .active)
    let referenceMatches = carrier.dataReference.elementsEqual([0x30])
    #expect(referenceMatches)
    let resolved = message.record(withID: carrier.dataReference)
    let resolvedOffset = resolved?.offset
    #expect(resolvedOffset == 22)
    let model = Handover(view)
    #expect(model.alternativeCarriers == [AlternativeCarrier(powerState: .active, dataReference: [0x30])])
    #expect(try model.payload() == Array(Self.request[5..<22]))
  }

  @Test func requestRules() throws {
    let noCollision = hex("12 D1 02 04 61 63 01 01 30 00")
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try HandoverView(validating: noCollision.span.bytes, kind: .request)
      } == NDEFError(.handoverMissingCollisionResolution, offset: 0))
    // Version 1.1 did not have Collision Resolution.
    let old = hex("11 D1 02 04 61 63 01 01 30 00")
    #expect(
      payloadError { () throws(NDEFError) in _ = try HandoverView(validating: old.span.bytes, kind: .request)
      } == nil)
    let noCarrier = hex("12 D1 02 02 63 72 00 01")
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try HandoverView(validating: noCarrier.span.bytes, kind: .request)
      } == NDEFError(.handoverMissingAlternativeCarrier, offset: 0))
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try HandoverView(validating: hex("22").span.bytes, kind: .select)
      }
        == NDEFError(.handoverUnsupportedVersion, offset: 0))
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try HandoverView(validating: [UInt8]().span.bytes, kind: .select)
      }
        == NDEFError(.emptyPayload, offset: 0))
  }

  @Test func selectWithoutCarriersAndWithError() throws {
    let bare = try HandoverView(validating: hex("12").span.bytes, kind: .select)
    #expect(bare.alternativeCarrierCount == 0)
    // err record: reason 0x02 (permanent memory constraints), 4-byte maximum size.
    let withError = hex("12 D1 03 05 65 72 72 02 00 00 10 00")
    let view = try HandoverView(validating: withError.span.bytes, kind: .select)
    #expect(view.errorReason == 2)
    #expect(view.errorData == 4096)
    // A bad `err` is a malformed nested record (issue 21), not a failure of the Select.
    let badError = hex("12 D1 03 02 65 72 72 02 00")
    let bad = try HandoverView(validating: badError.span.bytes, kind: .select)
    #expect(bad.errorReason == nil)
    #expect(
      bad.malformedRecords()
        == [
          NestedMalformedRecord(
            index: 0,
            malformed: MalformedRecord(
              recordType: .handoverError, error: NDEFError(.handoverErrorInvalid, offset: 7)))
        ])
  }

  @Test(arguments: [
    ("", 0), ("01", 1), ("01 02 30", 1), ("01 01 30", 3), ("01 01 30 01", 4), ("01 01 30 01 03 61", 4),
  ])
  func truncatedAlternativeCarrier(_ entry: (String, Int)) {
    let payload = hex(entry.0)
    let error = payloadError { () throws(NDEFError) in
      _ = try AlternativeCarrierView(validating: payload.span.bytes)
    }
    #expect(error == NDEFError(.alternativeCarrierTruncated, offset: entry.1))
  }

  @Test func handoverCarrierRecord() throws {
    let payload = hex("02 03 61 2F 62 AA BB")
    let view = try HandoverCarrierView(validating: payload.span.bytes)
    #expect(view.carrierTypeFormat == .media)
    let typeMatches = view.carrierType.elementsEqual(Array("a/b".utf8))
    let dataMatches = view.carrierData.elementsEqual([0xAA, 0xBB])
    #expect(typeMatches && dataMatches)
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try HandoverCarrierView(validating: hex("02 05 61").span.bytes)
      }
        == NDEFError(.handoverCarrierTruncated, offset: 1))
  }
}

@Suite("Wi-Fi, Signature, Device Information, type names")
struct OtherRecordTypeTests {
  @Test func wifiCredentialRoundTrip() throws {
    let credential = WiFiCredential(
      ssid: Array("Lab".utf8), authentication: .wpa2Personal, encryption: .aes,
      networkKey: Array("secret12".utf8))
    let token = WiFiSimpleConfig(credentials: [credential])
    let view = try WiFiSimpleConfigView(validating: token.payload.span.bytes)
    #expect(view.version == 0x10)
    #expect(view.version2 == 0x20)
    #expect(view.credentials() == [credential])
    #expect(credential.authentication.name == "WPA2-Personal")
    #expect(credential.encryption.name == "AES")
    // Hand-checked start: Version attribute 10 4A 00 01 10, Credential 10 0E.
    #expect(Array(token.payload[0..<7]) == hex("10 4A 00 01 10 10 0E"))
  }

  @Test func wifiMalformed() throws {
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try WiFiSimpleConfigView(validating: hex("10 4A 00 05 10").span.bytes)
      }
        == NDEFError(.attributeTruncated, offset: 0))
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try WiFiSimpleConfigView(validating: hex("10 4A 00 01 10").span.bytes)
      }
        == NDEFError(.wscMissingCredential, offset: 0))
    // A Credential whose MAC address is 5 bytes: a malformed credential (issue 21), listed
    // by malformedCredentials(), not a failure of the token.
    let badMAC = hex("10 0E 00 09 10 20 00 05 01 02 03 04 05")
    let badMACView = try WiFiSimpleConfigView(validating: badMAC.span.bytes)
    #expect(badMACView.credentialCount == 0)
    #expect(
      badMACView.malformedCredentials()
        == [MalformedWiFiCredential(index: 0, error: NDEFError(.attributeInvalidLength, offset: 8))])
    let noSSID = hex("10 0E 00 05 10 26 00 01 01")
    #expect(
      try WiFiSimpleConfigView(validating: noSSID.span.bytes).malformedCredentials()
        == [MalformedWiFiCredential(index: 0, error: NDEFError(.wscMissingAttribute, offset: 4))])
  }

  @Test func signatureRoundTrip() throws {
    let model = SignatureRecord(
      signatureType: 0x0B, hashType: 0x02, signature: [1, 2, 3], certificateFormat: 0,
      certificates: [[9, 9], [8]],
      certificateURI: Array("https://c".utf8))
    let payload = try model.payload()
    #expect(Array(payload[0..<7]) == hex("20 0B 02 00 03 01 02"))
    let view = try SignatureRecordView(validating: payload.span.bytes)
    #expect(view.certificateCount == 2)
    #expect(SignatureRecord(view) == model)
    for cut in 0..<payload.count {
      let prefix = Array(payload[0..<cut])
      let error = payloadError { () throws(NDEFError) in
        _ = try SignatureRecordView(validating: prefix.span.bytes)
      }
      #expect(error != nil, "prefix \(cut)")
    }
    #expect(
      payloadError { () throws(NDEFError) in _ = try SignatureRecordView(validating: hex("10").span.bytes) }
        == NDEFError(.signatureUnsupportedVersion, offset: 0))
  }

  @Test func deviceInformation() throws {
    let uuid = hex("12 3E 45 67 E8 9B 12 D3 A4 56 42 66 55 44 00 00")
    let model = DeviceInformation(manufacturer: "ACME", model: "R1", uuid: uuid, firmwareVersion: "2.1")
    let payload = try model.payload()
    #expect(Array(payload[0..<6]) == hex("00 04 41 43 4D 45"))
    let view = try DeviceInformationView(validating: payload.span.bytes)
    #expect(view.uuidString == "123e4567-e89b-12d3-a456-426655440000")
    #expect(DeviceInformation(view) == model)
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try DeviceInformationView(validating: hex("00 01 41").span.bytes)
      }
        == NDEFError(.deviceInformationMissingField, offset: 0))
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try DeviceInformationView(validating: hex("00 05 41").span.bytes)
      }
        == NDEFError(.attributeTruncated, offset: 0))
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try DeviceInformationView(validating: hex("00 01 41 01 01 42 03 01 00").span.bytes)
      } == NDEFError(.attributeInvalidLength, offset: 6))
  }

  @Test(arguments: [
    ("text/plain", true), ("application/vnd.wfa.wsc", true), ("text/plain; charset=utf-8", true),
    ("text", false), ("/plain", false), ("text/", false), ("te xt/plain", false), ("text/pl@in", false),
  ])
  func mediaTypes(_ entry: (String, Bool)) {
    let bytes = Array(entry.0.utf8)
    let valid = RecordTypeName.firstInvalidMediaType(bytes.span.bytes) == nil
    #expect(valid == entry.1)
  }

  @Test(arguments: [
    ("android.com:pkg", true), ("example.com:my-type", true), ("example.com", false), (":x", false),
    ("exa mple.com:x", false), ("example.com:", false),
  ])
  func externalTypes(_ entry: (String, Bool)) {
    let bytes = Array(entry.0.utf8)
    let valid = RecordTypeName.firstInvalidExternal(bytes.span.bytes) == nil
    #expect(valid == entry.1)
  }

  @Test(arguments: [
    ("https://example.com/x", true), ("urn:a", true), ("1http:x", false), ("http", false), ("a:b c", false),
  ])
  func absoluteURIs(_ entry: (String, Bool)) {
    let bytes = Array(entry.0.utf8)
    let valid = RecordTypeName.firstInvalidAbsoluteURI(bytes.span.bytes) == nil
    #expect(valid == entry.1)
  }

  @Test func dispatchChecksTypeSyntaxAndAAR() throws {
    let badMedia = hex("D2 04 00 74 65 78 74")
    #expect(throws: NDEFError(.invalidMediaType, offset: 7)) { try withDecoded(badMedia) { _ in 0 } }
    let lenient = try withDecoded(badMedia, options: .lenient) { decoded -> [NDEFError.Code] in
      guard case .media(let view) = decoded else { return [] }
      return view.warnings.map(\.code)
    }
    #expect(lenient == [.invalidMediaType])
    let aar = try NDEFMessage(records: [AndroidApplicationRecordView.record(package: "com.example")])
      .encodedBytes()
    let package = try withDecoded(aar) { decoded -> String in
      guard case .androidApplication(let view) = decoded else { return "" }
      return view.package
    }
    #expect(package == "com.example")
    let chunked = try NDEFMessage(records: [try TextRecord(language: "en", text: "abc").record()])
      .encodedBytes(options: NDEFEncodingOptions(maximumChunkPayloadSize: 2))
    let isChunked = try withDecoded(chunked) { decoded -> Bool in
      if case .chunked = decoded { return true }
      return false
    }
    #expect(isChunked)
  }
}

@Suite("Bluetooth OOB records")
struct BluetoothOOBTests {
  /// OOB length 0x0016, BD_ADDR 00:0D:3C:12:34:56 (little-endian), EIR: complete local
  /// name "Tapwire", class of device 0x200400.
  static let ep = hex("16 00 56 34 12 3C 0D 00  08 09 54 61 70 77 69 72 65  04 0D 00 04 20")

  @Test func epOOBUsesTheADParser() throws {
    let view = try BluetoothEPOOBView(validating: Self.ep.span.bytes, baseOffset: 40)
    let address = view.address.description
    let length = view.oobDataLength
    #expect(address == "00:0D:3C:12:34:56")
    #expect(length == 22)
    let name = AdvertisingDataFromView.make(view).localName
    #expect(name == "Tapwire")
    let count = view.advertising.structureCount
    #expect(count == 2)
    let model = BluetoothOOB(address: view.address, advertising: AdvertisingDataFromView.make(view))
    #expect(try model.payload() == Self.ep)
  }

  @Test func epOOBMalformed() {
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try BluetoothEPOOBView(validating: hex("08 00 01").span.bytes)
      }
        == NDEFError(.bluetoothOOBTruncated, offset: 0))
    let wrongLength = hex("20 00 56 34 12 3C 0D 00 02 01 06")
    #expect(
      payloadError { () throws(NDEFError) in _ = try BluetoothEPOOBView(validating: wrongLength.span.bytes) }
        == NDEFError(.bluetoothOOBLengthMismatch, offset: 0))
    let badEIR = hex("0B 00 56 34 12 3C 0D 00 05 01 06")
    #expect(
      payloadError { () throws(NDEFError) in _ = try BluetoothEPOOBView(validating: badEIR.span.bytes) }
        == NDEFError(.invalidAdvertisingData, offset: 8))
  }

  @Test func leOOBAddressRoleAndDispatch() throws {
    // LE Bluetooth Device Address (random), LE Role 0x02 (peripheral preferred), name "R".
    let payload = hex("08 1B 56 34 12 3C 0D C0 01  02 1C 02  02 09 52")
    let view = try BluetoothLEOOBView(validating: payload.span.bytes)
    let address = view.address.description
    let random = view.isRandomAddress
    let role = view.role
    #expect(address == "C0:0D:3C:12:34:56")
    #expect(random)
    #expect(role == .peripheralPreferred)
    #expect(
      payloadError { () throws(NDEFError) in
        _ = try BluetoothLEOOBView(validating: hex("02 1C 02").span.bytes)
      }
        == NDEFError(.bluetoothOOBMissingAddress, offset: 0))
    let record = NDEFRecord(typeNameFormat: .media, type: BluetoothLEOOBView.type, payload: payload)
    let message = try NDEFMessage(records: [record]).encodedBytes()
    let isLE = try withDecoded(message) { decoded -> Bool in
      if case .bluetoothLE = decoded { return true }
      return false
    }
    #expect(isLE)
  }
}

/// Builds the owned AD model from an EP OOB view (kept out of the test bodies for brevity).
enum AdvertisingDataFromView {
  static func make(_ view: borrowing BluetoothEPOOBView) -> AdvertisingData {
    AdvertisingData(view.advertising)
  }
}

/// The literal prefix table `URIRecordView.prefix` reads agrees with the public
/// `URIRecordView.prefixes` table (RTD URI §3.2.2, table 3) for every code, reserved ones
/// included.
@Suite("URI prefix table")
struct URIPrefixTableTests {
  @Test func everyCodeExpandsAsThePublicTable() throws {
    for code in 0...255 {
      let payload = [UInt8(code)] + Array("x".utf8)
      let view = try URIRecordView(validating: payload.span.bytes, options: .lenient)
      let expected = code < URIRecordView.prefixes.count ? URIRecordView.prefixes[code] : ""
      #expect(view.prefix == expected, "code \(code)")
      #expect(view.uri == expected + "x", "code \(code)")
      let warned = !view.warnings.isEmpty
      #expect(warned == (code >= URIRecordView.prefixes.count), "code \(code)")
    }
    #expect(URIRecordView.prefixes.count == 0x24)
  }

  @Test func recordTypeCheckIsExact() throws {
    let uri = NDEFRecord(typeNameFormat: .wellKnown, type: Array("U".utf8), payload: [0x04, 0x61])
    let other = NDEFRecord(typeNameFormat: .wellKnown, type: Array("Ux".utf8), payload: [0x04, 0x61])
    let media = NDEFRecord(typeNameFormat: .media, type: Array("U".utf8), payload: [0x04, 0x61])
    let bytes = try NDEFMessage(records: [uri, other, media]).encodedBytes()
    let message = try NDEFMessageView(validating: bytes.span)
    var records = message.records
    var uris: [String] = []
    var mismatches: [Int] = []
    while let record = records.next() {
      do {
        uris.append(try URIRecordView(validating: record).uri)
      } catch {
        if error.code == .recordTypeMismatch { mismatches.append(error.offset) }
      }
    }
    // Records of 6, 7 and 6 bytes (header, type length, payload length, type, payload).
    #expect(uris == ["https://a"])
    #expect(mismatches == [6, 13])
  }
}

/// The Text view's UTF-16 decoding (RTD Text §3.4) agrees with `String(decoding:as:)` on
/// random code units, unpaired surrogates and odd byte counts included, in both byte orders.
@Suite("Text UTF-16 decoding")
struct TextUTF16DecodingTests {
  @Test func agreesWithTheStandardLibrary() throws {
    var state: UInt64 = 0x5445_5854_5554_4631  // fixed seed, printed for reproduction
    print("seed for TextUTF16DecodingTests: \(state)")
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    let interesting: [UInt16] = [
      0x0041, 0x00E9, 0x20AC, 0xD83D, 0xDE00, 0xDBFF, 0xDC00, 0xFFFD, 0xFEFF, 0x0000,
    ]
    for round in 0..<500 {
      var units: [UInt16] = []
      for _ in 0..<Int(next() % 40) {
        let r = next()
        units.append(
          r % 3 == 0 ? UInt16(truncatingIfNeeded: r >> 8) : interesting[Int(r >> 8) % interesting.count])
      }
      let bigEndian = round % 2 == 0
      // Big-endian text starting FF FE would read as a little-endian mark.
      if bigEndian && units.first == 0xFFFE { continue }
      var text: [UInt8] = []
      for unit in units {
        let high = UInt8(unit >> 8)
        let low = UInt8(unit & 0xFF)
        text += bigEndian ? [high, low] : [low, high]
      }
      // No byte-order mark for big-endian (the default order); a mark for little-endian.
      if !bigEndian { text = [0xFF, 0xFE] + text }
      let odd = round % 5 == 0
      if odd { text.append(0x41) }
      let payload: [UInt8] = [0x80 | 0x02] + Array("en".utf8) + text
      let view = try TextRecordView(validating: payload.span.bytes, options: .lenient)
      let expected =
        bigEndian && units.first == 0xFEFF
        ? String(decoding: units.dropFirst(), as: UTF16.self) : String(decoding: units, as: UTF16.self)
      #expect(view.string == expected, "round \(round)")
    }
  }
}
