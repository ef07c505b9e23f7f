// SPDX-License-Identifier: Apache-2.0

import ISO7816
import PCSCControl
import Testing

@Suite("ControlCode")
struct ControlCodeTests {
  @Test(arguments: [
    (UInt16(3400), UInt32(0x4200_0D48)), (1, 0x4200_0001), (3500, 0x4200_0DAC), (0, 0x4200_0000),
  ])
  func pcscLite(function: UInt16, code: UInt32) {
    #expect(ControlCode.pcscLite(function).rawValue == code)
    #expect(ControlCode(rawValue: code).pcscLiteFunction == function)
  }

  @Test(arguments: [(UInt16(3500), UInt32(0x0031_36B0)), (3400, 0x0031_3520), (1, 0x0031_0004)])
  func windows(function: UInt16, code: UInt32) {
    #expect(ControlCode.windows(function).rawValue == code)
    #expect(ControlCode(rawValue: code).windowsFunction == function)
  }

  @Test func theTwoSchemesDiffer() {
    #expect(ControlCode.getFeatureRequest.rawValue == 0x4200_0D48)
    #expect(ControlCode.getFeatureRequest.windowsFunction == nil)
    #expect(ControlCode.acsEscapeWindows.pcscLiteFunction == nil)
    #expect(ControlCode(rawValue: 0x4100_0000).pcscLiteFunction == nil)
  }
}

@Suite("FeatureList")
struct FeatureListTests {
  static let answer: [UInt8] = [
    0x12, 0x04, 0x42, 0x33, 0x00, 0x12,
    0x0A, 0x04, 0x42, 0x33, 0x00, 0x0A,
    0x13, 0x04, 0x42, 0x00, 0x00, 0x01,
    0x7E, 0x04, 0x00, 0x00, 0x00, 0x07,
  ]

  @Test func parsesNamedFeaturesAndKeepsUnknownOnes() throws {
    let list = try FeatureList(parsing: Self.answer)
    #expect(
      list.entries.map(\.feature) == [
        .getTLVProperties, .ifdPINProperties, .ccidEscapeCommand, .init(rawValue: 0x7E),
      ])
    #expect(
      list.entries.map(\.feature.name) == [
        "FEATURE_GET_TLV_PROPERTIES", "FEATURE_IFD_PIN_PROPERTIES", "FEATURE_CCID_ESC_COMMAND", nil,
      ])
    #expect(list.controlCode(for: .ccidEscapeCommand) == .ccidEscape)
    #expect(list.controlCode(for: .verifyPINDirect) == nil)
    #expect(list.encodedBytes() == Self.answer)
    #expect(list.encodedCount == 24)
    #expect(try FeatureList(parsing: []).entries.isEmpty)
  }

  @Test(arguments: [
    ([UInt8](arrayLiteral: 0x06), PCSCControlError(.truncatedFeature, offset: 0)),
    ([0x06, 0x04, 0x42, 0x33, 0x00, 0x06, 0x07], PCSCControlError(.truncatedFeature, offset: 6)),
    ([0x06, 0x02, 0x42, 0x33], PCSCControlError(.invalidFeatureLength, offset: 1)),
    ([0x06, 0x04, 0x42, 0x33, 0x00], PCSCControlError(.invalidFeatureLength, offset: 1)),
  ])
  func malformed(bytes: [UInt8], expected: PCSCControlError) {
    #expect(throws: expected) { try FeatureList(parsing: bytes) }
  }

  @Test func randomRoundTrips() throws {
    var generator = SeededGenerator(seed: 0x5EED_F00D)
    print("FeatureList round trips, seed 0x5EEDF00D")
    for _ in 0..<200 {
      let entries = (0..<Int.random(in: 0...8, using: &generator)).map { _ in
        FeatureList.Entry(
          feature: ReaderFeature(rawValue: .random(in: 0...255, using: &generator)),
          controlCode: ControlCode(rawValue: .random(in: 0...UInt32.max, using: &generator)))
      }
      let list = FeatureList(entries: entries)
      #expect(try FeatureList(parsing: list.encodedBytes()) == list)
    }
  }
}

