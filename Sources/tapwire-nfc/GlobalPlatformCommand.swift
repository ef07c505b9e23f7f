// SPDX-License-Identifier: Apache-2.0
import Foundation
import GlobalPlatformCryptoOpenSSL
import ISO7816
import JSONOutput
import JavaCardCAP
import NFCReader
import NFCReaderLibNFC
import NFCReaderPCSC
import NFCWire
import SecureChannel
import ZlibInflate

/// `tapwire-nfc gp info|list|install|delete|lock|unlock|put-key`: opens a GlobalPlatform secure
/// channel (SCP02/SCP03, GPCS 2.3 Appendix E, Amendment D) to the issuer security domain of the
/// card in a PC/SC reader (`--pcsc`) or on a libnfc reader (`--device`, an ISO-DEP tag) and
/// lists the registry with GET STATUS (GPCS 2.3 §11.4), loads and installs a CAP file
/// (INSTALL, LOAD: §11.5, §11.6), deletes a card content object (§11.2), locks or unlocks an
/// application (SET STATUS, §11.10) or replaces the key set (PUT KEY, §11.8). Keys appear only
/// as key check values.
///
/// Exit 0 done, 1 no reader or card, a transport failure or a secure-channel failure (named),
/// 2 bad usage.
enum GlobalPlatformCommand {
  static let usage = """
    usage: tapwire-nfc gp info|list|install FILE.cap|delete AID|lock AID|unlock AID|put-key
                      (--pcsc READER | --device CONNSTRING)
                      (--key HEX|test | --key-enc HEX --key-mac HEX --key-dek HEX)
                      [--kvn N] [--kdf emv|visa2|kdf3] [--scp 02|03] [--security mac|mac+enc|mac+rmac|mac+enc+rmac|all]
                      [--related] [--new-key HEX | --new-key-enc/--new-key-mac/--new-key-dek HEX] [--new-kvn N]
                      [--applet AID] [--instance AID] [--privileges HEX] [--params HEX] [--block-size N]
                      [--hash] [--load-only] [--timeout SECONDS] [--json]
    """

  typealias Channel<Inner: APDUTransport> = SecureChannelTransport<Inner, OpenSSLSecureChannelCrypto>

  /// What the command line asks for, checked before the card is touched.
  struct Request {
    var subcommand: String
    var target: ApplicationIdentifier?
    var newKeys: (keys: SecureChannelKeys, version: UInt8?)?
    var install: InstallRequest?
    var related: Bool
    var json: Bool
    var configuration: SecureChannelConfiguration
    var crypto: OpenSSLSecureChannelCrypto
  }

  static func run(_ arguments: [String]) async {
    let subcommands = ["info", "list", "install", "delete", "lock", "unlock", "put-key"]
    guard let subcommand = arguments.first, subcommands.contains(subcommand) else {
      TapwireNFC.fail("gp needs a command: \(subcommands.joined(separator: ", "))\n\(usage)")
    }
    // The AID or FILE.cap is the operand, wherever the table found it among the options.
    let rest = Array(arguments.dropFirst())
    var target: ApplicationIdentifier?
    if ["delete", "lock", "unlock"].contains(subcommand) {
      guard let text = TapwireNFC.operands.first, let bytes = Hex.bytes(text),
        let aid = try? ApplicationIdentifier(bytes)
      else { TapwireNFC.fail("gp \(subcommand) needs an AID (5 to 16 bytes in hex)") }
      target = aid
    }
    var install: InstallRequest?
    if subcommand == "install" {
      guard let path = TapwireNFC.operands.first else { TapwireNFC.fail("gp install needs a FILE.cap") }
      install = installRequest(path: path, rest)
    }
    let crypto: OpenSSLSecureChannelCrypto
    do throws(SecureChannelError) { crypto = try OpenSSLSecureChannelCrypto() } catch {
      TapwireNFC.fail("OpenSSL: \(error.code)", status: 1)
    }
    let request = Request(
      subcommand: subcommand, target: target, newKeys: subcommand == "put-key" ? newKeys(rest) : nil,
      install: install, related: rest.contains("--related"), json: rest.contains("--json"),
      configuration: configuration(rest), crypto: crypto)
    if rest.contains("--device") {
      guard TapwireNFC.option("--pcsc") == nil,
        TapwireNFC.option("--reader") == nil
      else { TapwireNFC.fail("gp takes --pcsc READER or --device CONNSTRING, not both") }
      let (reader, tag) = await TapwireNFC.openAndWait(rest, kinds: "an ISO-DEP tag") { $0.kind == .type4 }
      let transport: LibNFCAPDUTransport
      do { transport = try LibNFCAPDUTransport(reader: reader, tag: tag) } catch {
        await reader.close()
        TapwireNFC.fail("\(error)", status: 1)
      }
      await perform(request, over: transport) { await reader.close() }
      return
    }
    let card = await PCSCCommands.connect(rest)
    await perform(request, over: PCSCAPDUTransport(card: card)) { try? await card.disconnect(.reset) }
  }

