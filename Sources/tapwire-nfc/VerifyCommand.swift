// SPDX-License-Identifier: Apache-2.0
import Foundation
import GlobalPlatformCryptoOpenSSL
import JSONOutput
import NDEF
import NFCWire
import SecureChannel
import TagTrust

/// `tapwire verify signature|sun|ndef` (run by `tapwire verify`, whose help is
/// VerifyForwarding's): originality signatures, NTAG 424 DNA SUN URLs and NDEF Signature
/// records checked with libcrypto, which `tapwire` itself does not link. Each subcommand's arguments become one request value in one
/// function, so the option table can take them over.
enum VerifyCommand {
  /// `verify signature UID SIGNATURE [--family NAME] [--json]`.
  struct SignatureRequest {
    var uid: [UInt8]
    var signature: [UInt8]
    var family: String?
    var json: Bool
  }

  /// `verify sun URL (--key HEX | --meta-key HEX --file-key HEX) [--mac-input FROM]
  /// [--picc-param NAME] [--enc-param NAME] [--mac-param NAME] [--uid-param NAME]
  /// [--ctr-param NAME] [--json]`.
  struct SUNRequest {
    var url: String
    var keys: SUNKeys
    var names: SUNParameterNames
    var macInput: SUNMACInput
    var json: Bool
  }

  /// `verify ndef FILE --trust CERT.pem [--json]`.
  struct NDEFRequest {
    var message: [UInt8]
    var path: String
    var trustAnchors: [[UInt8]]
    var json: Bool
  }

  static func run(_ arguments: [String]) -> Int32 {
    guard let subcommand = arguments.first else {
      TapwireNFC.fail("verify needs a subcommand: signature, sun, ndef")
    }
    let rest = arguments.dropFirst()
    let crypto: OpenSSLTagTrustCrypto
    do { crypto = try OpenSSLTagTrustCrypto() } catch {
      FileHandle.standardError.write(Data("tapwire: OpenSSL: \(error.code)\n".utf8))
      return 1
    }
    switch subcommand {
    case "signature": return signature(signatureRequest(rest), crypto: crypto)
    case "sun": return sun(sunRequest(rest), crypto: crypto)
    case "ndef": return ndef(ndefRequest(rest), crypto: crypto)
    default: TapwireNFC.fail("unknown verify subcommand '\(subcommand)' (known: signature, sun, ndef)")
    }
  }

  // MARK: - Arguments

  /// The request `verify signature` arguments make; exits 2 on bad usage.
  static func signatureRequest(_ arguments: ArraySlice<String>) -> SignatureRequest {
    var rest = arguments
    var positional: [String] = []
    var family: String?
    var json = false
    while let word = rest.popFirst() {
      switch word {
      case "--json": json = true
      case "--family":
        guard let value = rest.popFirst() else { TapwireNFC.fail("--family needs a NAME") }
        family = value
      default:
        if word.hasPrefix("-") { TapwireNFC.fail("unknown option '\(word)' (known: --family, --json)") }
        positional.append(word)
      }
    }
    guard positional.count == 2 else {
      TapwireNFC.fail("verify signature takes a UID and a SIGNATURE, in hex")
    }
    guard let uid = hexArgument(positional[0]),
      (1...OriginalitySignature.maximumUIDLength).contains(uid.count)
    else { TapwireNFC.fail("UID must be 1 to \(OriginalitySignature.maximumUIDLength) bytes of hex") }
    guard let signature = hexArgument(positional[1]) else { TapwireNFC.fail("SIGNATURE must be hex") }
    if let family, !OriginalityKey.all.contains(where: { $0.belongs(to: family) }) {
      TapwireNFC.fail(
        "unknown family '\(family)' (known: \(OriginalityKey.familyNames.joined(separator: ", ")))")
    }
    return SignatureRequest(uid: uid, signature: signature, family: family, json: json)
  }

