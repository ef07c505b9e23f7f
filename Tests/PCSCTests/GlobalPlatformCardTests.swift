// SPDX-License-Identifier: Apache-2.0
import DaemonStack
import Foundation
import GlobalPlatformCryptoOpenSSL
import ISO7816
import NFCReader
import NFCReaderPCSC
import SecureChannel
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// pcscd with vpcd and `Tests/Tools/gp_card.py`: a GlobalPlatform issuer security domain whose
/// secure channel is the independent Python implementation (`scp_oracle.py`,
/// python3-cryptography), not Tapwire's. Same namespace set-up as ``PCSCStack``; the card's
/// APDU log is `card.log` in the stack's directory.
final class GlobalPlatformCardStack {
  static let python = "/usr/bin/python3"
  static let card = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Tools/gp_card.py").path

  let namespace: DaemonNamespace

  /// Starts pcscd and `gp_card.py` with `arguments` and inserts the card (leaving after
  /// `leavingAfter` APDUs when given).
  init(_ arguments: [String] = [], leavingAfter: Int? = nil) async throws {
    let directory = PCSCStack.directory
    let script = """
      mount --bind \(directory)/run /run || { echo "mount --bind \(directory)/run /run failed"; exit 1; }
      \(PCSCStack.pcscd) -f -i -c \(directory)/conf > \(directory)/pcscd.log 2>&1 &
      echo "pid $!"
      echo ready
      exec \(Self.python) -W ignore \(Self.card) --port \(PCSCStack.port) --log \(directory)/card.log \
      \(arguments.joined(separator: " "))
      """
    namespace = try DaemonNamespace(
      directory: directory, namespaces: [.mount, .network], foreground: "gp_card.py", script: script
    ) {
      let fileManager = FileManager.default
      try fileManager.createDirectory(atPath: directory + "/run", withIntermediateDirectories: true)
      try fileManager.createDirectory(atPath: directory + "/conf", withIntermediateDirectories: true)
      try PCSCStack.configuration(.vpcd, directory: directory)
        .write(toFile: directory + "/conf/vpcd", atomically: true, encoding: .utf8)
    }
    try await namespace.waitUntil("pcscd did not list \(PCSCStack.reader)") {
      guard let context = try? PCSCContext(), let readers = try? await context.readers() else { return false }
      return readers.contains(PCSCStack.reader)
    }
    try insert(leavingAfter: leavingAfter)
  }

  /// `insert [N]`: the card (re)connects to vpcd, leaving after N APDUs when given.
  func insert(leavingAfter count: Int? = nil) throws {
    namespace.write(line: "insert" + (count.map { " \($0)" } ?? ""))
    let answer = try namespace.line(timeout: .seconds(60))
    guard answer == "inserted" else { throw DaemonStackError(answer) }
  }

  /// The authentications the card still allows before it locks the key set.
  func triesLeft() throws -> String {
    namespace.write(line: "tries")
    return try namespace.line(timeout: .seconds(60))
  }

  /// The commands the card received, as sent (wrapped), in upper-case hex.
  func commandsReceived() -> [String] {
    namespace.file("card.log").split(separator: "\n").filter { $0.hasPrefix("> ") }.map {
      String($0.dropFirst(2))
    }
  }

  /// Connects to the card and selects the ISD (plain).
  func connect() async throws -> PCSCAPDUTransport {
    let context = try PCSCContext()
    _ = try #require(try await context.waitForCard(in: PCSCStack.reader, timeout: .seconds(30)))
    var transport = PCSCAPDUTransport(card: try await context.connect(to: PCSCStack.reader))
    let answer = try await transport.transmit(
      GlobalPlatformCommands.select(PCSCTransportTests.GlobalPlatformCardTests.isd).encodedBytes())
    #expect(answer.suffix(2) == [0x90, 0x00])
    return transport
  }

  func stop() { namespace.stop() }
}

typealias GlobalPlatformChannel = SecureChannelTransport<PCSCAPDUTransport, OpenSSLSecureChannelCrypto>

