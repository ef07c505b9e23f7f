// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

@Suite("tapwire encode")
struct EncodeCommandTests {
  @Test func uriAndTextHex() throws {
    let result = try CLI.run(["encode", "uri", "https://example.com", "text", "--lang", "en", "Hello"])
    #expect(result.status == 0)
    #expect(result.stdout == "91010c55046578616d706c652e636f6d5101085402656e48656c6c6f\n")
  }

  /// Every record kind encodes, and decoding the output gives back the kinds and values.
  @Test func everyRecordKindRoundTripsThroughDecode() throws {
    let encoded = try CLI.run([
      "encode", "uri", "https://www.nfc.com", "smartposter", "https://example.com", "--title", "en:Ex",
      "--action", "save",
      "external", "example.com:thing", "0102", "aar", "com.example", "wifi", "Lab", "secret12", "bluetooth",
      "00:0D:3C:12:34:56", "Tapwire",
    ])
    #expect(encoded.status == 0, "\(encoded.stderr)")
    let hexText = encoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let decoded = try CLI.run(["decode", "--as", "ndef", "--json", hexText])
    #expect(decoded.status == 0, "\(decoded.stdout)")
    let records = try #require(try CLI.object(decoded.stdout)["records"] as? [[String: Any]])
    let kinds = records.map { ($0["decoded"] as? [String: Any])?["kind"] as? String ?? "-" }
    #expect(kinds == ["uri", "smartPoster", "-", "androidApplication", "wifiSimpleConfig", "bluetoothEP"])
    let poster = try #require(records[1]["decoded"] as? [String: Any])
    #expect(poster["action"] as? String == "saveForLater")
    #expect(records[2]["typeText"] as? String == "example.com:thing")
    #expect(records[2]["payload"] as? String == "0102")
    let wifi = try #require(records[4]["decoded"] as? [String: Any])
    let credential = try #require((wifi["credentials"] as? [[String: Any]])?.first)
    #expect(credential["ssid"] as? String == "Lab")
    #expect(credential["authentication"] as? String == "WPA2-Personal")
    let bluetooth = try #require(records[5]["decoded"] as? [String: Any])
    #expect(bluetooth["address"] as? String == "00:0D:3C:12:34:56")
    #expect((bluetooth["advertising"] as? [String: Any])?["localName"] as? String == "Tapwire")
  }

  @Test func writesBinaryAndChunks() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tapwire-encode-\(getpid()).ndef"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let result = try CLI.run(["encode", "-o", path, "--chunk", "2", "text", "abcdef"])
    #expect(result.status == 0)
    let bytes = try #require(FileManager.default.contents(atPath: path))
    #expect(bytes.first == 0xB1)  // MB, CF, SR, TNF well-known: the first of several chunks
    let decoded = try CLI.object(try CLI.run(["decode", "--as", "ndef", "--json", path]).stdout)
    let record = try #require((decoded["records"] as? [[String: Any]])?.first)
    #expect(record["chunks"] as? Int == 5)
    #expect((record["decoded"] as? [String: Any])?["text"] as? String == "abcdef")
  }

  @Test func commandAPDU() throws {
    let result = try CLI.run(["encode", "capdu", "00", "A4", "04", "00", "A000000151000000", "--le", "256"])
    #expect(result.stdout == "00a4040008a00000015100000000\n")
    let extended = try CLI.run(["encode", "capdu", "00", "B0", "00", "00", "--le", "65536"])
    #expect(extended.stdout == "00b00000000000\n")
  }

  @Test func mistakesExitTwo() throws {
    let unknown = try CLI.run(["encode", "urii", "x"])
    #expect(unknown.status == 2)
    #expect(unknown.stderr.contains("did you mean 'uri'?"))
    let badMime = try CLI.run(["encode", "mime", "nope", "/dev/null"])
    #expect(badMime.status == 2)
    let help = try CLI.run(["help", "encode"])
    #expect(help.stdout.contains("smartposter URI"))
  }
}
