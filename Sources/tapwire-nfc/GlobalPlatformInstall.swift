// SPDX-License-Identifier: Apache-2.0
import Foundation
import GlobalPlatformCryptoOpenSSL
import ISO7816
import JSONOutput
import JavaCardCAP
import NFCReader
import NFCWire
import SecureChannel
import ZlibInflate

/// `tapwire-nfc gp install FILE.cap`: INSTALL [for load] (GPCS 2.3 §11.5.2.3.1), LOAD in
/// blocks sized for the security level and the card's maximum (tag 9F65 of the ISD's FCI;
/// §11.6), then INSTALL [for install and make selectable] (§11.5.2.3.2) of each applet or the
/// one chosen.
struct InstallRequest {
  var path: String
  var cap: CAPFile
  /// The applets to install (module AID, instance AID); empty with `--load-only`.
  var instances: [(module: ApplicationIdentifier, instance: ApplicationIdentifier)]
  var privileges: GlobalPlatformPrivileges
  var parameters: [UInt8]
  var blockSize: Int?
  var hash: Bool
}

extension GlobalPlatformCommand {
  /// Reads the CAP file and the install options; a file that does not read is exit 1, a bad
  /// option exit 2, both before the card is touched.
  static func installRequest(path: String, _ arguments: [String]) -> InstallRequest {
    guard let data = FileManager.default.contents(atPath: path) else {
      TapwireNFC.fail("cannot read \(path)", status: 1)
    }
    let cap: CAPFile
    do { cap = try CAPFile(parsing: [UInt8](data), inflater: ZlibRawInflater()) } catch {
      let place =
        error.component.map { "offset \(error.offset) in the \($0.name) component" }
        ?? "offset \(error.offset)"
      TapwireNFC.fail("\(path): \(error.code) at \(place)", status: 1)
    }
    func aid(_ flag: String) -> ApplicationIdentifier? {
      guard let bytes = hexValue(after: flag, in: arguments) else { return nil }
      guard let aid = try? ApplicationIdentifier(bytes) else {
        TapwireNFC.fail("\(flag) needs 5 to 16 bytes")
      }
      return aid
    }
    var modules = cap.applets.map(\.aid)
    if let chosen = aid("--applet") {
      guard modules.contains(chosen) else {
        TapwireNFC.fail(
          "--applet \(chosen.hexString) is not an applet of \(path) (\(modules.map(\.hexString).joined(separator: ", ")))"
        )
      }
      modules = [chosen]
    }
    let instance = aid("--instance")
    if instance != nil, modules.count != 1 {
      TapwireNFC.fail(
        "--instance needs one applet: \(path) has \(modules.count), choose one with --applet AID")
    }
    var privileges = GlobalPlatformPrivileges()
    if let bytes = hexValue(after: "--privileges", in: arguments) {
      guard let value = GlobalPlatformPrivileges(bytes: bytes) else {
        TapwireNFC.fail("--privileges is 1 or 3 bytes (GPCS 2.3 §11.1.2)")
      }
      privileges = value
    }
    let parameters = hexValue(after: "--params", in: arguments) ?? []
    guard parameters.count <= 0xFF else { TapwireNFC.fail("--params is at most 255 bytes") }
    var blockSize: Int?
    if let text = TapwireNFC.option("--block-size") {
      guard let value = Int(text), (1...255).contains(value) else {
        TapwireNFC.fail("--block-size needs a number from 1 to 255")
      }
      blockSize = value
    }
    let loadOnly = arguments.contains("--load-only")
    if loadOnly, arguments.contains("--instance") || arguments.contains("--applet") {
      TapwireNFC.fail("--load-only installs nothing: --instance and --applet do not apply")
    }
    return InstallRequest(
      path: path, cap: cap,
      instances: loadOnly ? [] : modules.map { ($0, instance ?? $0) }, privileges: privileges,
      parameters: parameters, blockSize: blockSize, hash: arguments.contains("--hash"))
  }

