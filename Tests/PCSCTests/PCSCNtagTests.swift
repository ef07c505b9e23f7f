// SPDX-License-Identifier: Apache-2.0
import Foundation
import NDEF
import NFCReader
import NFCReaderPCSC
import NFCTags
import PCSCControl
import Synchronization
import Testing
import Type2NDEF

#if canImport(Glibc)
  import Glibc
#endif

/// The NTAG21x commands and the Type 2 NDEF procedure over PC/SC (`PCSCType2PageTransport`),
/// through real pcscd, vpcd and `tapwire-vcard`'s reader firmware serving the simulator's
/// `SimulatedType2Tag` (NTAG213/215/216 data sheet §8.8, §10): the same `Ntag` and
/// `Type2NDEFProcedure` the libnfc tests run.
extension PCSCTransportTests {
  static let ntagPassword = NtagPassword([0x12, 0x34, 0x56, 0x78])!
  static let wrongNtagPassword = NtagPassword([0x12, 0x34, 0x56, 0x79])!
  static let ntagPack = NtagPasswordAcknowledge(0xA5, 0x5A)
  /// The originality signature `SimulatedType2Tag` answers READ_SIG with.
  static let simulatedSignature: [UInt8] = (0..<32).map { UInt8(0xA0 + $0) }

  /// NTAG215 under ACS firmware (raw frames through direct transmit): GET_VERSION names
  /// it, READ_SIG and READ_CNT answer; protected from page 4 for reads and writes, an NDEF
  /// read without the password fails with `tagError`, a wrong password is refused and
  /// counted (the reader activates the tag again), PWD_AUTH with the PACK check opens it,
  /// the read works, unprotect writes AUTH0 FFh first and a fresh activation reads freely.
  @Test func ntagProtectionThroughDirectTransmit() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let card = try await Self.insertStorage(stack, context, "ntag215 acs")
    let access = PCSCStorageCardAccess(profile: .acs)
    try await card.writeNDEF(bytes: Self.storageMessage, access: access)

    let transport = try await PCSCType2PageTransport.connect(card: card, profile: .acs)
    #expect(transport.rawFrameRoute == .directTransmit)
    #expect(transport.chip?.name == "NTAG215")
    #expect(transport.variant == .ntag215)
    #expect(transport.maximumPagesPerRead == PCSCType2PageTransport.maximumFastReadPages)
    let ntag = Ntag(transport: transport)
    #expect(try await ntag.version()?.chip?.name == "NTAG215")
    #expect(try await ntag.signature() == Self.simulatedSignature)
    #expect(try await ntag.counter() == 0)

    let plan = try await ntag.protect(
      .ntag215, password: Self.ntagPassword, acknowledge: Self.ntagPack, firstProtectedPage: 4,
      readProtected: true, attemptLimit: 3)
    // CFG0 0x83, CFG1, PWD, PACK: PWD, PACK, CFG1, CFG0 last.
    #expect(plan.writes.map(\.block) == [0x85, 0x86, 0x84, 0x83])
    let memory = try Self.storedMemory(stack)
    #expect(Array(memory[(0x83 * 4)..<(0x85 * 4)]) == [0x04, 0, 0, 0x04, 0x83, 0x05, 0, 0])
    #expect(Array(memory[(0x85 * 4)..<(0x86 * 4 + 2)]) == Self.ntagPassword.bytes + Self.ntagPack.bytes)

