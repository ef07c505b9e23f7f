// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// Issue 34: `tapwire pcsc script` with the `gp` key options runs an applet-update script
/// inside a secure channel to the issuer security domain of `gp_card.py` (whose channel is the
/// independent Python implementation): the card gets every step wrapped (CLA 84, MAC, and
/// encrypted data at C-DECRYPTION), answers through it, and the keys appear only as check
/// values. Without the options the same script stops at its first step with 6982.
extension PCSCTransportTests.GlobalPlatformCardTests {
  static let statusScript = """
    ; GET STATUS of the issuer security domain, then of the applications (none: 6A88)
    80F28002024F00 -> 9000
    80F24002024F00 -> 6A88|9000
    """

  @Test(arguments: [("03", "mac+enc"), ("03", "all"), ("02", "mac+enc")])
  func cliRunsAScriptInsideASecureChannel(scp: String, level: String) async throws {
    let stack = try await GlobalPlatformCardStack(["--scp", scp])
    defer { stack.stop() }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("gp-status-\(scp).apdu").path
    try Self.statusScript.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }

    let plain = try PCSCTransportTests.tapwire([
      "pcsc", "script", "--reader", PCSCStack.reader, "--json", path,
    ])
    #expect(plain.status == 1)
    #expect(plain.stderr.contains("step 1/2 GET STATUS 80f28002024f00 -> 6982 failed"), "\(plain.stderr)")

    let run = try PCSCTransportTests.tapwire(
      ["pcsc", "script", "--reader", PCSCStack.reader, "--key", "test", "--security", level, "--json", path])
    #expect(run.status == 0, "\(run.stderr)")
    let summary = try PCSCTransportTests.object(run.stdout)
    let steps = try #require(summary["steps"] as? [[String: Any]])
    #expect(steps.count == 2)
    // The ISD's GET STATUS entry: E3 { 4F 08 A000000151000000 ... }, unwrapped for the script.
    #expect((steps.first?["data"] as? String)?.lowercased().hasPrefix("e3") == true, "\(run.stdout)")
    #expect((steps.first?["data"] as? String)?.lowercased().contains("4f08a000000151000000") == true)
    #expect(steps.last?["sw"] as? String == "6a88")
    #expect(run.stderr.contains("secure channel: SCP\(scp)"), "\(run.stderr)")
    // Only the well-known key's check values, never the key.
    #expect(!run.stderr.lowercased().contains("404142434445464748494a4b4c4d4e4f"))
    #expect(!run.stdout.lowercased().contains("404142434445464748494a4b4c4d4e4f"))
    // The card got the steps wrapped: CLA 84 with C-MAC (and encrypted data, so not the plain 4F00).
    let received = stack.commandsReceived().filter { $0.hasPrefix("84F2") }
    #expect(received.count == 2, "\(stack.commandsReceived())")
    #expect(received.allSatisfy { !$0.hasSuffix("024F00") })
  }
}

extension PCSCTransportTests.GlobalPlatformCardTests {
  /// Issue 34: `tapwire gp list --kdf` against a card personalised with diversified keys
  /// (`gp_card.py --diversify`, its own Python derivation from the master key and its key
  /// diversification data): the channel opens with the master key and the method; without
  /// `--kdf` the card cryptogram does not match and no EXTERNAL AUTHENTICATE is sent.
  @Test(arguments: [("03", "emv"), ("02", "visa2"), ("03", "kdf3"), ("02", "emv")])
  func cliDiversifiesTheKeys(scp: String, method: String) async throws {
    let stack = try await GlobalPlatformCardStack(["--scp", scp, "--diversify", method])
    defer { stack.stop() }
    let common = ["gp", "list", "--pcsc", PCSCStack.reader, "--key", "test"]
    let plain = try PCSCTransportTests.tapwire(common)
    #expect(plain.status == 1)
    #expect(plain.stderr.contains("cardCryptogramMismatch"), "\(plain.stderr)")
    #expect(!stack.commandsReceived().contains { $0.hasPrefix("8482") })
    let diversified = try PCSCTransportTests.tapwire(common + ["--kdf", method])
    #expect(diversified.status == 0, "\(method): \(diversified.stderr)")
    #expect(diversified.stdout.contains("ISD: a000000151000000 (SECURED)"), "\(diversified.stdout)")
    #expect(diversified.stdout.contains("secure channel: SCP\(scp)"))
    #expect(try stack.triesLeft() == "tries 3")
  }
}
