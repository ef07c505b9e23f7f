// SPDX-License-Identifier: Apache-2.0
import Foundation
import NDEF
import NFCReader
import NFCReaderLibNFC
import PN532Simulator
import Testing

/// Issue 35: the reader (the PN532 on its serial line) going away in the middle of an NDEF
/// write gives a typed error within a bound, not a hang, and the tag holds the old message,
/// an empty one (NLEN 0) or the new one.
///
/// The simulator's terminal closes once the host has sent a chosen number of InDataExchange
/// commands (a watcher thread closes it as that count is reached, so the cut lands at about
/// that exchange, a frame or two later at most); libnfc's next read or write on the device
/// then fails. A real USB-serial reader unplugged makes the same descriptor fail with EIO.
@Suite(.serialized, .timeLimit(.minutes(1))) struct LibNFCUnplugMidWriteTests {
  /// InDataExchange (PN532 User Manual §7.3.8).
  static let inDataExchange: UInt8 = 0x40

  /// Closes `simulator` from a thread of its own once `count` more InDataExchange commands
  /// than now have arrived (or after 5 s).
  static func close(_ simulator: PN532Simulator, afterExchanges count: Int) -> Thread {
    let base = simulator.receivedCommands.count { $0 == inDataExchange }
    let thread = Thread {
      let deadline = ContinuousClock.now + .seconds(5)
      while simulator.receivedCommands.count(where: { $0 == inDataExchange }) < base + count,
        ContinuousClock.now < deadline
      {
        usleep(200)
      }
      simulator.close()
    }
    thread.start()
    return thread
  }

  /// The device goes away after each number of exchanges of a Type 4 write in turn: the
  /// write ends within 3 s with `deviceFailure` naming libnfc's `NFC_EIO` (or, once the cut
  /// lands after the last exchange, succeeds), a second operation on the reader fails typed at once, closing it
  /// returns, and the tag holds the old message, none (NLEN 0) or the new message.
  @Test func aType4WriteWhoseDeviceGoesAwayEndsTypedAndLeavesAWholeMessage() async throws {
    let new = NDEFFixture.text(String(repeating: "unplugged ", count: 12))
    var seen: [String] = []
    for exchanges in 1..<14 {
      let simulator = try PN532Simulator(tag: try Fixture.type4())
      defer { simulator.close() }
      let reader = try await LibNFCReader.open(connstring: simulator.connstring)
      let tag = try #require(try await reader.poll())
      let watcher = Self.close(simulator, afterExchanges: exchanges)
      let start = ContinuousClock.now
      var failure: LibNFCNDEFError?
      do { try await reader.writeNDEF(new, to: tag) } catch { failure = error }
      let took = ContinuousClock.now - start
      while !watcher.isFinished { try await Task.sleep(for: .milliseconds(5)) }
      let file = try #require(NDEFFixture.ndefFile(simulator))
      let message = try NDEFFixture.message(inNDEFFile: file)
      let held =
        message == NDEFFixture.hi
        ? "the old message" : message == nil ? "NLEN 0" : message == new ? "the new message" : "?"
      seen.append(held)
      print(
        "device gone after \(exchanges) exchanges: \(failure.map { "\($0)" } ?? "written") in \(took);"
          + " the tag holds \(held)")
      #expect(held != "?")
      #expect(took < .seconds(3))
      if let failure {
        // libnfc's NFC_EIO from the vanished descriptor.
        #expect(failure.readerError?.code == .deviceFailure, "\(failure)")
        #expect(failure.readerError?.transportCodeName == "NFC_EIO", "\(failure)")
        // The reader is gone for good: the next operation fails typed, without waiting.
        let again = ContinuousClock.now
        var second: ReaderError?
        do { _ = try await reader.poll() } catch { second = error }
        #expect(second != nil)
        #expect(ContinuousClock.now - again < .seconds(3))
      }
      await reader.close()
      if failure == nil { break }
    }
    #expect(seen.first == "the old message")
    #expect(seen.contains("NLEN 0"))
  }
}
