// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

/// Repeated single-valued AD types (Core Specification Supplement Part A §1.2, §1.3, §1.5,
/// §1.12: once per block): decoded in both modes, the last wins, each repeat listed.
@Suite("Duplicate single-valued AD structures")
struct DuplicateStructureTests {
  /// Flags 06 (0), Complete Local Name "A" (3), TX Power -4 (6), Complete Local Name "B" (9),
  /// Flags 1A (12), Appearance 0x03C1 (15), TX Power 0 (19), Manufacturer data twice (22, 27;
  /// not single-valued), Appearance 0x0080 (32). Hand-assembled.
  static let advertisement = hex(
    "020106 020941 020afc 020942 02011a 0319c103 020a00 04ff4c0001 04ff4c0002 03198000")

  @Test(arguments: [BLEAdvertisingOptions.strict, .lenient])
  func repeatsAreListedAndTheLastWins(options: BLEAdvertisingOptions) throws {
    let view = try AdvertisingDataView(validating: Self.advertisement.span.bytes, options: options)
    #expect(view.warnings.isEmpty)
    #expect(view.structureCount == 10)
    #expect(
      view.duplicateStructures
        == [9, 12, 19, 32].map { BLEAdvertisingWarning(.duplicateSingleValuedType, offset: $0) })
    #expect(view.flags?.rawValue == 0x1A)
    #expect(view.txPowerLevel == 0)
    #expect(view.appearance == 0x0080)
    var name: [UInt8] = []
    if let local = view.localName() { name = local.utf8.copiedBytes() }
    #expect(name == Array("B".utf8))
    let model = AdvertisingData(view)
    #expect(model.flags?.rawValue == 0x1A)
    #expect(model.localName == "B")
  }

  @Test func offsetsAreAbsoluteWithABaseOffset() throws {
    let view = try AdvertisingDataView(validating: hex("020941 020942").span.bytes, baseOffset: 100)
    #expect(view.duplicateStructures == [BLEAdvertisingWarning(.duplicateSingleValuedType, offset: 103)])
  }

  @Test func oneOfEachKindIsNoRepeat() throws {
    // Shortened and Complete Local Name are two AD types; one each is not a repeat.
    let view = try AdvertisingDataView(validating: hex("020106 020841 020942 020a00 03190000").span.bytes)
    #expect(view.duplicateStructures.isEmpty)
  }
}
