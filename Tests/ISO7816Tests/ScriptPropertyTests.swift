// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ISO7816

@Suite("Script formats, properties")
struct ScriptPropertyTests {
  static func randomCommand(_ rng: inout SeededGenerator) -> (CommandAPDU, CommandAPDU.LengthEncoding) {
    let count = [0, 1, 16, 255, 256, 600].randomElement(using: &rng)!
    let data = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
    let ne: Int? = [nil, 1, 256, 257, 65536].randomElement(using: &rng)!
    let command = CommandAPDU(
      cla: UInt8.random(in: 0...0x7F, using: &rng), ins: UInt8.random(in: 0...255, using: &rng),
      p1: UInt8.random(in: 0...255, using: &rng), p2: UInt8.random(in: 0...255, using: &rng),
      data: data, ne: ne)
    let extended = command.requiresExtendedLength || Bool.random(using: &rng)
    return (command, extended && (command.ne != nil || !data.isEmpty) ? .extended : .shortest)
  }

  @Test("seeded random scripts round trip through the text format and the remote template")
  func roundTrips() throws {
    var rng = SeededGenerator(seed: testSeed("Script"))
    let patterns: [StatusWordPattern] = [
      .success, StatusWordPattern(text: "61XX")!, StatusWordPattern(text: "63CX")!,
      StatusWordPattern(.fileNotFound),
    ]
    for _ in 0..<100 {
      var steps: [ScriptStep] = []
      var remoteSteps: [ScriptStep] = []
      for _ in 0..<Int.random(in: 0...6, using: &rng) {
        let (command, encoding) = Self.randomCommand(&rng)
        var expected = [patterns.randomElement(using: &rng)!]
        if Bool.random(using: &rng) { expected.append(patterns.randomElement(using: &rng)!) }
        let data: [UInt8]? = Bool.random(using: &rng) ? [0x6F, UInt8.random(in: 0...255, using: &rng)] : nil
        steps.append(
          ScriptStep(
            command: command, expectedStatusWords: expected, expectedData: data, lengthEncoding: encoding))
        remoteSteps.append(
          ScriptStep(
            command: command, expectedStatusWords: StatusWordPattern.remoteAPDUNonError,
            lengthEncoding: encoding))
      }
      let script = Script(steps: steps)
      #expect(try Script(parsingText: script.text()) == script)
      let remote = RemoteCommandScript(script: Script(steps: remoteSteps))
      #expect(try RemoteCommandScript(parsing: remote.encodedBytes()) == remote)
    }
  }

  @Test("every truncation of valid templates is an error, never a trap")
  func truncation() throws {
    let command =
      [0xAA, 0x17, 0x22, 0x0E] + hex("00 A4 04 00 08 A0 00 00 01 51 00 00 00 00")
      + [0x22, 0x05] + hex("80 CA 9F 7F 00")
    let response = hex("AB 0D 80 01 02 23 02 90 00 23 04 01 02 6A 82")
    let indefinite = hex("AE 80 81 01 10 22 05 80 CA 9F 7F 00 00 00")
    for cut in 0..<command.count {
      #expect(throws: APDUError.self) { _ = try RemoteCommandScript(parsing: Array(command[0..<cut])) }
    }
    for cut in 0..<indefinite.count {
      #expect(throws: APDUError.self) { _ = try RemoteCommandScript(parsing: Array(indefinite[0..<cut])) }
    }
    for cut in 0..<response.count {
      #expect(throws: APDUError.self) { _ = try RemoteResponseScript(parsing: Array(response[0..<cut])) }
    }
    for cut in 0..<GlobalPlatformTests.statusResponse.count {
      let prefix = Array(GlobalPlatformTests.statusResponse[0..<cut])
      // A prefix ending exactly between entries is a shorter valid response.
      if let entries = try? GlobalPlatformRegistryEntry.parseStatusResponse(prefix) {
        #expect(entries.count < 3)
      }
    }
  }

  @Test("random bytes never trap the script parsers")
  func fuzzish() throws {
    var rng = SeededGenerator(seed: testSeed("ScriptBytes"))
    let alphabet: [UInt8] = [0xAA, 0xAB, 0xAE, 0xAF, 0x80, 0x22, 0x23, 0x00, 0x01, 0x05, 0x81, 0x90]
    for _ in 0..<3000 {
      let bytes = (0..<Int.random(in: 0...20, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
      if let parsed = try? RemoteCommandScript(parsing: bytes), let again = try? parsed.encodedBytes() {
        #expect(try RemoteCommandScript(parsing: again) == parsed)
      }
      if let parsed = try? RemoteResponseScript(parsing: bytes) {
        #expect(try RemoteResponseScript(parsing: parsed.encodedBytes()) == parsed)
      }
      let text = String(
        decoding: bytes.map { [0x30, 0x41, 0x20, 0x2D, 0x3E, 0x0A, 0x58, 0x7C][Int($0 % 8)] }, as: UTF8.self)
      _ = try? Script(parsingText: text)
    }
  }
}
