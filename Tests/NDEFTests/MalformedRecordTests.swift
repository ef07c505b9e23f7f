// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

/// A record whose framing is valid but whose payload breaks its record type never hides the
/// message: `DecodedRecord(classifying:)` reports it as `malformed` with the typed error.
@Suite("DecodedRecord malformed records")
struct MalformedRecordTests {
  /// Text "hi" (offset 0), an AAR whose package name is FF FE (offset 9, payload at 27),
  /// URI https://a.bc (offset 29): NDEF 1.0 §3.2 framing, hand-assembled.
  static let badPackage = hex(
    "91 01 05 54 02 65 6e 68 69" + " 14 0f 02 616e64726f69642e636f6d3a706b67 ff fe"
      + " 51 01 05 55 04 612e6263")
  /// The same with an empty AAR payload (payload length 0 at offset 11, payload would start at 27).
  static let emptyPackage = hex(
    "91 01 05 54 02 65 6e 68 69" + " 14 0f 00 616e64726f69642e636f6d3a706b67" + " 51 01 05 55 04 612e6263")

  /// The kind of each record (the JSON contract's name) and the error of the malformed ones.
  static func classify(_ bytes: [UInt8], options: NDEFDecodingOptions = .strict) throws(NDEFError)
    -> [(RecordKind, NDEFError?)]
  {
    let message = try NDEFMessageView(validating: bytes.span, options: options)
    var result: [(RecordKind, NDEFError?)] = []
    var records = message.records
    while let record = records.next() {
      let decoded = DecodedRecord(classifying: record, options: options)
      switch decoded {
      case .text: result.append((.text, decoded.error))
      case .uri: result.append((.uri, decoded.error))
      case .androidApplication: result.append((.androidApplication, decoded.error))
      case .malformed(let malformed):
        #expect(malformed.error == decoded.error)
        result.append((malformed.recordType, decoded.error))
      default: result.append((.unrecognized, decoded.error))
      }
    }
    return result
  }

  @Test func packageNameNotUTF8IsMalformedAndTheOtherRecordsDecode() throws {
    let kinds = try Self.classify(Self.badPackage)
    #expect(kinds.map(\.0) == [.text, .androidApplication, .uri])
    #expect(kinds.map(\.1) == [nil, NDEFError(.invalidUTF8, offset: 27), nil])
    // Only the classifying entry point is case `malformed`: there the AAR record is one.
    let message = try NDEFMessageView(validating: Self.badPackage.span)
    var records = message.records
    _ = records.next()
    guard let aar = records.next(), case .malformed(let malformed) = DecodedRecord(classifying: aar) else {
      Issue.record("the AAR with FF FE is not malformed")
      return
    }
    #expect(
      malformed
        == MalformedRecord(recordType: .androidApplication, error: NDEFError(.invalidUTF8, offset: 27)))
    // The throwing entry point still throws the same error.
    #expect(throws: NDEFError(.invalidUTF8, offset: 27)) { _ = try DecodedRecord(decoding: aar) }
  }

  @Test func emptyPackageNameIsMalformedInBothModes() throws {
    for options in [NDEFDecodingOptions.strict, .lenient] {
      let kinds = try Self.classify(Self.emptyPackage, options: options)
      #expect(kinds.map(\.0) == [.text, .androidApplication, .uri])
      #expect(kinds.map(\.1) == [nil, NDEFError(.emptyPayload, offset: 27), nil])
    }
  }

  @Test func lenientDecodingTurnsTheUTF8ErrorIntoAWarning() throws {
    let kinds = try Self.classify(Self.badPackage, options: .lenient)
    #expect(kinds.map(\.1) == [nil, nil, nil])
  }

  /// A record type broken at the TYPE (a media type without `/`) is malformed as `media`.
  @Test func typeSyntaxErrorIsMalformedWithItsKind() throws {
    // TNF 2, type "text" (no subtype, RFC 2046 §5.1), payload "a".
    let bytes = hex("d2 04 01 74657874 61")
    let message = try NDEFMessageView(validating: bytes.span)
    var records = message.records
    guard let record = records.next(), case .malformed(let malformed) = DecodedRecord(classifying: record)
    else {
      Issue.record("a media type without a subtype is not malformed")
      return
    }
    #expect(malformed.recordType == .media)
    // The TYPE ends (offset 7) before a subtype: the error points just past it.
    #expect(malformed.error == NDEFError(.invalidMediaType, offset: 7))
  }

  static let kinds: [(TypeNameFormat, String, RecordKind)] = [
    (TypeNameFormat.wellKnown, "T", RecordKind.text), (.wellKnown, "U", .uri),
    (.wellKnown, "Sp", .smartPoster),
    (.wellKnown, "Hs", .handoverSelect), (.wellKnown, "Hr", .handoverRequest),
    (.wellKnown, "Hc", .handoverCarrier),
    (.wellKnown, "ac", .alternativeCarrier), (.wellKnown, "Sig", .signature),
    (.wellKnown, "Di", .deviceInformation), (.wellKnown, "xyz", .unrecognized),
    (.media, "application/vnd.wfa.wsc", .wifiSimpleConfig),
    (.media, "Application/VND.Bluetooth.LE.OOB", .bluetoothLE),
    (.media, "text/plain", .media), (.external, "ANDROID.com:pkg", .androidApplication),
    (.external, "example.com:x", .external), (.absoluteURI, "urn:x", .absoluteURI),
    (.unknown, "", .unrecognized),
  ]

  @Test(arguments: kinds)
  func kindOfTypeNameFormatAndType(tnf: TypeNameFormat, type: String, kind: RecordKind) {
    let bytes = Array(type.utf8)
    #expect(RecordKind(typeNameFormat: tnf, type: bytes.span.bytes) == kind)
  }
}
