// SPDX-License-Identifier: Apache-2.0
import Foundation
import MifareClassicNDEF
import NDEF
import NFCReader
import NFCReaderPCSC
import NFCTags
import PCSCControl
import Testing

/// Storage cards (PC/SC Part 3) through real pcscd, vpcd and `tapwire-vcard`'s reader
/// firmware (`insert storage KIND PROFILE`): Type 2, MIFARE Classic and Type 5 read, write
/// and format through ``NFCReaderPCSC/PCSCCard``, each reader profile's quirks, typed
/// failures. In the serialized PC/SC suite (one socket path and vpcd port per process).
extension PCSCTransportTests {
  /// A URI record (https://example.com).
  static let storageMessage: [UInt8] = [
    0xD1, 0x01, 0x0C, 0x55, 0x02, 0x65, 0x78, 0x61, 0x6D, 0x70, 0x6C, 0x65, 0x2E, 0x63, 0x6F, 0x6D,
  ]
  /// A Text record of 100 bytes of text: more than one MIFARE Classic sector, many pages.
  static let longStorageMessage: [UInt8] = {
    let payload: [UInt8] = [0x02, 0x65, 0x6E] + [UInt8](repeating: 0x61, count: 100)
    return [0xD1, 0x01, UInt8(payload.count), 0x54] + payload
  }()
  /// The key B the MIFARE Classic tests format with.
  static let customKeyB = MifareClassicKey(hex: "0123456789AB")!

  /// Inserts a storage card (after the one before has left, as pcscd saw it) and connects
  /// to it.
  static func insertStorage(_ stack: PCSCStack, _ context: PCSCContext, _ line: String) async throws
    -> PCSCCard
  {
    #expect(try stack.send("remove") == "removed")
    _ = try await context.waitForRemoval(from: PCSCStack.reader, timeout: .seconds(10))
    #expect(try stack.send("insert storage " + line) == "inserted")
    _ = try #require(try await context.waitForCard(in: PCSCStack.reader, timeout: .seconds(10)))
    return try await context.connect(to: PCSCStack.reader)
  }

  /// The vcard's memory of the last storage card.
  static func storedMemory(_ stack: PCSCStack) throws -> [UInt8] {
    let answer = try stack.send("memory")
    try #require(answer.hasPrefix("memory "), "\(answer)")
    return try #require(hexBytes(String(answer.dropFirst(7))))
  }

  static func hexBytes(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
      let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
      guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    return bytes
  }