    // Without the password: the NDEF read is refused, typed.
    await #expect {
      _ = try await card.readNDEF(access: access)
    } throws: { error in
      guard case .reader(let failure) = error as? PCSCNDEFError else { return false }
      return failure.code == .tagError
    }
    // A wrong password: refused (a NAK through direct transmit is 6300 on ACS).
    let wrong = await #expect(throws: Type2NDEFError.self) {
      try await ntag.authenticate(Self.wrongNtagPassword)
    }
    guard case .reader(let refusal)? = wrong else {
      Issue.record("\(String(describing: wrong))")
      return
    }
    #expect(refusal.code == .tagError)
    #expect(!refusal.message.contains("12345679") && !refusal.message.contains("12 34 56 79"), "no password")
    // The right password with the PACK check, then the read works on the same connection.
    #expect(try await ntag.authenticate(Self.ntagPassword, acknowledge: Self.ntagPack) == Self.ntagPack)
    #expect(try await card.readNDEF(access: access).map { try $0.encodedBytes() } == Self.storageMessage)

    try await ntag.unprotect(.ntag215, password: Self.ntagPassword, acknowledge: Self.ntagPack)
    try await card.reconnect(.reset)
    #expect(try await card.readNDEF(access: access).map { try $0.encodedBytes() } == Self.storageMessage)
    #expect(try await ntag.configuration(of: .ntag215).firstProtectedPage == 0xFF)
    try await card.disconnect()

    // AUTHLIM 2 on an NTAG213: two wrong passwords and even the right one is refused.
    let locked = try await Self.insertStorage(stack, context, "ntag213 acs")
    let lockedTag = Ntag(transport: try await PCSCType2PageTransport.connect(card: locked, profile: .acs))
    try await lockedTag.protect(
      .ntag213, password: Self.ntagPassword, acknowledge: Self.ntagPack, firstProtectedPage: 4,
      readProtected: false, attemptLimit: 2)
    for _ in 0..<2 {
      await #expect(throws: Type2NDEFError.self) { try await lockedTag.authenticate(Self.wrongNtagPassword) }
    }
    let refused = await #expect(throws: Type2NDEFError.self) {
      try await lockedTag.authenticate(Self.ntagPassword)
    }
    if case .reader(let error)? = refused {
      #expect(error.code == .tagError)
    } else {
      Issue.record("\(String(describing: refused))")
    }
    try await locked.disconnect()
  }

  /// A reader with the transparent session (`FF C2`, Transparent Exchange `95`/`97`): the
  /// same commands; and a reader whose firmware answers 6A81 (or a profile with no
  /// raw-frame route) gives `unsupportedFeature` saying why, while NDEF still works by
  /// READ/UPDATE BINARY.
  @Test func ntagCommandsThroughTheTransparentSessionOrNone() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    var transparent = StorageCardReaderProfile.generic
    transparent.hasTransparentSession = true
    let card = try await Self.insertStorage(stack, context, "ntag213 transparent")
    let transport = try await PCSCType2PageTransport.connect(card: card, profile: transparent)
    #expect(transport.rawFrameRoute == .transparentSession)
    #expect(transport.chip?.name == "NTAG213")
    let ntag = Ntag(transport: transport)
    #expect(try await ntag.signature() == Self.simulatedSignature)
    await #expect(throws: Type2NDEFError.self) { try await ntag.authenticate(Self.wrongNtagPassword) }
    #expect(try await ntag.authenticate(.factoryDefault) == .factoryDefault)
    try await card.disconnect()

    let minimal = try await Self.insertStorage(stack, context, "ntag215 minimal")
    for profile in [StorageCardReaderProfile.acs, .generic] {
      let pages = try await PCSCType2PageTransport.connect(card: minimal, profile: profile)
      #expect(pages.chip == nil)
      #expect(pages.maximumPagesPerRead == 4)
      let error = await #expect(throws: Type2NDEFError.self) {
        _ = try await Ntag(transport: pages).signature()
      }
      guard case .reader(let failure)? = error else {
        Issue.record("\(String(describing: error))")
        continue
      }
      #expect(failure.code == .unsupportedFeature, "\(failure)")
      #expect(failure.message.contains(profile.hasDirectTransmit ? "6A81" : "neither"), "\(failure)")
    }
    try await minimal.writeNDEF(bytes: Self.storageMessage, access: PCSCStorageCardAccess(profile: .generic))
    #expect(
      try await minimal.readNDEF(access: PCSCStorageCardAccess(profile: .generic)).map {
        try $0.encodedBytes()
      }
        == Self.storageMessage)
    try await minimal.disconnect()
  }

  /// Round trips: an NTAG216 whose NDEF message fills its data area (872 bytes by its CC),
  /// read through `Type2NDEFProcedure` and counted per PC/SC transmit: FAST_READ through
  /// direct transmit (ACS) against READ BINARY of 4 pages (a reader without raw frames,
  /// and nfcpy's 16 bytes a read).
  @Test func roundTripsReadingAFilledNTAG216() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    // 872 bytes: the NDEF TLV `03 FF 03 63` (867 bytes), the message and FE.
    let payload: [UInt8] = [0x02, 0x65, 0x6E] + [UInt8](repeating: 0x61, count: 857)
    let message: [UInt8] = [0xC1, 0x01, 0x00, 0x00, 0x03, 0x5C, 0x54] + payload
    #expect(message.count == 867)
    var counts: [String: Int] = [:]
    for (firmware, profile) in [("acs", StorageCardReaderProfile.acs), ("minimal", .generic)] {
      let card = try await Self.insertStorage(stack, context, "ntag216 \(firmware)")
      let access = PCSCStorageCardAccess(profile: profile)
      try await card.writeNDEF(bytes: message, access: access)
      let counter = TransmitCount()
      let pages = try await PCSCType2PageTransport.connect(card: card, profile: profile)
      counter.add(pages.rawFrameRoute == nil ? 0 : 1)  // GET_VERSION
      let procedure = Type2NDEFProcedure(transport: CountingPages(pages: pages, count: counter))
      let read = try await procedure.read()
      #expect(try read.messageBytes() == message, "\(firmware)")
      counts[firmware] = counter.value
      try await card.disconnect()
    }
    // Pages 0-221 hold the header and the message: 4 FAST_READs of at most 62 pages plus
    // GET_VERSION, against 55 READ BINARYs of 4 pages (page 3 first, then pages 4-221: the
    // minimum READ allows, and nfcpy's 16 bytes a read).
    print(
      "NTAG216, 872-byte NDEF TLV, PC/SC transmits: ACS (FAST_READ) \(counts["acs"] ?? -1), READ BINARY only \(counts["minimal"] ?? -1)"
    )
    #expect(counts["acs"] == 5)
    #expect(counts["minimal"] == 55)
  }

  /// `tapwire ntag info|protect|auth|unprotect --pcsc`: the chip and signature shown, the
  /// password from the environment and a file, never printed. The vpcd reader's name matches
  /// no vendor, so `--reader-profile acs` says it passes raw frames (direct transmit).
  @Test func cliNtagOnAPCSCReader() async throws {
    let stack = try await PCSCStack()
    defer { stack.stop() }
    #expect(try stack.send("insert storage ntag215 acs") == "inserted")
    let reader = ["--pcsc", PCSCStack.reader, "--reader-profile", "acs", "--timeout", "5"]
    let info = try Self.tapwire(["ntag", "info"] + reader)
    #expect(info.status == 0, "\(info.stderr)")
    #expect(info.stdout.contains("chip: NTAG215"), "\(info.stdout)")
    #expect(
      info.stdout.contains(
        "signature: " + Self.simulatedSignature.map { String(format: "%02x", $0) }.joined()), "\(info.stdout)"
    )
    #expect(info.stdout.contains("protection: none"), "\(info.stdout)")

    setenv("TAPWIRE_TEST_NTAG_PCSC", "12345678", 1)
    let protect = try Self.tapwire(
      ["ntag", "protect"] + reader + [
        "--password-env", "TAPWIRE_TEST_NTAG_PCSC", "--pack", "A55A", "--read-protect",
      ])
    #expect(protect.status == 0, "\(protect.stderr)")
    #expect(!(protect.stdout + protect.stderr).contains("12345678"))
    let read = try Self.tapwire(["read", "--pcsc", PCSCStack.reader, "--timeout", "5"])
    #expect(read.status == 1, "a read without the password fails")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tapwire-ntag-pcsc-\(getpid()).txt")
    try "12345678\n".write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let unprotect = try Self.tapwire(
      ["ntag", "unprotect"] + reader + ["--password-file", file.path, "--pack", "a55a"])
    #expect(unprotect.status == 0, "\(unprotect.stderr)")
    #expect(unprotect.stdout.contains("no page needs the password"), "\(unprotect.stdout)")
    #expect(!(unprotect.stdout + unprotect.stderr).contains("12345678"))

    #expect(try stack.send("remove") == "removed")
    _ = try await PCSCContext().waitForRemoval(from: PCSCStack.reader, timeout: .seconds(10))
    #expect(try stack.send("insert storage ntag215 minimal") == "inserted")
    let unsupported = try Self.tapwire(["ntag", "info"] + reader)
    #expect(unsupported.status == 1)
    #expect(
      unsupported.stderr.contains("6A81") && unsupported.stderr.contains("cannot"), "\(unsupported.stderr)")
  }
}

