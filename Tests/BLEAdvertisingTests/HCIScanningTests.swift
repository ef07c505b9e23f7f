// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

/// Reports and the report error of a scanning parse.
func scannedReports(_ text: String, options: BLEAdvertisingOptions = .strict)
  throws(BLEAdvertisingError) -> (offsets: [Int], data: [String], error: (String, Int)?, framed: Int)
{
  let bytes = hex(text)
  let view = try HCIAdvertisingReportsView(scanning: bytes.span.bytes, options: options)
  var it = view.reports
  var offsets: [Int] = []
  var data: [String] = []
  while let r = it.next() {
    offsets.append(r.offset)
    data.append(Hex.string(r.data))
  }
  let error = view.reportError.map { ($0.code.name, $0.offset) }
  return (offsets, data, error, view.framedReportCount)
}

@Suite("HCIAdvertisingReportsView scanning")
struct HCIScanningTests {
  /// Three legacy reports; the second's Data_Length (offset 25) is 5 with 2 octets left.
  static let secondRunsPast = withLength(
    "3eLL0203" + "0000665544332211" + "03020106c4" + "0000665544332211" + "050102")

  @Test func keepsReportsBeforeFramingError() throws {
    let got = try scannedReports(Self.secondRunsPast)
    #expect(got.offsets == [4])
    #expect(got.data == ["020106"])
    #expect(got.framed == 1)
    #expect(got.error?.0 == "reportDataExceedsEvent")
    #expect(got.error?.1 == 25)
    // The validating initializer still throws that error.
    #expect(hciError(Self.secondRunsPast)! == ("reportDataExceedsEvent", 25))
  }

  @Test func truncatedFixedFields() throws {
    // One report of two declared, the second stops after its event type (offset 17).
    let text = withLength("3eLL0202" + "0000665544332211" + "03020106c4" + "00")
    let got = try scannedReports(text)
    #expect(got.offsets == [4])
    #expect(got.error?.0 == "truncatedReport")
    #expect(got.error?.1 == 18)
  }

  @Test func trailingBytesStrictAndLenient() throws {
    let text = withLength("3eLL0201" + "0000665544332211" + "03020106c4" + "aabb")
    let strict = try scannedReports(text)
    #expect(strict.offsets == [4])
    #expect(strict.framed == 1)
    #expect(strict.error?.0 == "trailingBytes")
    #expect(strict.error?.1 == 17)
    let lenient = try scannedReports(text, options: .lenient)
    #expect(lenient.offsets == [4])
    #expect(lenient.error == nil)
    let view = try HCIAdvertisingReportsView(scanning: hex(text).span.bytes, options: .lenient)
    #expect(view.warnings.map { $0.offset } == [17])
  }

  @Test func validEventHasNoReportError() throws {
    let got = try scannedReports(HCIVectors.legacyAdvInd)
    #expect(got.error == nil)
    #expect(got.framed == 1)
    #expect(got.offsets == [4])
  }

  @Test func eventLevelErrorsStillThrow() {
    #expect(throws: BLEAdvertisingError(.invalidReportCount, offset: 3)) {
      _ = try HCIAdvertisingReportsView(scanning: hex("3e020200").span.bytes)
    }
    #expect(throws: BLEAdvertisingError(.notLEMetaEvent, offset: 0)) {
      _ = try HCIAdvertisingReportsView(scanning: hex("0e020201").span.bytes)
    }
  }
}
