// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import NDEF
import NFCReader
import NFCReaderPCSC
import Testing

/// The card flow many times in this process through pcscd, with the process's memory,
/// descriptors and threads flat (``DaemonStack/SoakRun``). Runs only with `TAPWIRE_SOAK` set
/// (`Benchmarks/run-soak.sh`, CI's soak step): alone, so no other test moves the counts.
@Suite(
  "PC/SC soak", .serialized,
  .enabled(if: SoakRun.isEnabled && PCSCStack.isAvailable, "TAPWIRE_SOAK is not set (or no pcscd here)"))
struct PCSCSoakTests {
  /// A URI record, `https://tapwire.example` (NFC Forum URI RTD: prefix 0x04).
  static let message: [UInt8] = [0xD1, 0x01, 0x10, 0x55, 0x04] + Array("tapwire.example".utf8)
  /// Cycles per PC/SC context: each context is released and a new one established, so
  /// contexts are soaked too.
  static let cyclesPerContext = 100

  /// One cycle: `tapwire-vcard` inserts a Type 4 tag holding ``message`` into Tapwire's
  /// reader driver, the card is connected, its NDEF message read (SELECT, CC, NLEN, READ
  /// BINARY) and checked, disconnected, then removed, and the removal seen. The driver tells
  /// pcscd of each insertion and removal at once (its polling function; vpcd leaves pcscd to
  /// poll every 400 ms, which would pace the run at about 1 cycle/s). 10,000 cycles in full,
  /// 1,000 in CI.
  @Test func insertReadRemoveCyclesKeepMemoryDescriptorsAndThreadsFlat() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let reader = PCSCStack.nfcReader
    var run = SoakRun("pcsc insert-read-remove", cycles: SoakRun.cycles(full: 10_000, short: 1_000))
    var cycle = 0
    while cycle < run.cycles {
      let context = try PCSCContext()
      let end = min(cycle + Self.cyclesPerContext, run.cycles)
      while cycle < end {
        try stack.insertType4(message: Self.message)
        guard try await context.waitForCard(in: reader, timeout: .seconds(10)) != nil else {
          throw DaemonStackError("cycle \(cycle): no card within 10 s")
        }
        let card = try await context.connect(to: reader)
        let read = try await card.readNDEF()
        try await card.disconnect()
        guard try read?.encodedBytes() == Self.message else {
          throw DaemonStackError("cycle \(cycle): read \(String(describing: read))")
        }
        guard try stack.send("remove") == "removed",
          try await context.waitForRemoval(from: reader, timeout: .seconds(10)) != nil
        else { throw DaemonStackError("cycle \(cycle): the card was not removed within 10 s") }
        run.finished(cycle: cycle)
        cycle += 1
      }
    }
    let problems = await run.finish()
    print(run.report)
    #expect(problems.isEmpty, "\(problems)")
  }
}