  /// The request `verify sun` arguments make; exits 2 on bad usage.
  static func sunRequest(_ arguments: ArraySlice<String>) -> SUNRequest {
    var rest = arguments
    var url: String?
    var key: [UInt8]?
    var metaKey: [UInt8]?
    var fileKey: [UInt8]?
    var json = false
    var names = SUNParameterNames.standard
    var macInput = SUNMACInput.automatic
    let roles: [String: SUNParameterNames.Role] = [
      "--picc-param": .piccData, "--enc-param": .fileData, "--mac-param": .mac, "--uid-param": .uid,
      "--ctr-param": .counter,
    ]
    let inputs: [String: SUNMACInput] = [
      "auto": .automatic, "none": .empty, "picc": .from(.piccData), "enc": .from(.fileData),
      "uid": .from(.uid),
      "ctr": .from(.counter),
    ]
    func keyValue(_ option: String) -> [UInt8] {
      guard let value = rest.popFirst().flatMap(hexArgument), value.count == 16 else {
        TapwireNFC.fail("\(option) needs an AES-128 key: 32 hex digits")
      }
      return value
    }
    while let word = rest.popFirst() {
      switch word {
      case "--json": json = true
      case "--key": key = keyValue(word)
      case "--meta-key": metaKey = keyValue(word)
      case "--file-key": fileKey = keyValue(word)
      case _ where roles[word] != nil:
        guard let name = rest.popFirst(), !name.isEmpty, !name.contains("="), !name.contains("&") else {
          TapwireNFC.fail("\(word) needs a query parameter NAME")
        }
        names.names[roles[word]!] = [name]
      case "--mac-input":
        guard let value = rest.popFirst(), let input = inputs[value] ?? Int(value).map(SUNMACInput.fromOffset)
        else {
          TapwireNFC.fail("--mac-input needs auto, none, picc, enc, uid, ctr or a byte offset in the URL")
        }
        macInput = input
      default:
        if word.hasPrefix("-") {
          TapwireNFC.fail(
            "unknown option '\(word)' (known: --key, --meta-key, --file-key, --mac-input, --picc-param, --enc-param, --mac-param, --uid-param, --ctr-param, --json)"
          )
        }
        guard url == nil else { TapwireNFC.fail("verify sun takes one URL") }
        url = word
      }
    }
    guard let url else { TapwireNFC.fail("verify sun needs the URL the tag gave") }
    let keys: SUNKeys
    switch (key, metaKey, fileKey) {
    case (let key?, nil, nil): keys = SUNKeys(key: key)
    case (nil, let meta?, let file?): keys = SUNKeys(metaReadKey: meta, fileReadKey: file)
    case (nil, nil, let file?): keys = SUNKeys(metaReadKey: file, fileReadKey: file)
    default: TapwireNFC.fail("give --key HEX, or --meta-key HEX and --file-key HEX")
    }
    return SUNRequest(url: url, keys: keys, names: names, macInput: macInput, json: json)
  }

  /// The request `verify ndef` arguments make; exits 2 on bad usage (an unreadable FILE or
  /// trust file included).
  static func ndefRequest(_ arguments: ArraySlice<String>) -> NDEFRequest {
    var rest = arguments
    var path: String?
    var trustPaths: [String] = []
    var json = false
    while let word = rest.popFirst() {
      switch word {
      case "--json": json = true
      case "--trust":
        guard let value = rest.popFirst() else { TapwireNFC.fail("--trust needs a CERT.pem") }
        trustPaths.append(value)
      default:
        if word.hasPrefix("-") { TapwireNFC.fail("unknown option '\(word)' (known: --trust, --json)") }
        guard path == nil else { TapwireNFC.fail("verify ndef takes one FILE") }
        path = word
      }
    }
    guard let path else { TapwireNFC.fail("verify ndef needs the FILE of an NDEF message") }
    guard !trustPaths.isEmpty else {
      TapwireNFC.fail("verify ndef needs --trust CERT.pem (the trust anchor)")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      TapwireNFC.fail("cannot read \(path)")
    }
    var anchors: [[UInt8]] = []
    for trustPath in trustPaths {
      guard
        let text = FileManager.default.contents(atPath: trustPath).map({ String(decoding: $0, as: UTF8.self) }
        )
      else { TapwireNFC.fail("cannot read \(trustPath)") }
      let found = pemCertificates(text)
      guard !found.isEmpty else { TapwireNFC.fail("\(trustPath) has no PEM certificate (BEGIN CERTIFICATE)") }
      anchors += found
    }
    // A file of hex text (spaces and line breaks allowed) is read as hex, else as bytes.
    let text = String(decoding: data, as: UTF8.self).filter { !$0.isWhitespace }
    let message = text.isEmpty ? [] : hexArgument(text) ?? [UInt8](data)
    return NDEFRequest(message: message, path: path, trustAnchors: anchors, json: json)
  }

