// SPDX-License-Identifier: Apache-2.0
import Foundation
import GlobalPlatformCryptoOpenSSL
import JSONOutput
import NFCReader
import NFCReaderLibNFC
import NFCReaderPCSC
import NFCTags
import NFCWire
import TagTrust
import Type2NDEF

#if canImport(Glibc)
  import Glibc
#endif

/// `tapwire-nfc ntag info|auth|protect|unprotect`: the NTAG21x and Ultralight EV1 commands
/// (GET_VERSION, READ_SIG, READ_CNT, PWD_AUTH) and password protection in the tearing-safe
/// order of `NtagProtectionPlan` (NTAG213/215/216 data sheet §8.8, §10), on a libnfc
/// device (`--device`) or a PC/SC reader (`--pcsc`), the same `Ntag` over either transport.
///
/// The password (8 hex digits, PWD as sent in PWD_AUTH) comes from `--password-file FILE`
/// (its first line), `--password-env NAME` (an environment variable), or a prompt on the
/// terminal with echo off (a line of standard input when there is no terminal). It is never
/// an argument (other users see arguments), never echoed, printed or logged.
enum NtagCommands {
  static let usage = """
    usage: tapwire-nfc ntag info [READER] [--timeout SECONDS]
           tapwire-nfc ntag auth [READER] [PASSWORD SOURCE] [--pack HEX]
           tapwire-nfc ntag protect [READER] [PASSWORD SOURCE] --pack HEX [--from PAGE] [--read-protect] [--attempts N]
           tapwire-nfc ntag unprotect [READER] [PASSWORD SOURCE] [--pack HEX]
      READER: --device CONNSTRING | --pcsc READER [--reader-profile ID]
      PASSWORD SOURCE: --password-file FILE | --password-env NAME | (a prompt, echo off)
    """

  static func run(_ arguments: [String]) async {
    guard let subcommand = arguments.first, ["info", "auth", "protect", "unprotect"].contains(subcommand)
    else {
      TapwireNFC.fail("ntag needs info, auth, protect or unprotect\n\(usage)")
    }
    let rest = Array(arguments.dropFirst())
    // Options are checked (and the password read) before waiting for a tag.
    let pack = try? acknowledge(rest)
    if rest.contains("--pack") && pack == nil { TapwireNFC.fail("--pack needs 4 hex digits") }
    if subcommand == "protect" && pack == nil { TapwireNFC.fail("protect needs --pack HEX (4 hex digits)") }
    let from = UInt8(TapwireNFC.option("--from") ?? "4")
    if subcommand == "protect" && from == nil { TapwireNFC.fail("--from needs a page number 0...255") }
    let attempts = UInt8(TapwireNFC.option("--attempts") ?? "0")
    if subcommand == "protect" && (attempts == nil || attempts! > 7) {
      TapwireNFC.fail("--attempts needs a number 0...7 (0: no limit)")
    }
    let password = subcommand == "info" ? nil : readPassword(rest)
    let request = Request(
      subcommand: subcommand, password: password, acknowledge: pack, firstProtectedPage: from ?? 4,
      readProtected: rest.contains("--read-protect"), attemptLimit: attempts ?? 0)
    if rest.contains("--pcsc") {
      await runPCSC(request, rest)
      return
    }
    let (reader, tag) = await TapwireNFC.openAndWait(rest, kinds: "an NTAG21x or Ultralight EV1 tag") {
      if case .type2 = $0.kind { return true }
      return false
    }
    let description = TapwireNFC.describe(tag)
    let transport: LibNFCType2Transport
    do { transport = try LibNFCType2Transport(reader: reader, tag: tag) } catch {
      await reader.close()
      TapwireNFC.fail("\(description): \(error)", status: 1)
    }
    do throws(Type2NDEFError) {
      let output = try await perform(request, Ntag(transport: transport), description: description)
      await reader.close()
      print(output)
    } catch {
      await reader.close()
      TapwireNFC.fail("ntag \(subcommand) on \(description) failed: \(explain(error))", status: 1)
    }
  }

  /// What one `ntag` run does, its options checked and its password read.
  struct Request: Sendable {
    /// info, auth, protect or unprotect.
    var subcommand: String
    /// PWD (not for info).
    var password: NtagPassword?
    /// `--pack`.
    var acknowledge: NtagPasswordAcknowledge?
    /// `--from` (AUTH0).
    var firstProtectedPage: UInt8
    /// `--read-protect` (PROT).
    var readProtected: Bool
    /// `--attempts` (AUTHLIM).
    var attemptLimit: UInt8
  }