  /// Selects the issuer security domain over `plain`, opens the channel and runs the request;
  /// `finish` disconnects (the card reset) or closes the reader.
  static func perform<Inner: APDUTransport>(
    _ request: Request, over plain: Inner, finish: () async -> Void
  ) async where Inner.Failure == ReaderError {
    var plain = plain
    var cplc: CardProductionLifeCycle?
    var recognition: CardRecognitionData?
    var fci: FileControlInformation?
    do throws(ReaderError) {
      fci = try await selectIssuerSecurityDomain(&plain)
      if request.subcommand == "info" {
        let answer = try await plain.transmit(
          (try? GlobalPlatformCommands.getData(.cardProductionLifeCycle).encodedBytes()) ?? [])
        if answer.suffix(2) == [0x90, 0x00], answer.count > 5 {
          cplc = try? CardProductionLifeCycle(parsing: Array(answer.dropFirst(3).dropLast(2)))
        }
        // Card recognition data (GET DATA 0066, GPCS 2.3 §H.2): the GlobalPlatform version and
        // the secure channel protocols the card says it implements.
        let data = try await plain.transmit(
          (try? GlobalPlatformCommands.getData(.cardData).encodedBytes()) ?? [])
        if data.suffix(2) == [0x90, 0x00] {
          recognition = try? CardRecognitionData(parsing: Array(data.dropLast(2)))
        }
      }
    } catch {
      TapwireNFC.fail("\(error)", status: 1)
    }
    let configuration = request.configuration
    var channel: Channel<Inner>
    do {
      channel = try await Channel.open(over: plain, configuration: configuration, crypto: request.crypto)
    } catch {
      TapwireNFC.fail("secure channel: \(describe(error))", status: 1)
    }
    if let install = request.install {
      await self.install(install, over: &channel, fci: fci, crypto: request.crypto, json: request.json)
      await finish()
      return
    }
    if let target = request.target {
      await manage(request.subcommand, target, related: request.related, over: &channel, json: request.json)
      await finish()
      return
    }
    if let newKeys = request.newKeys {
      await putKey(newKeys, over: &channel, crypto: request.crypto, json: request.json)
      await finish()
      return
    }
    var sections: [(GlobalPlatformStatusSubset, [GlobalPlatformRegistryEntry])] = []
    for subset in [GlobalPlatformStatusSubset.issuerSecurityDomain, .applications, .loadFilesAndModules] {
      do {
        sections.append((subset, try await status(&channel, subset)))
      } catch {
        TapwireNFC.fail("GET STATUS: \(describe(error))", status: 1)
      }
    }
    await finish()
    let session = channel.session
    let checkValues =
      (try? configuration.keys.checkValues(
        for: session.secureChannelProtocol == .scp03 ? .aes : .tripleDES, crypto: request.crypto)) ?? []
    if request.json {
      print(
        jsonReport(
          request.subcommand, sections, session: session, checkValues: checkValues, cplc: cplc,
          recognition: recognition))
      return
    }
    print("secure channel: \(session.secureChannelProtocol), \(session.securityLevel)")
    print("key check values: " + checkValues.map { Hex.string($0.bytes) }.joined(separator: " "))
    if let cplc { print("CPLC: \(Hex.string(cplc.bytes))") }
    if let recognition { print("card recognition data: " + describe(recognition)) }
    for (subset, entries) in sections {
      for entry in entries { print(line(entry, subset)) }
    }
  }