/// In ``PCSCTransportTests`` (serialized, the same socket path and vpcd port).
extension PCSCTransportTests {
  /// Tapwire's secure channel (SecureChannel with the OpenSSL provider, over the real pcsc-lite
  /// client and pcscd) against the Python card: every security level, the registry, wrong and
  /// blocked keys, PUT KEY, and card content management.
  @Suite("GlobalPlatform card over pcscd")
  struct GlobalPlatformCardTests {
    static let isd = try! ApplicationIdentifier([0xA0, 0x00, 0x00, 0x01, 0x51, 0x00, 0x00, 0x00])
    static let testKeys = SecureChannelKeys.wellKnownTestKeys

    static func configuration(
      _ protocolNumber: SecureChannelProtocol, _ level: SecurityLevel, keys: SecureChannelKeys = testKeys,
      keyVersion: UInt8 = 0, s16: Bool = false, i: UInt8 = 0x55
    ) -> SecureChannelConfiguration {
      SecureChannelConfiguration(
        keys: keys, keyVersion: keyVersion, secureChannelProtocol: protocolNumber, securityLevel: level,
        s16Mode: s16, scp02Parameter: i)
    }

    static func open(_ stack: GlobalPlatformCardStack, _ configuration: SecureChannelConfiguration)
      async throws -> GlobalPlatformChannel
    {
      try await GlobalPlatformChannel.open(
        over: try await stack.connect(), configuration: configuration,
        crypto: try OpenSSLSecureChannelCrypto())
    }

    /// GET STATUS of `subset`, following 6310 with P2 b1 (GPCS 2.3 §11.4.2).
    static func status(_ channel: inout GlobalPlatformChannel, _ subset: GlobalPlatformStatusSubset)
      async throws -> (entries: [GlobalPlatformRegistryEntry], statusWords: [UInt16])
    {
      var entries: [GlobalPlatformRegistryEntry] = []
      var words: [UInt16] = []
      var next = false
      while true {
        let answer = try await channel.send(GlobalPlatformCommands.getStatus(subset, nextOccurrence: next))
        words.append(answer.statusWord.rawValue)
        guard answer.statusWord.rawValue == 0x9000 || answer.statusWord.rawValue == 0x6310 else { break }
        entries += try GlobalPlatformRegistryEntry.parseStatusResponse(answer.data)
        guard answer.statusWord.rawValue == 0x6310 else { break }
        next = true
      }
      return (entries, words)
    }

    /// Every SCP03 security level (S8, and S16 with the card's i=71), SCP02 i=15 and i=55: the
    /// channel opens against the Python card and GET STATUS of the ISD comes back through it.
    @Test(arguments: [
      ("03", "70", [UInt8(0x00), 0x01, 0x03, 0x11, 0x13, 0x33]), ("03", "71", [0x01, 0x33]),
      ("02", "55", [0x00, 0x01, 0x03]), ("02", "15", [0x01, 0x03]),
    ])
    func everySecurityLevel(scp: String, i: String, levels: [UInt8]) async throws {
      let stack = try await GlobalPlatformCardStack(["--scp", scp, "--i", i])
      defer { stack.stop() }
      let protocolNumber: SecureChannelProtocol = scp == "03" ? .scp03 : .scp02
      for level in levels {
        var channel = try await Self.open(
          stack,
          Self.configuration(
            protocolNumber, SecurityLevel(rawValue: level), s16: i == "71", i: UInt8(i, radix: 16) ?? 0))
        #expect(channel.session.securityLevel.rawValue == level)
        let (entries, words) = try await Self.status(&channel, .issuerSecurityDomain)
        #expect(words == [0x9000])
        #expect(entries.map(\.aid) == [Self.isd.bytes])
        #expect(entries.first?.lifeCycle == .personalized)
        #expect(entries.first?.privileges?.bytes == [0x9E, 0xFE, 0x80])
        try await channel.exchanger.transport.card.disconnect(.reset)
      }
    }

