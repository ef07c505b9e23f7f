// SPDX-License-Identifier: Apache-2.0
import Foundation
import PN532Simulator
import Testing

/// `tapwire simulate` and `tapwire read` end to end: the simulated PN532 on a pty, libnfc's
/// pn532_uart driver in `tapwire-nfc`, and the decoding in `tapwire`.
@Suite("tapwire read and simulate", .timeLimit(.minutes(1)))
struct ReadCommandTests {
  /// Starts `tapwire simulate` and returns it with its libnfc connection string.
  static func startSimulator(image: String?, tag: String = "ntag215") throws -> (Process, Pipe, String) {
    let process = Process()
    process.executableURL = CLI.executable
    process.arguments = ["simulate", "--tag", tag] + (image.map { ["--image", $0] } ?? [])
    process.currentDirectoryURL = CLI.root
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    var text = ""
    let handle = output.fileHandleForReading
    while !text.contains("pn532_uart:"), text.count < 4096 {
      let chunk = handle.availableData
      if chunk.isEmpty { break }
      text += String(decoding: chunk, as: UTF8.self)
    }
    let connstring = text.split(separator: "\n").first { $0.hasPrefix("pn532_uart:") }.map(String.init) ?? ""
    return (process, input, connstring)
  }

  @Test func readsASimulatedNTAG215() throws {
    let (simulator, input, connstring) = try Self.startSimulator(
      image: "Corpus/tags/seeds/t2t-ntag215-smartposter.bin")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    #expect(connstring.hasPrefix("pn532_uart:/dev/pts/"))
    let result = try CLI.run(["read", "--device", connstring, "--json", "--timeout", "10"])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try CLI.object(result.stdout)
    #expect(object["format"] as? String == "t2t")
    let ndef = try #require(object["ndef"] as? [String: Any])
    let record = try #require((ndef["records"] as? [[String: Any]])?.first)
    #expect((record["decoded"] as? [String: Any])?["kind"] as? String == "smartPoster")
    let dump = try CLI.run(["read", "--device", connstring, "--dump", "--json"])
    let image = try #require(try CLI.object(dump.stdout)["image"] as? String)
    let file = try Data(
      contentsOf: CLI.root.appendingPathComponent("Corpus/tags/seeds/t2t-ntag215-smartposter.bin"))
    // As READ shows the tag: PWD and PACK as zeros (NTAG213/215/216 §8.8.1).
    let readable = try SimulatedType2Tag(product: .ntag215, memory: Array(file)).readableMemory
    #expect(image == readable.map { String(format: "%02x", $0) }.joined())
  }

  @Test func readsTheNDEFMessageOfASimulatedType4Tag() throws {
    let (simulator, input, connstring) = try Self.startSimulator(
      image: "Corpus/ndef/seeds/uri-http-www-nfc-com.ndef", tag: "type4")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let result = try CLI.run(["read", "--device", connstring, "--json", "--timeout", "10"])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try CLI.object(result.stdout)
    #expect(object["format"] as? String == "ndef")
    let record = try #require((object["records"] as? [[String: Any]])?.first)
    #expect((record["decoded"] as? [String: Any])?["uri"] as? String == "http://www.nfc.com")
  }

  /// Without --device, libnfc opens the first device, which LIBNFC_DEVICE names.
  @Test func opensTheDeviceNamedByLIBNFCDEVICE() throws {
    let (simulator, input, connstring) = try Self.startSimulator(
      image: "Corpus/tags/seeds/t2t-ntag215-smartposter.bin")
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    let result = try CLI.run(
      ["read", "--json", "--timeout", "10"], environment: ["LIBNFC_DEVICE": connstring])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try CLI.object(result.stdout)["format"] as? String == "t2t")
  }

  @Test func noReaderIsAClearError() throws {
    let result = try CLI.run(["read", "--device", "pn532_uart:/dev/null-no-such-device", "--timeout", "1"])
    #expect(result.status == 1)
    #expect(result.stderr.contains("no reader"))
  }

  /// `tapwire read --json` and `--dump --json` on a simulated Type 1 or Type 3 tag serving
  /// a seed image: the decoded NDEF record and the memory image byte for byte.
  @Test(arguments: [
    ("topaz96", "t1t-static-uri.bin", "t1t"), ("topaz512", "t1t-dynamic-topaz512-spanning.bin", "t1t"),
    ("felica", "t3t-uri.bin", "t3t"),
  ])
  func readsAndDumpsSimulatedType1AndType3Tags(_ tag: String, _ seed: String, _ format: String) throws {
    let path = "Corpus/tags/seeds/" + seed
    let (simulator, input, connstring) = try Self.startSimulator(image: path, tag: tag)
    defer {
      try? input.fileHandleForWriting.close()
      simulator.waitUntilExit()
    }
    #expect(connstring.hasPrefix("pn532_uart:/dev/pts/"))
    let result = try CLI.run(["read", "--device", connstring, "--json", "--timeout", "10"])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try CLI.object(result.stdout)
    #expect(object["format"] as? String == format)
    let ndef = try #require(object["ndef"] as? [String: Any])
    let record = try #require((ndef["records"] as? [[String: Any]])?.first)
    switch tag {
    case "topaz96":
      #expect((record["decoded"] as? [String: Any])?["uri"] as? String == "https://example.org/t1t")
    case "felica":
      #expect((record["decoded"] as? [String: Any])?["uri"] as? String == "https://felica.example")
    default: #expect(record["typeText"] as? String == "text/plain")
    }
    let dump = try CLI.run(["read", "--device", connstring, "--dump", "--json", "--timeout", "10"])
    #expect(dump.status == 0, "\(dump.stderr)")
    let dumped = try CLI.object(dump.stdout)
    #expect(dumped["format"] as? String == format)
    let file = try Data(contentsOf: CLI.root.appendingPathComponent(path))
    #expect(dumped["image"] as? String == file.map { String(format: "%02x", $0) }.joined())
  }

  @Test func simulateRefusesAnImageOfTheWrongSize() throws {
    let result = try CLI.run([
      "simulate", "--tag", "topaz512", "--image", "Corpus/tags/seeds/t1t-static-blank.bin",
    ])
    #expect(result.status == 1)
    #expect(result.stderr.contains("a topaz512 image has 512 bytes, got 120"), "\(result.stderr)")
  }
}