  /// `ntag ... --pcsc READER [--reader-profile ID]`: the same commands on the Type 2 tag a
  /// PC/SC reader holds, its raw frames through the profile's direct transmit or
  /// transparent session (``PCSCType2PageTransport``).
  static func runPCSC(_ request: Request, _ arguments: [String]) async {
    let access = PCSCStorageCommands.access(arguments)
    let (_, output) = await PCSCStorageCommands.session(
      arguments, working: "Talking to the tag", success: "Done"
    ) { card throws(ReaderError) -> String in
      guard case .storage(_, .type2?) = try await card.kind() else {
        throw ReaderError(
          .unsupportedFeature,
          "ntag needs an NTAG21x or Ultralight EV1 tag; the card in \(card.reader) is no Type 2 tag")
      }
      let profile = access.profile ?? .matching(readerName: card.reader)
      let transport = try await PCSCType2PageTransport.connect(card: card, profile: profile)
      let description = "the Type 2 tag in \(card.reader)"
      do throws(Type2NDEFError) {
        return try await perform(request, Ntag(transport: transport), description: description)
      } catch {
        throw ReaderError(
          error.readerCode ?? .tagError,
          "ntag \(request.subcommand) on \(description) failed: \(explain(error))")
      }
    }
    print(output)
  }

  /// Runs `request` over any transport and returns what to print.
  static func perform<Transport: Type2PageTransport>(
    _ request: Request, _ ntag: Ntag<Transport>, description: String
  ) async throws(Type2NDEFError) -> String {
    switch request.subcommand {
    case "info":
      return ([description] + (try await info(ntag))).joined(separator: "\n")
    case "auth":
      let answer = try await ntag.authenticate(request.password!, acknowledge: request.acknowledge)
      return
        "\(description): password accepted, PACK \(request.acknowledge == nil ? Hex.string(answer.bytes) : "matches")"
    case "protect":
      let variant = try requireVariant(ntag.transport.variant)
      let plan = try await ntag.protect(
        variant, password: request.password!, acknowledge: request.acknowledge!,
        firstProtectedPage: request.firstProtectedPage, readProtected: request.readProtected,
        attemptLimit: request.attemptLimit)
      return
        "\(description): \(plan); pages from \(request.firstProtectedPage) need the password for \(request.readProtected ? "reads and writes" : "writes")"
    default:
      let variant = try requireVariant(ntag.transport.variant)
      let plan = try await ntag.unprotect(
        variant, password: request.password!, acknowledge: request.acknowledge)
      return "\(description): \(plan); no page needs the password now"
    }
  }

  /// What READ_SIG gave and what it proves: the one path `ntag info` and `read` (libnfc and
  /// PC/SC) take.
  struct Originality: Sendable {
    /// The UID checked (pages 0 and 1: UID0-2, BCC0, UID3-6; NTAG21x §8.5.1), nil when those
    /// pages did not read.
    var uid: [UInt8]?
    /// The 32-byte signature, nil when the tag refused READ_SIG.
    var signature: [UInt8]?
    /// Why there is no signature, when the tag refused.
    var refusal: String?
    /// The verdict, nil when no check ran (refused, no UID, libcrypto failed): never genuine
    /// without a check.
    var verdict: OriginalityVerdict?

    /// `ntag info`'s words: the signature and its verdict, or the refusal.
    var text: String {
      guard let signature else { return "refused (\(refusal ?? "no answer"))" }
      return "\(Hex.string(signature)) (\(verdictText))"
    }

    /// The verdict in words.
    var verdictText: String {
      guard let signature else { return "no signature: the tag refused READ_SIG" }
      guard let uid else { return "not verified: the UID pages did not read" }
      switch verdict {
      case .genuine(let family, let key): return "genuine: \(family) key, \(key.source)"
      case .notGenuine: return "NOT GENUINE: no maker key verifies it for UID \(Hex.string(uid))"
      case .noSignature: return "no signature: all zero"
      case .unknownFamily: return "not verified: no maker key for a \(signature.count)-byte signature"
      case nil: return "not verified: OpenSSL failed"
      }
    }