  /// SELECT with no AID, which selects the issuer security domain (GPCS 2.3 §11.9.2.1): its
  /// FCI, or exit 1 naming the status word when the card refuses.
  static func selectIssuerSecurityDomain<Inner: APDUTransport>(_ plain: inout Inner) async throws(ReaderError)
    -> FileControlInformation?
  where Inner.Failure == ReaderError {
    let select = CommandAPDU(cla: .interindustry, ins: .select, p1: 0x04, p2: 0x00, ne: 256)
    let selected = try await plain.transmit((try? select.encodedBytes()) ?? [])
    guard selected.suffix(2) == [0x90, 0x00] else {
      TapwireNFC.fail(
        "SELECT of the issuer security domain: \(Hex.string(Array(selected.suffix(2))))", status: 1)
    }
    return try? FileControlInformation(parsing: Array(selected.dropLast(2)))
  }

  /// True when the command line names keys: the script runs inside a secure channel.
  static func wantsChannel(_ arguments: [String]) -> Bool {
    arguments.contains("--key") || arguments.contains("--key-enc")
  }

  /// For a script: selects the issuer security domain over `plain` and opens the secure
  /// channel the options describe (as `gp` does), announcing it on standard error with the
  /// keys' check values only; on a failure runs `finish` and exits 1 naming it.
  static func scriptChannel<Inner: APDUTransport>(
    over plain: Inner, _ arguments: [String], finish: () async -> Void
  ) async -> Channel<Inner> where Inner.Failure == ReaderError {
    let crypto: OpenSSLSecureChannelCrypto
    do throws(SecureChannelError) { crypto = try OpenSSLSecureChannelCrypto() } catch {
      await finish()
      TapwireNFC.fail("OpenSSL: \(error.code)", status: 1)
    }
    let configuration = configuration(arguments)
    var plain = plain
    do throws(ReaderError) { _ = try await selectIssuerSecurityDomain(&plain) } catch {
      await finish()
      TapwireNFC.fail("\(error)", status: 1)
    }
    let channel: Channel<Inner>
    do {
      channel = try await Channel.open(over: plain, configuration: configuration, crypto: crypto)
    } catch {
      await finish()
      TapwireNFC.fail("secure channel: \(describe(error))", status: 1)
    }
    let session = channel.session
    let checkValues =
      (try? configuration.keys.checkValues(
        for: session.secureChannelProtocol == .scp03 ? .aes : .tripleDES, crypto: crypto)) ?? []
    APDUCommand.progress(
      "secure channel: \(session.secureChannelProtocol), \(session.securityLevel); key check values "
        + checkValues.map { Hex.string($0.bytes) }.joined(separator: " "))
    return channel
  }

  /// DELETE (with its related objects when `related`), or SET STATUS of an application to
  /// locked (83) or back to selectable (07).
  static func manage<Inner: APDUTransport>(
    _ subcommand: String, _ aid: ApplicationIdentifier, related: Bool, over channel: inout Channel<Inner>,
    json: Bool
  ) async {
    let command =
      subcommand == "delete"
      ? GlobalPlatformCommands.delete(aid, relatedObjects: related)
      : CommandAPDU(
        cla: .globalPlatform, ins: .gpSetStatus, p1: 0x40, p2: subcommand == "lock" ? 0x83 : 0x07,
        data: aid.bytes)
    let name =
      ["delete": "DELETE", "lock": "SET STATUS (lock)", "unlock": "SET STATUS (unlock)"][subcommand] ?? ""
    let sw: UInt16
    do { sw = try await channel.send(command).statusWord.rawValue } catch {
      TapwireNFC.fail("\(name): \(describe(error))", status: 1)
    }
    guard sw == 0x9000 else {
      let why = explanation(StatusWord(rawValue: sw), for: GlobalPlatformCommandKind(command))
      TapwireNFC.fail(
        "\(name) \(Hex.string(aid.bytes)): status word \(StatusWord(rawValue: sw).description)\(why)",
        status: 1)
    }
    let done = ["delete": "deleted", "lock": "locked", "unlock": "unlocked"][subcommand] ?? ""
    if json {
      let object: JSON = .object([
        ("ok", .bool(true)), ("format", .string("gpManage")), ("action", .string(subcommand)),
        ("aid", .string(Hex.string(aid.bytes))),
      ])
      print(object.serialized(.spaced))
    } else {
      print("\(done) \(Hex.string(aid.bytes))")
    }
  }