  /// The DER bytes of each PEM `CERTIFICATE` block of `text` (RFC 7468 §5).
  static func pemCertificates(_ text: String) -> [[UInt8]] {
    text.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().compactMap { block in
      guard let body = block.components(separatedBy: "-----END CERTIFICATE-----").first else { return nil }
      return Data(base64Encoded: body, options: .ignoreUnknownCharacters).map { [UInt8]($0) }
    }
  }

  /// Hex digits (colons and spaces allowed between bytes), or nil.
  static func hexArgument(_ text: String) -> [UInt8]? {
    Hex.bytes(String(text.unicodeScalars.filter { $0 != ":" && $0 != " " }))
  }

  // MARK: - Signature

  static func signature(_ request: SignatureRequest, crypto: OpenSSLTagTrustCrypto) -> Int32 {
    let verdict: OriginalityVerdict
    do {
      verdict = try OriginalitySignature.verify(
        uid: request.uid, signature: request.signature, family: request.family, crypto: crypto)
    } catch {
      FileHandle.standardError.write(Data("tapwire: \(error.code)\n".utf8))
      return 1
    }
    var fields: [(String, JSON)] = [("ok", .bool(true)), ("format", .string("originalitySignature"))]
    fields += verdictFields(verdict)
    let line: String
    switch verdict {
    case .genuine(_, let key):
      line =
        "genuine: signed with the \(key.family) key (\(key.chips); \(key.curve.name)), from \(key.source)"
    case .notGenuine(let tried):
      line = "not genuine: the signature verifies under none of the \(tried) keys tried"
    case .noSignature:
      line = "no signature: all zero bytes (the chip carries none)"
    case .unknownFamily:
      line =
        "unknown family: no key \(request.family.map { "of \($0) " } ?? "")for a \(request.signature.count)-byte signature"
    }
    fields += [("uid", .string(Hex.string(request.uid))), ("signatureLength", .int(request.signature.count))]
    if request.json {
      print(JSON.object(fields).serialized(.spaced))
    } else {
      print(line)
      if verdict.isGenuine {
        print("(a signature proves the maker issued this UID; a UID-changeable clone can replay it)")
      }
    }
    return verdict.isGenuine ? 0 : 1
  }

  /// A verdict's JSON fields from `genuine` on (cli-json.md `originalitySignature`), shared
  /// by `verify signature` and `read`'s `originality` object.
  static func verdictFields(_ verdict: OriginalityVerdict) -> [(String, JSON)] {
    var fields: [(String, JSON)] = [("genuine", .bool(verdict.isGenuine))]
    switch verdict {
    case .genuine(let family, let key):
      fields += [
        ("verdict", .string("genuine")), ("family", .string(family)), ("keyFamily", .string(key.family)),
        ("chips", .string(key.chips)), ("curve", .string(key.curve.name)),
        ("publicKey", .string(Hex.string(key.publicKey))), ("source", .string(key.source)),
      ]
    case .notGenuine(let tried): fields += [("verdict", .string("notGenuine")), ("keysTried", .int(tried))]
    case .noSignature: fields += [("verdict", .string("noSignature"))]
    case .unknownFamily: fields += [("verdict", .string("unknownFamily"))]
    }
    return fields
  }

