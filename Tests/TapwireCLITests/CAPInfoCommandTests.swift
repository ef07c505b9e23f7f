// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire cap info` on the CAP seeds (written by Tests/Tools/make-cap.py with Python's zipfile).
@Suite("tapwire cap info")
struct CAPInfoCommandTests {
  // The load file data block hashes of two seeds, from Python's zipfile and hashlib (the
  // components read and concatenated in JCVM 3.0.5 §6.2 order by a few lines of Python).
  static let mixedSHA1 = "0555a9bd64707b000f635f3899dff6a40016ffb7"
  static let mixedSHA256 = "e52af5994978e3bd65bd2693fa0f168d06f3a373afea429b8faea3856b43be85"
  static let librarySHA1 = "dc100b09a315cadd3e31203cefb1ea0eeda82efe"
  static let librarySHA256 = "7f52f16a4890a17910feed06bc8d222d74d29e1731187ab5fd1ef83bf8e6f73b"

  @Test func humanOutput() throws {
    let result = try CLI.run(["cap", "info", "Corpus/cap/seeds/mixed-descriptors.cap"])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("Java Card CAP format 2.2"))
    #expect(result.stdout.contains("package    d276000085010103  version 1.3  com/example/hello"))
    #expect(result.stdout.contains("applet     d27600008501010301  install method at 16"))
    #expect(result.stdout.contains("  Descriptor       193  (not loaded)"))
    #expect(
      result.stdout.contains(
        "load file data block  1325 bytes; with C4 and its length 1329 bytes in 6 LOAD blocks"))
    // hashlib's values, from make-cap.py when it wrote the seed.
    #expect(result.stdout.contains("load file data block hash  SHA-1 \(Self.mixedSHA1)\n"))
    #expect(result.stdout.contains("                           SHA-256 \(Self.mixedSHA256)\n"))
  }

  @Test func jsonOutput() throws {
    let result = try CLI.run([
      "cap", "info", "--json", "--block-size", "239", "Corpus/cap/seeds/format21-library.cap",
    ])
    #expect(result.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["ok"] as? Bool == true && object["format"] as? String == "cap")
    #expect(object["packageAID"] as? String == "d276000085010104")
    #expect(object["packageVersion"] as? String == "1.3" && object["formatVersion"] as? String == "2.1")
    #expect(object["packageName"] is NSNull)
    #expect((object["applets"] as? [Any])?.isEmpty == true)
    let components = try #require(object["components"] as? [[String: Any]])
    #expect(
      components.map { $0["name"] as? String } == [
        "Header", "Directory", "Import", "Class", "Method", "StaticField", "Export", "ConstantPool",
        "RefLocation",
        "Descriptor", "Debug",
      ])
    #expect(components.suffix(2).allSatisfy { $0["loaded"] as? Bool == false })
    #expect(object["loadFileDataBlockSize"] as? Int == 1075 && object["loadFileSize"] as? Int == 1079)
    #expect(object["loadBlocks"] as? Int == 5 && object["loadBlockSize"] as? Int == 239)
    #expect(object["loadFileDataBlockSHA1"] as? String == Self.librarySHA1)
    #expect(object["loadFileDataBlockSHA256"] as? String == Self.librarySHA256)
  }

  @Test func errors() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tapwire-cap-cli-\(UUID().uuidString).cap")
    defer { try? FileManager.default.removeItem(at: path) }
    let seed = try Data(contentsOf: CLI.root.appendingPathComponent("Corpus/cap/seeds/stored-1.cap"))
    try seed.prefix(500).write(to: path)
    let json = try CLI.run(["cap", "info", "--json", path.path])
    #expect(json.status == 1)
    #expect(json.stdout.contains(#""error": {"code": "missingEndOfCentralDirectory", "offset": 500"#))
    let human = try CLI.run(["cap", "info", path.path])
    #expect(human.status == 1 && human.stderr.contains("missingEndOfCentralDirectory at offset 500"))
    #expect(try CLI.run(["cap", "list"]).status == 2)
    #expect(try CLI.run(["cap", "info"]).status == 2)
    #expect(try CLI.run(["cap", "info", "--block-size", "256", "x.cap"]).status == 2)
  }
}
