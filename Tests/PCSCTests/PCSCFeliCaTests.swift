// SPDX-License-Identifier: Apache-2.0
import Foundation
import NDEF
import NFCReader
import NFCReaderPCSC
import NFCTags
import PCSCControl
import Testing

/// FeliCa (Type 3) storage cards through real pcscd, vpcd and `tapwire-vcard`'s reader
/// firmware (`insert storage felica PROFILE`): read, write and format through direct
/// transmit (ACS) and the transparent session `FF C2`, a torn write, the typed error of a
/// reader that cannot pass FeliCa frames, and `tapwire write|read --pcsc`.
extension PCSCTransportTests {
  /// A profile for a reader with the Part 3 supplement's transparent session.
  static let transparentProfile = StorageCardReaderProfile(
    identifier: "transparent", name: "transparent session", keyStructure: .volatile, keySlots: nil,
    hasTransparentSession: true)

  /// The vcard's FeliCa memory decoded: the message bytes (nil for Ln 0), WriteFlag ON read
  /// leniently as nil.
  static func storedFeliCaMessage(_ stack: PCSCStack) throws -> [UInt8]? {
    let memory = try storedMemory(stack)
    let view = try Type3TagView(validating: memory.span, options: .lenient)
    return try view.message().map { try $0.encodedBytes() }
  }

