// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import PN532Simulator

/// The simulator's reader of the host's bytes on the pseudo-terminal against a hostile host:
/// what `PN532Frame.next(from:)` holds is bounded (at most one extended frame, 65,543 bytes:
/// `00 00 FF FF FF LENM LENL LCS` + 65,535 data bytes + DCS), garbage is dropped as it comes,
/// and a valid frame after garbage or a broken frame is found (resynchronisation on the next
/// start code).
@Suite struct PN532FrameBoundTests {
  /// `00 00 FF 03 FD D4 14 01 17 00`: SAMConfiguration, normal mode.
  static let samConfiguration: [UInt8] = [0x00, 0x00, 0xFF, 0x03, 0xFD, 0xD4, 0x14, 0x01, 0x17, 0x00]

  /// A megabyte without a start code leaves at most one byte (a trailing 00 that may begin
  /// one), fed in reads of 4 KiB as the simulator reads.
  @Test func garbageWithoutAStartCodeIsDroppedAsItArrives() {
    var random = SystemRandomNumberGenerator()
    var buffer: [UInt8] = []
    var largest = 0
    for _ in 0..<256 {
      // No 0xFF: no start code (00 FF) anywhere.
      buffer += (0..<4096).map { _ in UInt8.random(in: 0...0xFE, using: &random) }
      while PN532Frame.next(from: &buffer) != nil {}
      largest = max(largest, buffer.count)
    }
    #expect(largest <= 4096)
    #expect(buffer.count <= 1)
  }

  /// The longest frame the header can declare is held until it is complete, then dropped when
  /// its checksum is wrong; the frame right after it is found.
  @Test func theLongestDeclaredFrameIsTheMostHeldAndABrokenOneIsSkipped() {
    let count = 0xFFFF
    // LENM LENL LCS with LENM + LENL + LCS = 0 mod 256; D4 then data; a wrong DCS.
    var frame: [UInt8] = [0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02, 0xD4]
    frame += [UInt8](repeating: 0x42, count: count - 1)
    frame += [0x00]  // DCS: wrong (the right one is 0x100 - (0xD4 + 0x42 * 65534) & 0xFF)
    var buffer: [UInt8] = []
    var largest = 0
    for start in stride(from: 0, to: frame.count, by: 4096) {
      buffer += frame[start..<min(start + 4096, frame.count)]
      #expect(PN532Frame.next(from: &buffer) == nil)
      largest = max(largest, buffer.count)
    }
    #expect(largest <= 7 + count + 1)
    #expect(buffer.isEmpty)
    buffer += Self.samConfiguration
    #expect(PN532Frame.next(from: &buffer) == .command([0x14, 0x01]))
  }

  /// Valid frames between runs of hostile bytes (random, broken checksums, lone start codes,
  /// a wrong frame identifier) are all found, in order, however the bytes are split.
  @Test func validFramesBetweenGarbageAreAllFound() {
    var random = SystemRandomNumberGenerator()
    let hostile: [[UInt8]] = [
      [0x00, 0x00, 0xFF, 0x03, 0xFC, 0xD4, 0x14, 0x01, 0x17, 0x00],  // bad LCS
      [0x00, 0x00, 0xFF, 0x03, 0xFD, 0xD4, 0x14, 0x01, 0x18, 0x00],  // bad DCS
      [0x00, 0x00, 0xFF, 0x03, 0xFD, 0xD5, 0x14, 0x01, 0x16, 0x00],  // D5: not a host frame
      [0x00, 0xFF, 0x05, 0x05],  // a start code with a bad LCS
      [0x55, 0x55, 0x00, 0x00, 0x00],  // wake-up bytes
    ]
    var stream: [UInt8] = []
    let frames = 200
    for _ in 0..<frames {
      stream += hostile.randomElement(using: &random)!
      stream += (0..<Int.random(in: 0...40, using: &random)).map { _ in
        UInt8.random(in: 1...0xFE, using: &random)
      }
      stream += Self.samConfiguration
    }
    var buffer: [UInt8] = []
    var found = 0
    var index = 0
    while index < stream.count {
      let end = min(index + Int.random(in: 1...64, using: &random), stream.count)
      buffer += stream[index..<end]
      index = end
      while let frame = PN532Frame.next(from: &buffer) {
        #expect(frame == .command([0x14, 0x01]))
        found += 1
      }
    }
    #expect(found == frames)
  }
}
