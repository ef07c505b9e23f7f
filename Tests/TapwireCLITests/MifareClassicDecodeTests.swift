// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire decode` of MIFARE Classic dumps: libnfc `.mfd`, Proxmark3 binary and JSON,
/// Flipper Zero `.nfc`, each written here from one 1K card image built by hand.
@Suite("tapwire decode: MIFARE Classic dumps")
struct MifareClassicDecodeTests {
  /// A 1K card formatted as AN1304 says, holding a URI record `https://tapwire.example`:
  /// block 0 UID 01020304 BCC 04 SAK 08 ATQA 0004; MAD `14 01 03E1…`; MAD trailer
  /// `A0A1A2A3A4A5 78 77 88 C1 FF…`; NFC trailers `D3F7D3F7D3F7 7F 07 88 40 FF…`;
  /// block 4 `03 14 D1 01 10 55 04 "tapwire.example" FE`.
  static let image: [UInt8] = {
    var image = [UInt8](repeating: 0, count: 1024)
    func put(_ offset: Int, _ bytes: [UInt8]) {
      image.replaceSubrange(offset..<offset + bytes.count, with: bytes)
    }
    put(0, [0x01, 0x02, 0x03, 0x04, 0x04, 0x08, 0x04, 0x00])
    put(16, [0x14, 0x01] + Array(repeating: [0x03, 0xE1], count: 15).flatMap { $0 })
    put(48, [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0x78, 0x77, 0x88, 0xC1] + Array(repeating: 0xFF, count: 6))
    for sector in 1..<16 {
      put(
        sector * 64 + 48,
        [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7, 0x7F, 0x07, 0x88, 0x40] + Array(repeating: 0xFF, count: 6))
    }
    let uri = Array("tapwire.example".utf8)
    let record = [0xD1, 0x01, UInt8(uri.count + 1), 0x55, 0x04] + uri
    put(64, [0x03, UInt8(record.count)] + record + [0xFE])
    return image
  }()

