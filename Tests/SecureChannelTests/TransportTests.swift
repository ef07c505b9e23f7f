// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NFCTags
import SecureChannel
import Testing

/// A card that answers INITIALIZE UPDATE and EXTERNAL AUTHENTICATE from the AES-128 pySim
/// trace, then either replays expected commands or hands the unwrapped command (SM bit and
/// C-MAC removed, not verified) to a simulated Type 4 tag. It records every command.
struct TraceCard: APDUTransport {
  struct Failure: Error, Equatable {}
  var initializeUpdateAnswer: [UInt8] = hex(scp03Traces[0].initializeUpdateResponse) + [0x90, 0x00]
  /// Expected wrapped commands and the answers to give, in order, after EXTERNAL AUTHENTICATE.
  var script: [(command: String, answers: [[UInt8]])] = []
  var tag: Type4TagSimulator? = nil
  var received: [String] = []
  var pending: [[UInt8]] = []

  mutating func transmit(_ command: [UInt8]) async throws(Failure) -> [UInt8] {
    received.append(hexString(command))
    if command.first == 0x00, command.count > 1, command[1] == 0xC0, !pending.isEmpty {
      return pending.removeFirst()
    }
    switch received.count {
    case 1: return initializeUpdateAnswer
    case 2: return [0x90, 0x00]
    default: break
    }
    if var tag {
      guard var parsed = try? CommandAPDU(parsing: command), parsed.data.count >= 8 else {
        return [0x69, 0x88]
      }
      parsed.cla = CommandClass(rawValue: parsed.cla.rawValue & ~0x04)
      parsed.data.removeLast(8)
      let answer = tag.respond(to: parsed).encodedBytes()
      self.tag = tag
      return answer
    }
    guard !script.isEmpty else { return [0x6F, 0x00] }
    let step = script.removeFirst()
    guard step.command == hexString(command) else { return [0x69, 0x88] }
    pending = Array(step.answers.dropFirst())
    return step.answers[0]
  }
}

@Suite("SecureChannelTransport: the channel as an APDUTransport layer")
struct TransportTests {
  static let trace = scp03Traces[0]

  static func configuration(_ level: SecurityLevel = .cMACAndRMAC) -> SecureChannelConfiguration {
    SecureChannelConfiguration(
      keys: trace.keys, keyVersion: 0x30, secureChannelProtocol: .scp03, securityLevel: level)
  }

  /// GET RESPONSE runs below the channel: the R-MAC is checked over the reassembled answer
  /// (split here over 61XX), and Le handling follows the trace.
  @Test func getResponseBelowTheChannel() async throws {
    let answer = hex(Self.trace.getEIDResponse)
    var card = TraceCard()
    card.script = [
      (
        Self.trace.getEID,
        [Array(answer[0..<10]) + [0x61, UInt8(answer.count - 10)], Array(answer[10...]) + [0x90, 0x00]]
      ),
      (Self.trace.cases[0], [[0x6A, 0x88]]),
    ]
    var channel = try await SecureChannelTransport.open(
      over: card, configuration: Self.configuration(),
      crypto: ReplayCrypto(challenge: Self.trace.hostChallenge))
    #expect(channel.session.securityLevel == .cMACAndRMAC)
    let plain = try await channel.transmit(hex(traceGetEID))
    #expect(hexString(plain) == traceGetEIDPlainResponse + "9000")
    // An error status word carries no R-MAC and passes through.
    #expect(try await channel.send(CommandAPDU(parsing: hex(traceCases[0]))) == response("", 0x6A88))
    let sent = channel.exchanger.transport.received
    #expect(sent.count == 5)
    #expect(sent[0] == Self.trace.initializeUpdate)
    #expect(sent[1] == Self.trace.externalAuthenticate)
    #expect(sent[2] == Self.trace.getEID)
    #expect(sent[3] == "00c0000013")
    #expect(sent[4] == Self.trace.cases[0])
  }

