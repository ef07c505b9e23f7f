// SPDX-License-Identifier: Apache-2.0
import Foundation
import MifareClassicNDEF
import NDEF
import NFCReader
import NFCReaderPCSC
import NFCTags
import PCSCControl
import Testing

/// Reader sessions (`ReaderSession` over `PCSCReaderTransport`) on storage cards: Tapwire's
/// reader driver with START_NFC/STOP_NFC, `tapwire-vcard`'s storage-card firmware behind it,
/// the tag read by ``NFCReaderPCSC/PCSCTag/readNDEF(options:access:)``; the endings and
/// STOP buffers are those of a Type 4 tag.
extension PCSCTransportTests {
  /// Three records: a URI, a Text and a MIME record (`text/plain`), 84 bytes.
  static let sessionMessage: [UInt8] = {
    let records = [
      NDEFRecord(typeNameFormat: .wellKnown, type: [0x55], payload: [0x04] + Array("example.com/tag".utf8)),
      NDEFRecord(
        typeNameFormat: .wellKnown, type: [0x54], payload: [0x02] + Array("enHello, storage card".utf8)),
      NDEFRecord(
        typeNameFormat: .media, type: Array("text/plain".utf8), payload: Array("plain text payload".utf8)),
    ]
    return (try? NDEFMessage(records: records).encodedBytes()) ?? []
  }()

  /// A reader session whose operation reads the tag's NDEF message with `access`.
  typealias StorageSession = ReaderSession<PCSCReaderTransport, [UInt8]>

  /// Runs a reader-driven session on Tapwire's reader that reads the NDEF message of the
  /// tag with `access`; `whileWaiting` runs once it has begun. Returns the session and its
  /// events.
  static func storageSession(
    _ context: PCSCContext, access: PCSCStorageCardAccess, whileWaiting: () throws -> Void
  ) async throws -> (StorageSession, [SessionEvent<PCSCTag, [UInt8]>]) {
    let configuration = SessionConfiguration(timeout: .seconds(30), messages: messages)
    let transport = PCSCReaderTransport(context: context, reader: PCSCStack.nfcReader)
    let session = StorageSession(transport: transport, configuration: configuration) {
      (_, tag) throws(ReaderError) in
      let message = try await tag.readNDEF(access: access)
      return (try? message?.encodedBytes()) ?? []
    }
    var events: [SessionEvent<PCSCTag, [UInt8]>] = []
    for await event in try session.begin() {
      events.append(event)
      if case .began = event { try whileWaiting() }
    }
    return (session, events)
  }

  /// The memory of a `kind` storage card (ACS firmware) after Tapwire wrote `message` on
  /// it through pcscd (a MIFARE Classic card formatted first), the card removed again.
  static func writtenStorageImage(_ stack: PCSCStack, kind: String, message: [UInt8]) async throws -> [UInt8]
  {
    let context = try PCSCContext()
    #expect(try stack.send("insert storage \(kind) acs") == "inserted")
    _ = try #require(try await context.waitForCard(in: PCSCStack.nfcReader, timeout: .seconds(10)))
    let card = try await context.connect(to: PCSCStack.nfcReader)
    let access = PCSCStorageCardAccess(profile: .acs)
    if kind.hasPrefix("mfc") { try await card.formatNDEF(access: access) }
    try await card.writeNDEF(bytes: message, access: access)
    try await card.disconnect()
    let memory = try storedMemory(stack)
    #expect(try stack.send("remove") == "removed")
    _ = try await context.waitForRemoval(from: PCSCStack.nfcReader, timeout: .seconds(10))
    return memory
  }

