// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire
import Testing

/// A plain (escapable) copy of what a record view exposes, for assertions.
struct RecordSummary: Equatable, CustomStringConvertible {
  var tnf: UInt8
  var type: [UInt8]
  var id: [UInt8]
  var payload: [UInt8]
  var chunks: Int = 1
  var offset: Int = 0

  var description: String {
    "tnf \(tnf) type \(Hex.string(type)) id \(Hex.string(id)) payload \(Hex.string(payload)) chunks \(chunks) @\(offset)"
  }
}

/// Decodes `bytes` and summarizes every logical record and the warnings.
func summarize(_ bytes: [UInt8], options: NDEFDecodingOptions = .strict) throws(NDEFError)
  -> (records: [RecordSummary], warnings: [NDEFWarning])
{
  let message = try NDEFMessageView(validating: bytes.span, options: options)
  var result: [RecordSummary] = []
  var iterator = message.records
  while let record = iterator.next() {
    result.append(
      RecordSummary(
        tnf: record.typeNameFormat.rawValue, type: record.type.copiedBytes(),
        id: record.id.copiedBytes(), payload: try record.assembledPayload(),
        chunks: record.chunkCount, offset: record.offset))
  }
  #expect(result.count == message.recordCount)
  return (result, message.warnings)
}

/// Bytes from a hex string with optional spaces.
func hex(_ text: String) -> [UInt8] {
  Hex.bytes(text.filter { !$0.isWhitespace }) ?? []
}

/// The error strict decoding throws, or nil.
func strictError(_ bytes: [UInt8]) -> NDEFError? {
  do {
    _ = try NDEFMessageView(validating: bytes.span)
    return nil
  } catch {
    return error
  }
}

/// A deterministic generator (SplitMix64) so property tests print and replay a seed.
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
