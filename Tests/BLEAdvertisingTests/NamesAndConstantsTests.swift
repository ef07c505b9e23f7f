// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

@Suite("HCI constants and names")
struct NamesAndConstantsTests {
  @Test func eventView() throws {
    let bytes = hex(HCIVectors.legacyAdvInd)
    let event = try HCIEventView(validating: bytes.span.bytes, baseOffset: 10)
    let code = event.eventCode
    let sub = event.subeventCode
    let isReport = event.isAdvertisingReport
    let offsets = (event.offset, event.parametersOffset, event.parameters.byteCount)
    #expect(code == 0x3E)
    #expect(sub == 0x02)
    #expect(isReport)
    #expect(offsets == (10, 12, 37))
    let other = hex("0e0401010c00")
    let command = try HCIEventView(validating: other.span.bytes)
    let otherSub = command.subeventCode
    let otherIsReport = command.isAdvertisingReport
    #expect(otherSub == nil)
    #expect(!otherIsReport)
  }

  static let legacy: [(UInt8, String, UInt16)] = [
    (0, "advInd", 0x13), (1, "advDirectInd", 0x15), (2, "advScanInd", 0x12),
    (3, "advNonconnInd", 0x10), (4, "scanRsp", 0x1B), (5, "reserved", 0x10),
  ]

  @Test(arguments: 0..<legacy.count)
  func legacyEventTypes(index: Int) {
    let (raw, name, bits) = Self.legacy[index]
    let type = HCILegacyAdvertisingEventType(rawValue: raw)
    #expect(type.name == name)
    #expect(type.extended.rawValue == bits)
    #expect(type.extended.dataStatus == .complete)
  }

  @Test func encodedLegacyTypeFromBits() {
    var report = AdvertisingReport(address: addressA, rssi: -40, data: [])
    let cases: [(UInt16, HCILegacyAdvertisingEventType)] = [
      (0x1B, .scanRsp), (0x15, .advDirectInd), (0x13, .advInd), (0x12, .advScanInd),
      (0x10, .advNonconnInd),
    ]
    for (bits, expected) in cases {
      report.legacyEventType = nil
      report.eventType = HCIExtendedAdvertisingEventType(rawValue: bits)
      #expect(report.encodedLegacyEventType == expected)
    }
  }

  @Test func namesOfSmallConstants() {
    #expect(
      [0, 1, 2, 3].map { HCIDataStatus(rawValue: $0).name } == [
        "complete", "incomplete", "truncated", "reserved",
      ])
    #expect(
      [0, 1, 2, 3, 4].map { LEPHY(rawValue: $0).name } == ["none", "le1M", "le2M", "leCoded", "reserved"])
    #expect(
      [0, 1, 2, 3, 4].map { LERole(rawValue: $0).name } == [
        "peripheralOnly", "centralOnly", "peripheralPreferred", "centralPreferred", "reserved",
      ])
    #expect(
      [1001, 1002, 1003, 1004, 2001, 7].map { BTSnoopDatalink(rawValue: $0).name } == [
        "h1", "h4", "bcsp", "h5", "linuxMonitor", "unknown",
      ])
    #expect(BTSnoopDatalink.h5.isSupported == false)
    #expect(
      [0x02, 0x03, 0xFE].map { BluetoothAddressType(rawValue: $0).name } == [
        "publicIdentity", "randomIdentity", "unknown",
      ])
    #expect(BluetoothAddressType.randomIdentity.isRandom)
    #expect(!BluetoothAddressType.publicIdentity.isRandom)
  }

  @Test func errorTextsAreStable() {
    let error = BLEAdvertisingError(.structureLengthExceedsInput, offset: 7)
    #expect(
      error.description
        == "structureLengthExceedsInput at offset 7: an AD structure's length is larger than the bytes that remain"
    )
    #expect(BLEAdvertisingError.Code.invalidMagic.description == "invalidMagic")
    let codes: [BLEAdvertisingError.Code] = [
      .structureLengthExceedsInput, .invalidDataLength, .invalidURIScheme, .invalidBeaconLength,
      .structureTooLong, .exceedsBudget, .bufferTooSmall, .emptyInput, .truncatedEventHeader,
      .eventLengthMismatch, .notLEMetaEvent, .unsupportedSubevent, .invalidReportCount,
      .truncatedReport, .reportDataExceedsEvent, .trailingBytes, .reassemblyOverflow,
      .reservedDataStatus, .truncatedFileHeader, .invalidMagic, .unsupportedVersion,
      .unsupportedDatalink, .truncatedRecordHeader, .recordLengthExceedsInput,
      .includedLengthExceedsOriginal, .tooManyPendingAdvertisers,
    ]
    #expect(Set(codes.map { $0.name }).count == codes.count)
    #expect(codes.allSatisfy { !$0.message.isEmpty })
    #expect(
      BLEAdvertisingWarning(.trailingBytes, offset: 3).description.hasPrefix("trailingBytes at offset 3"))
  }
}
