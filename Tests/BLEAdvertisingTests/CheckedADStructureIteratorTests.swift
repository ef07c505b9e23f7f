// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire
import Testing

/// `AdvertisingDataView.checkedStructures`: one strict pass, agreeing with
/// `init(validating:)` and `structures` on every input.
@Suite struct CheckedADStructureIteratorTests {
  static func run(_ bytes: [UInt8], baseOffset: Int = 0) -> (structures: [[Int]], error: BLEAdvertisingError?)
  {
    var iterator = AdvertisingDataView.checkedStructures(bytes.span.bytes, baseOffset: baseOffset)
    var seen: [[Int]] = []
    do throws(BLEAdvertisingError) {
      while let s = try iterator.next() { seen.append([Int(s.type.rawValue), s.offset, s.data.byteCount]) }
      return (seen, nil)
    } catch {
      return (seen, error)
    }
  }

  static func validated(_ bytes: [UInt8]) -> (structures: [[Int]], error: BLEAdvertisingError?) {
    do throws(BLEAdvertisingError) {
      let view = try AdvertisingDataView(validating: bytes.span)
      var it = view.structures
      var seen: [[Int]] = []
      while let s = it.next() { seen.append([Int(s.type.rawValue), s.offset, s.data.byteCount]) }
      return (seen, nil)
    } catch {
      return ([], error)
    }
  }

  @Test func handCheckedVectors() {
    // Flags 0x06, a 16-bit UUID list (0x180F), padding, a two-byte name.
    let bytes: [UInt8] = [0x02, 0x01, 0x06, 0x03, 0x03, 0x0F, 0x18, 0x00, 0x03, 0x09, 0x41, 0x42]
    let (structures, error) = Self.run(bytes, baseOffset: 100)
    #expect(error == nil)
    #expect(structures == [[0x01, 100, 1], [0x03, 103, 2], [0x09, 108, 2]])
    // A Length octet past the end, after one good structure.
    let (prefix, overrun) = Self.run([0x02, 0x01, 0x06, 0x05, 0xFF, 0x4C])
    #expect(prefix == [[0x01, 0, 1]])
    #expect(overrun == BLEAdvertisingError(.structureLengthExceedsInput, offset: 3))
    #expect(Self.run([]).structures.isEmpty && Self.run([]).error == nil)
    #expect(Self.run([0x00, 0x00]).structures.isEmpty)
  }

  @Test func agreesWithValidationOnRandomBytes() {
    var state: UInt64 = 0xAD5E_ED00
    var invalid = 0
    for _ in 0..<3000 {
      var bytes: [UInt8] = []
      state = state &* 6_364_136_223_846_793_005 &+ 1
      for _ in 0..<Int(state >> 59) {
        state = state &* 6_364_136_223_846_793_005 &+ 1
        let length = Int(state >> 61)
        bytes.append(UInt8(length))
        bytes += (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ Int(state >> 40)) }
      }
      if state & 1 == 0, !bytes.isEmpty { bytes.removeLast() }
      let single = Self.run(bytes)
      let strict = Self.validated(bytes)
      #expect(single.error == strict.error)
      if strict.error == nil { #expect(single.structures == strict.structures) } else { invalid += 1 }
    }
    #expect(invalid > 100 && invalid < 2900)
  }
}
