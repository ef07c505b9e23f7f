// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

/// A btsnoop stream's items as plain values: `report <address> <data offset or ->` or
/// `error <code> <offset>`.
func btsnoopItems(_ file: [UInt8], options: BLEAdvertisingOptions = .strict)
  throws(BLEAdvertisingError) -> (items: [String], recordError: (String, Int)?, warnings: [String])
{
  let view = try BTSnoopFileView(scanning: file.span.bytes, options: options)
  var it = view.advertisingReports
  var items: [String] = []
  while let item = it.nextItem() {
    switch item {
    case .report(let report, let dataOffset):
      items.append("report \(report.address) \(dataOffset.map { "\($0)" } ?? "-")")
    case .error(let error):
      items.append("error \(error.code.name) \(error.offset)")
    }
  }
  let warnings = (view.warnings + it.warnings).map { "\($0.code.name) \($0.offset)" }
  return (items, view.recordError.map { ($0.code.name, $0.offset) }, warnings)
}

/// The error `init(validating:)` and `next()` throw, or `nil`.
func btsnoopValidatingError(_ file: [UInt8]) -> String? {
  do throws(BLEAdvertisingError) {
    _ = try BTSnoopFileViewTests.reports(file)
    return nil
  } catch {
    return "error \(error.code.name) \(error.offset)"
  }
}

@Suite("BTSnoopFileView scanning")
struct BTSnoopScanningTests {
  static let advInd = hex(HCIVectors.legacyAdvInd)  // 39 octets, data at +13
  static let scanRsp = hex(HCIVectors.legacyScanRsp)  // 19 octets, data at +13
  /// Two legacy reports framed, then the third's Data_Length (event offset 25) runs past.
  static let secondRunsPast = hex(
    withLength("3eLL0203" + "0000665544332211" + "03020106c4" + "0000665544332211" + "050102"))

  /// Datalink 1001 (no H4 octet): record n's event starts after 16 + 24·(n+1) octets and the
  /// events before it.
  static func file(_ events: [[UInt8]]) -> [UInt8] {
    btsnoop(datalink: 1001, events.map { (3, $0) })
  }

  @Test func badEventInTheMiddleHidesNoReport() throws {
    let file = Self.file([Self.advInd, Self.secondRunsPast, Self.scanRsp])
    // Events at 40, 40+39+24 = 103 and 103+28+24 = 155.
    let got = try btsnoopItems(file)
    #expect(
      got.items == [
        "report C0:11:22:33:44:55 53",
        "report 11:22:33:44:55:66 116",
        "error reportDataExceedsEvent 128",
        "report C0:11:22:33:44:55 168",
      ])
    #expect(got.recordError == nil)
    #expect(btsnoopValidatingError(file) == "error reportDataExceedsEvent 128")
    let lenient = try btsnoopItems(file, options: .lenient)
    #expect(lenient.items.allSatisfy { $0.hasPrefix("report ") })
    #expect(lenient.items.count == 3)
    #expect(lenient.warnings.contains("reportDataExceedsEvent 128"))
  }

  @Test func eventLevelErrorGoesOn() throws {
    var bad = Self.advInd
    bad[3] = 0  // Num_Reports 0
    let file = Self.file([bad, Self.scanRsp])
    let got = try btsnoopItems(file)
    #expect(got.items == ["error invalidReportCount 43", "report C0:11:22:33:44:55 116"])
    #expect(btsnoopValidatingError(file) == "error invalidReportCount 43")
    let lenient = try btsnoopItems(file, options: .lenient)
    #expect(lenient.items == ["report C0:11:22:33:44:55 116"])
    #expect(lenient.warnings == ["invalidReportCount 43"])
  }

  @Test func truncatedLastRecordKeepsTheRecordsBefore() throws {
    let whole = Self.file([Self.advInd, Self.scanRsp])
    let file = Array(whole.dropLast(3))
    let view = try BTSnoopFileView(scanning: file.span.bytes)
    let count = view.recordCount
    let recordError = view.recordError
    #expect(count == 1)
    // Record 1 starts at 40 + 39 = 79; its included length (offset 83) runs past the input.
    #expect(recordError == BLEAdvertisingError(.recordLengthExceedsInput, offset: 83))
    let got = try btsnoopItems(file)
    #expect(got.items == ["report C0:11:22:33:44:55 53"])
    #expect(got.recordError! == ("recordLengthExceedsInput", 83))
    #expect(btsnoopValidatingError(file) == "error recordLengthExceedsInput 83")
    let lenient = try btsnoopItems(file, options: .lenient)
    #expect(lenient.items == got.items)
    #expect(lenient.recordError == nil)
    #expect(lenient.warnings == ["recordLengthExceedsInput 83"])
  }

  @Test func headerErrorsStillThrow() {
    #expect(throws: BLEAdvertisingError(.invalidMagic, offset: 0)) {
      _ = try BTSnoopFileView(scanning: hex("6274736e6f6f7001 00000001 000003ea").span.bytes)
    }
  }

  @Test func reassembledReportHasNoDataOffset() throws {
    let file = Self.file([hex(HCIVectors.extendedFragment1), hex(HCIVectors.extendedFragment2)])
    let got = try btsnoopItems(file)
    #expect(got.items == ["report D1:E2:F3:00:00:01 -"])
  }

  @Test func reservedDataStatusIsAnItemAndTheRestFlushes() throws {
    var second = hex(HCIVectors.extendedFragment2)
    second[4] = 0x61  // data status 0b11 (reserved)
    let file = Self.file([hex(HCIVectors.extendedFragment1), second])
    // The second event starts at 40 + 48 + 24 = 112; its report at 116.
    let got = try btsnoopItems(file)
    #expect(got.items == ["error reservedDataStatus 116", "report D1:E2:F3:00:00:01 -"])
    #expect(btsnoopValidatingError(file) == "error reservedDataStatus 116")
    let lenient = try btsnoopItems(file, options: .lenient)
    #expect(lenient.items == ["report D1:E2:F3:00:00:01 -"])
    #expect(lenient.warnings == ["reservedDataStatus 116"])
  }

  @Test func randomMutationsAgreeWithValidating() throws {
    let seed = testSeed("BTSnoopScanning.randomMutationsAgreeWithValidating")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<400 {
      var bytes = BTSnoopFileViewTests.h4File
      for _ in 0..<Int.random(in: 1...4, using: &rng) {
        let i = Int.random(in: 16..<bytes.count, using: &rng)
        bytes[i] = UInt8.random(in: 0...255, using: &rng)
      }
      let strict = try btsnoopItems(bytes)
      // Validating frames every record before any event is read.
      let firstError =
        strict.recordError.map { "error \($0.0) \($0.1)" }
        ?? strict.items.first { $0.hasPrefix("error ") }
      #expect(btsnoopValidatingError(bytes) == firstError, "seed \(seed)")
      let lenient = try btsnoopItems(bytes, options: .lenient)
      #expect(!lenient.items.contains { $0.hasPrefix("error ") }, "seed \(seed)")
    }
  }
}
