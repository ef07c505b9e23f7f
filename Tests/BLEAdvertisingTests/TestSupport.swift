// SPDX-License-Identifier: Apache-2.0
import BLEAdvertising
import NFCWire

/// Bytes from hex text with optional spaces, for readable vectors.
func hex(_ text: String) -> [UInt8] {
  Hex.bytes(String(text.filter { $0 != " " })) ?? []
}

/// A small deterministic generator (SplitMix64) so random tests are reproducible.
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

/// The seed for a random test: a hash of its name, printed, so every run is reproducible.
func testSeed(_ name: String) -> UInt64 {
  var h: UInt64 = 0xCBF2_9CE4_8422_2325
  for b in name.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
  print("seed for \(name): \(h)")
  return h
}

/// Parses AD bytes and returns the error (code name, offset), or nil on success.
func adError(_ bytes: [UInt8], lenient: Bool = false) -> (String, Int)? {
  do {
    _ = try AdvertisingDataView(
      validating: bytes.span.bytes, options: lenient ? .lenient : .strict)
    return nil
  } catch {
    return (error.code.name, error.offset)
  }
}

/// Structures of AD bytes as plain tuples (type, data hex, offset).
func adStructures(_ bytes: [UInt8], baseOffset: Int = 0) throws -> [(UInt8, String, Int)] {
  let view = try AdvertisingDataView(validating: bytes.span.bytes, baseOffset: baseOffset)
  var it = view.structures
  var result: [(UInt8, String, Int)] = []
  while let s = it.next() {
    result.append((s.type.rawValue, Hex.string(s.data), s.offset))
  }
  return result
}
