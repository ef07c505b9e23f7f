// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire verify signature|sun` (forwarded to `tapwire-nfc verify`), on proxmark3's published
/// signature pairs and NXP AN12196's SUN URLs.
@Suite("tapwire verify")
struct VerifyCommandTests {
  static let ntagUID = "04E10CDA993C80"
  static let ntagSignature = "8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3"
  static let zeroKey = "00000000000000000000000000000000"
  static let fileDataURL =
    "https://www.my424dna.com/?picc_data=FD91EC264309878BE6345CBE53BADF40&enc=CEE9A53E3E463EF1F459635736738962&cmac=ECC1E7F6C6C73BF6"

  @Test func genuineJSON() throws {
    let result = try CLI.run(["verify", "signature", Self.ntagUID, Self.ntagSignature, "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    #expect(object["genuine"] as? Bool == true)
    #expect(object["family"] as? String == "NTAG21x")
    #expect(object["curve"] as? String == "secp128r1")
    #expect((object["source"] as? String)?.contains("AN11350") == true)
  }

  @Test func genuineHuman() throws {
    let result = try CLI.run(["verify", "signature", "04:E1:0C:DA:99:3C:80", Self.ntagSignature])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.hasPrefix("genuine: signed with the NTAG21x key"))
    #expect(result.stdout.contains("clone"))
  }

  @Test func familyNamed() throws {
    let result = try CLI.run([
      "verify", "signature", "--json", "--family", "st25tv", "E00208000A227AAA",
      "FE458A550ACD30B45B9C4D10676FC63E30AC69027217547FBDF04A8F7942AD3B",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(try CLI.object(result.stdout)["family"] as? String == "ST25TV")
    let wrong = try CLI.run([
      "verify", "signature", "--json", "--family", "ST25TA", Self.ntagUID, Self.ntagSignature,
    ])
    #expect(wrong.status == 1)
    let object = try CLI.object(wrong.stdout)
    #expect(object["genuine"] as? Bool == false && object["verdict"] as? String == "notGenuine")
    #expect(object["keysTried"] as? Int == 1)
  }

  @Test func notGenuine() throws {
    var signature = Array(Self.ntagSignature)
    signature[10] = signature[10] == "0" ? "1" : "0"
    let result = try CLI.run(["verify", "signature", Self.ntagUID, String(signature), "--json"])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true && object["genuine"] as? Bool == false)
    #expect(object["verdict"] as? String == "notGenuine")
  }

  @Test func noSignatureAndUnknownLength() throws {
    let zero = try CLI.run([
      "verify", "signature", Self.ntagUID, String(repeating: "00", count: 32), "--json",
    ])
    #expect(zero.status == 1)
    #expect(try CLI.object(zero.stdout)["verdict"] as? String == "noSignature")
    let odd = try CLI.run(["verify", "signature", Self.ntagUID, String(repeating: "11", count: 20)])
    #expect(odd.status == 1)
    #expect(odd.stdout.hasPrefix("unknown family"))
  }

  @Test func signatureUsage() throws {
    for arguments in [
      ["verify", "signature", Self.ntagUID],
      ["verify", "signature", "04XX", Self.ntagSignature],
      ["verify", "signature", Self.ntagUID, Self.ntagSignature, "--family", "NTAG999"],
      ["verify", "signature", Self.ntagUID, Self.ntagSignature, "--bogus"],
      ["verify", "bogus"],
      ["verify"],
    ] {
      let result = try CLI.run(arguments)
      #expect(result.status == 2, "\(arguments)")
      #expect(result.stderr.contains("tapwire"), "\(arguments)")
    }
  }

  @Test("the family list in `tapwire verify --help` is the one tapwire-nfc knows")
  func familyList() throws {
    let help = try CLI.run(["verify", "--help"])
    #expect(help.status == 0)
    let refused = try CLI.run(
      ["verify", "signature", Self.ntagUID, Self.ntagSignature, "--family", "NTAG999"], program: CLI.helper)
    #expect(refused.status == 2)
    // The option table refuses it, listing its choices.
    #expect(refused.stderr.hasPrefix("tapwire verify signature: --family: unknown value 'NTAG999' ("))
    let known = try #require(refused.stderr.split(separator: "'NTAG999' (").last?.split(separator: ")").first)
    let names = known.split(separator: ", ").map(String.init)
    #expect(names.count > 20)
    let helpText = help.stdout.split(whereSeparator: \.isWhitespace).map {
      $0.trimmingCharacters(in: .punctuationCharacters)
    }
    for name in names { #expect(helpText.contains(name), "\(name) missing from the help") }
  }

  @Test func sunValid() throws {
    let result = try CLI.run([
      "verify", "sun", "https://ntag.nxp.com/424?e=EF963FF7828658A599F3041510671E88&c=94EED9EE65337086",
      "--key", Self.zeroKey, "--json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true && object["valid"] as? Bool == true)
    #expect(object["uid"] as? String == "04de5f1eacc040")
    #expect(object["counter"] as? Int == 61)
    #expect(object["mode"] as? String == "aes")
    #expect(object["fileData"] == nil)
  }

  @Test func sunFileData() throws {
    let result = try CLI.run([
      "verify", "sun", Self.fileDataURL, "--meta-key", Self.zeroKey, "--file-key", Self.zeroKey, "--json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try CLI.object(result.stdout)
    #expect(object["fileData"] as? String == String(repeating: "78", count: 16))
    #expect(object["counter"] as? Int == 8)
    let human = try CLI.run(["verify", "sun", Self.fileDataURL, "--key", Self.zeroKey])
    #expect(human.status == 0)
    #expect(human.stdout.contains("valid: aes mode, UID 04958caa5c5e80, read counter 8"))
    #expect(human.stdout.contains("(xxxxxxxxxxxxxxxx)"))
  }

  @Test func sunLRP() throws {
    let result = try CLI.run([
      "verify", "sun",
      "https://x.example/?picc_data=1FCBE61B3E4CAD980CBFDD333E7A4AC4A579569BAFD22C5F&cmac=4231608BA7B02BA9",
      "--key", Self.zeroKey, "--json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let object = try CLI.object(result.stdout)
    #expect(object["mode"] as? String == "lrp" && object["counter"] as? Int == 3)
  }

  @Test("keys are shown only as check values")
  func keysNeverPrinted() throws {
    let key = "2B7E151628AED2A6ABF7158809CF4F3C"
    for json in [true, false] {
      let result = try CLI.run(["verify", "sun", Self.fileDataURL, "--key", key] + (json ? ["--json"] : []))
      #expect(result.status == 1)
      for text in [result.stdout, result.stderr] {
        #expect(!text.uppercased().contains(key))
        #expect(!text.uppercased().contains(String(key.prefix(12))))
      }
      #expect(result.stdout.contains(json ? "keyCheckValues" : "key check values"))
    }
  }

  @Test func sunTamperedAndMalformed() throws {
    let tampered = Self.fileDataURL.replacingOccurrences(of: "enc=CEE9", with: "enc=CEE8")
    let result = try CLI.run(["verify", "sun", tampered, "--key", Self.zeroKey, "--json"])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["valid"] as? Bool == false && object["reason"] as? String == "macMismatch")

    let malformed = try CLI.run([
      "verify", "sun", "https://x/?e=ZZ&c=94EED9EE65337086", "--key", Self.zeroKey, "--json",
    ])
    #expect(malformed.status == 1)
    let failure = try CLI.object(malformed.stdout)
    #expect(failure["ok"] as? Bool == false)
    let error = try #require(failure["error"] as? [String: Any])
    #expect(error["code"] as? String == "invalidHex" && error["offset"] as? Int == 13)
  }

  @Test("parameter names and the MAC input given by options")
  func sunOptions() throws {
    let renamed = try CLI.run([
      "verify", "sun", "https://x.example/t?p=EF963FF7828658A599F3041510671E88&m=94EED9EE65337086", "--key",
      Self.zeroKey, "--picc-param", "p", "--mac-param", "m", "--json",
    ])
    #expect(renamed.status == 0, "\(renamed.stderr)")
    #expect(try CLI.object(renamed.stdout)["counter"] as? Int == 61)
    let standardNames = try CLI.run([
      "verify", "sun", "https://x.example/t?p=EF963FF7828658A599F3041510671E88&m=94EED9EE65337086", "--key",
      Self.zeroKey,
    ])
    #expect(standardNames.status == 1)
    #expect(standardNames.stderr.contains("missingParameter"))
    for (input, status) in [("enc", 0), ("auto", 0), ("none", 1), ("picc", 1), ("0", 1)] as [(String, Int32)]
    {
      let result = try CLI.run([
        "verify", "sun", Self.fileDataURL, "--key", Self.zeroKey, "--mac-input", input,
      ])
      #expect(result.status == status, "--mac-input \(input)")
    }
  }

  @Test func sunUsage() throws {
    for arguments in [
      ["verify", "sun", Self.fileDataURL],
      ["verify", "sun", Self.fileDataURL, "--key", "0011"],
      ["verify", "sun", Self.fileDataURL, "--key", Self.zeroKey, "--meta-key", Self.zeroKey],
      ["verify", "sun", "--key", Self.zeroKey],
      ["verify", "sun", Self.fileDataURL, "--key", Self.zeroKey, "--mac-input", "middle"],
      ["verify", "sun", Self.fileDataURL, "--key", Self.zeroKey, "--picc-param", "a=b"],
    ] {
      let result = try CLI.run(arguments)
      #expect(result.status == 2, "\(arguments)")
    }
  }
}

/// `tapwire verify ndef` on messages `Tests/TagTrustTests/ndef_signatures.py` signs with
/// python3-cryptography (fresh keys and X.509 chains each run).
@Suite("tapwire verify ndef")
struct VerifyNDEFCommandTests {
  static func generate() throws -> (URL, [String: [String]]) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "verify-ndef-\(UUID().uuidString)")
    let script = CLI.root.appendingPathComponent("Tests/TagTrustTests/ndef_signatures.py")
    let result = try CLI.run([script.path, folder.path], program: URL(fileURLWithPath: "/usr/bin/python3"))
    try #require(result.status == 0, "\(result.stderr)")
    var expected: [String: [String]] = [:]
    for line in result.stdout.split(separator: "\n") {
      let fields = line.split(separator: " ")
      expected[String(fields[0])] = fields[1].split(separator: ",").map(String.init)
    }
    return (folder, expected)
  }

  @Test("each message's verdicts and exit status, in JSON")
  func verdicts() throws {
    let (folder, expected) = try Self.generate()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(expected.count >= 20)
    let anchor = folder.appendingPathComponent("ca.pem").path
    for (file, verdicts) in expected {
      let result = try CLI.run([
        "verify", "ndef", folder.appendingPathComponent(file).path, "--trust", anchor, "--json",
      ])
      let object = try CLI.object(result.stdout)
      let signatures = try #require(object["signatures"] as? [[String: Any]])
      #expect(signatures.map { $0["verdict"] as? String } == verdicts, "\(file)")
      let everyVerified = verdicts.filter { $0 != "marker" }.allSatisfy { $0 == "verified" }
      #expect(result.status == (everyVerified ? 0 : 1), "\(file)")
      #expect(object["verified"] as? Bool == everyVerified, "\(file)")
    }
  }

  @Test func humanOutputAndOtherAnchor() throws {
    let (folder, _) = try Self.generate()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("two-sections.ndef").path
    let good = try CLI.run(["verify", "ndef", file, "--trust", folder.appendingPathComponent("ca.pem").path])
    #expect(good.status == 0, "\(good.stderr)")
    #expect(good.stdout.contains("record 1 (covers record 0): verified (ECDSA-P256, 1 certificate)"))
    #expect(good.stdout.contains("record 4 (covers records 2-3): verified"))
    let other = try CLI.run([
      "verify", "ndef", file, "--trust", folder.appendingPathComponent("other-ca.pem").path,
    ])
    #expect(other.status == 1)
    #expect(other.stdout.contains("untrustedChain"))
  }

  @Test func unsignedAndMalformedMessages() throws {
    let (folder, _) = try Self.generate()
    defer { try? FileManager.default.removeItem(at: folder) }
    let anchor = folder.appendingPathComponent("ca.pem").path
    let unsigned = folder.appendingPathComponent("unsigned.ndef")
    try Data("d1010855016e66632e636f6d\n".utf8).write(to: unsigned)
    let none = try CLI.run(["verify", "ndef", unsigned.path, "--trust", anchor])
    #expect(none.status == 1)
    #expect(none.stdout.contains("no Signature record"))
    let broken = folder.appendingPathComponent("broken.ndef")
    try Data([0xD1, 0x01, 0x30, 0x55]).write(to: broken)
    let result = try CLI.run(["verify", "ndef", broken.path, "--trust", anchor, "--json"])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == false && object["error"] is [String: Any])
  }

  @Test func usage() throws {
    let (folder, _) = try Self.generate()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("two-sections.ndef").path
    for arguments in [
      ["verify", "ndef", file],
      ["verify", "ndef", "--trust", folder.appendingPathComponent("ca.pem").path],
      ["verify", "ndef", file, "--trust", file],
      ["verify", "ndef", file, "--trust", "/nonexistent.pem"],
    ] {
      #expect(try CLI.run(arguments).status == 2, "\(arguments)")
    }
  }
}