@Suite("TLVProperties")
struct TLVPropertiesTests {
  @Test func parsesLittleEndianIntegersAndStrings() throws {
    let bytes: [UInt8] = [
      0x01, 0x02, 0x00, 0x00, 0x06, 0x01, 0x04, 0x07, 0x01, 0x08, 0x0A, 0x04, 0x05, 0x01, 0x00, 0x00,
      0x0B, 0x02, 0x2F, 0x07, 0x08, 0x03, 0x54, 0x61, 0x70,
    ]
    let properties = try TLVProperties(parsing: bytes)
    #expect(
      properties.properties.map(\.tag.name) == [
        "wLcdLayout", "bMinPINSize", "bMaxPINSize", "dwMaxAPDUDataSize", "wIdVendor", "sFirmwareID",
      ])
    #expect(properties[.maxAPDUDataSize]?.integer == 261)
    #expect(properties[.vendorID]?.integer == 0x072F)
    #expect(properties[.firmwareID]?.value == Array("Tap".utf8))
    #expect(properties[.firmwareID]?.integer == nil)
    #expect(try properties.encodedBytes() == bytes)
    #expect(TLVProperties.Property.integer(.vendorID, 0x072F, width: 2).value == [0x2F, 0x07])
  }

  @Test(arguments: [
    ([UInt8](arrayLiteral: 0x01), PCSCControlError(.truncatedProperty, offset: 0)),
    ([0x06, 0x01, 0x04, 0x08, 0x05, 0x41], PCSCControlError(.propertyExceedsInput, offset: 4)),
  ])
  func malformed(bytes: [UInt8], expected: PCSCControlError) {
    #expect(throws: expected) { try TLVProperties(parsing: bytes) }
  }

  @Test func tooLongValueIsAnEncodingError() {
    let properties = TLVProperties(properties: [
      .init(tag: .firmwareID, value: [UInt8](repeating: 0x41, count: 256))
    ])
    #expect(throws: PCSCControlError(.valueTooLong, offset: 0)) { try properties.encodedBytes() }
  }

  @Test func pinProperties() throws {
    let properties = try PINProperties(parsing: [0x11, 0x02, 0x07, 0x1E])
    #expect(properties == PINProperties(lcdLayout: 0x0211, entryValidationCondition: 7, timeOut2: 30))
    #expect(properties.encodedBytes() == [0x11, 0x02, 0x07, 0x1E])
    #expect(throws: PCSCControlError(.truncatedPINProperties, offset: 3)) {
      try PINProperties(parsing: [1, 2, 3])
    }
    #expect(throws: PCSCControlError(.trailingData, offset: 4)) {
      try PINProperties(parsing: [1, 2, 3, 4, 5])
    }
  }
}

@Suite("GetDataPseudoAPDU")
struct GetDataPseudoAPDUTests {
  @Test func commands() {
    #expect(GetDataPseudoAPDU.command(.uid) == [0xFF, 0xCA, 0x00, 0x00, 0x00])
    #expect(GetDataPseudoAPDU.command(.historicalBytes) == [0xFF, 0xCA, 0x01, 0x00, 0x00])
    #expect(GetDataPseudoAPDU.command(.uid, expectedLength: 4) == [0xFF, 0xCA, 0x00, 0x00, 0x04])
  }

  @Test(arguments: [
    ([UInt8](arrayLiteral: 0x04, 0xA2, 0x90, 0x00), GetDataPseudoAPDU.Answer.complete([0x04, 0xA2])),
    ([0x04, 0xA2, 0x62, 0x82], .shorterThanRequested([0x04, 0xA2])),
    ([0x6A, 0x81], .notSupported),
    ([0x6C, 0x07], .wrongLength(available: 7)),
    ([0x01, 0x69, 0x82], .failed(StatusWord(rawValue: 0x69_82), [0x01])),
  ])
  func answers(bytes: [UInt8], expected: GetDataPseudoAPDU.Answer) throws {
    #expect(try GetDataPseudoAPDU.answer(parsing: bytes) == expected)
  }

  @Test func truncated() {
    #expect(throws: PCSCControlError(.truncatedResponse, offset: 1)) {
      try GetDataPseudoAPDU.answer(parsing: [0x90])
    }
    #expect(GetDataPseudoAPDU.Answer.notSupported.bytes == nil)
  }
}

@Suite("ACSEscapeCommand")
struct ACSEscapeCommandTests {
  @Test func builders() {
    #expect(ACSEscapeCommand.ledControl(red: true, green: true) == [0xE0, 0x00, 0x00, 0x29, 0x01, 0x03])
    #expect(ACSEscapeCommand.ledControl(red: false, green: true) == [0xE0, 0x00, 0x00, 0x29, 0x01, 0x02])
    #expect(ACSEscapeCommand.buzzer(milliseconds: 100) == [0xE0, 0x00, 0x00, 0x28, 0x01, 0x0A])
    #expect(ACSEscapeCommand.buzzer(milliseconds: 10_000).last == 0xFF)
    #expect(ACSEscapeCommand.buzzer(milliseconds: -5).last == 0x00)
    #expect(
      ACSEscapeCommand.acr122LEDAndBuzzer(
        ledState: 0x50, onDuration: 1, offDuration: 1, repetitions: 3, buzzer: 1)
        == [0xFF, 0x00, 0x40, 0x50, 0x04, 0x01, 0x01, 0x03, 0x01])
    #expect(
      ACSEscapeCommand.acr122Antenna(on: false) == [0xFF, 0x00, 0x00, 0x00, 0x04, 0xD4, 0x32, 0x01, 0x00])
  }
}