    /// The JSON fields (cli-json.md `originality`): those of `verify signature`'s object from
    /// `genuine` on, then the signature in hex; a refusal is `noSignature` with `refused`.
    var fields: [(String, JSON)] {
      var fields: [(String, JSON)]
      if let verdict {
        fields = VerifyCommand.verdictFields(verdict)
      } else if signature == nil {
        fields = [("genuine", .bool(false)), ("verdict", .string("noSignature")), ("refused", .bool(true))]
      } else {
        fields = [
          ("genuine", .bool(false)), ("verdict", .string("notVerified")), ("reason", .string(verdictText)),
        ]
      }
      if let uid { fields.append(("uid", .string(Hex.string(uid)))) }
      if let signature {
        fields += [("signatureLength", .int(signature.count)), ("signature", .string(Hex.string(signature)))]
      }
      return fields
    }
  }

  /// READ_SIG (`3C 00`) on a tag whose GET_VERSION answered (`version` non-nil: NTAG21x,
  /// NTAG I2C, Ultralight EV1 all have READ_SIG), the UID from pages 0-1 (`header` when the
  /// caller has read them, else read here) and the verdict against the makers' keys; nil
  /// for a tag without GET_VERSION. A refusal is an ``Originality`` without a signature,
  /// never an error.
  static func originality<Transport: Type2PageTransport>(
    _ ntag: Ntag<Transport>, version: NtagVersion?, header: [UInt8]? = nil
  ) async -> Originality? {
    guard version != nil else { return nil }
    let signature: [UInt8]
    do { signature = try await ntag.signature() } catch {
      return Originality(uid: nil, signature: nil, refusal: "\(error)", verdict: nil)
    }
    var pages = header
    if pages == nil { pages = try? await ntag.transport.readPages(0..<2) }
    guard let pages, pages.count >= 8 else {
      return Originality(uid: nil, signature: signature, refusal: nil, verdict: nil)
    }
    let uid = Array(pages[0..<3] + pages[4..<8])
    let crypto = try? OpenSSLTagTrustCrypto()
    let verdict = crypto.flatMap {
      try? OriginalitySignature.verify(uid: uid, signature: signature, crypto: $0)
    }
    return Originality(uid: uid, signature: signature, refusal: nil, verdict: verdict)
  }

  /// The line `dump` adds after the memory line when the tag gave READ_SIG an answer or a
  /// refusal: `originality` and the JSON fields, tab-separated `name=kind:value` (kind `b`
  /// bool, `i` integer, `s` string), then `text=s:` and the words; `tapwire read` turns it
  /// back into JSON (ReaderCommands). `version` is the GET_VERSION answer the transport got
  /// when it found the tag (at poll or connect), so the read adds only READ_SIG.
  static func originalityLine<Transport: Type2PageTransport>(
    _ ntag: Ntag<Transport>, version: NtagVersion?, header: [UInt8]?
  ) async -> String? {
    guard let originality = await originality(ntag, version: version, header: header) else { return nil }
    var parts = ["originality"]
    for (name, value) in originality.fields {
      switch value {
      case .bool(let flag): parts.append("\(name)=b:\(flag)")
      case .int(let number): parts.append("\(name)=i:\(number)")
      case .string(let text): parts.append("\(name)=s:\(printable(text))")
      default: continue
      }
    }
    parts.append("text=s:\(printable(originality.verdictText))")
    return parts.joined(separator: "\t")
  }

  /// `text` without tabs and line ends (the line's separators).
  static func printable(_ text: String) -> String {
    String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
  }

  /// The `info` lines: chip, GET_VERSION, signature, counter and protection state.
  static func info<Transport: Type2PageTransport>(_ ntag: Ntag<Transport>) async throws(Type2NDEFError)
    -> [String]
  {
    guard let version = try await ntag.version() else {
      return ["chip: no GET_VERSION answer (MIFARE Ultralight, Ultralight C or NTAG203)"]
    }
    var lines = [
      "chip: \(version.chip?.name ?? "unknown")", "version: \(Hex.string(version.encodedBytes()))",
    ]
    if let originality = await originality(ntag, version: version) {
      lines.append("signature: \(originality.text)")
    }
    do { lines.append("counter: \(try await ntag.counter())") } catch {
      lines.append("counter: refused (disabled or password-protected)")
    }
    guard let variant = version.chip?.variant, variant.passwordConfigurationPages != nil else {
      lines.append("protection: not known for this chip")
      return lines
    }
    do {
      let configuration = try await ntag.configuration(of: variant)
      let access = configuration.access
      if configuration.isProtected(pageCount: variant.pageCount) {
        lines.append(
          "protection: pages from \(configuration.firstProtectedPage) need the password for \(access.readProtected ? "reads and writes" : "writes"); attempt limit \(access.authenticationLimit == 0 ? "none" : String(access.authenticationLimit))"
        )
      } else {
        lines.append("protection: none (AUTH0 \(Hex.string([configuration.firstProtectedPage])))")
      }
      if access.configurationLocked { lines.append("configuration: locked for good (CFGLCK)") }
    } catch {
      lines.append("protection: on, the configuration pages are read-protected")
    }
    return lines
  }

