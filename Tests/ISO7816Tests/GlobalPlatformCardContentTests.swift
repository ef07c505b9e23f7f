// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import ISO7816

@Suite struct GlobalPlatformCardContentTests {
  /// The plain bytes that fit a 255-byte Lc per security level (Amendment D §6.2.6: AES
  /// blocks of 16, always padded; GPCS §E.4.6: 3DES blocks of 8), the figures of the issue.
  @Test(arguments: [
    (GlobalPlatformCommandOverhead.none, 255), (.init(macLength: 8), 247),
    (.init(macLength: 8, encryptionBlockLength: 16), 239), (.init(macLength: 16), 239),
    (.init(macLength: 16, encryptionBlockLength: 16), 223),
    (.init(macLength: 8, encryptionBlockLength: 8), 239),
  ])
  func plainBytesFittingShortLc(overhead: GlobalPlatformCommandOverhead, expected: Int) {
    #expect(overhead.maximumPlainLength(fitting: 255) == expected)
    #expect(overhead.wrappedLength(expected) <= 255)
    #expect(overhead.wrappedLength(expected + 1) > 255)
  }

  /// For every card maximum 0...255 and every overhead, the chosen size is the largest that fits.
  @Test func maximumPlainLengthIsExact() {
    for mac in [0, 8, 16] {
      for block in [nil, 8, 16] as [Int?] {
        let overhead = GlobalPlatformCommandOverhead(macLength: mac, encryptionBlockLength: block)
        for limit in 0...255 {
          let size = overhead.maximumPlainLength(fitting: limit)
          if size > 0 { #expect(overhead.wrappedLength(size) <= limit) }
          #expect(overhead.wrappedLength(size + 1) > limit)
        }
      }
    }
    #expect(GlobalPlatformCommandOverhead(macLength: 8, encryptionBlockLength: 16).wrappedLength(0) == 8)
    #expect(GlobalPlatformCommandOverhead(macLength: 8, encryptionBlockLength: 16).wrappedLength(16) == 40)
  }

  /// The default (223) fits every level: 240 would pad to 256 under C-DECRYPTION.
  @Test func defaultBlockSizeFitsEveryLevel() throws {
    #expect(GlobalPlatformCommands.defaultLoadBlockSize == 223)
    for overhead in [
      GlobalPlatformCommandOverhead(macLength: 16, encryptionBlockLength: 16),
      .init(macLength: 8, encryptionBlockLength: 8),
    ] {
      #expect(overhead.wrappedLength(223) <= 255)
    }
    #expect(GlobalPlatformCommandOverhead(macLength: 8, encryptionBlockLength: 16).wrappedLength(240) == 264)
    let commands = try GlobalPlatformCommands.load([UInt8](repeating: 0xAB, count: 500))
    #expect(commands.map(\.data.count) == [223, 223, 58])
  }

  /// The card's 9F65 (from its FCI) lowers the block size by what the secure channel adds.
  @Test func cardMaximumFromFCI() throws {
    // 6F { 84 ISD AID, A5 { 9F65 01 80 } }: 128 bytes of command data at most.
    let fci = try FileControlInformation(
      parsing: hex("6F 10 84 08 A000000151000000 A5 04 9F65 01 80"))
    #expect(fci.maximumCommandDataLength == 128)
    let mac = GlobalPlatformCommandOverhead(macLength: 8)
    let macEnc = GlobalPlatformCommandOverhead(macLength: 8, encryptionBlockLength: 16)
    #expect(
      try GlobalPlatformCommands.loadBlockSize(
        maximum: 247, overhead: mac, cardMaximumCommandDataLength: fci.maximumCommandDataLength) == 120)
    #expect(
      try GlobalPlatformCommands.loadBlockSize(
        maximum: 239, overhead: macEnc, cardMaximumCommandDataLength: fci.maximumCommandDataLength) == 111)
    #expect(try GlobalPlatformCommands.loadBlockSize(maximum: 239, overhead: macEnc) == 239)
    #expect(try GlobalPlatformCommands.loadBlockSize(maximum: 239, cardMaximumCommandDataLength: 1000) == 239)
    #expect(try GlobalPlatformCommands.loadBlockSize(maximum: 300) == 255)
    #expect(throws: APDUError(.invalidBlockSize, offset: 0)) {
      try GlobalPlatformCommands.loadBlockSize(
        maximum: 200, overhead: macEnc, cardMaximumCommandDataLength: 16)
    }
    #expect(throws: APDUError(.invalidBlockSize, offset: 0)) {
      try GlobalPlatformCommands.loadBlockSize(maximum: 0)
    }
  }

  /// SET STATUS bytes (GPCS §11.10), as GlobalPlatformPro sends them for --lock-applet,
  /// --unlock-applet, --lock-card and --unlock-card.
  @Test func setStatus() throws {
    let aid = try ApplicationIdentifier(hex("A000000003000000"))
    #expect(
      try GlobalPlatformCommands.lockApplication(aid).encodedBytes() == hex("80 F0 40 80 08 A000000003000000")
    )
    #expect(
      try GlobalPlatformCommands.unlockApplication(aid).encodedBytes()
        == hex("80 F0 40 00 08 A000000003000000"))
    #expect(try GlobalPlatformCommands.lockCard().encodedBytes() == hex("80 F0 80 7F"))
    #expect(try GlobalPlatformCommands.unlockCard().encodedBytes() == hex("80 F0 80 0F"))
    #expect(
      try GlobalPlatformCommands.setStatus(.securityDomainAndApplications, state: 0x80, aid: aid)
        .encodedBytes()
        == hex("80 F0 60 80 08 A000000003000000"))
  }

  /// GET STATUS continues with P2 b1 on 6310 only (GPCS §11.4.2.2).
  @Test func getStatusContinuation() throws {
    for subset in [
      GlobalPlatformStatusSubset.issuerSecurityDomain, .applications, .loadFiles, .loadFilesAndModules,
    ] {
      let first = GlobalPlatformCommands.getStatus(subset)
      #expect(try first.encodedBytes() == [0x80, 0xF2, subset.rawValue, 0x02, 0x02, 0x4F, 0x00, 0x00])
      let next = GlobalPlatformCommands.getStatusContinuation(of: first, after: .moreDataAvailable)
      #expect(try next?.encodedBytes() == [0x80, 0xF2, subset.rawValue, 0x03, 0x02, 0x4F, 0x00, 0x00])
      #expect(GlobalPlatformCommands.getStatusContinuation(of: first, after: .success) == nil)
    }
    #expect(
      GlobalPlatformCommands.getStatusContinuation(
        of: GlobalPlatformCommands.lockCard(), after: .moreDataAvailable) == nil)
  }

  /// INSTALL and DELETE as the Applets section lists them.
  @Test func installAndDelete() throws {
    let package = try ApplicationIdentifier(hex("0102030405"))
    let isd = try ApplicationIdentifier(hex("A000000151000000"))
    let hash = [UInt8](repeating: 0x11, count: 32)
    let forLoad = try GlobalPlatformCommands.installForLoad(
      loadFile: package, securityDomain: isd, hash: hash)
    #expect(
      try forLoad.encodedBytes() == hex("80 E6 02 00 32 05 0102030405 08 A000000151000000 20") + hash + [
        0, 0, 0,
      ])
    let applet = try ApplicationIdentifier(hex("010203040501"))
    let install = try GlobalPlatformCommands.installForInstall(
      loadFile: package, module: applet, application: applet, privileges: [], applicationParameters: [])
    #expect(
      try install.encodedBytes()
        == hex("80 E6 0C 00 1C 05 0102030405 06 010203040501 06 010203040501 03 000000 02 C900 00 00"))
    #expect(
      try GlobalPlatformCommands.delete(package, relatedObjects: true).encodedBytes()
        == hex("80 E4 00 80 07 4F 05 0102030405 00"))
  }

  @Test func statusExplanations() throws {
    let package = try ApplicationIdentifier(hex("0102030405"))
    let forLoad = GlobalPlatformCommandKind(try GlobalPlatformCommands.installForLoad(loadFile: package))
    #expect(forLoad == .installForLoad)
    let install = GlobalPlatformCommandKind(
      try GlobalPlatformCommands.installForInstall(loadFile: package, module: package, application: package))
    #expect(install == .installForInstall)
    #expect(GlobalPlatformCommandKind(GlobalPlatformCommands.delete(package)) == .delete)
    #expect(GlobalPlatformCommandKind(try GlobalPlatformCommands.load([1])[0]) == .load)
    #expect(GlobalPlatformCommandKind(GlobalPlatformCommands.lockCard()) == .setStatus)
    #expect(GlobalPlatformCommandKind(GlobalPlatformCommands.getStatus(.applications)) == .getStatus)
    #expect(GlobalPlatformCommandKind(CommandAPDU(cla: 0x80, ins: 0xE6, p1: 0x08, p2: 0)) == .install)

    let onLoad = try #require(GlobalPlatformStatusExplanation.explain(.incorrectData, for: .installForLoad))
    let onInstall = try #require(
      GlobalPlatformStatusExplanation.explain(.incorrectData, for: .installForInstall))
    #expect(onLoad.meaning == "incorrect parameters in data field" && onLoad.command == .installForLoad)
    #expect(onInstall.check.contains("install parameters") && onLoad.check != onInstall.check)
    #expect(
      GlobalPlatformStatusExplanation.explain(.notEnoughMemory, for: .load)?.meaning
        == "not enough memory space")
    #expect(
      GlobalPlatformStatusExplanation.explain(.conditionsOfUseNotSatisfied, for: .delete)?.check.contains(
        "P2 80") == true)
    // General conditions (§11.1.3) for commands without their own entry.
    let general = try #require(
      GlobalPlatformStatusExplanation.explain(.securityStatusNotSatisfied, for: .load))
    #expect(general.command == nil && general.meaning == "security status not satisfied")
    #expect(
      GlobalPlatformStatusExplanation.explain(.incorrectParameters, for: .delete)?.meaning
        == "incorrect P1 P2")
    #expect(GlobalPlatformStatusExplanation.explain(.memoryFailure, for: .getStatus)?.command == nil)
    #expect(GlobalPlatformStatusExplanation.explain(StatusWord(rawValue: 0x6F_12), for: .load) == nil)
    // One entry per (command, status word).
    let keys = GlobalPlatformStatusExplanation.table.map {
      "\($0.command?.rawValue ?? 0)-\($0.statusWord.rawValue)"
    }
    #expect(Set(keys).count == keys.count)
    #expect(GlobalPlatformStatusExplanation.table.allSatisfy { !$0.meaning.isEmpty && !$0.check.isEmpty })
  }
}
