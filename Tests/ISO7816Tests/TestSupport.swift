// SPDX-License-Identifier: Apache-2.0
import NFCWire
import Testing

@testable import ISO7816

#if canImport(Glibc)
  import Glibc
#endif

/// Bytes from hex text with spaces allowed; traps on bad test data only.
func hex(_ text: String) -> [UInt8] {
  let compact = String(text.filter { !$0.isWhitespace })
  guard let bytes = Hex.bytes(compact) else { fatalError("bad test hex \(text)") }
  return bytes
}

/// Lowercase hex of bytes.
func hexString(_ bytes: [UInt8]) -> String { Hex.string(bytes) }

/// A small deterministic generator (SplitMix64) for seeded property tests.
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

/// A random seed, or `TAPWIRE_SEED` from the environment, printed so a failure replays.
func testSeed(_ name: String) -> UInt64 {
  var seed = UInt64.random(in: 0...UInt64.max)
  if let text = getenv("TAPWIRE_SEED"), let value = UInt64(String(cString: text)) {
    seed = value
  }
  print("\(name) seed: \(seed)")
  return seed
}
