// SPDX-License-Identifier: Apache-2.0
import Foundation
import MifareClassicNDEF
import NFCReader
import NFCReaderPCSC
import NFCTags
import NFCWire
import PCSCControl
import Type2NDEF

/// `tapwire-nfc dump|write|format --pcsc READER`: every tag a contactless PC/SC reader
/// shows, Type 4 by APDUs and storage cards (Type 2, MIFARE Classic, Type 5) through the
/// PC/SC Part 3 pseudo-APDUs, with the reader profile its name gives or
/// `--reader-profile ID` (acs, hid-omnikey, identiv-scm, gemalto-gemprox, sony, generic)
/// and the MIFARE Classic keys of `--keys FILE` and `--key A|B:HEX` (never printed).
enum PCSCStorageCommands {
  /// The reader profile, keys and addressing the options give.
  static func access(_ arguments: [String]) -> PCSCStorageCardAccess {
    var access = PCSCStorageCardAccess(keyring: MifareClassicCommands.keyring(arguments))
    if let identifier = TapwireNFC.option("--reader-profile") {
      guard let profile = StorageCardReaderProfile(identifier: identifier) else {
        let known = StorageCardReaderProfile.all.map(\.identifier).joined(separator: ", ")
        TapwireNFC.fail("--reader-profile '\(identifier)' is unknown (known: \(known))")
      }
      access.profile = profile
    }
    return access
  }

  /// The line `dump` prints for the card, as the libnfc path prints it: `ndef HEX` (Type 4),
  /// `t2t HEX`, `t3t HEX` and `t5t HEX` (the memory image), `mifareClassic ...` (the MAD and message;
  /// `mifareClassicImage ...` with `--dump`).
  static func dumpLine(_ card: PCSCCard, arguments: [String]) async throws(PCSCNDEFError) -> String {
    let access = access(arguments)
    let options: TagDecodingOptions = arguments.contains("--lenient") ? .lenient : .strict
    let kind: PCSCCardKind
    do { kind = try await card.kind() } catch { throw .reader(error) }
    switch kind {
    case .type4:
      let message = try await card.readNDEF(options: options, access: access)
      return "ndef " + Hex.string((try? message?.encodedBytes()) ?? [0xD0, 0x00, 0x00])
    case .storage(_, .type2?):
      let image = try await card.readMemoryImage(access: access)
      var line = "t2t " + Hex.string(image)
      // READ_SIG through the reader's raw-frame route, where its profile has one.
      let profile = access.profile ?? .matching(readerName: card.reader)
      if let transport = try? await PCSCType2PageTransport.connect(card: card, profile: profile),
        let originality = await NtagCommands.originalityLine(
          Ntag(transport: transport), version: transport.version,
          header: image.count >= 8 ? Array(image[0..<8]) : nil)
      {
        line += "\n" + originality
      }
      return line
    case .storage(_, .type5?): return "t5t " + Hex.string(try await card.readMemoryImage(access: access))
    case .storage(_, .type3?): return "t3t " + Hex.string(try await card.readMemoryImage(access: access))
    case .storage(let atr, .mifareClassic?):
      let name = atr.cardName.name ?? "MIFARE Classic"
      let uid = await uid(of: card)
      var procedure = try await card.mifareClassicProcedure(access: access, options: options)
      if arguments.contains("--dump") {
        let (image, unread): ([UInt8], [Int])
        do { (image, unread) = try await procedure.readMemory() } catch { throw .mifareClassic(error) }
        return MifareClassicCommands.imageLine(card: name, uid: uid, image: image, unread: unread)
      }
      let content: MifareClassicNDEFContent
      do { content = try await procedure.read() } catch { throw .mifareClassic(error) }
      return MifareClassicCommands.contentLine(card: name, uid: uid, content)
    case .storage:
      // The typed "no NDEF mapping" error.
      _ = try await card.readNDEF(options: options, access: access)
      throw .reader(ReaderError(.unsupportedFeature, "no NDEF mapping for the card in \(card.reader)"))
    }
  }

  /// The UID from GET DATA (PC/SC Part 3 §3.2.2.1.3), empty when the reader gives none.
  static func uid(of card: PCSCCard) async -> String {
    guard let response = try? await card.transmit(GetDataPseudoAPDU.command(.uid)),
      let answer = try? GetDataPseudoAPDU.answer(parsing: response)
    else { return "" }
    return Hex.string(answer.bytes ?? [])
  }

  /// `write --pcsc READER --message HEX`: writes, reads back, verifies.
  static func write(_ arguments: [String]) async {
    guard let hex = TapwireNFC.option("--message"), let message = Hex.bytes(hex) else {
      TapwireNFC.fail("write needs --message HEX (the encoded NDEF message)")
    }
    let access = access(arguments)
    let (reader, readBack) = await session(arguments, working: "Writing the tag", success: "Tag written") {
      card throws(ReaderError) in
      do throws(PCSCNDEFError) {
        try await card.writeNDEF(bytes: message, access: access)
        if case .storage(_, .mifareClassic?) = try? await card.kind() {
          var procedure = try await card.mifareClassicProcedure(access: access)
          do throws(MifareClassicError) { return try await procedure.read().message } catch {
            throw PCSCNDEFError.mifareClassic(error)
          }
        }
        let back = try await card.readNDEF(access: access)
        return back.flatMap { try? $0.encodedBytes() } ?? []
      } catch {
        throw ReaderError(error.readerError?.code ?? .tagError, "write failed: \(explain(error))")
      }
    }
    guard readBack == message else {
      TapwireNFC.fail(
        "verify failed on \(reader): wrote \(Hex.string(message)), read back \(Hex.string(readBack))",
        status: 1)
    }
    print("wrote \(message.count) byte\(message.count == 1 ? "" : "s") to the tag in \(reader), verified")
    print(Hex.string(message))
  }

