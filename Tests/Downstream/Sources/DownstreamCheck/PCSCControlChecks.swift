// SPDX-License-Identifier: Apache-2.0
import NFCReaderPCSC
import PCSCControl

// MARK: - The samples of the article "Controlling a PC/SC reader"

/// What a reader says about itself: its Part 10 features and, when it has the feature, its
/// TLV properties. `control` stands for `SCardControl` on a direct connection.
func readerDescription(
  control: (ControlCode, [UInt8]) async throws -> [UInt8]
) async throws -> (features: FeatureList, properties: TLVProperties?) {
  let features = try FeatureList(parsing: try await control(.getFeatureRequest, []))
  guard let code = features.controlCode(for: .getTLVProperties) else { return (features, nil) }
  return (features, try TLVProperties(parsing: try await control(code, [])))
}

/// The card's UID, asked of the reader with the GET DATA pseudo-APDU; `transmit` stands for
/// `SCardTransmit`. A reader that answers 6CXX is asked again with the length it gave.
func cardUID(transmit: ([UInt8]) async throws -> [UInt8]) async throws -> [UInt8]? {
  var answer = try GetDataPseudoAPDU.answer(parsing: try await transmit(GetDataPseudoAPDU.command(.uid)))
  if case .wrongLength(let available) = answer {
    let again = GetDataPseudoAPDU.command(.uid, expectedLength: available)
    answer = try GetDataPseudoAPDU.answer(parsing: try await transmit(again))
  }
  return answer.bytes  // nil for 6A81 (not supported) and other failures
}

/// Green LED and a short beep on an ACR1252U-family reader: escape commands sent with the
/// control code of `FEATURE_CCID_ESC_COMMAND`, else the CCID driver's escape code.
func greetWithLEDAndBuzzer(
  features: FeatureList, control: (ControlCode, [UInt8]) async throws -> [UInt8]
) async throws {
  let escape = features.controlCode(for: .ccidEscapeCommand) ?? .ccidEscape
  _ = try await control(escape, ACSEscapeCommand.ledControl(red: false, green: true))
  _ = try await control(escape, ACSEscapeCommand.buzzer(milliseconds: 100))
}

/// The control-code sequence of a reader-driven NFC session: START_NFC with the messages the
/// reader shows, then, once the card's work is done, STOP_NFC with the final message, or
/// STOP_NFC_WITH_ERROR. `waitForCard` returns false when no card came; then
/// LAST_NFC_STOP_REASON says why discovery stopped.
func readerDrivenNFC(
  codes: NFCControlCodes, control: (ControlCode, [UInt8]) async throws -> [UInt8],
  waitForCard: () async throws -> Bool, work: () async throws -> Bool
) async throws -> NFCStopReason {
  let start = NFCStartMessages(waiting: "Hold your card near the reader", working: "Reading")
  _ = try await control(codes.startNFC, try start.encodedBytes())
  guard try await waitForCard() else {
    return try NFCStopReason(parsing: try await control(codes.lastNFCStopReason, []))
  }
  if try await work() {
    _ = try await control(codes.stopNFC, try NFCStopMessage("Done").encodedBytes())
  } else {
    _ = try await control(codes.stopNFCWithError, try NFCStopMessage("Try again").encodedBytes())
  }
  return .finished
}

/// The same over pcsc-lite: a direct connection to the first reader, card or not (compiled,
/// run only with a reader).
func describeFirstReader() async throws {
  let context = try PCSCContext()
  guard let reader = try await context.readers().first else { fatalError("no PC/SC reader") }
  let card = try await context.connect(to: reader, share: .direct, protocols: [])
  let described = try await readerDescription(control: { code, input in try await card.control(code, input) })
  for entry in described.features.entries {
    print(entry.feature.name ?? "0x\(String(entry.feature.rawValue, radix: 16))", entry.controlCode.rawValue)
  }
  try await card.disconnect()
}

// MARK: - A simulated reader for the checks

/// A reader that answers the feature request, TLV properties, the escape code and the NFC
/// codes, logging every control buffer, and a GET DATA that first answers 6C07.
final class SimulatedPCSCReader {
  let features = FeatureList(entries: [
    .init(feature: .getTLVProperties, controlCode: .pcscLite(3312)),
    .init(feature: .ccidEscapeCommand, controlCode: .ccidEscape),
  ])
  let properties = TLVProperties(properties: [
    .init(tag: .firmwareID, value: Array("TW 1.0".utf8)),
    .integer(.vendorID, 0x072F, width: 2),
  ])
  let uid: [UInt8] = [0x04, 0xA2, 0x3B, 0x5C, 0x11, 0x22, 0x80]
  var stopReason = NFCStopReason.timeout
  var log: [(ControlCode, [UInt8])] = []