@Suite("NFC control buffers")
struct NFCControlBufferTests {
  @Test func startBufferLayout() throws {
    let messages = NFCStartMessages(waiting: "Hold", working: "Wait")
    let bytes = try messages.encodedBytes()
    #expect(bytes == Array("Hold".utf8) + [0] + Array("Wait".utf8) + [0, 0])
    #expect(try NFCStartMessages(parsing: bytes) == messages)
    let empty = NFCStartMessages(waiting: "", working: "")
    #expect(try empty.encodedBytes() == [0, 0, 0])
    #expect(try NFCStartMessages(parsing: [0, 0, 0]) == empty)
    let unicode = NFCStartMessages(waiting: "Поднесите", working: "Работа…")
    #expect(try NFCStartMessages(parsing: try unicode.encodedBytes()) == unicode)
  }

  @Test func messagesContainingNULAreRefused() {
    #expect(throws: PCSCControlError(.messageContainsNUL, offset: 2)) {
      try NFCStartMessages(waiting: "ab\0c", working: "").encodedBytes()
    }
    #expect(throws: PCSCControlError(.messageContainsNUL, offset: 4)) {
      try NFCStartMessages(waiting: "ab", working: "c\0").encodedBytes()
    }
    #expect(throws: PCSCControlError(.messageContainsNUL, offset: 4)) {
      try NFCStopMessage("Done\0").encodedBytes()
    }
    #expect(throws: PCSCControlError(.messageContainsNUL, offset: 1)) {
      try NFCStopMessage(parsing: [0x41, 0, 0x42])
    }
  }

  @Test(arguments: [
    ([UInt8](), PCSCControlError(.missingTerminator, offset: 0)),
    ([0x41, 0x42], PCSCControlError(.missingTerminator, offset: 2)),
    ([0x41, 0x00, 0x42], PCSCControlError(.missingTerminator, offset: 3)),
    ([0x41, 0x00, 0x42, 0x00], PCSCControlError(.missingTerminator, offset: 4)),
    ([0x41, 0x00, 0x42, 0x00, 0x43], PCSCControlError(.missingTerminator, offset: 4)),
    ([0x41, 0x00, 0x42, 0x00, 0x00, 0x00], PCSCControlError(.trailingData, offset: 5)),
    ([0x41, 0xFF, 0x00, 0x42, 0x00, 0x00], PCSCControlError(.invalidUTF8, offset: 1)),
    ([0x41, 0x00, 0x42, 0xC3, 0x00, 0x00], PCSCControlError(.invalidUTF8, offset: 3)),
  ])
  func malformedStartBuffers(bytes: [UInt8], expected: PCSCControlError) {
    #expect(throws: expected) { try NFCStartMessages(parsing: bytes) }
  }

  @Test func stopBuffer() throws {
    #expect(try NFCStopMessage("Done").encodedBytes() == Array("Done".utf8))
    #expect(try NFCStopMessage(parsing: Array("Card read".utf8)) == NFCStopMessage("Card read"))
    #expect(try NFCStopMessage(parsing: []) == NFCStopMessage(""))
    #expect(throws: PCSCControlError(.invalidUTF8, offset: 2)) {
      try NFCStopMessage(parsing: [0x41, 0x42, 0x80])
    }
  }

  @Test(arguments: [
    (UInt8(0), NFCStopReason.finished, "finished"), (1, .unknown, "unknown"), (2, .timeout, "timeout"),
    (3, .cancelledByUser, "cancelledByUser"), (4, .noError, "noError"),
    (5, .unsupportedDevice, "unsupportedDevice"),
  ])
  func stopReasons(byte: UInt8, reason: NFCStopReason, name: String) throws {
    #expect(try NFCStopReason(parsing: [byte], strict: true) == reason)
    #expect(reason.name == name)
    #expect(reason.encodedBytes() == [byte])
  }

  @Test func malformedStopReasons() throws {
    #expect(throws: PCSCControlError(.truncatedStopReason, offset: 0)) { try NFCStopReason(parsing: []) }
    #expect(throws: PCSCControlError(.trailingData, offset: 1)) { try NFCStopReason(parsing: [2, 0]) }
    #expect(throws: PCSCControlError(.unknownStopReason, offset: 0)) {
      try NFCStopReason(parsing: [9], strict: true)
    }
    let lenient = try NFCStopReason(parsing: [9])
    #expect(!lenient.isKnown)
    #expect(lenient.name == "undefined")
  }

  @Test func defaultCodes() {
    let codes = NFCControlCodes.tapwireDefaults
    #expect(
      [codes.startNFC, codes.stopNFC, codes.stopNFCWithError, codes.lastNFCStopReason, codes.nfcCooldown].map(
        \.rawValue)
        == [0x4200_0E10, 0x4200_0E11, 0x4200_0E12, 0x4200_0E13, 0x4200_0E14])
  }
}

/// SplitMix64, seeded so a failure can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