  /// An NTAG215 and a MIFARE Classic 1K (formatted, the public keys read it) holding a
  /// three-record message, presented while a reader-driven session waits: the session reads
  /// the message and ends with `firstTagRead`, START_NFC then STOP_NFC with the success
  /// message, as for a Type 4 tag.
  @Test func readerDrivenSessionReadsStorageCards() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let context = try PCSCContext()
    let codes = NFCControlCodes.tapwireDefaults
    for kind in ["ntag215", "mfc-1k"] {
      let image = try await Self.writtenStorageImage(stack, kind: kind, message: Self.sessionMessage)
      let before = stack.controlLog().count
      let (session, events) = try await Self.storageSession(
        context, access: PCSCStorageCardAccess(profile: .acs)
      ) {
        let answer = try stack.send("insert storage \(kind) acs image \(Self.hex(image))")
        #expect(answer == "inserted")
      }
      #expect(session.ending == .firstTagRead, "\(kind)")
      #expect(session.claimedReader?.isReaderDriven == true, "\(kind)")
      let reads = events.compactMap { if case .tagRead(_, let bytes) = $0 { bytes } else { nil } }
      #expect(reads == [Self.sessionMessage], "\(kind)")
      #expect(Self.endMessage(events) == .some("Done"), "\(kind)")
      #expect(
        Self.withoutReasonQueries(Array(stack.controlLog().dropFirst(before))) == [
          Self.startLine, Self.line(codes.stopNFC, Array("Done".utf8)),
        ], "\(kind)")
      #expect(try stack.send("remove") == "removed")
      _ = try await context.waitForRemoval(from: PCSCStack.nfcReader, timeout: .seconds(10))
    }
  }

  /// A MIFARE Classic 1K as shipped (no MAD): the read fails, the session ends with
  /// `terminatedUnexpectedly` (`tagError`, the MIFARE Classic error named) after
  /// STOP_NFC_WITH_ERROR with the failure message, as a failed Type 4 read does; with the
  /// card formatted, `tapwire read --pcsc` (the reader-driven session) reads it.
  @Test func readerDrivenSessionEndsTypedOnAStorageCardItCannotRead() async throws {
    let stack = try await PCSCStack(driver: .tapwire)
    defer { stack.stop() }
    let context = try PCSCContext()
    let (session, events) = try await Self.storageSession(
      context, access: PCSCStorageCardAccess(profile: .acs)
    ) {
      let answer = try stack.send("insert storage mfc-1k acs")
      #expect(answer == "inserted")
    }
    guard case .terminatedUnexpectedly(let error) = session.ending else {
      Issue.record("ending \(String(describing: session.ending))")
      return
    }
    #expect(error.code == .tagError)
    #expect(error.message.contains("notFormatted"), "\(error)")
    #expect(events.contains { if case .readFailed(_, _, "Try again") = $0 { true } else { false } })
    let codes = NFCControlCodes.tapwireDefaults
    #expect(
      Self.withoutReasonQueries(stack.controlLog()) == [
        Self.startLine, Self.line(codes.stopNFCWithError, Array("Try again".utf8)),
      ])
    // The CLI's reader-driven session reads the NTAG215 Tapwire wrote.
    #expect(try stack.send("remove") == "removed")
    _ = try await context.waitForRemoval(from: PCSCStack.nfcReader, timeout: .seconds(10))
    let image = try await Self.writtenStorageImage(stack, kind: "ntag215", message: Self.sessionMessage)
    #expect(try stack.send("insert storage ntag215 acs image \(Self.hex(image))") == "inserted")
    let read = try Self.tapwire(["read", "--pcsc", PCSCStack.nfcReader, "--reader-profile", "acs", "--json"])
    #expect(read.status == 0, "\(read.stderr)")
    #expect(read.stderr.contains("reader-driven NFC discovery"), "\(read.stderr)")
    #expect(try Self.object(read.stdout)["format"] as? String == "t2t")
    #expect(read.stdout.contains("Hello, storage card"), "\(read.stdout)")
    #expect(
      Self.withoutReasonQueries(stack.controlLog()).last == Self.line(codes.stopNFC, Array("Tag read".utf8)))
  }
}