/// PC/SC transmits, counted.
final class TransmitCount: Sendable {
  private let count = Mutex(0)
  func add(_ n: Int) { count.withLock { $0 += n } }
  var value: Int { count.withLock { $0 } }
}

/// A `Type2PageTransport` that counts the exchanges of the one it wraps (each read, write
/// and raw frame of `PCSCType2PageTransport` is one PC/SC transmit when nothing fails).
struct CountingPages: Type2PageTransport {
  let pages: PCSCType2PageTransport
  let count: TransmitCount
  var maximumPagesPerRead: Int { pages.maximumPagesPerRead }
  var variant: Type2TagVariant? { pages.variant }
  func readPages(_ range: Range<Int>) async throws(ReaderError) -> [UInt8] {
    count.add(1)
    return try await pages.readPages(range)
  }
  func writePage(_ page: Int, _ bytes: [UInt8]) async throws(ReaderError) {
    count.add(1)
    try await pages.writePage(page, bytes)
  }
  func transceive(_ frame: [UInt8]) async throws(ReaderError) -> [UInt8] {
    count.add(1)
    return try await pages.transceive(frame)
  }
}

extension PCSCTransportTests {
  /// On an ACR122U the raw frames go through its PN532 (`PCSCRawFrameRoute.pn532InDataExchange`,
  /// the route the reader name gives): GET_VERSION names the chip, FAST_READ reads the filled
  /// NTAG216 in 62-page reads, the message reads back, and a refused PWD_AUTH comes back as
  /// the PN532's timeout status, typed, with the tag activated again for the next command.
  @Test func ntagFramesThroughAnACR122UsPN532() async throws {
    #expect(
      PCSCRawFrameRoute.route(for: .acs, readerName: "ACS ACR122U PICC Interface 00 00")
        == .pn532InDataExchange)
    let stack = try await PCSCStack()
    defer { stack.stop() }
    let context = try PCSCContext()
    let card = try await Self.insertStorage(stack, context, "ntag216 acs")
    let message = [UInt8](repeating: 0x5A, count: 800)
    let record = NDEFMessage(records: [
      NDEFRecord(typeNameFormat: .media, type: Array("a/b".utf8), payload: message)
    ])
    try await card.writeNDEF(bytes: try record.encodedBytes(), access: PCSCStorageCardAccess(profile: .acs))

    let transport = try await PCSCType2PageTransport.connect(
      card: card, profile: .acs, route: .pn532InDataExchange)
    #expect(transport.rawFrameRoute == .pn532InDataExchange)
    #expect(transport.chip?.name == "NTAG216")
    #expect(transport.maximumPagesPerRead == 62)
    let read = try await Type2NDEFProcedure(transport: transport).read()
    #expect(try read.messageBytes() == (try record.encodedBytes()))
    #expect(read.readCount <= 4, "\(read.readCount) reads")

    let ntag = Ntag(transport: transport)
    await #expect {
      try await ntag.authenticate(Self.wrongNtagPassword)
    } throws: { error in
      "\(error)".contains("status 01")
    }
    #expect(try await ntag.version()?.chip?.name == "NTAG216")
    try await card.disconnect()
  }
}