  @Test func feliCaReadWriteAndFormatThroughDirectTransmitAndTheTransparentSession() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    for (firmware, profile) in [
      ("acs", StorageCardReaderProfile.acs), ("transparent", Self.transparentProfile),
    ] {
      let card = try await Self.insertStorage(stack, context, "felica \(firmware)")
      let access = PCSCStorageCardAccess(profile: profile)
      guard case .storage(let atr, .type3?) = try await card.kind() else {
        Issue.record("\(firmware): not a FeliCa storage card")
        continue
      }
      #expect(atr.standard == .felica)
      #expect(atr.cardName == .felica)
      #expect(try await card.readNDEF(access: access) == nil, "\(firmware) blank")
      try await card.writeNDEF(bytes: Self.longStorageMessage, access: access)
      let back = try #require(try await card.readNDEF(access: access))
      #expect(try back.encodedBytes() == Self.longStorageMessage, "\(firmware)")
      #expect(try Self.storedFeliCaMessage(stack) == Self.longStorageMessage)
      let memory = try Self.storedMemory(stack)
      #expect(memory.count == 14 * 16)
      #expect(try await card.readMemoryImage(access: access) == memory)
      try await card.formatNDEF(access: access)
      #expect(try await card.readNDEF(access: access) == nil, "\(firmware) formatted")
      #expect(try Self.storedMemory(stack)[9...13] == [0x00, 0x01, 0x00, 0x00, 0x00])
      try await card.disconnect()
    }
  }

  /// The card leaves in the middle of a FeliCa write through direct transmit: `tagLost`,
  /// and the card holds the old message, WriteFlag ON (no message), or the new one, never a
  /// part (T3T 1.0 §7.4.2). The first write takes APDUs 1-5 (GET DATA, Check of the AIB, 3
  /// Updates); the second 6-16 (GET DATA, Check, the AIB with WriteFlag ON, 7 blocks, the
  /// AIB with Ln).
  @Test func aFeliCaCardRemovedMidWriteHoldsAWholeMessageOrNone() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let access = PCSCStorageCardAccess(profile: .acs)
    let cases: [(leaveAfter: Int, held: [UInt8]?)] = [
      (6, Self.storageMessage), (7, Self.storageMessage), (8, nil), (15, nil), (16, Self.longStorageMessage),
    ]
    for (leaveAfter, held) in cases {
      let card = try await Self.insertStorage(stack, context, "felica acs after \(leaveAfter)")
      try await card.writeNDEF(bytes: Self.storageMessage, access: access)
      var lost: ReaderError.Code?
      do { try await card.writeNDEF(bytes: Self.longStorageMessage, access: access) } catch {
        if case .reader(let failure) = error { lost = failure.code } else { Issue.record("\(error)") }
      }
      try? await card.disconnect()
      #expect(lost == (leaveAfter < 16 ? .tagLost : nil), "after \(leaveAfter)")
      if lost != nil { #expect(try stack.line(timeout: .seconds(10)).hasPrefix("left after")) }
      #expect(try Self.storedFeliCaMessage(stack) == held, "after \(leaveAfter)")
    }
  }

  /// A profile with neither direct transmit nor the transparent session fails before any
  /// APDU, saying so; a reader that answers 6A81 to the route fails naming 6A81; both
  /// `unsupportedFeature`. The CLI (generic profile: the vpcd name matches no vendor) says
  /// why and exits 1.
  @Test func aReaderThatCannotPassFeliCaFramesGivesATypedError() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let cases: [(String, StorageCardReaderProfile, String)] = [
      ("minimal", .generic, "neither direct transmit"), ("omnikey", .acs, "6A81"),
      ("acs", Self.transparentProfile, "6A81"),
    ]
    for (firmware, profile, reason) in cases {
      let card = try await Self.insertStorage(stack, context, "felica \(firmware)")
      await #expect {
        _ = try await card.readNDEF(access: PCSCStorageCardAccess(profile: profile))
      } throws: { error in
        guard case .reader(let failure) = error as? PCSCNDEFError else { return false }
        return failure.code == .unsupportedFeature && failure.message.contains(reason)
      }
      try await card.disconnect()
    }
    let run = try Self.tapwire(["read", "--pcsc", PCSCStack.reader, "--timeout", "2"])
    #expect(run.status == 1)
    #expect(run.stderr.contains("transparent session"), "\(run.stderr)")
  }

  /// An ACR122U's direct transmit reaches a PN532: the frames go inside InDataExchange
  /// (`D4 40 01`), the answers come as `D5 41 00 frame`. The route follows the reader name.
  @Test func feliCaFramesThroughAnACR122UsPN532() async throws {
    #expect(
      PCSCRawFrameRoute.route(for: .acs, readerName: "ACS ACR122U PICC Interface 00 00")
        == .pn532InDataExchange)
    #expect(
      PCSCRawFrameRoute.route(for: .acs, readerName: "ACS ACR1252 1S CL Reader PICC 00 00")
        == .directTransmit)
    #expect(
      PCSCRawFrameRoute.route(for: Self.transparentProfile, readerName: "ACS ACR122U") == .transparentSession
    )
    #expect(PCSCRawFrameRoute.route(for: .hidOmnikey, readerName: "HID Global OMNIKEY 5427 CK") == nil)
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0x7A, 0x10, 0x20, 0x30, 0x40]
    let card = try await Self.insertStorage(
      stack, context, "felica acs uid \(idm.map { String(format: "%02x", $0) }.joined())")
    let transport = PCSCType3Transport(card: card, route: .pn532InDataExchange, idm: idm)
    let block = [UInt8](repeating: 0x5A, count: 16)
    try await transport.update(5..<6, block)
    #expect(try await transport.check(5..<6) == block)
    #expect(try Self.storedMemory(stack)[80..<96] == block[...])
    // Another IDm: the tag stays silent, the PN532 reports a timeout.
    let stranger = PCSCType3Transport(
      card: card, route: .pn532InDataExchange, idm: [UInt8](repeating: 0xEE, count: 8))
    await #expect {
      _ = try await stranger.check(0..<1)
    } throws: { error in
      (error as? ReaderError)?.code == .tagError
        && (error as? ReaderError)?.message.contains("status 01") == true
    }
    try await card.disconnect()
  }

  /// `tapwire write|read --pcsc R --reader-profile acs` on a FeliCa card: written,
  /// verified, read back as `t3t` JSON.
  @Test func cliWritesAndReadsAFeliCaCard() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert storage felica acs") == "inserted")
    let hex = Self.storageMessage.map { String(format: "%02x", $0) }.joined()
    let write = try Self.tapwire([
      "write", "--pcsc", PCSCStack.reader, "--reader-profile", "acs", "--message", hex,
    ])
    #expect(write.status == 0, "\(write.stderr)")
    #expect(write.stdout.contains("verified"))
    let read = try Self.tapwire(["read", "--pcsc", PCSCStack.reader, "--reader-profile", "acs", "--json"])
    #expect(read.status == 0, "\(read.stderr)")
    let object = try Self.object(read.stdout)
    #expect(object["format"] as? String == "t3t")
    #expect(read.stdout.contains("example.com"), "\(read.stdout)")
    #expect(try Self.storedFeliCaMessage(stack) == Self.storageMessage)
  }
}