  static func requireVariant(_ variant: Type2TagVariant?) throws(Type2NDEFError) -> Type2TagVariant {
    guard let variant, variant.passwordConfigurationPages != nil else {
      throw .tag(NFCTagError(.passwordProtectionNotSupported, offset: 0))
    }
    return variant
  }

  static func explain(_ error: Type2NDEFError) -> String {
    switch error {
    case .reader(let failure) where failure.code == .unsupportedFeature:
      return "the reader cannot pass the tag's own commands (\(failure))"
    case .reader(let failure) where failure.code == .tagError:
      return "the tag refused: a wrong password, the attempt limit reached, or a protected page (\(failure))"
    case .tag(let failure) where failure.code == .passwordAcknowledgeMismatch:
      return "the tag's PACK is not the one given: it may not be the tag you protected (\(failure))"
    case .tag(let failure) where failure.code == .passwordProtectionNotSupported:
      return "this chip has no password protection (\(failure))"
    default: return "\(error)"
    }
  }

  /// `--pack HEX`.
  static func acknowledge(_ arguments: [String]) throws -> NtagPasswordAcknowledge? {
    guard let hex = TapwireNFC.option("--pack") else { return nil }
    guard let bytes = Hex.bytes(hex), bytes.count == 2 else { throw CocoaError(.formatting) }
    return NtagPasswordAcknowledge(bytes[0], bytes[1])
  }

  /// The password from its source; a bad one is named by its source only.
  static func readPassword(_ arguments: [String]) -> NtagPassword {
    let text: String
    let source: String
    if let path = TapwireNFC.option("--password-file") {
      source = "the first line of \(path)"
      guard let data = FileManager.default.contents(atPath: path) else {
        TapwireNFC.fail("cannot read \(path)")
      }
      text =
        String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        .first.map(String.init) ?? ""
    } else if let name = TapwireNFC.option("--password-env") {
      source = "$\(name)"
      guard let value = ProcessInfo.processInfo.environment[name] else {
        TapwireNFC.fail("\(source) is not set")
      }
      text = value
    } else {
      source = "the password typed"
      text = prompt("NTAG password (8 hex digits): ")
    }
    let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
    guard let bytes = Hex.bytes(trimmed), let password = NtagPassword(bytes) else {
      TapwireNFC.fail("\(source) is not a password of 8 hex digits")
    }
    return password
  }

  /// Reads a line from the terminal with echo off (the prompt on standard error); from
  /// standard input when there is no terminal.
  static func prompt(_ text: String) -> String {
    #if canImport(Glibc)
      let tty = open("/dev/tty", O_RDWR | O_NOCTTY)
      if tty >= 0 {
        defer { close(tty) }
        var saved = termios()
        if tcgetattr(tty, &saved) == 0 {
          var quiet = saved
          quiet.c_lflag &= ~tcflag_t(ECHO)
          _ = tcsetattr(tty, TCSAFLUSH, &quiet)
          defer { _ = tcsetattr(tty, TCSAFLUSH, &saved) }
          _ = text.withCString { write(tty, $0, strlen($0)) }
          var line: [UInt8] = []
          var byte: UInt8 = 0
          while read(tty, &byte, 1) == 1, byte != 0x0A { line.append(byte) }
          _ = "\n".withCString { write(tty, $0, 1) }
          return String(decoding: line, as: UTF8.self)
        }
      }
    #endif
    FileHandle.standardError.write(Data(text.utf8))
    return readLine(strippingNewline: true) ?? ""
  }
}

extension Type2NDEFError {
  /// The reader error's code, `nil` for a tag-layout error.
  var readerCode: ReaderError.Code? {
    guard case .reader(let error) = self else { return nil }
    return error.code
  }
}
