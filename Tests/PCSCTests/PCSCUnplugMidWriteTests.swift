// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import NFCReader
import NFCReaderPCSC
import Testing

/// Issue 35: the reader unplugged in the middle of an NDEF write gives a typed result, not a
/// hang, and what the card holds stays a whole message or length 0.
///
/// Where the test daemons differ from a real reader: Tapwire's driver stops answering at a
/// chosen APDU (`unplug after N` in its command file: N APDUs answered, the next one and all
/// after it IFD_NO_SUCH_DEVICE, as a USB reader's driver answers once the device is gone) and
/// the card keeps what it had committed; a real card loses its field with the reader.
extension PCSCTransportTests {
  /// The reader goes away on each APDU of the write in turn. The write fails within 3 s with
  /// `noReader` naming `SCARD_E_READER_UNAVAILABLE` (pcscd's code for a driver's
  /// IFD_NO_SUCH_DEVICE during SCardTransmit), and the card holds the old message, an NLEN of
  /// 0, or (once the write got through) the new message (T4T 3.0 §5.5's order: NLEN 0, the
  /// message, NLEN). Between points the reader is plugged back (`replug`) and the card
  /// reinserted.
  @Test func aReaderUnpluggedMidWriteEndsTypedAndLeavesAWholeMessageOrLengthZero() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let old = Self.hex(Self.oldMessage)
    var seen: [String] = []
    for unplugAfter in 2..<14 {
      #expect(try stack.send("insert ndef \(old)") == "inserted")
      let context = try PCSCContext()
      _ = try #require(try await context.waitForCard(in: PCSCStack.nfcReader, timeout: .seconds(10)))
      let card = try await context.connect(to: PCSCStack.nfcReader)
      try stack.script("command", "unplug after \(unplugAfter)")
      let start = ContinuousClock.now
      var failure: PCSCNDEFError?
      do { try await card.writeNDEF(bytes: Self.newMessage) } catch { failure = error }
      let took = ContinuousClock.now - start
      try? await card.disconnect()
      let stored = try stack.send("stored").split(separator: " ").map(String.init)
      try #require(stored.count >= 2 && stored[0] == "stored", "\(stored)")
      let length = Int(stored[1]) ?? -1
      let bytes = stored.count > 2 ? stored[2] : ""
      let held =
        length == 0
        ? "NLEN 0"
        : bytes == old ? "the old message" : bytes == Self.hex(Self.newMessage) ? "the new message" : "?"
      seen.append(held)
      print(
        "reader unplugged after \(unplugAfter) APDUs: \(failure.map { "\($0)" } ?? "written") in \(took);"
          + " the card holds \(held)")
      #expect(held != "?", "NLEN \(length), \(bytes)")
      #expect(took < .seconds(3))
      #expect(try stack.send("remove") == "removed")
      try stack.script("command", "replug")
      guard let failure else {
        #expect(held == "the new message")
        break
      }
      guard case .reader(let error) = failure else {
        Issue.record("not a reader failure: \(failure)")
        continue
      }
      #expect(error.code == .noReader, "\(error)")
      #expect(error.transportCodeName == "SCARD_E_READER_UNAVAILABLE", "\(error)")
      #expect(held != "the new message")
      // Back: pcscd sees the reader again, with no card in it.
      try await stack.namespace.waitUntil("\(PCSCStack.nfcReader) did not come back", timeout: .seconds(10)) {
        (try? await context.waitForRemoval(from: PCSCStack.nfcReader, timeout: .milliseconds(200))) != nil
      }
    }
    // Every state was met: before NLEN 0, in the body, and the whole write.
    #expect(seen.contains("the old message"))
    #expect(seen.contains("NLEN 0"))
    #expect(seen.last == "the new message")
  }
}
