// SPDX-License-Identifier: Apache-2.0
import Foundation
import GlobalPlatformCryptoOpenSSL
import ISO7816
import JSONOutput
import JavaCardCAP
import NFCWire
import SecureChannel
import ZlibInflate

/// `tapwire cap info FILE.cap` (run by `tapwire cap`, whose help is CAPForwarding's): what a
/// Java Card CAP file holds and what LOAD would send. Here rather than in `tapwire` because
/// deflated entries need zlib, and `tapwire` itself links no system library.
enum CAPInfoCommand {

  static func run(_ arguments: [String]) -> Int32 {
    var rest = arguments[...]
    guard let subcommand = rest.popFirst() else { TapwireNFC.fail("cap needs a subcommand: info") }
    guard subcommand == "info" else {
      TapwireNFC.fail("unknown cap subcommand '\(subcommand)' (known: info)")
    }
    // The options and the one operand were checked against the table at start.
    let json = TapwireNFC.parsed?.has("--json") ?? false
    let blockSize = TapwireNFC.parsed?.count("--block-size") ?? GlobalPlatformCommands.defaultLoadBlockSize
    guard let path = TapwireNFC.operands.first else { TapwireNFC.fail("cap info needs a FILE.cap") }
    guard let data = FileManager.default.contents(atPath: path) else {
      FileHandle.standardError.write(Data("tapwire: cannot read \(path)\n".utf8))
      return 1
    }
    let cap: CAPFile
    do { cap = try CAPFile(parsing: [UInt8](data), inflater: ZlibRawInflater()) } catch {
      let place =
        error.component.map { "offset \(error.offset) in the \($0.name) component" }
        ?? "offset \(error.offset)"
      if json {
        var fields: [(String, JSON)] = [
          ("code", .string(error.code.description)), ("offset", .int(error.offset)),
        ]
        if let component = error.component { fields.append(("component", .string(component.name))) }
        fields.append(("message", .string("\(error.code) at \(place)")))
        print(
          JSON.object([("ok", .bool(false)), ("format", .string("cap")), ("error", .object(fields))])
            .serialized(.spaced))
      } else {
        FileHandle.standardError.write(Data("tapwire: \(path): \(error.code) at \(place)\n".utf8))
      }
      return 1
    }
    let block = cap.loadFileDataBlock
    // The load file data block hash INSTALL [for load] may carry (GPCS 2.3 §C.2, Table C-3).
    let crypto: OpenSSLSecureChannelCrypto
    let sha1: [UInt8]
    let sha256: [UInt8]
    do throws(SecureChannelError) {
      crypto = try OpenSSLSecureChannelCrypto()
      sha1 = try crypto.sha1(block)
      sha256 = try crypto.sha256(block)
    } catch {
      FileHandle.standardError.write(Data("tapwire: OpenSSL: \(error.code)\n".utf8))
      return 1
    }
    let loadFileSize = cap.loadFile.count
    let blocks = (loadFileSize + blockSize - 1) / blockSize
    let header = cap.header
    let name = header.packageName.map { String(decoding: $0, as: UTF8.self) }
    if json {
      let components: [JSON] = cap.components.map { component in
        .object([
          ("name", .string(component.tag.name)), ("tag", .int(Int(component.tag.rawValue))),
          ("size", .int(component.bytes.count)),
          ("loaded", .bool(CAPComponentTag.loadOrder.contains(component.tag))),
        ])
      }
      let object = JSON.object([
        ("ok", .bool(true)), ("format", .string("cap")),
        ("formatVersion", .string("\(header.formatMajorVersion).\(header.formatMinorVersion)")),
        ("packageAID", .string(header.packageAID.hexString)),
        ("packageVersion", .string("\(header.packageMajorVersion).\(header.packageMinorVersion)")),
        ("packageName", JSON(name)),
        (
          "applets",
          .array(
            cap.applets.map {
              .object([
                ("aid", .string($0.aid.hexString)),
                ("installMethodOffset", .int(Int($0.installMethodOffset))),
              ])
            })
        ),
        (
          "imports",
          .array(
            cap.imports.map {
              .object([
                ("aid", .string($0.aid.hexString)),
                ("version", .string("\($0.majorVersion).\($0.minorVersion)")),
              ])
            })
        ),
        ("components", .array(components)), ("loadFileDataBlockSize", .int(block.count)),
        ("loadFileDataBlockSHA1", .string(Hex.string(sha1))),
        ("loadFileDataBlockSHA256", .string(Hex.string(sha256))),
        ("loadFileSize", .int(loadFileSize)), ("loadBlockSize", .int(blockSize)),
        ("loadBlocks", .int(blocks)),
      ])
      print(object.serialized(.spaced))
      return 0
    }
    var out = "\(path): Java Card CAP format \(header.formatMajorVersion).\(header.formatMinorVersion)\n"
    out +=
      "package    \(header.packageAID.hexString)  version \(header.packageMajorVersion).\(header.packageMinorVersion)"
    out += name.map { "  \($0)" } ?? ""
    out += "\n"
    for applet in cap.applets {
      out += "applet     \(applet.aid.hexString)  install method at \(applet.installMethodOffset)\n"
    }
    for package in cap.imports {
      out += "imports    \(package.aid.hexString)  version \(package.majorVersion).\(package.minorVersion)\n"
    }
    out += "components (load order)\n"
    for component in cap.components {
      let loaded = CAPComponentTag.loadOrder.contains(component.tag) ? "" : "  (not loaded)"
      out += "  " + component.tag.name.padding(toLength: 14, withPad: " ", startingAt: 0)
      out +=
        String(repeating: " ", count: max(0, 6 - String(component.bytes.count).count))
        + "\(component.bytes.count)\(loaded)\n"
    }
    out += "load file data block  \(block.count) bytes; with C4 and its length \(loadFileSize) bytes in "
    out += counted(blocks, "LOAD block", "LOAD blocks") + " of at most \(blockSize)\n"
    out += "load file data block hash  SHA-1 \(Hex.string(sha1))\n"
    out += "                           SHA-256 \(Hex.string(sha256))\n"
    print(out, terminator: "")
    return 0
  }
}