  /// Loads and installs: progress lines on standard error, a summary (or `gpInstall` JSON) on
  /// standard output. A failure is exit 1, naming the command and, for LOAD, the block.
  static func install<Inner: APDUTransport>(
    _ request: InstallRequest, over channel: inout Channel<Inner>, fci: FileControlInformation?,
    crypto: OpenSSLSecureChannelCrypto, json: Bool
  ) async where Inner.Failure == ReaderError {
    let session = channel.session
    let overhead = SecureChannelSession<OpenSSLSecureChannelCrypto>.commandOverhead(
      protocol: session.secureChannelProtocol, securityLevel: session.securityLevel,
      s16Mode: session.isS16Mode)
    let fitting = session.maximumPlainDataLength
    if let asked = request.blockSize, asked > fitting {
      installFailure(
        "blockSizeTooLarge",
        "--block-size \(asked) does not fit a 255-byte Lc at \(session.securityLevel) (at most \(fitting))",
        json: json)
    }
    let blockSize: Int
    do throws(APDUError) {
      blockSize = try GlobalPlatformCommands.loadBlockSize(
        maximum: request.blockSize ?? fitting, overhead: overhead,
        cardMaximumCommandDataLength: fci?.maximumCommandDataLength)
    } catch {
      installFailure(
        "\(error.code)",
        "the card's maximum command data length (\(fci?.maximumCommandDataLength ?? 0)) leaves no room for LOAD data",
        json: json)
    }
    let cap = request.cap
    let block = cap.loadFileDataBlock
    // GPCS 2.3 Table C-3, Amendment D §8.1: SHA-1 with 3DES (SCP02), SHA-256 with AES (SCP03).
    var hash: [UInt8] = []
    var hashName: String?
    if request.hash {
      do throws(SecureChannelError) {
        if session.secureChannelProtocol == .scp03 {
          hash = try crypto.sha256(block)
          hashName = "SHA-256"
        } else {
          hash = try crypto.sha1(block)
          hashName = "SHA-1"
        }
      } catch {
        installFailure("\(error.code)", "the load file data block hash: \(error.code)", json: json)
      }
    }
    let securityDomain = fci?.dfName.flatMap { try? ApplicationIdentifier($0) }
    let installForLoad: CommandAPDU
    do throws(APDUError) {
      installForLoad = try cap.installForLoad(securityDomain: securityDomain, hash: hash)
    } catch {
      installFailure("\(error.code)", "INSTALL [for load]: \(error.code)", json: json)
    }
    let package = cap.header.packageAID
    var exchanger = APDUExchanger(
      transport: channel,
      options: APDUExchangeOptions(
        handlesResponseAvailable: false, handlesWrongLength: false, usesCommandChaining: false))
    let blocks: Int
    do {
      blocks = try await exchanger.loadFile(block, installForLoad: installForLoad, blockSize: blockSize) {
        acknowledged, count in
        guard acknowledged > 0 else { return }
        FileHandle.standardError.write(Data("LOAD block \(acknowledged)/\(count)\n".utf8))
      }
    } catch {
      loadFailure(loadFailureReport(error, package: package), json: json)
    }
    channel = exchanger.transport
    var installed: [(module: ApplicationIdentifier, instance: ApplicationIdentifier)] = []
    for (module, instance) in request.instances {
      let command: CommandAPDU
      do throws(APDUError) {
        command = try GlobalPlatformCommands.installForInstall(
          loadFile: package, module: module, application: instance, privileges: request.privileges,
          applicationParameters: request.parameters)
      } catch {
        installFailure(
          "\(error.code)", "INSTALL [for install] \(instance.hexString): \(error.code)", json: json)
      }
      let answer: ResponseAPDU
      do { answer = try await channel.send(command) } catch {
        installFailure(
          "installFailed", "INSTALL [for install] \(instance.hexString): \(describe(error))", json: json,
          fields: [("instance", .string(instance.hexString))])
      }
      guard answer.statusWord == .success else {
        let sw = answer.statusWord
        installFailure(
          "installRejected",
          "INSTALL [for install] \(instance.hexString): status word \(sw.description)"
            + explanation(sw, for: .installForInstall),
          json: json,
          fields: [
            ("instance", .string(instance.hexString)),
            ("statusWord", .string(sw.description)),
          ])
      }
      installed.append((module, instance))
    }
    if json {
      let object: JSON = .object([
        ("ok", .bool(true)), ("format", .string("gpInstall")), ("package", .string(package.hexString)),
        ("loadFileDataBlockSize", .int(block.count)),
        ("hash", hashName.map { .string($0) } ?? .null),
        ("loadFileDataBlockHash", hash.isEmpty ? .null : .string(Hex.string(hash))),
        ("blockSize", .int(blockSize)), ("loadBlocks", .int(blocks)),
        (
          "installed",
          .array(
            installed.map {
              .object([
                ("aid", .string($0.instance.hexString)), ("module", .string($0.module.hexString)),
                ("privileges", .string(Hex.string(request.privileges.bytes))),
              ])
            })
        ),
      ])
      print(object.serialized(.spaced))
      return
    }
    var text = "loaded \(package.hexString): \(block.count) bytes in "
    text += counted(blocks, "LOAD block", "LOAD blocks") + " of at most \(blockSize)"
    if let hashName { text += ", \(hashName) \(Hex.string(hash))" }
    print(text)
    for (module, instance) in installed {
      print(
        "installed \(instance.hexString) from module \(module.hexString) privileges \(Hex.string(request.privileges.bytes))"
      )
    }
  }

