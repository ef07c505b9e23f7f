// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@Suite("tapwire decode (every format)")
struct DecodeFormatsCommandTests {
  /// Every seed of every format decodes with `--as` to an `ok` object of that format.
  @Test(arguments: [
    ("capdu", "capdu"), ("rapdu", "rapdu"), ("bertlv", "bertlv"), ("adv", "adv"), ("hci", "hci"),
    ("btsnoop", "btsnoop"),
  ])
  func seedsDecode(_ entry: (String, String)) throws {
    let folder = CLI.root.appendingPathComponent("Corpus/\(entry.0)/seeds")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(!files.isEmpty)
    for file in files {
      let result = try CLI.run(["decode", "--as", entry.1, "--json", "Corpus/\(entry.0)/seeds/\(file)"])
      #expect(result.status == 0, "\(file): \(result.stdout)")
      let object = try CLI.object(result.stdout)
      #expect(object["ok"] as? Bool == true)
      #expect(object["format"] as? String == entry.1)
    }
  }

  @Test(arguments: [
    ("9000", "rapdu", "(guessed"), ("d00000", "ndef", "(guessed"),
    ("Corpus/btsnoop/seeds/h4-advertising.btsnoop", "btsnoop", "(from the file extension .btsnoop;"),
    ("Corpus/hci/seeds/legacy-adv-ind.bin", "hci", "(guessed"),
  ])
  func formatIsGuessedAndStated(_ entry: (String, String, String)) throws {
    let result = try CLI.run(["decode", "--json", entry.0])
    #expect(result.stderr.contains("decoded as \(entry.1) \(entry.2)"))
    #expect(try CLI.object(result.stdout)["format"] as? String == entry.1)
  }

  /// Every tag image seed decodes as the type its name starts with, with the contract's fields.
  @Test func tagImages() throws {
    let folder = CLI.root.appendingPathComponent("Corpus/tags/seeds")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    #expect(files.count >= 16)
    for file in files {
      let format = String(file.prefix(3))
      let result = try CLI.run(["decode", "--as", format, "--json", "--lenient", "Corpus/tags/seeds/\(file)"])
      #expect(result.status == 0, "\(file): \(result.stdout)")
      let object = try CLI.object(result.stdout)
      #expect(object["format"] as? String == format)
      #expect(object["capabilityContainer"] is [String: Any])
      #expect(object["tlvs"] is [Any])
      #expect(object["dataAreaSize"] is Int && object["maxNDEFSize"] is Int && object["readOnly"] is Bool)
      #expect(file.contains("readonly") == (object["readOnly"] as? Bool == true), "\(file)")
      if file.contains("uri") || file.contains("smartposter") {
        let ndef = try #require(object["ndef"] as? [String: Any], "\(file)")
        #expect((ndef["records"] as? [Any])?.isEmpty == false)
      }
    }
  }

  @Test func commandAPDUFields() throws {
    let result = try CLI.run(["decode", "--as", "capdu", "--json", "00A4040007A000000151000000"])
    let object = try CLI.object(result.stdout)
    #expect(object["case"] as? String == "4S")
    #expect(object["ins"] as? String == "a4")
    #expect(object["data"] as? String == "a0000001510000")
    #expect(object["ne"] as? Int == 256)
    #expect(object["command"] as? String == "SELECT")
    #expect(object["channel"] as? Int == 0)
    let bad = try CLI.run(["decode", "--as", "capdu", "--json", "00A40400" + "05A0"])
    #expect(bad.status == 1)
    let error = try #require(try CLI.object(bad.stdout)["error"] as? [String: Any])
    #expect(error["code"] is String)
    #expect(error["offset"] as? Int == 4)
  }