  /// Wrong keys: the card cryptogram does not verify, and EXTERNAL AUTHENTICATE is never sent.
  @Test func wrongKeysStopAfterInitializeUpdate() async throws {
    var configuration = Self.configuration()
    configuration.keys = .wellKnownTestKeys
    let card = TraceCard()
    do {
      _ = try await SecureChannelTransport.open(
        over: card, configuration: configuration, crypto: ReplayCrypto(challenge: Self.trace.hostChallenge))
      Issue.record("opened with wrong keys")
    } catch {
      guard case .secureChannel(let failure) = error else { Issue.record("\(error)"); return }
      #expect(failure == SecureChannelError(.cardCryptogramMismatch, offset: 21))
    }
  }

  /// 6982/6983 to INITIALIZE UPDATE: a blocked key set, reported as such.
  @Test(arguments: [UInt16(0x6982), 0x6983])
  func blockedKeySet(sw: UInt16) async throws {
    var card = TraceCard()
    card.initializeUpdateAnswer = [UInt8(sw >> 8), UInt8(sw & 0xFF)]
    do {
      _ = try await SecureChannelTransport.open(
        over: card, configuration: Self.configuration(), crypto: openSSL)
      Issue.record("opened on a blocked key set")
    } catch {
      guard case .secureChannel(let failure) = error else { Issue.record("\(error)"); return }
      #expect(failure.code == .keySetBlocked)
      #expect(failure.statusWord == StatusWord(rawValue: sw))
    }
  }

  /// Bytes that are not a command APDU are refused before anything is wrapped or sent.
  @Test func invalidCommandBytes() async throws {
    var channel = try await SecureChannelTransport.open(
      over: TraceCard(), configuration: Self.configuration(),
      crypto: ReplayCrypto(challenge: Self.trace.hostChallenge))
    do {
      _ = try await channel.transmit([0x80, 0xCA])
      Issue.record("sent a truncated command")
    } catch {
      guard case .secureChannel(let failure) = error else { Issue.record("\(error)"); return }
      #expect(failure.code == .invalidCommand)
    }
    #expect(channel.session.wrappedCommandCount == 0)
    #expect(channel.exchanger.transport.received.count == 2)
  }

  /// The Type 4 NDEF procedure runs unchanged inside a C-MAC channel: every command reaches
  /// the tag with secure messaging indicated and an 8-byte C-MAC.
  @Test func type4ProcedureInsideTheChannel() async throws {
    let message: [UInt8] = [0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.org".utf8)
    var card = TraceCard()
    card.tag = Type4TagSimulator(message: message)
    let channel = try await SecureChannelTransport.open(
      over: card, configuration: Self.configuration(.cMAC),
      crypto: ReplayCrypto(challenge: Self.trace.hostChallenge))
    let limit = channel.session.maximumPlainDataLength
    #expect(limit == 247)
    var exchanger = APDUExchanger(
      transport: channel, options: APDUExchangeOptions(maximumCommandDataLength: limit))
    var procedure = Type4NDEFProcedure(operation: .read)
    try await procedure.run(over: &exchanger)
    #expect(procedure.message == message)
    let sent = exchanger.transport.exchanger.transport.received.dropFirst(2)
    #expect(sent.count == exchanger.transport.session.wrappedCommandCount)
    #expect(sent.allSatisfy { $0.hasPrefix("04") })
  }

  /// An applet-update script runs inside the channel: each step wrapped in turn, the
  /// responses checked against the script's expectations after unwrapping.
  @Test func scriptInsideTheChannel() async throws {
    var card = TraceCard()
    card.tag = Type4TagSimulator(message: [0xD1, 0x01, 0x01, 0x55, 0x00])
    let channel = try await SecureChannelTransport.open(
      over: card, configuration: Self.configuration(.cMAC),
      crypto: ReplayCrypto(challenge: Self.trace.hostChallenge))
    var runner = ScriptRunner(transport: channel)
    let result = try await runner.run(
      Script(commands: [
        try CommandAPDU(parsing: hex("00A4040007D276000085010100")),
        try CommandAPDU(parsing: hex("00A4000C02E103")),
      ]))
    #expect(result.responses == [response(""), response("")])
    #expect(runner.transport.exchanger.transport.received.count == 4)
  }
}
