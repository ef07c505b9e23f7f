// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire admin`: usage checked before `tapwire-nfc` runs (the end-to-end runs are in
/// PCSCTests, against pcscd, the virtual card and the test server).
@Suite("tapwire admin: usage")
struct AdminUsageTests {
  @Test(arguments: [
    (["admin", "http://h/s", "--pcs", "x"], "unknown option '--pcs'; did you mean '--pcsc'?"),
    (["admin", "--pcsc", "x"], "admin needs one URL or --script FILE"),
    (["admin", "http://h/a", "http://h/b", "--pcsc", "x"], "tapwire admin: unexpected operand 'http://h/b'"),
    (
      ["admin", "http://h/a", "--script", "Package.swift", "--pcsc", "x"],
      "admin needs one URL or --script FILE"
    ),
    (["admin", "http://h/a", "--script", "f", "--pcsc", "x"], "tapwire admin: --script: no such file: 'f'"),
    (["admin", "http://h/a", "--pcsc", "x", "--device", "y"], "not both"),
    (["admin", "http://h/a", "--aid"], "tapwire admin: --aid: needs a value"),
    (["admin", "http://h/a", "--pcsc", "x", "--resume"], "tapwire admin: --resume: needs a value"),
    (["admni", "http://h/a"], "did you mean 'admin'?"),
  ])
  func badUsageExitsTwo(_ entry: ([String], String)) throws {
    let result = try CLI.run(entry.0)
    #expect(result.status == 2, "\(entry.0)")
    #expect(result.stderr.contains(entry.1), "\(entry.0): \(result.stderr)")
  }

  @Test func helpNamesTheProtocolAndExamples() throws {
    let result = try CLI.run(["admin", "--help"])
    #expect(result.status == 0)
    #expect(result.stdout.contains("GlobalPlatform Amendment B"))
    #expect(result.stdout.contains("X-Admin-Next-URI"))
    #expect(result.stdout.contains("tapwire admin https://ram.example/start --pcsc"))
    #expect(try CLI.run(["help", "admin"]).stdout == result.stdout)
  }

  /// The AID is checked by the option table; the URL's scheme by the reader tool.
  @Test func aBadAIDOrURLIsRefusedByTheReaderTool() throws {
    let aid = try CLI.run(["admin", "http://h/a", "--pcsc", "x", "--aid", "A0"])
    #expect(aid.status == 2)
    #expect(aid.stderr.hasPrefix("tapwire admin: --aid: needs an AID: 5 to 16 bytes of hex"))
    let url = try CLI.run(["admin", "ftp://h/a", "--pcsc", "x"])
    #expect(url.status == 2)
    #expect(url.stderr.contains("is not an http:// or https:// URL"))
  }
}