  // MARK: - SUN

  static func sun(_ request: SUNRequest, crypto: OpenSSLTagTrustCrypto) -> Int32 {
    let checkValues = keyCheckValues(request.keys)
    let message: SUNMessage
    let verdict: SUNVerdict
    do {
      message = try SUNMessage(parsingURL: request.url, names: request.names)
      verdict = try message.verify(keys: request.keys, macInput: request.macInput, crypto: crypto)
    } catch {
      if request.json {
        let detail: [(String, JSON)] = [
          ("code", .string(error.code.name)), ("offset", .int(error.offset)),
          ("message", .string("\(error.code) at offset \(error.offset) of the URL")),
        ]
        print(
          JSON.object([("ok", .bool(false)), ("format", .string("sun")), ("error", .object(detail))])
            .serialized(.spaced))
      } else {
        FileHandle.standardError.write(
          Data("tapwire: \(error.code) at offset \(error.offset) of the URL\n".utf8))
      }
      return 1
    }
    var fields: [(String, JSON)] = [
      ("ok", .bool(true)), ("format", .string("sun")), ("valid", .bool(verdict.isValid)),
      ("mode", .string(message.mode.rawValue)),
    ]
    var lines: [String] = []
    switch verdict {
    case .valid(let data):
      if let uid = data.uid { fields.append(("uid", .string(Hex.string(uid)))) }
      if let counter = data.counter { fields.append(("counter", .int(Int(counter)))) }
      if let tag = data.piccDataTag { fields.append(("piccDataTag", .string(Hex.string([tag])))) }
      if let fileData = data.fileData { fields.append(("fileData", .string(Hex.string(fileData)))) }
      var summary = "valid: \(message.mode.rawValue) mode"
      if let uid = data.uid { summary += ", UID \(Hex.string(uid))" }
      if let counter = data.counter { summary += ", read counter \(counter)" }
      lines.append(summary)
      if let fileData = data.fileData {
        lines.append("file data: \(Hex.string(fileData)) (\(printable(fileData)))")
      }
    case .invalid(let failure):
      fields.append(("reason", .string(failure.description)))
      lines.append("not valid: \(failure) (\(explanation(failure)))")
    }
    fields.append(
      (
        "keyCheckValues",
        .object([("metaReadKey", .string(checkValues.0)), ("fileReadKey", .string(checkValues.1))])
      ))
    lines.append("key check values: SDMMetaReadKey \(checkValues.0), SDMFileReadKey \(checkValues.1)")
    if request.json {
      print(JSON.object(fields).serialized(.spaced))
    } else {
      print(lines.joined(separator: "\n"))
    }
    return verdict.isValid ? 0 : 1
  }

  /// The keys' check values (GlobalPlatform Amendment D §4.1 for AES: the first 3 bytes of
  /// the key applied to 16 bytes of 01), the only way keys are shown.
  static func keyCheckValues(_ keys: SUNKeys) -> (String, String) {
    guard let crypto = try? OpenSSLSecureChannelCrypto() else { return ("?", "?") }
    func value(_ key: [UInt8]) -> String {
      (try? KeyCheckValue.compute(of: key, algorithm: .aes, crypto: crypto)).map { Hex.string($0.bytes) }
        ?? "?"
    }
    return (value(keys.metaReadKey), value(keys.fileReadKey))
  }

  static func explanation(_ failure: SUNFailure) -> String {
    switch failure {
    case .piccDataUnreadable: "the PICC data does not decrypt to a tag byte: wrong SDMMetaReadKey, or changed"
    case .counterMissing: "encrypted file data needs the read counter for its IV"
    default: "wrong SDMFileReadKey, or the URL was changed"
    }
  }