  /// NTAG213/215/216 and Ultralight EV1: the storage-card ATR names the kind; a blank
  /// formatted tag reads empty; a write reads back and lands in the tag's pages (checked in
  /// the vcard's memory with the NFCTags view); format empties it again. ACS (GET_VERSION
  /// through direct transmit names the product), OMNIKEY (no direct transmit: the CC
  /// size does) and the minimal reader (READ/UPDATE BINARY only) all do it.
  @Test func type2TagsReadWriteAndFormatOnEveryProfile() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let cases: [(String, String, StorageCardReaderProfile, Type2TagVariant, [UInt8])] = [
      ("ntag213", "acs", .acs, .ntag213, Self.longStorageMessage),
      ("ntag215", "omnikey", .hidOmnikey, .ntag215, Self.longStorageMessage),
      ("ntag216", "acs", .acs, .ntag216, Self.longStorageMessage),
      ("ultralight-ev1", "minimal", .generic, .ultralightEV1MF0UL11, Self.storageMessage),
    ]
    for (kind, firmware, profile, variant, message) in cases {
      let card = try await Self.insertStorage(stack, context, "\(kind) \(firmware)")
      let access = PCSCStorageCardAccess(profile: profile)
      guard case .storage(let atr, .type2?) = try await card.kind() else {
        Issue.record("\(kind): not a Type 2 storage card")
        continue
      }
      #expect(atr.standard == .iso14443APart3)
      #expect(try await card.readNDEF(access: access) == nil, "\(kind) blank")
      try await card.writeNDEF(bytes: message, access: access)
      let back = try #require(try await card.readNDEF(access: access))
      #expect(try back.encodedBytes() == message, "\(kind)")
      let memory = try Self.storedMemory(stack)
      #expect(memory.count == variant.memorySize, "\(kind)")
      // PWD and PACK read as zeros (NTAG213/215/216 §8.8.1, MF0ULX1 §8.6.1).
      var readable = memory
      if let pages = variant.passwordConfigurationPages {
        for page in [pages.password, pages.passwordAcknowledge] {
          readable.replaceSubrange((page * 4)..<(page * 4 + 4), with: [0, 0, 0, 0])
        }
      }
      #expect(try await card.readMemoryImage(access: access) == readable, "\(kind)")
      let view = try Type2TagView(validating: memory.span, variant: variant)
      #expect(try view.tlvArea.message(options: .strict).map { try $0.encodedBytes() } == message)
      try await card.formatNDEF(access: access)
      #expect(try await card.readNDEF(access: access) == nil, "\(kind) formatted")
      try await card.disconnect()
    }
  }

  /// MIFARE Classic 1K under ACS firmware (volatile slots 00-01, 6300 for everything) and
  /// 4K under OMNIKEY firmware (non-volatile slots, 6986 for volatile, 69xx): format with a
  /// key B of our own, write a message over two sectors, read it back, and the trailers the
  /// card holds are the NFC sector and MAD trailers with that key B. The 4K card is reached
  /// with the generic profile (the vpcd reader name matches no vendor): LOAD KEYS volatile
  /// first, refused with 6986, then non-volatile (the fallback plan). The Identiv/SCM
  /// legacy firmware (LOAD KEYS P2 = key type) with its profile reads a Mini.
  @Test func mifareClassicFormatWriteReadUnderEachKeyProfile() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    var keyring = MifareClassicKeyring.publicKeys
    keyring.add(Self.customKeyB, slot: .b)
    let cases: [(String, String, StorageCardReaderProfile?, MifareClassicCardKind)] = [
      ("mfc-1k", "acs", .acs, .classic1K), ("mfc-4k", "omnikey", nil, .classic4K),
      ("mfc-mini", "scm", .identivSCM, .mini),
    ]
    for (kind, firmware, profile, cardKind) in cases {
      let card = try await Self.insertStorage(stack, context, "\(kind) \(firmware)")
      let access = PCSCStorageCardAccess(profile: profile, keyring: keyring)
      // As shipped: no MAD.
      await #expect {
        _ = try await card.readNDEF(access: access)
      } throws: { error in
        guard case .mifareClassic(let failure) = error as? PCSCNDEFError else { return false }
        return failure.code == .notFormatted
      }
      try await card.formatNDEF(keyB: Self.customKeyB, access: access)
      #expect(try await card.readNDEF(access: access) == nil, "\(kind) formatted")
      try await card.writeNDEF(bytes: Self.longStorageMessage, access: access)
      let back = try #require(try await card.readNDEF(access: access))
      #expect(try back.encodedBytes() == Self.longStorageMessage, "\(kind)")
      let memory = try Self.storedMemory(stack)
      #expect(memory.count == cardKind.memorySize)
      // Sector 1's trailer: NFC Forum key A, 7F 07 88 40, our key B; sector 0's: MAD key A.
      #expect(
        Array(memory[112..<128]) == MifareClassicKey.nfcForumKeyA.bytes + [0x7F, 0x07, 0x88, 0x40]
          + Self.customKeyB.bytes)
      #expect(
        Array(memory[48..<58]) == MifareClassicKey.madKeyA.bytes + [
          0x78, 0x77, 0x88, cardKind == .classic4K ? 0xC2 : 0xC1,
        ])
      // Block 4 starts the TLV area: the NDEF TLV with the message.
      #expect(
        Array(memory[64..<68]) == [0x03, UInt8(Self.longStorageMessage.count)]
          + Self.longStorageMessage.prefix(2))
      try await card.disconnect()
    }
  }

  /// Wrong keys are typed: a card whose sector 0 has keys no keyring holds fails with
  /// `authenticationFailed` naming sector 0 and the keys tried, under ACS firmware (6300)
  /// and OMNIKEY firmware (6982) alike; the right key given opens it (then it is not
  /// formatted, also typed). The card is re-activated after each refusal (SCardReconnect).
  @Test func wrongMifareClassicKeysAreTyped() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let secret = MifareClassicKey(hex: "112233445566")!
    var image = [UInt8](repeating: 0, count: 1024)
    image[0..<8] = [0xA1, 0xB2, 0xC3, 0xD4, 0xA1 ^ 0xB2 ^ 0xC3 ^ 0xD4, 0x08, 0x04, 0x00]
    for sector in 0..<16 {
      let trailer =
        sector == 0
        ? secret.bytes + [0xFF, 0x07, 0x80, 0x69] + secret.bytes
        : [UInt8](repeating: 0xFF, count: 6) + [0xFF, 0x07, 0x80, 0x69] + [UInt8](repeating: 0xFF, count: 6)
      image[(sector * 64 + 48)..<(sector * 64 + 64)] = trailer[...]
    }
    let hex = image.map { String(format: "%02x", $0) }.joined()
    for (firmware, profile) in [("acs", StorageCardReaderProfile.acs), ("omnikey", .hidOmnikey)] {
      let card = try await Self.insertStorage(stack, context, "mfc-1k \(firmware) image \(hex)")
      await #expect {
        _ = try await card.readNDEF(access: PCSCStorageCardAccess(profile: profile))
      } throws: { error in
        guard case .mifareClassic(let failure) = error as? PCSCNDEFError else { return false }
        return failure.code == .authenticationFailed && failure.sector == 0 && (failure.keysTried ?? 0) >= 4
      }
      var keyring = MifareClassicKeyring.publicKeys
      keyring.add(secret, slot: .a)
      await #expect {
        _ = try await card.readNDEF(access: PCSCStorageCardAccess(profile: profile, keyring: keyring))
      } throws: { error in
        guard case .mifareClassic(let failure) = error as? PCSCNDEFError else { return false }
        return failure.code == .notFormatted
      }
      try await card.disconnect()
    }
  }

  /// A reader that answers 6A81 to everything but READ/UPDATE BINARY cannot authenticate a
  /// MIFARE Classic sector: the error is typed (`unsupportedFeature` under the MIFARE Classic
  /// error, naming 6A81), and the CLI says so and exits 1.
  @Test func aReaderWithoutLoadKeysGivesATypedError() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let card = try await Self.insertStorage(stack, context, "mfc-1k minimal")
    await #expect {
      _ = try await card.readNDEF()
    } throws: { error in
      guard case .mifareClassic(let failure) = error as? PCSCNDEFError else { return false }
      return failure.code == .reader && failure.readerError?.code == .unsupportedFeature
        && failure.readerError?.message.contains("6A81") == true
    }
    try await card.disconnect()
    let run = try Self.tapwire(["read", "--pcsc", PCSCStack.reader, "--timeout", "2"])
    #expect(run.status == 1)
    #expect(run.stderr.contains("6A81"), "\(run.stderr)")
    #expect(run.stderr.contains("cannot"), "\(run.stderr)")
  }

  /// The tag leaves in the middle of a Type 2 write: `tagLost`, and the tag holds the old
  /// message, an empty NDEF TLV, or the new one, never a part (T2T 1.0 §6.4.2: length 0
  /// first, the length last).
  @Test func aType2TagRemovedMidWriteHoldsAWholeMessageOrNone() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let access = PCSCStorageCardAccess(profile: .acs)
    var outcomes: Set<String> = []
    // A write costs GET_VERSION and one FAST_READ (pages 0-40), then one UPDATE BINARY per
    // page it writes (length 0 first, the length last).
    for leaveAfter in [22, 34, 40, 50, 200] {
      let card = try await Self.insertStorage(stack, context, "ntag213 acs after \(leaveAfter)")
      try await card.writeNDEF(bytes: Self.storageMessage, access: access)
      var failure: PCSCNDEFError?
      do { try await card.writeNDEF(bytes: Self.longStorageMessage, access: access) } catch {
        failure = error
      }
      try? await card.disconnect()
      if let failure {
        guard case .reader(let error) = failure else {
          Issue.record("\(failure)")
          continue
        }
        #expect(error.code == .tagLost, "\(error)")
        #expect(try stack.line(timeout: .seconds(10)).hasPrefix("left after"))
      }
      let memory = try Self.storedMemory(stack)
      let view = try Type2TagView(validating: memory.span, variant: .ntag213, options: .lenient)
      let held = try view.tlvArea.message(options: .strict).map { try $0.encodedBytes() }
      switch held {
      case nil: outcomes.insert("empty")
      case Self.storageMessage?: outcomes.insert("old")
      case Self.longStorageMessage?: outcomes.insert("new")
      default: Issue.record("a partial message: \(String(describing: held))")
      }
    }
    #expect(outcomes.contains("empty") && outcomes.contains("new"), "\(outcomes)")
  }

  /// ISO/IEC 15693 under each READ/UPDATE BINARY addressing (block in P1, in P1-P2, byte
  /// address): detected from the CC magic, then written and read back.
  @Test(arguments: ["p1", "p1p2", "byte"])
  func type5TagsUnderEachAddressing(_ addressing: String) async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let card = try await Self.insertStorage(stack, context, "iso15693 omnikey addressing \(addressing)")
    #expect(try await card.readNDEF() == nil)
    try await card.writeNDEF(bytes: Self.storageMessage)
    #expect(try await card.readNDEF().map { try $0.encodedBytes() } == Self.storageMessage)
    let memory = try Self.storedMemory(stack)
    #expect(Array(memory[0..<2]) == [0xE1, 0x40])
    #expect(
      Array(memory[4..<24]) == [0x03, UInt8(Self.storageMessage.count)] + Self.storageMessage + [0xFE, 0x00])
    try await card.disconnect()
  }

  /// `tapwire write|read|format --pcsc`: an NTAG215 written and read as `t2t` JSON, a
  /// MIFARE Classic 1K formatted with a key B, written with the key and read through its
  /// MAD.
  @Test func cliReadsWritesAndFormatsStorageCards() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert storage ntag215 acs") == "inserted")
    let hex = Self.storageMessage.map { String(format: "%02x", $0) }.joined()
    let write = try Self.tapwire([
      "write", "--pcsc", PCSCStack.reader, "--reader-profile", "acs", "--message", hex,
    ])
    #expect(write.status == 0, "\(write.stderr)")
    #expect(write.stdout.contains("verified"))
    let read = try Self.tapwire(["read", "--pcsc", PCSCStack.reader, "--json"])
    #expect(read.status == 0, "\(read.stderr)")
    let object = try Self.object(read.stdout)
    #expect(object["format"] as? String == "t2t")
    #expect(read.stdout.contains("example.com"), "\(read.stdout)")

    #expect(try stack.send("remove") == "removed")
    _ = try await PCSCContext().waitForRemoval(from: PCSCStack.reader, timeout: .seconds(10))
    #expect(try stack.send("insert storage mfc-1k omnikey") == "inserted")
    let format = try Self.tapwire(["format", "--pcsc", PCSCStack.reader, "--key-b", "0123456789ab"])
    #expect(format.status == 0, "\(format.stderr)")
    #expect(!format.stdout.contains("0123456789"), "keys are never printed")
    let written = try Self.tapwire([
      "write", "--pcsc", PCSCStack.reader, "--key", "B:0123456789ab", "--message", hex,
    ])
    #expect(written.status == 0, "\(written.stderr)")
    let readClassic = try Self.tapwire(["read", "--pcsc", PCSCStack.reader, "--json"])
    #expect(readClassic.status == 0, "\(readClassic.stderr)")
    #expect(readClassic.stdout.contains("example.com"), "\(readClassic.stdout)")
  }
}