    /// Wrong keys: the card cryptogram does not verify and EXTERNAL AUTHENTICATE is never sent
    /// (the card's log shows only SELECT and INITIALIZE UPDATE), so the card counts nothing.
    /// Failed EXTERNAL AUTHENTICATEs from elsewhere lock the key set: then INITIALIZE UPDATE
    /// answers 6983 and the opening reports a blocked key set.
    @Test func wrongKeysStopBeforeExternalAuthenticateAndABlockedKeySetIsReported() async throws {
      let stack = try await GlobalPlatformCardStack(["--tries", "2"])
      defer { stack.stop() }
      let wrong = try SecureChannelKeys(key: [UInt8](repeating: 0x11, count: 16))
      await #expect {
        _ = try await Self.open(stack, Self.configuration(.scp03, .cMAC, keys: wrong))
      } throws: { error in
        guard case .secureChannel(let failure) = error as? SecureChannelTransportError<ReaderError> else {
          return false
        }
        return failure.code == .cardCryptogramMismatch
      }
      let sent = stack.commandsReceived()
      #expect(sent.count == 2)
      #expect(sent.first?.hasPrefix("00A40400") == true)
      #expect(sent.last?.hasPrefix("80500000") == true)
      #expect(!sent.contains { $0.hasPrefix("8482") })
      #expect(try stack.triesLeft() == "tries 2")

