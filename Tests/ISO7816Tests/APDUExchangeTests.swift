// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ISO7816

struct LinkDown: Error, Equatable {}

/// A transport whose link always fails.
struct BrokenTransport: APDUTransport {
  mutating func transmit(_ command: [UInt8]) async throws(LinkDown) -> [UInt8] { throw LinkDown() }
}

@Suite("APDUExchange")
struct APDUExchangeTests {
  static let readAll = CommandAPDU(cla: 0x00, ins: 0xB0, p1: 0, p2: 0, ne: 256)

  @Test("61XX: GET RESPONSE with concatenation; 6100 means 256 or more remain")
  func getResponse() async throws {
    var card = SimulatedCard { _ in ResponseAPDU(data: counting(600), statusWord: .success) }
    card.getResponseChunk = 256
    var exchanger = APDUExchanger(transport: card)
    let response = try await exchanger.send(Self.readAll)
    #expect(response.data == counting(600))
    #expect(response.statusWord == .success)
    card = exchanger.transport
    // B0, then GET RESPONSE Le 00 (6100), Le 00 (6100 again: 344 left), Le 58 (88 left).
    let sent: [String] = card.received.map { hexString($0) }
    #expect(sent == ["00b0000000", "00c0000000", "00c0000000", "00c0000058"])
  }

  @Test("GET RESPONSE uses the interindustry class of the command's channel")
  func getResponseClass() async throws {
    for (cla, expected) in [(0x81, 0x01), (0x84, 0x00), (0xC2, 0x42), (0x0F, 0x03), (0x4E, 0x4E)]
      as [(UInt8, UInt8)]
    {
      var card = SimulatedCard { _ in ResponseAPDU(data: [1, 2, 3], statusWord: .success) }
      card.getResponseChunk = 3
      var exchanger = APDUExchanger(transport: card)
      let command = CommandAPDU(cla: cla, ins: 0xCA, p1: 0x9F, p2: 0x7F, ne: 256)
      let response = try await exchanger.send(command)
      #expect(response.data == [1, 2, 3])
      #expect(exchanger.transport.received.last?.first == expected)
    }
  }

  @Test("6CXX: resend with the exact Le")
  func wrongLength() async throws {
    var card = SimulatedCard { _ in ResponseAPDU(data: counting(9), statusWord: .success) }
    card.requiresExactLe = true
    var exchanger = APDUExchanger(transport: card)
    let response = try await exchanger.send(Self.readAll)
    #expect(response.data == counting(9))
    let sent: [String] = exchanger.transport.received.map { hexString($0) }
    #expect(sent == ["00b0000000", "00b0000009"])
  }

  @Test("63CX is a retry counter, never more data; 6310 is returned as is")
  func counterIsNotMoreData() async throws {
    for sw in [StatusWord.counter(2), .moreDataAvailable, .fileNotFound] {
      var exchanger = APDUExchanger(
        transport: SimulatedCard { _ in ResponseAPDU(statusWord: sw) })
      let verify = CommandAPDU(cla: 0x00, ins: 0x20, p1: 0, p2: 0x80, data: counting(8))
      let response = try await exchanger.send(verify)
      #expect(response.statusWord == sw)
      #expect(exchanger.transport.received.count == 1)
    }
  }

  @Test("command chaining splits data into 255-byte links with CLA b5 set")
  func chaining() async throws {
    let card = SimulatedCard { command in
      ResponseAPDU(
        data: [UInt8(command.data.count >> 8), UInt8(command.data.count & 0xFF)], statusWord: .success)
    }
    var exchanger = APDUExchanger(transport: card)
    let command = CommandAPDU(cla: 0x80, ins: 0xE2, p1: 0x80, p2: 0, data: counting(600), ne: 256)
    let response = try await exchanger.send(command)
    #expect(response.data == [0x02, 0x58])
    let received = exchanger.transport.received
    let classes: [UInt8] = received.map { $0[0] }
    let sizes: [Int] = received.map { $0.count }
    #expect(classes == [0x90, 0x90, 0x80])
    #expect(sizes == [260, 260, 96])
    #expect(exchanger.transport.handled.first?.data == counting(600))
  }

  @Test("a chain stops at the first non-9000 answer")
  func chainRejected() async throws {
    var card = SimulatedCard { _ in ResponseAPDU(statusWord: .success) }
    card.stuckStatusWord = .commandChainingNotSupported
    var exchanger = APDUExchanger(transport: card)
    let command = CommandAPDU(cla: 0x00, ins: 0xD6, p1: 0, p2: 0, data: counting(300))
    let response = try await exchanger.send(command)
    #expect(response.statusWord == .commandChainingNotSupported)
    #expect(exchanger.transport.received.count == 1)
  }