  /// PUT KEY of `keys` as `--new-kvn` (default: the version in use), replacing the version in
  /// use; the card's answer must be the version and the check values.
  static func putKey<Inner: APDUTransport>(
    _ request: (keys: SecureChannelKeys, version: UInt8?), over channel: inout Channel<Inner>,
    crypto: OpenSSLSecureChannelCrypto, json: Bool
  ) async {
    let replaced = channel.session.keyVersion
    let command: PutKeyCommand
    do throws(SecureChannelError) {
      command = try PutKeyCommand(
        keys: request.keys, newKeyVersion: request.version ?? replaced, replacing: replaced,
        session: channel.session)
    } catch {
      TapwireNFC.fail("PUT KEY: \(error.code)", status: 1)
    }
    let answer: ResponseAPDU
    do { answer = try await channel.send(command.command) } catch {
      TapwireNFC.fail("PUT KEY: \(describe(error))", status: 1)
    }
    guard answer.statusWord.rawValue == 0x9000 else {
      let why = explanation(answer.statusWord, for: GlobalPlatformCommandKind(command.command))
      TapwireNFC.fail(
        "PUT KEY: status word \(answer.statusWord.description)\(why)", status: 1)
    }
    guard answer.data == command.expectedResponseData else {
      TapwireNFC.fail(
        "PUT KEY: the card's answer does not confirm the key version and check values", status: 1)
    }
    let version = request.version ?? replaced
    let values = command.checkValues.map { Hex.string($0.bytes) }
    if json {
      let object: JSON = .object([
        ("ok", .bool(true)), ("format", .string("gpPutKey")), ("keyVersion", .int(Int(version))),
        ("replaced", .int(Int(replaced))), ("keyCheckValues", .array(values.map { .string($0) })),
      ])
      print(object.serialized(.spaced))
    } else {
      print(
        "key version \(version) loaded (replaced \(replaced)), key check values: \(values.joined(separator: " "))"
      )
    }
  }

  /// The new keys of `put-key` (`--new-key` or the three `--new-key-*`) and `--new-kvn`.
  static func newKeys(_ arguments: [String]) -> (keys: SecureChannelKeys, version: UInt8?) {
    func bytes(_ flag: String) -> [UInt8]? { hexValue(after: flag, in: arguments) }
    let keys: SecureChannelKeys
    do throws(SecureChannelError) {
      if let key = bytes("--new-key") {
        keys = try SecureChannelKeys(key: key)
      } else if let enc = bytes("--new-key-enc"), let mac = bytes("--new-key-mac"),
        let dek = bytes("--new-key-dek")
      {
        keys = try SecureChannelKeys(encryption: enc, mac: mac, dataEncryption: dek)
      } else {
        TapwireNFC.fail("gp put-key needs --new-key HEX or --new-key-enc, --new-key-mac and --new-key-dek")
      }
    } catch {
      TapwireNFC.fail("the new key: \(error.code)")
    }
    let version = TapwireNFC.option("--new-kvn").map { text -> UInt8 in
      let hex = text.hasPrefix("0x")
      guard let value = UInt8(hex ? String(text.dropFirst(2)) : text, radix: hex ? 16 : 10),
        (1...0x7F).contains(value)
      else { TapwireNFC.fail("--new-kvn is 1...127 (or 0x01...0x7F)") }
      return value
    }
    return (keys, version)
  }