  /// `format --pcsc READER [--key-b HEX]`: MIFARE Classic as shipped gets the MAD and NFC
  /// sectors; Type 2 and Type 5 tags an empty NDEF message.
  static func format(_ arguments: [String]) async {
    let access = access(arguments)
    let keyB = MifareClassicCommands.keyB(arguments)
    let (reader, name) = await session(arguments, working: "Formatting the tag", success: "Tag formatted") {
      card throws(ReaderError) in
      do throws(PCSCNDEFError) {
        try await card.formatNDEF(keyB: keyB, access: access)
        guard case .storage(let atr, _) = try? await card.kind() else { return "tag" }
        return atr.cardName.name ?? "tag"
      } catch {
        throw ReaderError(error.readerError?.code ?? .tagError, "format failed: \(explain(error))")
      }
    }
    let given = keyB == .transport ? "the transport key (give --key-b HEX to choose one)" : "the one given"
    print("formatted the \(name) in \(reader) for NDEF; MIFARE Classic key B of every sector: \(given)")
  }

  /// A sentence for the common failures, the typed error after it; never a key.
  static func explain(_ error: PCSCNDEFError) -> String {
    switch error {
    case .mifareClassic(let failure): return MifareClassicCommands.explain(failure)
    case .tag(let failure) where failure.code == .messageTooLarge:
      return "the message does not fit on the tag (\(error))"
    case .tag(let failure) where failure.code == .readOnly || failure.code == .ndefFileNotWritable:
      return "read-only tag (\(error))"
    case .reader(let failure) where failure.code == .unsupportedFeature:
      return "the reader cannot do this with this card (\(error))"
    case .reader(let failure) where failure.code == .tagLost:
      return "the tag left the field (\(error))"
    default: return "\(error)"
    }
  }

  /// Runs `operation` on the first card a reader session finds (reader-driven where the
  /// reader offers it) and returns the reader's name and the result; exits 1 with the
  /// typed error when it fails, when no card came, or on a signal.
  static func session<T: Sendable>(
    _ arguments: [String], working: String, success: String,
    operation: @escaping @Sendable (PCSCCard) async throws(ReaderError) -> T
  ) async -> (String, T) {
    let context = PCSCCommands.context()
    let reader = await PCSCControlCommands.readerName(arguments, context)
    let timeout = TapwireNFC.timeoutText
    let messages = SessionMessages(
      waiting: TapwireNFC.option("--wait-message") ?? "Hold a tag to the reader",
      working: TapwireNFC.option("--work-message") ?? working,
      success: success, failure: "The tag could not be used")
    let configuration = SessionConfiguration(timeout: TapwireNFC.timeout, messages: messages)
    let session = ReaderSession<PCSCReaderTransport, T>(
      transport: PCSCReaderTransport(context: context, reader: reader), configuration: configuration
    ) { (_, tag) throws(ReaderError) in
      guard let card = tag.card else { throw ReaderError(.sessionEnded, "the card is no longer connected") }
      return try await operation(card)
    }
    let events: AsyncStream<ReaderSession<PCSCReaderTransport, T>.Event>
    do throws(ReaderError) { events = try session.begin() } catch { TapwireNFC.fail("\(error)", status: 1) }
    SignalStop.onSignal { _ in session.cancel(message: "Cancelled") }
    for await event in events {
      switch event {
      case .tagRead(_, let result): return (reader, result)
      case .readFailed(_, let error, _):
        session.cancel(message: messages.failure)
        _ = await session.ended()
        TapwireNFC.fail("\(reader): \(error.message)", status: 1)
      case .ended(let ending, _):
        switch ending {
        case .timedOut: TapwireNFC.fail("no card in \(reader) within \(timeout) s", status: 1)
        case .cancelled: TapwireNFC.fail("\(reader): cancelled", status: 1)
        case .systemBusy(let error), .terminatedUnexpectedly(let error):
          if error.code == .noReader { PCSCCommands.failNoReader(error) }
          TapwireNFC.fail("\(error)", status: 1)
        default: TapwireNFC.fail("\(reader): no tag used", status: 1)
        }
      default: break
      }
    }
    TapwireNFC.fail("\(reader): the session ended", status: 1)
  }
}

extension PCSCNDEFError {
  /// The reader error inside, when there is one (directly or under a MIFARE Classic error).
  var readerError: ReaderError? {
    switch self {
    case .reader(let error): error
    case .mifareClassic(let error):
      error.readerError ?? (error.code == .tagLost ? ReaderError(.tagLost, "") : nil)
    default: nil
    }
  }
}
