// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Issue 21 for Wi-Fi tokens: a malformed Credential (WSC 2.0 §12) is listed under
/// `malformedCredentials`; the other credentials still decode.
@Suite("tapwire decode: WSC credentials one by one")
struct WSCCredentialScanCommandTests {
  /// One `application/vnd.wfa.wsc` record, payload at 26: Version, Credential "A" at 31,
  /// Credential 1 at 72 whose MAC Address value at 80 is 5 bytes, Credential "C" at 85.
  static let tokenWithBadMiddleCredential =
    "d217636170706c69636174696f6e2f766e642e7766612e777363104a000110"
    + "100e002510260001011045000141100300020020100f00020008102700016b10200006ffffffffffff"
    + "100e0009102000050102030405"
    + "100e002410260001011045000143100300020001100f000200011027000010200006ffffffffffff"

  @Test func strictListsTheBadCredentialAndFails() throws {
    let result = try CLI.run(["decode", "--as", "ndef", "--json", Self.tokenWithBadMiddleCredential])
    #expect(result.status == 1)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == false)
    let error = try #require(object["error"] as? [String: Any])
    #expect(error["code"] as? String == "attributeInvalidLength")
    #expect(error["offset"] as? Int == 80)
    let records = try #require(object["records"] as? [[String: Any]])
    let token = try #require(records.first?["decoded"] as? [String: Any])
    #expect(token["kind"] as? String == "wifiSimpleConfig")
    let credentials = try #require(token["credentials"] as? [[String: Any]])
    #expect(credentials.map { $0["ssid"] as? String } == ["A", "C"])
    let malformed = try #require(token["malformedCredentials"] as? [[String: Any]])
    #expect(malformed.map { $0["index"] as? Int } == [1])
    #expect((malformed.first?["error"] as? [String: Any])?["offset"] as? Int == 80)
  }

  @Test func lenientWarns() throws {
    let result = try CLI.run([
      "decode", "--as", "ndef", "--json", "--lenient", Self.tokenWithBadMiddleCredential,
    ])
    #expect(result.status == 0)
    let object = try CLI.object(result.stdout)
    #expect(object["ok"] as? Bool == true)
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    #expect(warnings.map { $0["code"] as? String } == ["attributeInvalidLength"])
    #expect(warnings.first?["offset"] as? Int == 80)
  }

  @Test func theTreeShowsTheErrorUnderItsCredential() throws {
    let tree = try CLI.run(["decode", "--as", "ndef", Self.tokenWithBadMiddleCredential])
    #expect(tree.status == 1)
    let lines = tree.stdout.split(separator: "\n").map(String.init)
    let errorLine = try #require(
      lines.firstIndex { $0.contains("error: attributeInvalidLength at offset 80") })
    #expect(lines[errorLine].contains("a malformed Credential"))
    #expect(lines[errorLine + 2].contains("^^ offset 80"))
    #expect(tree.stdout.contains("\"C\""))
  }

  @Test func aValidTokenHasAnEmptyList() throws {
    let encoded = try CLI.run(["encode", "wifi", "MyNet", "pass phrase"]).stdout
    let hexText = encoded.trimmingCharacters(in: .whitespacesAndNewlines)
    let result = try CLI.run(["decode", "--as", "ndef", "--json", hexText])
    #expect(result.status == 0)
    let records = try #require((try CLI.object(result.stdout))["records"] as? [[String: Any]])
    let token = try #require(records.first?["decoded"] as? [String: Any])
    #expect((token["malformedCredentials"] as? [Any])?.isEmpty == true)
    #expect((token["credentials"] as? [[String: Any]])?.first?["ssid"] as? String == "MyNet")
  }
}
