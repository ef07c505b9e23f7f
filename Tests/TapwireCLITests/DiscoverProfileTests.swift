// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire discover --btsnoop FILE --profile FILE`: readers recognized by the profiles of a
/// reader-profile file (Tests/Fixtures/reader-profiles.json) instead of the example profile.
@Suite("discover --profile")
struct DiscoverProfileTests {
  static let capture = "Tests/Fixtures/reader-capture.btsnoop"
  static let profiles = "Tests/Fixtures/reader-profiles.json"

  /// The readers of the last non-empty `readersChanged` event, by serial (at the end of a
  /// capture every reader is lost, so `scanEnded` lists none).
  static func lastReaders(_ result: CLI.Result) throws -> [String: [String: Any]] {
    let events = try result.stdout.split(separator: "\n").map { try CLI.object(String($0)) }
    #expect(events.last?["event"] as? String == "scanEnded")
    let lists = events.compactMap {
      $0["event"] as? String == "readersChanged" ? $0["readers"] as? [[String: Any]] : nil
    }
    let readers = try #require(lists.last { !$0.isEmpty })
    var bySerial: [String: [String: Any]] = [:]
    for reader in readers { bySerial[try #require(reader["serial"] as? String)] = reader }
    return bySerial
  }

  @Test func customProfilesFindTheirReaders() throws {
    let result = try CLI.run([
      "discover", "--btsnoop", Self.capture, "--profile", Self.profiles, "--timeout", "5", "--json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let readers = try Self.lastReaders(result)
    #expect(readers.keys.sorted() == ["X1234", "a1b2c3d4e5f6"])
    #expect(readers["a1b2c3d4e5f6"]?["batteryLevel"] as? Int == 75)
    #expect(readers["a1b2c3d4e5f6"]?["profile"] as? String == "Acme pocket reader")
    #expect(readers["a1b2c3d4e5f6"]?["address"] as? String == "C0:AA:00:00:00:01")
    #expect(readers["X1234"]?["batteryLevel"] as? Int == 40)
    #expect(readers["X1234"]?["profile"] as? String == "Bolt reader")
    #expect(readers["X1234"]?["localName"] as? String == "BOLT-X1234")
  }

  @Test func withoutAProfileTheExampleProfileIsUsed() throws {
    let result = try CLI.run(["discover", "--btsnoop", Self.capture, "--timeout", "5", "--json"])
    #expect(result.status == 0, "\(result.stderr)")
    let readers = try Self.lastReaders(result)
    #expect(readers.keys.sorted() == ["00012345"])
    #expect(readers["00012345"]?["batteryLevel"] as? Int == 90)
  }

  @Test func savedSerialWithAProfile() throws {
    let result = try CLI.run([
      "discover", "--btsnoop", Self.capture, "--profile", Self.profiles, "--serial", "X1234",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("X1234  C0:BB:00:00:00:02"))
    let missing = try CLI.run([
      "discover", "--btsnoop", Self.capture, "--profile", Self.profiles, "--serial", "00012345",
    ])
    #expect(missing.status == 1)
    #expect(missing.stdout == "not found\n")
  }

  static let serial =
    #""serial": {"source": "manufacturerData", "offset": 1, "count": 6, "format": "hexadecimal"}"#

  /// Malformed files: each is a typed error naming the field, exit status 2.
  static let malformed: [(String, String)] = [
    (
      #"{"profiles": [{"name": "A", "companyID": 65535, "colour": "red", \#(serial)}]}"#,
      "profiles[0].colour: unknown field"
    ),
    (#"{"profiles": [{"name": 7, "companyID": 65535, \#(serial)}]}"#, "profiles[0].name: needs a string"),
    (#"{"profiles": [{"name": "A", "companyID": 65535}]}"#, "profiles[0].serial: missing field"),
    (
      #"{"profiles": [{"name": "A", "companyID": 65536, \#(serial)}]}"#,
      "profiles[0].companyID: 65536 is out of range 0...65535"
    ),
    (
      #"{"profiles": [{"name": "A", "companyID": true, \#(serial)}]}"#,
      "profiles[0].companyID: needs an integer or a \"0x...\" string"
    ),
    (
      #"{"profiles": [{"name": "A", "serial": {"source": "localName", "offset": 300, "format": "ascii"}}]}"#,
      "profiles[0].serial.offset: 300 is out of range 0...254"
    ),
    (
      #"{"profiles": [{"name": "A", "serial": {"source": "localName", "offset": 1.5, "format": "ascii"}}]}"#,
      "profiles[0].serial.offset: needs an integer"
    ),
    (
      #"{"profiles": [{"name": "A", "serial": {"source": "manufacturerData", "format": "ascii"}}]}"#,
      "profiles[0].serial.company: missing (and the profile has no companyID)"
    ),
    (
      #"{"profiles": [{"name": "A", "serial": {"source": "localName", "format": "base64"}}]}"#,
      "profiles[0].serial.format: unknown format \"base64\""
    ),
    (
      #"{"profiles": [{"name": "A", "companyID": "0xFFFF", \#(serial), "battery": {"source": "manufacturerData", "offset": 7, "count": 1, "format": "ascii"}}]}"#,
      "profiles[0].battery.format: a battery level needs unsignedLittleEndian or unsignedBigEndian"
    ),
    (
      #"{"profiles": [{"name": "A", "serviceUUID": "18O", \#(serial)}]}"#,
      "profiles[0].serviceUUID: \"18O\" is not a UUID"
    ),
    (#"{"profiles": []}"#, "profiles: is empty"),
    (#"{"version": 2, "profiles": []}"#, "version: unsupported version (only 1)"),
    (#"{"profiles": [{"name": "A",}"#, "not valid JSON"),
  ]

  @Test(arguments: malformed) func malformedFileIsATypedError(json: String, message: String) throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("tapwire-profile-\(UUID()).json")
    try Data(json.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try CLI.run(["discover", "--btsnoop", Self.capture, "--profile", file.path])
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.hasPrefix("tapwire: profile \(file.path): \(message)"), "\(result.stderr)")
  }

  @Test func missingFileOrValueIsAUsageError() throws {
    let missing = try CLI.run([
      "discover", "--btsnoop", Self.capture, "--profile", "/nonexistent/profiles.json",
    ])
    #expect(missing.status == 2)
    #expect(
      missing.stderr.hasPrefix("tapwire discover: --profile: no such file: '/nonexistent/profiles.json'"))
    #expect(try CLI.run(["discover", "--btsnoop", Self.capture, "--profile"]).status == 2)
  }

  @Test func helpShowsTheOption() throws {
    let result = try CLI.run(["help", "discover"])
    #expect(result.stdout.contains("[--profile FILE]"))
  }
}