  func control(_ code: ControlCode, _ input: [UInt8]) throws -> [UInt8] {
    log.append((code, input))
    if code == .getFeatureRequest { return features.encodedBytes() }
    if code == features.controlCode(for: .getTLVProperties) { return try properties.encodedBytes() }
    if code == NFCControlCodes.tapwireDefaults.lastNFCStopReason { return stopReason.encodedBytes() }
    return []
  }

  func transmit(_ command: [UInt8]) -> [UInt8] {
    guard command.prefix(4) == [0xFF, 0xCA, 0x00, 0x00] else { return [0x6A, 0x81] }
    return command[4] == UInt8(uid.count) ? uid + [0x90, 0x00] : [0x6C, UInt8(uid.count)]
  }
}

// MARK: - Checks

func checkPCSCControl() {
  group("PCSCControl: a feature list encodes its control codes") {
    // PC/SC Part 10 §2.2: tag, length 4, the control code big-endian.
    let answer: [UInt8] = [0x01, 0x04, 0x42, 0x33, 0x00, 0x06]
    let list = try FeatureList(parsing: answer)
    expectEqual(list.entries.count, 1, "entries")
    expectEqual(list.entries.first?.feature, .verifyPINStart, "feature")
    expectEqual(list.entries.first?.controlCode, ControlCode(rawValue: 0x4233_0006), "control code")
    expectEqual(ControlCode.pcscLite(1).rawValue, 0x4200_0001, "SCARD_CTL_CODE(1)")
    do throws(PCSCControlError) {
      _ = try FeatureList(parsing: [0x01, 0x03, 0x00])
      check(false, "a length other than 4 must not parse")
    } catch {
      expectEqual(error.offset, 1, "offset of the length byte")
    }
  }
}

func checkPCSCControlArticle() async {
  await group("PCSCControl article: features, properties, UID, escapes and an NFC session's buffers") {
    let reader = SimulatedPCSCReader()
    let described = try await readerDescription(control: reader.control)
    expectEqual(described.features, reader.features, "features parsed from the reader's answer")
    let firmware = described.properties?[.firmwareID].map { String(decoding: $0.value, as: UTF8.self) }
    print(
      "  reader: firmware \(firmware ?? "-"), vendor 0x\(String(described.properties?[.vendorID]?.integer ?? 0, radix: 16))"
    )
    expectEqual(firmware, "TW 1.0", "firmware ID")
    expectEqual(described.properties?[.vendorID]?.integer, 0x072F, "vendor ID")

    expectEqual(try await cardUID(transmit: reader.transmit), reader.uid, "UID after a 6CXX resend")

    reader.log = []
    try await greetWithLEDAndBuzzer(features: described.features, control: reader.control)
    expectEqual(reader.log.map { $0.0 }, [.ccidEscape, .ccidEscape], "escape code")
    expectEqual(
      reader.log.map { $0.1 },
      [[0xE0, 0x00, 0x00, 0x29, 0x01, 0x02], [0xE0, 0x00, 0x00, 0x28, 0x01, 0x0A]],
      "LED and buzzer escapes")

    let codes = NFCControlCodes.tapwireDefaults
    reader.log = []
    let noCard = try await readerDrivenNFC(
      codes: codes, control: reader.control, waitForCard: { false }, work: { true })
    expectEqual(noCard, .timeout, "stop reason without a card")
    expectEqual(reader.log.map { $0.0 }, [codes.startNFC, codes.lastNFCStopReason], "codes without a card")
    expectEqual(
      reader.log.first?.1, Array("Hold your card near the reader\0Reading\0\0".utf8), "START_NFC buffer")
    reader.log = []
    let read = try await readerDrivenNFC(
      codes: codes, control: reader.control, waitForCard: { true }, work: { true })
    expectEqual(read, .finished, "stop reason after the work")
    expectEqual(reader.log.map { $0.0 }, [codes.startNFC, codes.stopNFC], "codes with a card")
    expectEqual(reader.log.last?.1, Array("Done".utf8), "STOP_NFC buffer")
  }
}