  @Test func responseAPDUMeaning() throws {
    let result = try CLI.run(["decode", "--as", "rapdu", "6A82"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("0000  6a 82                    SW: 6A82 = file or application not found"))
    #expect(result.stdout.contains("                                 category: checkingError"))
    let json = try CLI.object(try CLI.run(["decode", "--as", "rapdu", "--json", "0102 63C2"]).stdout)
    #expect(json["data"] as? String == "0102")
    #expect(json["category"] as? String == "warning")
  }

  @Test func bertlvTree() throws {
    let result = try CLI.run(["decode", "--as", "bertlv", "--json", "6F 05 84 03 A0 00 01"])
    let object = try CLI.object(result.stdout)
    let tlvs = try #require(object["tlvs"] as? [[String: Any]])
    #expect(tlvs.first?["tag"] as? String == "6f")
    let children = try #require(tlvs.first?["children"] as? [[String: Any]])
    #expect(children.first?["value"] as? String == "a00001")
    #expect(children.first?["offset"] as? Int == 2)
  }

  @Test func advertisingFields() throws {
    // Flags 06, complete name "TW", 16-bit UUID list 180F, service data 180F = 5A,
    // manufacturer data company 0x004C.
    let hexText = "020106 03095457 03030F18 04160F185A 05FF4C000102"
    let object = try CLI.object(try CLI.run(["decode", "--as", "adv", "--json", hexText]).stdout)
    #expect(object["flags"] as? Int == 6)
    #expect(object["localName"] as? String == "TW")
    #expect(object["localNameComplete"] as? Bool == true)
    #expect(object["serviceUUIDs"] as? [String] == ["0000180f-0000-1000-8000-00805f9b34fb"])
    #expect((object["serviceData"] as? [String: String])?["0000180f-0000-1000-8000-00805f9b34fb"] == "5a")
    #expect((object["manufacturerData"] as? [String: String])?["76"] == "0102")
  }

  /// NDEF records of known types carry `decoded` objects with the contract's fields.
  @Test(arguments: [
    ("D1 01 08 54 02 65 6E 48 65 6C 6C 6F", "text", "text", "Hello"),
    ("D1 01 08 55 01 6E 66 63 2E 63 6F 6D", "uri", "uri", "http://www.nfc.com"),
    (
      "D1 02 1F 53 70 91 01 08 55 02 6E 66 63 2E 63 6F 6D 11 01 08 54 02 65 6E 48 65 6C 6C 6F 51 03 01 61 63 74 00",
      "smartPoster", "action", "doAction"
    ),
    (
      "D4 0F 0B 61 6E 64 72 6F 69 64 2E 63 6F 6D 3A 70 6B 67 63 6F 6D 2E 65 78 61 6D 70 6C 65",
      "androidApplication", "package", "com.example"
    ),
    (
      "D2 20 16 61 70 70 6C 69 63 61 74 69 6F 6E 2F 76 6E 64 2E 62 6C 75 65 74 6F 6F 74 68 2E 65 70 2E 6F 6F 62"
        + " 16 00 56 34 12 3C 0D 00 08 09 54 61 70 77 69 72 65 04 0D 00 04 20",
      "bluetoothEP", "address", "00:0D:3C:12:34:56"
    ),
  ])
  func ndefDecodedObjects(_ entry: (String, String, String, String)) throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", entry.0])
    #expect(result.status == 0, "\(result.stdout)")
    let object = try CLI.object(result.stdout)
    let record = try #require((object["records"] as? [[String: Any]])?.first)
    let decoded = try #require(record["decoded"] as? [String: Any])
    #expect(decoded["kind"] as? String == entry.1)
    #expect(decoded[entry.2] as? String == entry.3)
  }

  @Test func handoverSelectDecoded() throws {
    // Hs 1.2 with one ac (active, reference "0"), then a media record with id "0".
    let message = "91 02 0A 48 73 12 D1 02 04 61 63 01 01 30 00  5A 03 02 01 61 2F 62 30 01 02"
    let object = try CLI.object(try CLI.run(["decode", "--as", "ndef", "--json", message]).stdout)
    let record = try #require((object["records"] as? [[String: Any]])?.first)
    let decoded = try #require(record["decoded"] as? [String: Any])
    #expect(decoded["kind"] as? String == "handoverSelect")
    #expect(decoded["version"] as? String == "1.2")
    let carriers = try #require(decoded["alternativeCarriers"] as? [[String: Any]])
    #expect(carriers.first?["powerState"] as? String == "active")
    #expect(carriers.first?["dataReference"] as? String == "30")
    #expect(decoded["collisionResolution"] is NSNull)
    #expect((decoded["records"] as? [Any])?.count == 1)
  }

  @Test func recordTypeErrorsFailStrictAndWarnLenient() throws {
    // A URI record with reserved identifier code 0x24.
    let strict = try CLI.run(["decode", "--as", "ndef", "--json", "D1 01 02 55 24 61"])
    #expect(strict.status == 1)
    #expect(strict.stdout.contains("\"uriReservedPrefix\""))
    let lenient = try CLI.run(["decode", "--as", "ndef", "--json", "--lenient", "D1 01 02 55 24 61"])
    #expect(lenient.status == 0)
    let warnings = try #require(try CLI.object(lenient.stdout)["warnings"] as? [[String: Any]])
    #expect(warnings.first?["code"] as? String == "uriReservedPrefix")
    #expect(warnings.first?["offset"] as? Int == 4)
  }
}
