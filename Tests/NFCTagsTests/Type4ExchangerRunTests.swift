// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCTags
import Testing

/// A transport that hands the encoded commands to a simulated Type 4 tag, or fails on one.
struct SimulatedTagTransport: APDUTransport {
  struct Failure: Error, Equatable { var commandIndex: Int }
  var tag: Type4TagSimulator
  var failAt: Int? = nil
  var sent = 0

  mutating func transmit(_ command: [UInt8]) async throws(Failure) -> [UInt8] {
    defer { sent += 1 }
    if sent == failAt { throw Failure(commandIndex: sent) }
    guard let parsed = try? CommandAPDU(parsing: command) else { return [0x67, 0x00] }
    return tag.respond(to: parsed).encodedBytes()
  }
}

/// `Type4NDEFProcedure.run(over:)`: the procedure driven through an `APDUExchanger`, with each
/// kind of failure kept apart (T4T 3.0 §5.4, §5.5).
@Suite("Type 4 procedure over an APDU exchanger")
struct Type4ExchangerRunTests {
  @Test func readsAndWritesThroughTheExchanger() async throws {
    let message = uriMessage("exchanger.example")
    var exchanger = APDUExchanger(transport: SimulatedTagTransport(tag: Type4TagSimulator(message: message)))
    var read = Type4NDEFProcedure(operation: .read)
    try await read.run(over: &exchanger)
    #expect(read.message == message)
    #expect(exchanger.transmissionCount == 6)

    let next = uriMessage("written.example")
    var write = Type4NDEFProcedure(operation: .write(next))
    try await write.run(over: &exchanger)
    #expect(exchanger.transport.tag.storedMessage() == next)
  }

  @Test func transportFailureIsKept() async {
    let transport = SimulatedTagTransport(tag: Type4TagSimulator(message: uriMessage("a.example")), failAt: 2)
    var exchanger = APDUExchanger(transport: transport)
    var procedure = Type4NDEFProcedure(operation: .read)
    do {
      try await procedure.run(over: &exchanger)
      Issue.record("the run did not fail")
    } catch {
      guard case .transport(let failure) = error else { Issue.record("\(error)"); return }
      #expect(failure == SimulatedTagTransport.Failure(commandIndex: 2))
    }
  }

  @Test func tagFailureNamesTheStep() async {
    // The NDEF application is missing: SELECT by AID answers 6A82, twice (2.0 and the 1.0 AID).
    var tag = Type4TagSimulator(message: uriMessage("a.example"))
    tag.faults = [
      Type4Fault(commandIndex: 0, kind: .statusWord(StatusWord(rawValue: 0x6A82))),
      Type4Fault(commandIndex: 1, kind: .statusWord(StatusWord(rawValue: 0x6A82))),
    ]
    var exchanger = APDUExchanger(transport: SimulatedTagTransport(tag: tag))
    var procedure = Type4NDEFProcedure(operation: .read)
    do {
      try await procedure.run(over: &exchanger)
      Issue.record("the run did not fail")
    } catch {
      guard case .tag(let failure) = error else { Issue.record("\(error)"); return }
      #expect(failure.code == .unexpectedStatusWord)
      #expect(procedure.message.isEmpty)
      #expect(procedure.isFinished)
      #expect(procedure.commandCount == 2)
    }
  }
}
