// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCTags
import NFCWire
import Testing

/// Bytes from a hex string with optional spaces.
func hex(_ text: String) -> [UInt8] {
  Hex.bytes(text.filter { !$0.isWhitespace }) ?? []
}

/// A URI record message (RTD URI prefix 0x04 = "https://").
func uriMessage(_ rest: String) -> [UInt8] {
  let record = NDEFRecord(typeNameFormat: .wellKnown, type: [0x55], payload: [0x04] + Array(rest.utf8))
  return (try? NDEFMessage(records: [record]).encodedBytes()) ?? []
}

/// A Smart Poster message: a URI and an English title.
func smartPosterMessage(_ uri: String, title: String) -> [UInt8] {
  let inner = NDEFMessage(records: [
    NDEFRecord(typeNameFormat: .wellKnown, type: [0x55], payload: [0x04] + Array(uri.utf8)),
    NDEFRecord(typeNameFormat: .wellKnown, type: [0x54], payload: [0x02, 0x65, 0x6E] + Array(title.utf8)),
  ])
  let payload = (try? inner.encodedBytes()) ?? []
  let record = NDEFRecord(typeNameFormat: .wellKnown, type: [0x53, 0x70], payload: payload)
  return (try? NDEFMessage(records: [record]).encodedBytes()) ?? []
}

/// A message of one MIME record whose whole encoding is exactly `size` bytes (size ≥ 14).
func sizedMessage(_ size: Int, seed: UInt8 = 0x41) -> [UInt8] {
  let type = Array("text/plain".utf8)
  let short = size - 3 - type.count
  let payloadCount = short <= 255 ? short : size - 6 - type.count
  let payload = (0..<max(0, payloadCount)).map { UInt8(truncatingIfNeeded: Int(seed) + $0 % 26) }
  let record = NDEFRecord(typeNameFormat: .media, type: type, payload: payload)
  return (try? NDEFMessage(records: [record]).encodedBytes()) ?? []
}

/// A small deterministic generator (SplitMix64) for property tests.
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

/// A plain summary of a TLV list, for assertions.
func tlvSummary(_ tlvs: [TagTLV]) -> [String] {
  tlvs.map { "\($0.type.name)@\($0.offset):\($0.length)" }
}

/// Decodes a Type 2 image and returns plain values.
struct Type2Summary: Equatable {
  var tlvs: [String]
  var ndefOffset: Int?
  var ndefLength: Int?
  var message: [UInt8]?
  var dataAreaSize: Int
  var maxNDEFSize: Int
  var readOnly: Bool
  var warnings: [String]
}

func summarizeType2(_ image: [UInt8], options: TagDecodingOptions = .strict) throws(NFCTagError)
  -> Type2Summary
{
  let tag = try Type2TagView(validating: image.span.bytes, options: options)
  let area = tag.tlvArea
  return Type2Summary(
    tlvs: tlvSummary(area.tlvList()), ndefOffset: area.area.ndefMessageOffset,
    ndefLength: area.area.ndefMessageLength,
    message: area.area.ndefTLV == nil ? nil : area.assembledNDEFBytes(),
    dataAreaSize: tag.dataAreaSize, maxNDEFSize: tag.maximumNDEFSize, readOnly: tag.isReadOnly,
    warnings: tag.warnings.map { "\($0.code.name)@\($0.offset)" })
}

/// The error a throwing closure throws, or nil.
func tagError(_ body: () throws(NFCTagError) -> Void) -> NFCTagError? {
  do { try body() } catch { return error }
  return nil
}
