// SPDX-License-Identifier: Apache-2.0

import PCSCControl

/// The PC/SC control-buffer parsers: the first byte picks the buffer kind, the rest is the
/// buffer. Whatever parses must re-encode byte for byte; nothing may trap.
public enum PCSCControlOracle {
  /// Checks one input.
  public static func check(_ input: [UInt8]) throws(OracleFailure) {
    guard let selector = input.first else { return }
    let bytes = Array(input.dropFirst())
    switch selector % 7 {
    case 0:
      guard let list = try? FeatureList(parsing: bytes) else { return }
      try require(list.encodedBytes() == bytes, "feature list did not re-encode")
      try require(list.encodedCount == bytes.count, "feature list encodedCount differs")
      for entry in list.entries { _ = entry.feature.name }
    case 1:
      guard let properties = try? TLVProperties(parsing: bytes) else { return }
      try require((try? properties.encodedBytes()) == bytes, "TLV properties did not re-encode")
      for property in properties.properties { _ = (property.integer, property.tag.name) }
    case 2:
      guard let pin = try? PINProperties(parsing: bytes) else { return }
      try require(pin.encodedBytes() == bytes, "PIN properties did not re-encode")
    case 3:
      guard let start = try? NFCStartMessages(parsing: bytes) else { return }
      try require((try? start.encodedBytes()) == bytes, "START_NFC buffer did not re-encode")
    case 4:
      guard let stop = try? NFCStopMessage(parsing: bytes) else { return }
      try require((try? stop.encodedBytes()) == bytes, "STOP_NFC buffer did not re-encode")
    case 5:
      let lenient = try? NFCStopReason(parsing: bytes)
      let strict = try? NFCStopReason(parsing: bytes, strict: true)
      try require(strict == nil || strict == lenient, "strict and lenient stop reasons disagree")
      if let lenient { try require(lenient.encodedBytes() == bytes, "stop reason did not re-encode") }
    default:
      guard let answer = try? GetDataPseudoAPDU.answer(parsing: bytes) else {
        try require(bytes.count < 2, "a GET DATA answer of 2 or more bytes was refused")
        return
      }
      if let data = answer.bytes {
        try require(data.count == bytes.count - 2, "GET DATA data length is wrong")
      }
    }
  }
}