      // Another tool sends EXTERNAL AUTHENTICATE with a bad host cryptogram, twice.
      for _ in 0..<2 {
        var transport = try await stack.connect()
        let initialize = try await transport.transmit([
          0x80, 0x50, 0x00, 0x00, 0x08, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 0x00,
        ])
        #expect(initialize.suffix(2) == [0x90, 0x00])
        let authenticate = try await transport.transmit(
          [0x84, 0x82, 0x01, 0x00, 0x10] + [UInt8](repeating: 0, count: 16))
        #expect(authenticate == [0x63, 0x00])
      }
      #expect(try stack.triesLeft() == "tries 0")
      await #expect {
        _ = try await Self.open(stack, Self.configuration(.scp03, .cMAC))
      } throws: { error in
        guard case .secureChannel(let failure) = error as? SecureChannelTransportError<ReaderError> else {
          return false
        }
        return failure.code == .keySetBlocked && failure.statusWord?.rawValue == 0x6983
      }
    }

    /// PUT KEY replaces the test keys (KVN 30 or 20) with new ones as KVN 31: the card checks
    /// the check values and answers the KVN and them; the channel reopens with the new keys
    /// and the old version is gone.
    @Test(arguments: ["03", "02"])
    func putKeyThenReopen(scp: String) async throws {
      let stack = try await GlobalPlatformCardStack(["--scp", scp])
      defer { stack.stop() }
      let protocolNumber: SecureChannelProtocol = scp == "03" ? .scp03 : .scp02
      let old: UInt8 = scp == "03" ? 0x30 : 0x20
      let crypto = try OpenSSLSecureChannelCrypto()
      let fresh = try SecureChannelKeys(
        encryption: try crypto.randomBytes(count: 16), mac: try crypto.randomBytes(count: 16),
        dataEncryption: try crypto.randomBytes(count: 16))
      var channel = try await Self.open(stack, Self.configuration(protocolNumber, .cMACAndDecryption))
      let putKey = try PutKeyCommand(
        keys: fresh, newKeyVersion: 0x31, replacing: old, session: channel.session)
      let answer = try await channel.send(putKey.command)
      #expect(answer.statusWord.rawValue == 0x9000)
      #expect(answer.data == putKey.expectedResponseData)
      try await channel.exchanger.transport.card.disconnect(.reset)

      var reopened = try await Self.open(
        stack, Self.configuration(protocolNumber, .cMAC, keys: fresh, keyVersion: 0x31))
      #expect(try await Self.status(&reopened, .issuerSecurityDomain).statusWords == [0x9000])
      try await reopened.exchanger.transport.card.disconnect(.reset)
      await #expect {
        _ = try await Self.open(stack, Self.configuration(protocolNumber, .cMAC, keyVersion: old))
      } throws: { error in
        guard case .secureChannel(let failure) = error as? SecureChannelTransportError<ReaderError> else {
          return false
        }
        return failure.code == .initializeUpdateFailed && failure.statusWord?.rawValue == 0x6A88
      }
    }

    static let package = try! ApplicationIdentifier([0xD2, 0x76, 0x00, 0x01, 0x24, 0x01])
    static let applet = try! ApplicationIdentifier([0xD2, 0x76, 0x00, 0x01, 0x24, 0x01, 0x01])
    static let instance = try! ApplicationIdentifier([0xD2, 0x76, 0x00, 0x01, 0x24, 0x01, 0x01, 0x01])
    static let secondInstance = try! ApplicationIdentifier([0xD2, 0x76, 0x00, 0x01, 0x24, 0x01, 0x01, 0x02])

    /// A Load File Data Block: Header (package D276000124 01, version 1.2), Applet (one applet)
    /// and a Method component of `methodBytes` bytes (JCVM 3.0.5 §6.4, §6.5, §6.10).
    static func loadFile(methodBytes: Int) -> [UInt8] {
      func component(_ tag: UInt8, _ info: [UInt8]) -> [UInt8] {
        [tag, UInt8(info.count >> 8), UInt8(info.count & 0xFF)] + info
      }
      let header =
        [0xDE, 0xCA, 0xFF, 0xED, 0x01, 0x02, 0x04, 0x02, 0x01, UInt8(package.bytes.count)] + package.bytes
      let applets = [0x01, UInt8(applet.bytes.count)] + applet.bytes + [0x00, 0x10]
      let method = (0..<methodBytes).map { UInt8(truncatingIfNeeded: $0) }
      return component(1, header) + component(3, applets) + component(7, method)
    }

    /// INSTALL [for load] with the SHA-1 hash, LOAD in blocks of the most C-DECRYPTION allows
    /// (239), INSTALL [for install and make selectable]; GET STATUS of the load files with
    /// their modules follows 6310; the instance selects, is locked (SELECT 6A82) and unlocked
    /// by SET STATUS; DELETE of the load file with its related objects empties the registry.
    @Test func loadInstallSelectLockDelete() async throws {
      let stack = try await GlobalPlatformCardStack(["--status-budget", "20"])
      defer { stack.stop() }
      var channel = try await Self.open(stack, Self.configuration(.scp03, .all))
      let crypto = try OpenSSLSecureChannelCrypto()
      let file = Self.loadFile(methodBytes: 600)
      let install = try GlobalPlatformCommands.installForLoad(
        loadFile: Self.package, securityDomain: Self.isd, hash: try crypto.sha1(file))
      #expect(try await channel.send(install).statusWord.rawValue == 0x9000)
      let blocks = try GlobalPlatformCommands.load(file, blockSize: 239)
      #expect(blocks.count == 3)
      for block in blocks {
        #expect(try await channel.send(block).statusWord.rawValue == 0x9000)
      }
      let installApplet = try GlobalPlatformCommands.installForInstall(
        loadFile: Self.package, module: Self.applet, application: Self.instance)
      #expect(try await channel.send(installApplet).statusWord.rawValue == 0x9000)
      let installSecond = try GlobalPlatformCommands.installForInstall(
        loadFile: Self.package, module: Self.applet, application: Self.secondInstance, makeSelectable: false)
      #expect(try await channel.send(installSecond).statusWord.rawValue == 0x9000)

      let files = try await Self.status(&channel, .loadFilesAndModules)
      #expect(files.statusWords == [0x9000])
      #expect(files.entries.map(\.aid) == [Self.package.bytes])
      #expect(files.entries.first?.moduleAIDs == [Self.applet.bytes])
      #expect(files.entries.first?.loadFileVersion == [0x01, 0x02])
      // Two entries do not fit the card's 20-byte budget: 6310, then P2 b1.
      let applications = try await Self.status(&channel, .applications)
      #expect(applications.statusWords == [0x6310, 0x9000])
      #expect(applications.entries.map(\.aid) == [Self.instance.bytes, Self.secondInstance.bytes])
      #expect(applications.entries.map(\.lifeCycle) == [.selectable, .installed])
      #expect(applications.entries.map(\.loadFileAID) == [Self.package.bytes, Self.package.bytes])
      let lock = CommandAPDU(
        cla: .globalPlatform, ins: .gpSetStatus, p1: 0x40, p2: 0x83, data: Self.instance.bytes)
      #expect(try await channel.send(lock).statusWord.rawValue == 0x9000)

      var plain = channel.exchanger.transport
      #expect(
        try await plain.transmit(GlobalPlatformCommands.select(Self.instance).encodedBytes()) == [0x6A, 0x82])
      channel = try await Self.open(stack, Self.configuration(.scp03, .cMAC))
      let unlock = CommandAPDU(
        cla: .globalPlatform, ins: .gpSetStatus, p1: 0x40, p2: 0x07, data: Self.instance.bytes)
      #expect(try await channel.send(unlock).statusWord.rawValue == 0x9000)
      plain = channel.exchanger.transport
      let selected = try await plain.transmit(GlobalPlatformCommands.select(Self.instance).encodedBytes())
      #expect(selected == [0x6F, 0x0A, 0x84, 0x08] + Self.instance.bytes + [0x90, 0x00])

      channel = try await Self.open(stack, Self.configuration(.scp03, .cMACAndDecryption))
      // Without related objects the load file cannot go: its application references it.
      #expect(
        try await channel.send(GlobalPlatformCommands.delete(Self.package)).statusWord.rawValue == 0x6985)
      let delete = GlobalPlatformCommands.delete(Self.package, relatedObjects: true)
      #expect(try await channel.send(delete).statusWord.rawValue == 0x9000)
      #expect(try await Self.status(&channel, .applications).statusWords == [0x6A88])
      #expect(try await Self.status(&channel, .loadFiles).statusWords == [0x6A88])
    }

    /// The card checks the load file hash and the block numbering: a wrong hash is 6A80 on the
    /// last LOAD and leaves nothing in the registry; a block over the card's maximum is 6700.
    @Test func loadFileHashAndBlockLimitsAreChecked() async throws {
      let stack = try await GlobalPlatformCardStack(["--max-block", "128"])
      defer { stack.stop() }
      var channel = try await Self.open(stack, Self.configuration(.scp03, .cMAC))
      let file = Self.loadFile(methodBytes: 100)
      let install = try GlobalPlatformCommands.installForLoad(
        loadFile: Self.package, hash: [UInt8](repeating: 0, count: 20))
      #expect(try await channel.send(install).statusWord.rawValue == 0x9000)
      let blocks = try GlobalPlatformCommands.load(file, blockSize: 128)
      #expect(try await channel.send(blocks[0]).statusWord.rawValue == 0x9000)
      #expect(try await channel.send(blocks[1]).statusWord.rawValue == 0x6A80)
      #expect(try await Self.status(&channel, .loadFiles).statusWords == [0x6A88])

      #expect(try await channel.send(install).statusWord.rawValue == 0x9000)
      let tooLong = try GlobalPlatformCommands.load(file, blockSize: 129)
      #expect(try await channel.send(tooLong[0]).statusWord.rawValue == 0x6700)
    }

    /// The card leaves in the middle of LOAD (after INITIALIZE UPDATE, EXTERNAL AUTHENTICATE,
    /// INSTALL and two blocks): `APDUExchanger.loadFile` through the channel throws the typed
    /// load error naming the third block (P2 02), two of three blocks acknowledged, with the
    /// reader's card-gone error inside; nothing was registered.
    @Test func cardRemovedMidLoad() async throws {
      let stack = try await GlobalPlatformCardStack(leavingAfter: 6)
      defer { stack.stop() }
      let channel = try await Self.open(stack, Self.configuration(.scp03, .cMACAndDecryption))
      let file = Self.loadFile(methodBytes: 600)
      var exchanger = APDUExchanger(transport: channel, options: GlobalPlatformChannel.innerOptions)
      let error = await #expect(
        throws: GlobalPlatformLoadError<SecureChannelTransportError<ReaderError>>.self
      ) {
        try await exchanger.loadFile(
          file, installForLoad: try GlobalPlatformCommands.installForLoad(loadFile: Self.package),
          blockSize: 239)
      }
      #expect(error?.code == .loadBlockExchangeFailed)
      #expect(error?.blockNumber == 2)
      #expect(error?.blocksAcknowledged == 2)
      #expect(error?.blockCount == 3)
      guard case .transport(.transport(let failure)) = error?.exchangeError else {
        Issue.record("not a transport failure: \(String(describing: error?.exchangeError))")
        return
      }
      #expect(failure.code == .tagLost)
    }

    /// `tapwire gp list|info` against the Python card: the registry in lines and in JSON, the
    /// keys only as check values (the well-known test key's AES KCVs), wrong keys named.
    @Test func cliListsTheRegistry() async throws {
      let stack = try await GlobalPlatformCardStack()
      defer { stack.stop() }
      let list = try PCSCTransportTests.tapwire([
        "gp", "list", "--pcsc", PCSCStack.reader, "--key", "test", "--security", "mac+enc+rmac",
      ])
      #expect(list.status == 0, "\(list.stderr)")
      #expect(list.stdout.contains("secure channel: SCP03, C-MAC+C-DECRYPTION+R-MAC"))
      // The well-known test key's AES check value (AES-ECB of 16 bytes 01, first 3 bytes).
      #expect(list.stdout.contains("key check values: 504a77 504a77 504a77"))
      #expect(list.stdout.contains("ISD: a000000151000000 (SECURED) privileges 9efe80"))
      #expect(!list.stdout.contains("404142"))
      let info = try PCSCTransportTests.tapwire([
        "gp", "info", "--pcsc", PCSCStack.reader, "--key-enc", "404142434445464748494A4B4C4D4E4F",
        "--key-mac",
        "404142434445464748494A4B4C4D4E4F", "--key-dek", "404142434445464748494A4B4C4D4E4F", "--kvn", "0x30",
        "--scp", "03", "--json",
      ])
      #expect(info.status == 0, "\(info.stderr)")
      let object = try PCSCTransportTests.object(info.stdout)
      #expect(object["format"] as? String == "gpInfo")
      #expect(object["scp"] as? String == "SCP03")
      let isd = try #require((object["issuerSecurityDomain"] as? [[String: Any]])?.first)
      #expect(isd["aid"] as? String == "a000000151000000")
      #expect((object["applications"] as? [Any])?.isEmpty == true)
      #expect(object["keyCheckValues"] as? [String] == ["504a77", "504a77", "504a77"])
      #expect(isd["lifeCycle"] as? String == "SECURED")
      #expect(isd["privileges"] as? String == "9efe80")
      #expect((object["cplc"] as? String)?.hasPrefix("4790505147910000") == true)
      // Card recognition data (GET DATA 0066): GlobalPlatform 2.3.1, SCP03 i=70 as the card says.
      let recognition = try #require(object["cardRecognitionData"] as? [String: Any])
      #expect(recognition["globalPlatformVersion"] as? String == "2.3.1")
      let protocols = recognition["secureChannelProtocols"] as? [[String: String]]
      #expect(protocols == [["scp": "SCP03", "i": "70"]])
      #expect(!info.stdout.contains("404142"))
      let text = try PCSCTransportTests.tapwire(["gp", "info", "--pcsc", PCSCStack.reader, "--key", "test"])
      #expect(
        text.stdout.contains("card recognition data: GlobalPlatform 2.3.1; SCP03 i=70\n"), "\(text.stdout)")
      let authentications = stack.commandsReceived().filter { $0.hasPrefix("8482") }.count
      let wrong = try PCSCTransportTests.tapwire([
        "gp", "list", "--pcsc", PCSCStack.reader, "--key", String(repeating: "11", count: 16),
      ])
      #expect(wrong.status == 1)
      #expect(wrong.stderr.contains("cardCryptogramMismatch"))
      #expect(stack.commandsReceived().filter { $0.hasPrefix("8482") }.count == authentications)
      #expect(try stack.triesLeft() == "tries 3")
    }

    /// `tapwire gp lock|unlock|delete|put-key` against the Python card, after a load and an
    /// install through the library: the card's registry follows each step; after put-key only
    /// the new key opens the channel.
    @Test func cliManagesTheCard() async throws {
      let stack = try await GlobalPlatformCardStack()
      defer { stack.stop() }
      var channel = try await Self.open(stack, Self.configuration(.scp03, .cMACAndDecryption))
      let file = Self.loadFile(methodBytes: 100)
      #expect(
        try await channel.send(GlobalPlatformCommands.installForLoad(loadFile: Self.package)).statusWord
          .rawValue
          == 0x9000)
      for block in try GlobalPlatformCommands.load(file, blockSize: 239) {
        #expect(try await channel.send(block).statusWord.rawValue == 0x9000)
      }
      let install = try GlobalPlatformCommands.installForInstall(
        loadFile: Self.package, module: Self.applet, application: Self.instance)
      #expect(try await channel.send(install).statusWord.rawValue == 0x9000)
      try await channel.exchanger.transport.card.disconnect(.reset)

      let common = ["--pcsc", PCSCStack.reader, "--key", "test"]
      let instance = "d2760001240101" + "01"
      let lock = try PCSCTransportTests.tapwire(["gp", "lock", instance] + common)
      #expect(lock.status == 0, "\(lock.stderr)")
      #expect(lock.stdout == "locked \(instance)\n")
      let locked = try PCSCTransportTests.tapwire(["gp", "list"] + common)
      #expect(locked.stdout.contains("APP: \(instance) (LOCKED)"))
      #expect(try PCSCTransportTests.tapwire(["gp", "unlock", instance] + common).status == 0)
      let unlocked = try PCSCTransportTests.tapwire(["gp", "list"] + common)
      #expect(unlocked.stdout.contains("APP: \(instance) (SELECTABLE) privileges 000000 from d27600012401"))
      #expect(unlocked.stdout.contains("PKG: d27600012401 (LOADED) version 1.2\n     module d2760001240101"))

      // Without --related the card refuses (6985: the load file has an application).
      let refused = try PCSCTransportTests.tapwire(["gp", "delete", "d27600012401"] + common)
      #expect(refused.status == 1)
      #expect(
        refused.stderr.contains(
          "DELETE d27600012401: status word 6985: conditions of use not satisfied; check "))
      let deleted = try PCSCTransportTests.tapwire(
        ["gp", "delete", "d27600012401", "--related", "--json"] + common)
      #expect(deleted.status == 0, "\(deleted.stderr)")
      #expect(try PCSCTransportTests.object(deleted.stdout)["action"] as? String == "delete")
      #expect(!(try PCSCTransportTests.tapwire(["gp", "list"] + common).stdout.contains("APP:")))

      let newKey = "00112233445566778899aabbccddeeff"
      let putKey = try PCSCTransportTests.tapwire(
        ["gp", "put-key", "--new-key", newKey, "--new-kvn", "0x31"] + common)
      #expect(putKey.status == 0, "\(putKey.stderr)")
      #expect(putKey.stdout.hasPrefix("key version 49 loaded (replaced 48), key check values: "))
      #expect(!putKey.stdout.lowercased().contains(newKey))
      let old = try PCSCTransportTests.tapwire(["gp", "list"] + common)
      #expect(old.status == 1)
      #expect(old.stderr.contains("cardCryptogramMismatch") || old.stderr.contains("initializeUpdateFailed"))
      let reopened = try PCSCTransportTests.tapwire([
        "gp", "list", "--pcsc", PCSCStack.reader, "--key", newKey,
      ])
      #expect(reopened.status == 0, "\(reopened.stderr)")
    }
  }
}
