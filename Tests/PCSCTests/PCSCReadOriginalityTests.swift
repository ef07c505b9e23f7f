// SPDX-License-Identifier: Apache-2.0
import Foundation
import NFCReaderPCSC
import Testing

/// `tapwire read --pcsc` with the originality verdict: READ_SIG (`3C 00`) through the
/// reader's raw-frame route (ACS direct transmit here) to `tapwire-vcard`'s simulated tag,
/// through real pcscd and vpcd: a genuine published UID and signature pair, a made-up
/// signature, a malformed answer (no signature, the read goes on), and a reader profile
/// without a raw-frame route (no READ_SIG, no verdict).
extension PCSCTransportTests {
  /// proxmark3's published NTAG21x pair (the one `tapwire simulate --tag ntag215-genuine` uses).
  static let genuineUID = "04E10CDA993C80"
  static let genuineSignature = "8B76052EE42F5567BEB53238B3E3F9950707C0DCC956B5C5EFCFDB709B2D82B3"

  /// Inserts `line` (an `insert storage` line's words after `storage`) and reads it with
  /// `tapwire read --pcsc ... --json` plus `extra` (the vpcd reader's name matches no vendor:
  /// `--reader-profile acs` says it passes raw frames by direct transmit).
  static func readStorage(
    _ stack: PCSCStack, _ line: String, _ extra: [String] = ["--reader-profile", "acs"]
  ) async throws -> Run {
    _ = try stack.send("remove")
    _ = try await PCSCContext().waitForRemoval(from: PCSCStack.reader, timeout: .seconds(10))
    #expect(try stack.send("insert storage " + line) == "inserted")
    _ = try #require(try await PCSCContext().waitForCard(in: PCSCStack.reader, timeout: .seconds(10)))
    return try Self.tapwire(["read", "--pcsc", PCSCStack.reader, "--timeout", "10", "--json"] + extra)
  }

  @Test func cliReadAddsTheOriginalityVerdictOverPCSC() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }

    let genuine = try await Self.readStorage(
      stack, "ntag215 acs uid \(Self.genuineUID) signature \(Self.genuineSignature)")
    #expect(genuine.status == 0, "\(genuine.stderr)")
    let object = try Self.object(genuine.stdout)
    #expect(object["format"] as? String == "t2t")
    let verdict = try #require(object["originality"] as? [String: Any], "\(genuine.stdout)")
    #expect(verdict["genuine"] as? Bool == true)
    #expect(verdict["verdict"] as? String == "genuine")
    #expect(verdict["family"] as? String == "NTAG21x")
    #expect((verdict["uid"] as? String)?.uppercased() == Self.genuineUID)
    #expect((verdict["signature"] as? String)?.uppercased() == Self.genuineSignature)

    let dump = try Self.tapwire([
      "read", "--pcsc", PCSCStack.reader, "--reader-profile", "acs", "--timeout", "10", "--dump", "--json",
    ])
    #expect(dump.status == 0, "\(dump.stderr)")
    #expect(
      (try Self.object(dump.stdout)["originality"] as? [String: Any])?["verdict"] as? String == "genuine")

    let madeUp = try await Self.readStorage(stack, "ntag213 acs")
    #expect(madeUp.status == 0, "\(madeUp.stderr)")
    let notGenuine = try #require(try Self.object(madeUp.stdout)["originality"] as? [String: Any])
    #expect(notGenuine["genuine"] as? Bool == false)
    #expect(notGenuine["verdict"] as? String == "notGenuine")

    // A READ_SIG answer of one byte: no signature, and the read still succeeds.
    let refused = try await Self.readStorage(stack, "ntag215 acs signature 00")
    #expect(refused.status == 0, "\(refused.stderr)")
    let none = try #require(try Self.object(refused.stdout)["originality"] as? [String: Any])
    #expect(none["genuine"] as? Bool == false)
    #expect(none["verdict"] as? String == "noSignature")
    #expect(none["refused"] as? Bool == true)
    #expect(none["signature"] == nil)

    // No raw-frame route: the generic profile (the reader's name matches no vendor), and ACS's
    // with firmware that answers 6A81 to direct transmit. No READ_SIG, no verdict, the read works.
    for (line, extra) in [("ntag215 acs", [String]()), ("ntag215 minimal", ["--reader-profile", "acs"])] {
      let plain = try await Self.readStorage(stack, line, extra)
      #expect(plain.status == 0, "\(line): \(plain.stderr)")
      let object = try Self.object(plain.stdout)
      #expect(object["format"] as? String == "t2t")
      #expect(object["originality"] == nil, "\(line): \(plain.stdout)")
    }
  }
}