  /// At least two lowercase hex digits (as `%02x` printed the SCP's i parameter).
  static func twoDigitHex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return digits.count < 2 ? "0" + digits : digits
  }

  static func line(_ entry: GlobalPlatformRegistryEntry, _ subset: GlobalPlatformStatusSubset) -> String {
    let kind = ["ISD", "APP", "PKG"][subset == .issuerSecurityDomain ? 0 : subset == .applications ? 1 : 2]
    var text = "\(kind): \(Hex.string(entry.aid)) (\(entry.lifeCycle.name(for: subset)))"
    if let privileges = entry.privileges, subset != .loadFilesAndModules {
      text += " privileges \(Hex.string(privileges.bytes))"
    }
    if let file = entry.loadFileAID { text += " from \(Hex.string(file))" }
    if let version = entry.loadFileVersion, version.count == 2 {
      text += " version \(version[0]).\(version[1])"
    }
    for module in entry.moduleAIDs { text += "\n     module \(Hex.string(module))" }
    return text
  }

  /// `GlobalPlatform 2.3.1; SCP03 i=70`: the version and protocols of card recognition data.
  static func describe(_ recognition: CardRecognitionData) -> String {
    var parts: [String] = []
    if let version = recognition.globalPlatformVersion {
      parts.append("GlobalPlatform " + version.map(String.init).joined(separator: "."))
    }
    for scp in recognition.secureChannelProtocols {
      parts.append("\(protocolName(scp)) i=\(twoDigitHex(scp.implementation))")
    }
    return parts.isEmpty ? "no version or protocol" : parts.joined(separator: "; ")
  }

  /// `SCP02`, `SCP03`: a protocol number as GlobalPlatform writes it.
  static func protocolName(_ scp: CardRecognitionData.SecureChannelProtocol) -> String {
    "SCP" + (scp.number < 10 ? "0" : "") + String(scp.number)
  }

  static func jsonReport(
    _ subcommand: String, _ sections: [(GlobalPlatformStatusSubset, [GlobalPlatformRegistryEntry])],
    session: SecureChannelSession<OpenSSLSecureChannelCrypto>, checkValues: [KeyCheckValue],
    cplc: CardProductionLifeCycle?, recognition: CardRecognitionData? = nil
  ) -> String {
    func entries(_ subset: GlobalPlatformStatusSubset) -> JSON {
      .array(
        (sections.first { $0.0 == subset }?.1 ?? []).map { entry in
          var fields: [(String, JSON)] = [
            ("aid", .string(Hex.string(entry.aid))),
            ("lifeCycle", .string(entry.lifeCycle.name(for: subset))),
          ]
          if let privileges = entry.privileges {
            fields.append(("privileges", .string(Hex.string(privileges.bytes))))
          }
          if let file = entry.loadFileAID { fields.append(("loadFile", .string(Hex.string(file)))) }
          if let version = entry.loadFileVersion { fields.append(("version", .string(Hex.string(version)))) }
          if subset == .loadFilesAndModules {
            fields.append(("modules", .array(entry.moduleAIDs.map { .string(Hex.string($0)) })))
          }
          return .object(fields)
        })
    }
    var fields: [(String, JSON)] = [
      ("ok", .bool(true)), ("format", .string("gp" + (subcommand == "info" ? "Info" : "List"))),
      ("scp", .string("\(session.secureChannelProtocol)")),
      ("securityLevel", .string("\(session.securityLevel)")),
      ("keyCheckValues", .array(checkValues.map { .string(Hex.string($0.bytes)) })),
    ]
    if let cplc { fields.append(("cplc", .string(Hex.string(cplc.bytes)))) }
    if let recognition {
      var card: [(String, JSON)] = []
      if let version = recognition.globalPlatformVersion {
        card.append(("globalPlatformVersion", .string(version.map(String.init).joined(separator: "."))))
      }
      card.append(
        (
          "secureChannelProtocols",
          .array(
            recognition.secureChannelProtocols.map {
              .object([
                ("scp", .string(protocolName($0))), ("i", .string(twoDigitHex($0.implementation))),
              ])
            })
        ))
      fields.append(("cardRecognitionData", .object(card)))
    }
    fields += [
      ("issuerSecurityDomain", entries(.issuerSecurityDomain)), ("applications", entries(.applications)),
      ("loadFiles", entries(.loadFilesAndModules)),
    ]
    return JSON.object(fields).serialized(.spaced)
  }

  /// GET STATUS of `subset` through the library's paging (`APDUExchanger.registryEntries`:
  /// 6310 followed with P2 b1, 6A88 on the first command an empty list); another status word is
  /// named with its GlobalPlatform meaning.
  static func status<Inner: APDUTransport>(
    _ channel: inout Channel<Inner>, _ subset: GlobalPlatformStatusSubset
  ) async throws
    -> [GlobalPlatformRegistryEntry]
  {
    var exchanger = APDUExchanger(
      transport: channel,
      options: APDUExchangeOptions(
        handlesResponseAvailable: false, handlesWrongLength: false, usesCommandChaining: false))
    defer { channel = exchanger.transport }
    do {
      return try await exchanger.registryEntries(subset)
    } catch {
      switch error {
      case .transport(let failure): throw failure
      case .apdu(let apdu):
        guard apdu.code == .unexpectedStatusWord, let sw = apdu.statusWord else { throw apdu }
        throw GlobalPlatformCommandError("status word \(sw.description)\(explanation(sw, for: .getStatus))")
      }
    }
  }

  static func describe(_ error: any Error) -> String {
    if let failure = error as? SecureChannelTransportError<ReaderError> {
      switch failure {
      case .transport(let reader): return "\(reader)"
      case .apdu(let apdu): return "\(apdu)"
      case .secureChannel(let channel):
        let sw = channel.statusWord.map { " (status word \($0.description))" } ?? ""
        return "\(channel.code)\(sw)"
      }
    }
    return "\(error)"
  }

  /// The bytes after `flag`, nil when the flag is absent; not hex is a usage error (exit 2).
  static func hexValue(after flag: String, in arguments: [String]) -> [UInt8]? {
    guard let text = TapwireNFC.option(flag) else { return nil }
    guard let value = Hex.bytes(text) else { TapwireNFC.fail("\(flag) needs hex") }
    return value
  }

  /// The secure channel configuration from the options; usage errors exit 2.
  static func configuration(_ arguments: [String]) -> SecureChannelConfiguration {
    func bytes(_ flag: String) -> [UInt8]? { hexValue(after: flag, in: arguments) }
    let keys: SecureChannelKeys
    do throws(SecureChannelError) {
      if TapwireNFC.option("--key") == "test" {
        keys = .wellKnownTestKeys
      } else if let key = bytes("--key") {
        keys = try SecureChannelKeys(key: key)
      } else if let enc = bytes("--key-enc"), let mac = bytes("--key-mac"), let dek = bytes("--key-dek") {
        keys = try SecureChannelKeys(encryption: enc, mac: mac, dataEncryption: dek)
      } else {
        TapwireNFC.fail("gp needs --key HEX (or --key test) or --key-enc, --key-mac and --key-dek")
      }
    } catch {
      TapwireNFC.fail("the key: \(error.code)")
    }
    var configuration = SecureChannelConfiguration(keys: keys)
    if let kdf = TapwireNFC.option("--kdf") {
      guard let diversification = KeyDiversification(name: kdf) else {
        TapwireNFC.fail("--kdf is emv, visa2 or kdf3")
      }
      configuration.diversification = diversification
    }
    if let kvn = TapwireNFC.option("--kvn") {
      guard
        let value = UInt8(
          kvn.hasPrefix("0x") ? String(kvn.dropFirst(2)) : kvn, radix: kvn.hasPrefix("0x") ? 16 : 10)
      else { TapwireNFC.fail("--kvn is 0...255 (or 0x..)") }
      configuration.keyVersion = value
    }
    switch TapwireNFC.option("--scp") {
    case nil: break
    case "02": configuration.secureChannelProtocol = .scp02
    case "03": configuration.secureChannelProtocol = .scp03
    default: TapwireNFC.fail("--scp is 02 or 03")
    }
    let levels: [String: SecurityLevel] = [
      "mac": .cMAC, "mac+enc": .cMACAndDecryption, "mac+rmac": .cMACAndRMAC,
      "mac+enc+rmac": .cMACDecryptionAndRMAC,
      "all": .all, "none": .authenticatedOnly,
    ]
    if let name = TapwireNFC.option("--security") {
      guard let level = levels[name] else {
        TapwireNFC.fail("--security is mac, mac+enc, mac+rmac, mac+enc+rmac, all or none")
      }
      configuration.securityLevel = level
    }
    return configuration
  }
}

/// A GlobalPlatform command failure described in words.
struct GlobalPlatformCommandError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