  static func write(_ name: String, _ data: Data) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("tapwire-mfc-\(getpid())-\(name)")
    try data.write(to: url)
    return url
  }

  static func hex(_ bytes: ArraySlice<UInt8>, separator: String = "") -> String {
    bytes.map { String(format: "%02X", $0) }.joined(separator: separator)
  }

  @Test func mfdFile() throws {
    let url = try Self.write("card.mfd", Data(Self.image))
    defer { try? FileManager.default.removeItem(at: url) }
    let result = try CLI.run(["decode", "--json", url.path])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(
      result.stderr.contains("input read as a libnfc .mfd image of a MIFARE Classic card, decoded as mfc"))
    let object = try CLI.object(result.stdout)
    #expect(object["format"] as? String == "mfc")
    let card = try #require(object["card"] as? [String: Any])
    #expect(card["kind"] as? String == "1k" && card["sectorCount"] as? Int == 16)
    let manufacturer = try #require(object["manufacturer"] as? [String: Any])
    #expect(manufacturer["uid"] as? String == "01020304" && manufacturer["bccValid"] as? Bool == true)
    let mad = try #require(object["mad"] as? [String: Any])
    #expect(mad["ndefSectors"] as? [Int] == Array(1...15))
    #expect((mad["mad1"] as? [String: Any])?["crc"] as? Int == 0x14)
    #expect(mad["version"] as? Int == 1)
    let sectors = try #require(object["sectors"] as? [[String: Any]])
    #expect(sectors.count == 16)
    let trailer = try #require(sectors[1]["trailer"] as? [String: Any])
    #expect(trailer["accessBits"] as? String == "7f0788")
    #expect(trailer["keyA"] as? String == "d3f7d3f7d3f7")
    #expect(trailer["consistent"] as? Bool == true)
    let conditions = try #require(trailer["conditions"] as? [[String: Any]])
    #expect(conditions[0]["bits"] as? String == "000" && conditions[0]["write"] as? String == "keyAOrB")
    #expect(
      conditions[3]["bits"] as? String == "011" && conditions[3]["accessBitsWrite"] as? String == "keyB")
    #expect(sectors[1]["aidName"] as? String == "ndef")
    let madConditions = try #require(
      (sectors[0]["trailer"] as? [String: Any])?["conditions"] as? [[String: Any]])
    #expect(madConditions[1]["bits"] as? String == "100" && madConditions[1]["write"] as? String == "keyB")
    let ndef = try #require(object["ndef"] as? [String: Any])
    let records = try #require(ndef["records"] as? [[String: Any]])
    #expect((records.first?["decoded"] as? [String: Any])?["uri"] as? String == "https://tapwire.example")
    #expect(object["maxNDEFSize"] as? Int == 716 && object["readOnly"] as? Bool == false)

    // Proxmark3 binary: the same bytes under another name, found by content.
    let bin = try Self.write("card.bin", Data(Self.image))
    defer { try? FileManager.default.removeItem(at: bin) }
    let guessed = try CLI.run(["decode", "--json", bin.path])
    #expect(guessed.stdout == result.stdout)
    #expect(guessed.stderr.contains("input decoded as mfc (guessed from the content"))

    // The tree: sectors, access conditions, MAD and the record.
    let tree = try CLI.run(["decode", url.path])
    #expect(tree.status == 0)
    for line in [
      "MIFARE Classic 1K", "MAD", "NDEF sectors 1, 2, 3", "sector 1", "C1C2C3 000", "https://tapwire.example",
    ] {
      #expect(tree.stdout.contains(line), "\(line)")
    }
  }

  @Test func proxmarkJSON() throws {
    let blocks = (0..<64).map { "\"\($0)\": \"\(Self.hex(Self.image[$0 * 16..<$0 * 16 + 16]))\"" }
    let text =
      "{\"Created\": \"proxmark3\", \"FileType\": \"mfc v2\", \"blocks\": {\(blocks.joined(separator: ", "))}}"
    let url = try Self.write("card.json", Data(text.utf8))
    defer { try? FileManager.default.removeItem(at: url) }
    let mfd = try Self.write("same.mfd", Data(Self.image))
    defer { try? FileManager.default.removeItem(at: mfd) }
    let result = try CLI.run(["decode", "--json", url.path])
    #expect(result.status == 0, "\(result.stdout)")
    #expect(result.stderr.contains("Proxmark3 JSON dump of a MIFARE Classic card"))
    #expect(result.stdout == (try CLI.run(["decode", "--json", mfd.path])).stdout)
  }

  /// Flipper Zero writes `??` for the bytes it could not read: here key A of every trailer.
  @Test func flipperFile() throws {
    var lines = [
      "Filetype: Flipper NFC device", "Version: 4", "Device type: Mifare Classic", "UID: 01 02 03 04",
      "Mifare Classic type: 1K", "Data format version: 2",
    ]
    for block in 0..<64 {
      var fields = Self.image[block * 16..<block * 16 + 16].map { String(format: "%02X", $0) }
      if block % 4 == 3 { for i in 0..<6 { fields[i] = "??" } }
      lines.append("Block \(block): " + fields.joined(separator: " "))
    }
    let result = try CLI.run(["decode", "--json"], stdin: lines.joined(separator: "\n") + "\n")
    #expect(result.status == 0, "\(result.stdout)")
    #expect(
      result.stderr.contains(
        "Flipper Zero NFC file of a MIFARE Classic card, decoded as mfc (96 bytes marked unknown"))
    let object = try CLI.object(result.stdout)
    let sectors = try #require(object["sectors"] as? [[String: Any]])
    #expect((sectors[1]["trailer"] as? [String: Any])?["keyA"] as? String == "000000000000")
    #expect((object["mad"] as? [String: Any])?["ndefSectors"] as? [Int] == Array(1...15))
    // Out of order and short blocks are errors with the line's offset.
    let bad = lines.prefix(6).joined(separator: "\n") + "\nBlock 1: 00\n"
    let failed = try CLI.run(["decode", "--json"], stdin: bad)
    #expect(failed.status == 1)
    let error = try #require((try CLI.object(failed.stdout))["error"] as? [String: Any])
    #expect(error["code"] as? String == "invalidDumpPage")
    let short = lines.prefix(6 + 21).joined(separator: "\n") + "\n"
    let size = try CLI.run(["decode", "--json"], stdin: short)
    #expect(
      ((try CLI.object(size.stdout))["error"] as? [String: Any])?["code"] as? String == "invalidDumpSize")
  }

  /// A broken MAD CRC: strict shows the layout with `"ok": false`; lenient reads on.
  @Test func badMADCRC() throws {
    var image = Self.image
    image[16] = 0x15
    let url = try Self.write("crc.mfd", Data(image))
    defer { try? FileManager.default.removeItem(at: url) }
    let strict = try CLI.run(["decode", "--json", url.path])
    #expect(strict.status == 1)
    let object = try CLI.object(strict.stdout)
    #expect(object["ok"] as? Bool == false)
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == "madCRCMismatch" && error["offset"] as? Int == 16)
    #expect((object["sectors"] as? [Any])?.count == 16)
    let lenient = try CLI.run(["decode", "--json", "--lenient", url.path])
    #expect(lenient.status == 0)
    let warnings = try #require((try CLI.object(lenient.stdout))["warnings"] as? [[String: Any]])
    #expect(warnings.first?["code"] as? String == "madCRCMismatch")
  }
}