  /// `bytes` as ASCII with dots for the rest.
  static func printable(_ bytes: [UInt8]) -> String {
    String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
  }

  // MARK: - NDEF signatures

  static func ndef(_ request: NDEFRequest, crypto: OpenSSLTagTrustCrypto) -> Int32 {
    let records: [NDEFRecord]
    do { records = try NDEFMessage(parsing: request.message).records } catch {
      report(
        format: "ndefSignatures", code: error.code.name, offset: error.offset, where: "in the message",
        request.json)
      return 1
    }
    let checks: [NDEFSignatureCheck]
    do {
      checks = try NDEFSignatures.verify(
        records: records, trustAnchors: request.trustAnchors, crypto: crypto)
    } catch {
      report(format: "ndefSignatures", code: error.code.name, offset: error.offset, where: "", request.json)
      return 1
    }
    let signatures = checks.filter { $0.verdict != .marker }
    let verified = !signatures.isEmpty && signatures.allSatisfy { $0.verdict.isVerified }
    var entries: [JSON] = []
    var lines: [String] = []
    for check in checks {
      var fields: [(String, JSON)] = [
        ("record", .int(check.recordIndex)), ("covers", .array(check.covered.map { .int($0) })),
        ("verdict", .string(check.verdict.name)),
      ]
      var detail: [String] = []
      if let record = check.record {
        fields += [
          ("signatureType", .string(NDEFSignatures.signatureTypeName(record.signatureType))),
          (
            "hashType",
            .string(
              record.hashType == NDEFSignatures.sha256HashType ? "SHA-256" : Hex.string([record.hashType]))
          ),
          ("certificates", .int(record.certificates.count)),
        ]
        detail.append(NDEFSignatures.signatureTypeName(record.signatureType))
        detail.append("\(record.certificates.count) certificate\(record.certificates.count == 1 ? "" : "s")")
        if record.signatureIsURI {
          fields.append(("signatureURI", .string(String(decoding: record.signature, as: UTF8.self))))
        }
      }
      switch check.verdict {
      case .untrustedChain(let reason):
        fields.append(("reason", .string(reason)))
        detail.append(reason)
      case .malformed(let error):
        fields += [("code", .string(error.code.name)), ("offset", .int(error.offset))]
        detail.append("\(error.code) at offset \(error.offset) of its payload")
      default: break
      }
      entries.append(.object(fields))
      let span =
        switch check.covered.count {
        case 0: "no records"
        case 1: "record \(check.covered.lowerBound)"
        default: "records \(check.covered.lowerBound)-\(check.covered.upperBound - 1)"
        }
      lines.append(
        "record \(check.recordIndex) (covers \(span)): \(check.verdict.name)"
          + (detail.isEmpty ? "" : " (\(detail.joined(separator: ", ")))"))
    }
    if checks.isEmpty { lines.append("no Signature record: nothing is signed") }
    if request.json {
      print(
        JSON.object([
          ("ok", .bool(true)), ("format", .string("ndefSignatures")), ("verified", .bool(verified)),
          ("records", .int(records.count)), ("signatures", .array(entries)),
        ]).serialized(.spaced))
    } else {
      print(lines.joined(separator: "\n"))
    }
    return verified ? 0 : 1
  }

  /// Prints a failure: `{"ok": false, ...}` with `--json`, else a line on standard error.
  static func report(format: String, code: String, offset: Int, where place: String, _ json: Bool) {
    if json {
      let detail: [(String, JSON)] = [
        ("code", .string(code)), ("offset", .int(offset)),
        ("message", .string("\(code) at offset \(offset) \(place)")),
      ]
      print(
        JSON.object([("ok", .bool(false)), ("format", .string(format)), ("error", .object(detail))])
          .serialized(.spaced))
    } else {
      FileHandle.standardError.write(Data("tapwire: \(code) at offset \(offset) \(place)\n".utf8))
    }
  }
}