  /// What GlobalPlatform says `statusWord` means for `command`, as `: meaning (check ...)`.
  static func explanation(_ statusWord: StatusWord, for command: GlobalPlatformCommandKind) -> String {
    guard let explained = GlobalPlatformStatusExplanation.explain(statusWord, for: command) else {
      return ""
    }
    return ": \(explained.meaning); check \(explained.check)"
  }

  /// Exit 1 with `message` on standard error, or a `gpInstall` failure object with `code`.
  static func installFailure(
    _ code: String, _ message: String, json: Bool, fields: [(String, JSON)] = []
  ) -> Never {
    if json {
      let error: JSON = .object([("code", .string(code))] + fields + [("message", .string(message))])
      print(
        JSON.object([("ok", .bool(false)), ("format", .string("gpInstall")), ("error", error)]).serialized(
          .spaced))
      exit(1)
    }
    TapwireNFC.fail(message, status: 1)
  }

  /// A failed INSTALL [for load] or LOAD: the block (1-based in words, 0-based P2 in JSON),
  /// how many blocks the card acknowledged of how many, and why.
  ///
  /// Built by a generic function that returns, then reported by a non-generic one that does
  /// not: Swift 6.3.1's optimizer crashed (SimplifyCFG, signal 11) on the generic `Never`
  /// version specialized for the secure channel's error (Documentation/compiler-crash.md).
  struct LoadFailureReport {
    var code: String
    var message: String
    var fields: [(String, JSON)]
  }

  static func loadFailureReport<Failure: Error>(
    _ error: GlobalPlatformLoadError<Failure>, package: ApplicationIdentifier
  ) -> LoadFailureReport {
    var fields: [(String, JSON)] = [("package", .string(package.hexString))]
    var message: String
    if let number = error.blockNumber {
      message =
        "LOAD block \(number + 1) of \(error.blockCount) (P2 \(Hex.string([UInt8(truncatingIfNeeded: number)]))); "
        + "\(error.blocksAcknowledged) of \(error.blockCount) blocks were acknowledged"
      fields += [
        ("command", .string("LOAD")), ("block", .int(number)),
        ("blocksAcknowledged", .int(error.blocksAcknowledged)), ("blockCount", .int(error.blockCount)),
      ]
    } else {
      message = "INSTALL [for load] \(package.hexString)"
      fields += [("command", .string("INSTALL [for load]")), ("blockCount", .int(error.blockCount))]
    }
    if let sw = error.statusWord {
      let hex = Hex.uppercaseString([UInt8(sw.rawValue >> 8), UInt8(sw.rawValue & 0xFF)])
      message += ": status word \(hex)"
      message += explanation(sw, for: error.blockNumber == nil ? .installForLoad : .load)
      fields.append(("statusWord", .string(hex)))
    }
    if let exchange = error.exchangeError {
      let (reason, detail) = reasonAndDetail(exchange)
      message += ": \(detail)"
      fields.append(("reason", .string(reason)))
    }
    fields.append(("message", .string(message)))
    return LoadFailureReport(code: error.code.name, message: message, fields: fields)
  }

  /// Exit 1 with `report`: a `gpInstall` failure object with `--json`, else the message.
  static func loadFailure(_ report: LoadFailureReport, json: Bool) -> Never {
    if json {
      let object: JSON = .object(
        [
          ("ok", .bool(false)), ("format", .string("gpInstall")),
          ("error", .object([("code", .string(report.code))] + report.fields)),
        ])
      print(object.serialized(.spaced))
      exit(1)
    }
    TapwireNFC.fail("\(report.code): \(report.message)", status: 1)
  }

  /// The code name and description of an exchange failure through the secure channel.
  static func reasonAndDetail<Failure: Error>(_ error: APDUExchangeError<Failure>) -> (String, String) {
    switch error {
    case .apdu(let apdu): return ("\(apdu.code)", "\(apdu)")
    case .transport(let failure):
      if let channel = failure as? SecureChannelTransportError<ReaderError> {
        switch channel {
        case .transport(let reader): return (reader.code.name, "\(reader)")
        case .apdu(let apdu): return ("\(apdu.code)", "\(apdu)")
        case .secureChannel(let secure): return (secure.code.name, describe(channel))
        }
      }
      return ("transportFailed", "\(failure)")
    }
  }
}