extension PCSCTransportTests {
  static var storageCrosscheckScript: String {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("pyscard-storage.py")
      .path
  }

  /// pyscard, with its own pseudo-APDUs, reads the same raw memory as Tapwire's
  /// `readMemoryImage` from an NTAG215 and a formatted MIFARE Classic 1K holding a message
  /// (ACS firmware): byte for byte.
  @Test func pyscardReadsTheSameStorageCardMemory() async throws {
    guard let python = Self.python else {
      #expect(!PCSCStack.isRequired, "pyscard is missing (.ci/install-packages installs python3-pyscard)")
      return
    }
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    for (kind, arguments) in [("ntag215", ["t2t", "135"]), ("mfc-1k", ["mfc", "16"])] {
      let card = try await Self.insertStorage(stack, context, "\(kind) acs")
      let access = PCSCStorageCardAccess(profile: .acs)
      if kind == "mfc-1k" { try await card.formatNDEF(access: access) }
      try await card.writeNDEF(bytes: Self.longStorageMessage, access: access)
      let ours = try await card.readMemoryImage(access: access)
      try await card.disconnect()
      let process = Process()
      process.executableURL = URL(fileURLWithPath: python)
      process.arguments = [Self.storageCrosscheckScript, PCSCStack.reader] + arguments
      var environment = ProcessInfo.processInfo.environment
      environment["PCSCLITE_CSOCK_NAME"] = PCSCStack.directory + "/run/pcscd/pcscd.comm"
      process.environment = environment
      let out = Pipe()
      process.standardOutput = out
      try process.run()
      let data = out.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      #expect(process.terminationStatus == 0, "\(kind)")
      let peer = try Self.object(String(decoding: data, as: UTF8.self))
      let theirs = try #require((peer["image"] as? String).flatMap(Self.hexBytes))
      #expect(theirs.count == ours.count, "\(kind)")
      #expect(theirs == ours, "\(kind)")
    }
  }
}