  @Test("extended length when both sides support it; Ne capped to 256 otherwise")
  func extendedLength() async throws {
    let card = SimulatedCard { command in ResponseAPDU(data: counting(command.ne ?? 0), statusWord: .success)
    }
    var options = APDUExchangeOptions(usesExtendedLength: true, maximumCommandDataLength: 65535)
    var exchanger = APDUExchanger(transport: card, options: options)
    let command = CommandAPDU(cla: 0x00, ins: 0x2A, p1: 0x80, p2: 0x86, data: counting(1000), ne: 65536)
    let response = try await exchanger.send(command)
    #expect(response.data.count == 65536)
    #expect(exchanger.transport.received.count == 1)
    let sentCount: Int = exchanger.transport.received[0].count
    #expect(sentCount == 1009)

    options = .standard
    exchanger = APDUExchanger(transport: card, options: options)
    let long = CommandAPDU(cla: 0x00, ins: 0xB0, p1: 0, p2: 0, ne: 1000)
    _ = try await exchanger.send(long)
    let sent: [String] = exchanger.transport.received.map { hexString($0) }
    #expect(sent == ["00b0000000"])
  }

  @Test("behaviours can be switched off")
  func switchedOff() async throws {
    var card = SimulatedCard { _ in ResponseAPDU(data: counting(10), statusWord: .success) }
    card.getResponseChunk = 10
    var exchanger = APDUExchanger(transport: card, options: .raw)
    let response = try await exchanger.send(Self.readAll)
    #expect(response.statusWord.rawValue == 0x610A)
    #expect(response.data.isEmpty)

    card = SimulatedCard { _ in ResponseAPDU(data: counting(10), statusWord: .success) }
    card.requiresExactLe = true
    exchanger = APDUExchanger(transport: card, options: APDUExchangeOptions(handlesWrongLength: false))
    #expect(try await exchanger.send(Self.readAll).statusWord.rawValue == 0x6C0A)

    exchanger = APDUExchanger(transport: card, options: APDUExchangeOptions(usesCommandChaining: false))
    let long = CommandAPDU(cla: 0x00, ins: 0xD6, p1: 0, p2: 0, data: counting(300))
    await #expect(throws: APDUExchangeError<Never>.self) { _ = try await exchanger.send(long) }
    #expect(throws: APDUError(.commandTooLong, offset: 0)) {
      _ = try APDUExchange(command: long, options: APDUExchangeOptions(usesCommandChaining: false))
    }
  }

  @Test("a misbehaving card cannot loop the exchange forever")
  func boundedRetries() async throws {
    for (sw, code) in [
      (StatusWord(rawValue: 0x6101), "tooManyGetResponses"), (StatusWord(rawValue: 0x6C05), "tooManyRetries"),
    ] {
      var card = SimulatedCard { _ in ResponseAPDU(statusWord: .success) }
      card.stuckStatusWord = sw
      var exchanger = APDUExchanger(
        transport: card, options: APDUExchangeOptions(maximumGetResponseCount: 5, maximumResendCount: 3))
      do {
        _ = try await exchanger.send(Self.readAll)
        Issue.record("no error")
      } catch {
        guard case .apdu(let apdu) = error else { Issue.record("wrong error"); continue }
        #expect(apdu.code.name == code)
      }
      #expect(exchanger.transport.received.count <= 6)
    }
  }

  @Test("response size bound and short responses")
  func bounds() throws {
    var exchange = try APDUExchange(
      command: Self.readAll, options: APDUExchangeOptions(maximumResponseSize: 4))
    #expect(throws: APDUError(.responseTooLarge, offset: 0)) {
      _ = try exchange.receive([1, 2, 3, 4, 5, 0x90, 0x00])
    }
    #expect(exchange.isFinished)
    #expect(throws: APDUError(.exchangeFinished, offset: 0)) { _ = try exchange.receive([0x90, 0x00]) }
    var short = try APDUExchange(command: Self.readAll)
    #expect(throws: APDUError(.truncatedStatusWord, offset: 0)) { _ = try short.receive([0x90]) }
  }

  @Test("transport failures surface as .transport")
  func transportFailure() async {
    var exchanger = APDUExchanger(transport: BrokenTransport())
    do {
      _ = try await exchanger.send(Self.readAll)
      Issue.record("no error")
    } catch {
      guard case .transport(let failure) = error else { Issue.record("wrong error"); return }
      #expect(failure == LinkDown())
    }
  }

  @Test("the blocking driver runs the same state machine")
  func blocking() throws {
    var card = SimulatedCard { _ in ResponseAPDU(data: counting(300), statusWord: .success) }
    card.getResponseChunk = 100
    var blocking = BlockingCard(card: card)
    let response = try APDUExchange.run(Self.readAll, over: &blocking)
    #expect(response.data == counting(300))
    #expect(blocking.card.received.count == 4)
  }
}
