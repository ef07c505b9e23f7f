// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NDEF
import NFCTags
import NFCWire
import Testing

/// Random and mutated inputs: every decoder returns a value or a typed error, never traps.
@Suite("Hostile input")
struct HostileInputTests {
  static func decodeAll(_ image: [UInt8], lenient: Bool) {
    let options: TagDecodingOptions = lenient ? .lenient : .strict
    let bytes = image.span.bytes
    if let tag = try? Type1TagView(validating: bytes, options: options) {
      _ = tag.tlvArea.tlvList()
      _ = tag.tlvArea.assembledNDEFBytes()
      _ = try? tag.tlvArea.message(options: .lenient)
      _ = (tag.isReadOnly, tag.maximumNDEFSize, tag.dataAreaSize)
    }
    if let tag = try? Type2TagView(validating: bytes, options: options) {
      _ = tag.tlvArea.tlvList()
      _ = tag.tlvArea.assembledNDEFBytes()
      _ = try? tag.tlvArea.message(options: .lenient)
      _ = (tag.isReadOnly, tag.maximumNDEFSize, tag.isPageLocked(20))
    }
    if let tag = try? Type3TagView(validating: bytes, options: options) {
      _ = try? tag.message(options: .lenient)
      _ = (tag.isReadOnly, tag.maximumNDEFSize)
    }
    if let tag = try? Type5TagView(validating: bytes, options: options) {
      _ = tag.tlvArea.tlvList()
      _ = try? tag.tlvArea.message(options: .lenient)
    }
    _ = try? Type4CapabilityContainer(parsing: image)
  }

  @Test func randomImagesNeverTrap() {
    let seed = UInt64.random(in: 0...UInt64.max)
    print("Hostile random images seed \(seed)")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<3000 {
      let count = Int.random(in: 0...600, using: &rng)
      var image = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
      // Give most images a plausible header so the TLV scanners run.
      if count >= 16 && Bool.random(using: &rng) {
        image.replaceSubrange(12..<16, with: [0xE1, 0x10, UInt8.random(in: 0...80, using: &rng), 0])
        image.replaceSubrange(8..<12, with: [0xE1, 0x10, UInt8.random(in: 0...80, using: &rng), 0])
        image.replaceSubrange(0..<4, with: [0xE1, 0x40, UInt8.random(in: 0...80, using: &rng), 1])
        // TLV-looking bytes: small types and lengths.
        for i in 16..<count where Int.random(in: 0..<3, using: &rng) == 0 {
          image[i] = [0x00, 0x01, 0x02, 0x03, 0xFD, 0xFE, 0xFF, 0x03][Int.random(in: 0..<8, using: &rng)]
        }
      }
      Self.decodeAll(image, lenient: false)
      Self.decodeAll(image, lenient: true)
    }
  }

  @Test func mutatedSeedsNeverTrap() throws {
    let seed = UInt64.random(in: 0...UInt64.max)
    print("Hostile mutated images seed \(seed)")
    var rng = SeededGenerator(seed: seed)
    let bases = [
      Type2Tag.formattedImage(.ntag213), Type2Tag.formattedImage(.ntag216),
      try Type1Tag.formattedImage(memorySize: 512),
      try Type5Tag.formattedImage(memorySize: 256), try Type3Tag.formattedImage(blockCount: 8),
    ]
    for _ in 0..<2000 {
      var image = bases.randomElement(using: &rng)!
      for _ in 0..<Int.random(in: 1...6, using: &rng) {
        let i = Int.random(in: 0..<min(image.count, 64), using: &rng)
        image[i] = UInt8.random(in: 0...255, using: &rng)
      }
      Self.decodeAll(image, lenient: false)
      Self.decodeAll(image, lenient: true)
    }
  }

  /// A tag answering random status words and data: the procedure ends with a typed error
  /// or a message, within a bounded number of commands.
  @Test func randomResponsesNeverTrapOrLoop() {
    let seed = UInt64.random(in: 0...UInt64.max)
    print("Hostile Type 4 responses seed \(seed)")
    var rng = SeededGenerator(seed: seed)
    for _ in 0..<500 {
      var tag = Type4TagSimulator(message: sizedMessage(Int.random(in: 14...600, using: &rng)))
      var procedure = Type4NDEFProcedure(
        operation: Bool.random(using: &rng) ? .read : .write(sizedMessage(50)))
      var command: CommandAPDU? = procedure.start()
      var steps = 0
      while let next = command, steps < 1000 {
        steps += 1
        var response = tag.respond(to: next)
        if Int.random(in: 0..<8, using: &rng) == 0 {
          response = ResponseAPDU(
            data: (0..<Int.random(in: 0...20, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng)
            },
            statusWord: Bool.random(using: &rng)
              ? .success : StatusWord(rawValue: UInt16.random(in: 0...0xFFFF, using: &rng)))
        }
        command = try? procedure.receive(response)
      }
      #expect(steps < 1000, "seed \(seed)")
      #expect(procedure.isFinished)
    }
  }
}
