// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// `tapwire encode adv`: advertising data built with the BLEAdvertising encoder, checked by
/// decoding the output with `decode --as adv --json`.
@Suite("tapwire encode adv")
struct EncodeAdvTests {
  /// Flags 06; 16-bit UUID list 180F; name "Reader"; TX power -4 dBm; service data 180F = 64;
  /// manufacturer 0x004C = 02 15: each structure by hand, in the documented order.
  @Test func encodesInOrder() throws {
    let result = try CLI.run([
      "encode", "adv", "--name", "Reader", "--uuid16", "180F", "--tx-power", "-4", "--manufacturer",
      "0x004C:0215", "--service-data", "180F:64",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout == "020106" + "03030f18" + "0709526561646572" + "020afc" + "04160f1864" + "05ff4c000215"
        + "\n")
  }

  /// Every option at once: 48 bytes, so `--extended`.
  @Test func roundTripsThroughDecode() throws {
    let encoded = try CLI.run([
      "encode", "adv", "--flags", "05", "--short-name", "TW", "--uuid16", "180F", "--uuid16", "180A",
      "--uuid128", "6e400001-b5a3-f393-e0a9-e50e24dcca9e", "--tx-power", "8", "--appearance", "961",
      "--service-data", "180F:5a", "--manufacturer", "76:0102", "--extended",
    ])
    #expect(encoded.status == 0, "\(encoded.stderr)")
    let hexText = encoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    let decoded = try CLI.run(["decode", "--as", "adv", "--json", hexText])
    #expect(decoded.status == 0, "\(decoded.stdout)")
    let object = try CLI.object(decoded.stdout)
    #expect(object["flags"] as? Int == 5)
    #expect(object["localName"] as? String == "TW")
    #expect(object["localNameComplete"] as? Bool == false)
    #expect(object["txPower"] as? Int == 8)
    #expect(object["appearance"] as? Int == 961)
    #expect(
      object["serviceUUIDs"] as? [String] == [
        "0000180f-0000-1000-8000-00805f9b34fb", "0000180a-0000-1000-8000-00805f9b34fb",
        "6e400001-b5a3-f393-e0a9-e50e24dcca9e",
      ])
    #expect((object["serviceData"] as? [String: String])?["0000180f-0000-1000-8000-00805f9b34fb"] == "5a")
    #expect((object["manufacturerData"] as? [String: String])?["76"] == "0102")
  }

  /// 3 (flags) + 18 (128-bit UUID) + 32 (name) = 53 bytes: over the legacy 31, within 254.
  @Test func legacyBudgetAndExtended() throws {
    let arguments = [
      "encode", "adv", "--name", "a very long reader name indeed", "--uuid128",
      "6e400001-b5a3-f393-e0a9-e50e24dcca9e",
    ]
    let legacy = try CLI.run(arguments)
    #expect(legacy.status == 1)
    #expect(legacy.stdout.isEmpty)
    #expect(legacy.stderr.contains("exceedsBudget at offset 21"))
    #expect(legacy.stderr.contains("53 bytes"))
    #expect(legacy.stderr.contains("use --extended"))
    let extended = try CLI.run(arguments + ["--extended"])
    #expect(extended.status == 0)
    let hexText = extended.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(hexText.count == 53 * 2)
    let object = try CLI.object(try CLI.run(["decode", "--as", "adv", "--json", hexText]).stdout)
    #expect(object["localName"] as? String == "a very long reader name indeed")
  }

  @Test func writesFileAndRejectsBadUsage() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tapwire-adv-\(getpid()).bin")
    defer { try? FileManager.default.removeItem(at: path) }
    let written = try CLI.run(["encode", "adv", "--flags", "none", "--name", "A", "-o", path.path])
    #expect(written.status == 0)
    #expect(try Data(contentsOf: path) == Data([0x02, 0x09, 0x41]))
    let typo = try CLI.run(["encode", "adv", "--nme", "A"])
    #expect(typo.status == 2)
    #expect(typo.stderr.contains("did you mean '--name'?"))
    #expect(try CLI.run(["encode", "adv", "--uuid16", "18"]).status == 2)
    #expect(try CLI.run(["encode", "adv", "--manufacturer", "apple:01"]).status == 2)
    let help = try CLI.run(["encode", "--help"])
    #expect(help.stdout.contains("tapwire encode adv"))
  }
}
