// SPDX-License-Identifier: Apache-2.0
import ISO7816
import NDEF
import NFCReader
import NFCReaderLibNFC
import NFCReaderPCSC
import NFCTags
import PN532Simulator

/// A tag of the in-process transport below.
struct FixedTag: DetectedTag, Hashable {
  var identifier: [UInt8]
}

/// A reader that always has the same tag in its field: the NFCReader protocols implemented
/// outside Tapwire, as a test double in a user's tool would.
struct FixedTagTransport: ReaderTransport {
  struct Reader: ClaimedReader {
    var tag: FixedTag
    func poll() async throws(ReaderError) -> FixedTag? { tag }
    func close(ending: SessionEnding, message: String?) async {}
  }

  var tag: FixedTag
  var deviceKey: String { "downstream:fixed" }
  func checkAvailability() async throws(ReaderError) {}
  func claim() async throws(ReaderError) -> Reader { Reader(tag: tag) }
}

func checkNFCReader() {
  group("NFCReader: configuration and error values") {
    let configuration = SessionConfiguration(timeout: .seconds(5), mode: .endAfterFirstRead)
    expectEqual(configuration.pollInterval, SessionConfiguration.defaultPollInterval, "poll interval")
    let error = ReaderError(.tagLost, "the tag left the field")
    expectEqual(error.code.name, "tagLost", "code name")
    check(SessionEnding.timedOut(.seconds(5)).isFailure, "a timeout is a failure")
  }
}

/// Reads the NDEF message of the next tag on a libnfc device, in a single-use session
/// (the NFCReaderLibNFC landing page).
func readNextTag(connstring: String) async throws -> NDEFMessage? {
  let session = ReaderSession<LibNFCTransport, NDEFMessage?>(
    transport: LibNFCTransport(connstring: connstring),
    configuration: SessionConfiguration(timeout: .seconds(10))
  ) { (reader, tag) throws(ReaderError) in
    do { return try await reader.readNDEF(from: tag) } catch {
      throw ReaderError(.tagError, "\(error)")
    }
  }
  for await event in try session.begin() {
    switch event {
    case .tagRead(_, let message): return message
    case .ended(let ending, _): print("  session ended: \(ending.name)")
    default: break
    }
  }
  return nil
}

func checkLibNFCAgainstTheSimulator() async {
  await group("NFCReader: a session over a caller's transport") {
    let tag = FixedTag(identifier: [0x04, 0x01, 0x02, 0x03])
    let session = ReaderSession(transport: FixedTagTransport(tag: tag))
    var names: [String] = []
    for await event in try session.begin() {
      switch event {
      case .queued: names.append("queued")
      case .began: names.append("began")
      case .tagDetected: names.append("tagDetected")
      case .tagRead(_, let read): names.append(read == tag ? "tagRead" : "tagRead(other)")
      case .readFailed: names.append("readFailed")
      case .ended(let ending, _): names.append("ended:" + ending.name)
      }
    }
    expectEqual(names, ["began", "tagDetected", "tagRead", "ended:firstTagRead"], "session events")
  }

  await group("NFCReaderLibNFC + PN532Simulator: write a Smart Poster, read it back") {
    let simulator = try PN532Simulator(
      tag: .type2(try SimulatedType2Tag(product: .ntag215, uid: [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0x80])))
    defer { simulator.close() }
    let poster = try menuPoster()
    let reader = try await LibNFCReader.open(connstring: simulator.connstring)
    guard let tag = try await reader.poll() else {
      await reader.close()
      return check(false, "no tag in the simulator's field")
    }
    guard case .type2 = tag.kind else {
      await reader.close()
      return check(false, "not a Type 2 tag: \(tag.kind.name)")
    }
    try await reader.writeNDEF(poster, to: tag)
    let back = try await reader.readNDEF(from: tag)
    await reader.close()
    expectEqual(back, poster, "message read back")
    if case .type2(let simulated)? = simulator.tag {
      let image = try Type2TagView(validating: simulated.memory.span.bytes)
      expectEqual(try image.tlvArea.message(), poster, "the simulator's memory")
    } else {
      check(false, "the simulator lost its Type 2 tag")
    }
    expectEqual(try await readNextTag(connstring: simulator.connstring), poster, "read in a session")
  }
}

func checkPCSC() async {
  await group("NFCReaderPCSC: error names, protocols, a context") {
    expectEqual(PCSCErrorCode.noService.name, "SCARD_E_NO_SERVICE", "error name")
    check(PCSCProtocols.any.contains(.t1), "T=1 is in .any")
    // With pcscd running this lists its readers; without, it fails with noReader.
    do throws(ReaderError) {
      let context = try PCSCContext()
      print("  pcscd readers: \(try await context.readers())")
    } catch {
      check(error.code == .noReader, "no pcscd: \(error)")
    }
  }
}

/// The first example of the NFCReaderPCSC landing page (compiled, run only with a reader:
/// `DownstreamCheck --pcsc-reader`).
func firstLookAtACard() async throws {
  let context = try PCSCContext()
  guard let reader = try await context.readers().first else { fatalError("no reader") }
  if try await context.waitForCard(in: reader, timeout: .seconds(10)) != nil {
    let card = try await context.connect(to: reader)
    let atr = try AnswerToReset(parsing: try await card.atr())
    var exchanger = APDUExchanger(transport: PCSCAPDUTransport(card: card))
    let response = try await exchanger.send(
      GlobalPlatformCommands.select(.globalPlatformIssuerSecurityDomain))
    print(atr.historicalBytes, response.statusWord)
    try await card.disconnect()
  }
}

/// The PC/SC part of the article "Running an applet-update script over PC/SC" (compiled, run
/// only with a reader).
func updateCardInFirstReader(_ scriptText: String) async throws {
  let context = try PCSCContext()
  guard let reader = try await context.readers().first else { fatalError("no PC/SC reader") }
  guard try await context.waitForCard(in: reader, timeout: .seconds(30)) != nil else { fatalError("no card") }
  let card = try await context.connect(to: reader, share: .exclusive)
  let result = try await runUpdate(scriptText, over: PCSCAPDUTransport(card: card))
  print("\(result.executedCount) steps ok")
  try await card.disconnect(.reset)
}

/// A session reading the NDEF message of the next tag on a PC/SC reader (the NFCReaderPCSC
/// landing page); compiled here, run by the PC/SC suite's own sessions.
func pcscNDEFSession(context: PCSCContext, reader: String) -> ReaderSession<PCSCReaderTransport, NDEFMessage?>
{
  let transport = PCSCReaderTransport(context: context, reader: reader)
  return ReaderSession<PCSCReaderTransport, NDEFMessage?>(
    transport: transport,
    configuration: SessionConfiguration(
      timeout: .seconds(20), messages: SessionMessages(waiting: "Hold your card"))
  ) { (_, tag) throws(ReaderError) in
    guard let card = tag.card else { throw ReaderError(.sessionEnded, "no card") }
    do { return try await card.readNDEF() } catch { throw ReaderError(.tagError, "\(error)") }
  }
}
