// SPDX-License-Identifier: Apache-2.0
import PN532Simulator

/// The PN532 host-link frame parser of the simulator (PN532 user manual §6.2.1). Checks,
/// besides "no trap": every frame found shrinks the buffer (the read loop cannot spin), the
/// frames found do not depend on how the bytes arrive (all at once or in reads of 1-16 bytes),
/// and each command found, framed again as a host frame, parses back to itself alone.
public enum PN532FrameOracle {
  /// Runs the oracle on one input.
  public static func check(_ bytes: [UInt8]) throws(OracleFailure) {
    var whole = bytes
    var atOnce: [PN532Frame] = []
    while true {
      let before = whole.count
      guard let frame = PN532Frame.next(from: &whole) else { break }
      try require(whole.count < before, "a frame was returned without consuming bytes")
      atOnce.append(frame)
    }
    // Reads of 1 to 16 bytes, their sizes taken from the input itself.
    var buffer: [UInt8] = []
    var inPieces: [PN532Frame] = []
    var i = 0
    while i < bytes.count {
      let end = min(bytes.count, i + 1 + Int(bytes[i] & 0x0F))
      buffer += bytes[i..<end]
      i = end
      while let frame = PN532Frame.next(from: &buffer) { inPieces.append(frame) }
    }
    try require(atOnce == inPieces, "frames depend on read boundaries: \(atOnce) vs \(inPieces)")
    for case .command(let payload) in atOnce where payload.count < 0xFFFE {
      var framed = PN532Frame.frame(tfi: 0xD4, payload)
      let again = PN532Frame.next(from: &framed)
      try require(again == .command(payload), "a re-framed command did not parse back")
      try require(PN532Frame.next(from: &framed) == nil, "a re-framed command left a frame behind")
    }
  }
}
