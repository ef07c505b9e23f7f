// SPDX-License-Identifier: Apache-2.0
import Foundation
import MifareClassicNDEF
import NFCReader
import NFCReaderLibNFC
import NFCTags
import NFCWire

/// The MIFARE Classic parts of `tapwire-nfc dump`, `write`, and the `format` and `lock`
/// commands (AN10787 MAD, AN1304 NFC sectors). Keys come from `--keys FILE` (a key
/// dictionary: 12 hex digits a line, `#` comments) and `--key A:HEX` / `--key B:HEX`; they
/// are never printed, not even in errors (a bad key is named by its option and position).
enum MifareClassicCommands {
  /// The confirmation `lock` needs: making a card read-only cannot be undone.
  static let confirmation = "--confirm-permanent"

  /// The public keys plus those of `--keys FILE` and each `--key A|B:HEX`.
  static func keyring(_ arguments: [String]) -> MifareClassicKeyring {
    var keyring = MifareClassicKeyring.publicKeys
    if let path = TapwireNFC.option("--keys") {
      guard let data = FileManager.default.contents(atPath: path) else {
        TapwireNFC.fail("cannot read \(path)")
      }
      do throws(NFCTagError) {
        let bytes = [UInt8](data)
        keyring.add(try MifareClassicKeyDictionary(parsing: bytes.span.bytes))
      } catch {
        TapwireNFC.fail("\(path): line \(error.line.map(String.init) ?? "?") is not a key (12 hex digits)")
      }
    }
    var index = 0
    for (i, argument) in arguments.enumerated() where argument == "--key" {
      index += 1
      guard i + 1 < arguments.count else { TapwireNFC.fail("--key needs A:HEX or B:HEX") }
      let value = arguments[i + 1]
      let slot: MifareClassicKeySlot? =
        value.hasPrefix("A:") || value.hasPrefix("a:")
        ? .a : value.hasPrefix("B:") || value.hasPrefix("b:") ? .b : nil
      guard let slot, let key = MifareClassicKey(hex: String(value.dropFirst(2))) else {
        TapwireNFC.fail("--key number \(index) is not A:HEX or B:HEX with 12 hex digits")
      }
      keyring.add(key, slot: slot)
    }
    return keyring
  }

  /// `--key-b HEX` (12 hex digits), or the transport key.
  static func keyB(_ arguments: [String]) -> MifareClassicKey {
    guard let hex = TapwireNFC.option("--key-b") else { return .transport }
    guard let key = MifareClassicKey(hex: hex) else { TapwireNFC.fail("--key-b needs 12 hex digits") }
    return key
  }

  /// The card's name from its SAK.
  static func cardName(_ tag: LibNFCTag) -> String {
    tag.sak.flatMap(MifareClassicCardKind.init(sak:))?.name ?? "MIFARE Classic"
  }

  /// The `dump` line for a MIFARE Classic card: with `--dump` `mifareClassicImage` and the
  /// memory as the card shows it (`unread=` the sectors no key opened); else
  /// `mifareClassic` and the MAD, read-only state and NDEF message fields, the message last.
  static func dumpLine(_ tag: LibNFCTag, with reader: LibNFCReader, arguments: [String])
    async throws(LibNFCNDEFError) -> String
  {
    let keyring = keyring(arguments)
    let card = cardName(tag)
    if arguments.contains("--dump") {
      let (image, unread) = try await reader.readMifareClassicMemory(from: tag, keyring: keyring)
      return imageLine(card: card, uid: Hex.string(tag.uid), image: image, unread: unread)
    }
    let options: TagDecodingOptions = arguments.contains("--lenient") ? .lenient : .strict
    let content = try await reader.readMifareClassic(from: tag, keyring: keyring, options: options)
    return contentLine(card: card, uid: Hex.string(tag.uid), content)
  }

  /// The `mifareClassicImage` line `tapwire` decodes, for the libnfc and PC/SC paths.
  static func imageLine(card: String, uid: String, image: [UInt8], unread: [Int]) -> String {
    let name = card.replacingOccurrences(of: " ", with: "_")
    let list = unread.map(String.init).joined(separator: ",")
    return "mifareClassicImage card=\(name) uid=\(uid) unread=\(list) \(Hex.string(image))"
  }

  /// The `mifareClassic` line `tapwire` decodes (MAD, read-only state, the message last), for
  /// the libnfc and PC/SC paths.
  static func contentLine(card: String, uid: String, _ content: MifareClassicNDEFContent) -> String {
    let name = card.replacingOccurrences(of: " ", with: "_")
    let notes = content.notes.map { $0.replacingOccurrences(of: " ", with: "_") }.joined(separator: ",")
    return [
      "mifareClassic", "card=\(name)", "uid=\(uid)", "mad=\(content.madVersion)",
      "sectors=\(content.ndefSectors.map(String.init).joined(separator: ","))",
      "sectorsRead=\(content.sectorsRead.map(String.init).joined(separator: ","))",
      "capacity=\(content.capacity)", "readOnly=\(content.isReadOnly)", "notes=\(notes)",
      "ndef=\(content.hasNDEFTLV ? Hex.string(content.message) : "-")",
    ].joined(separator: " ")
  }

  /// A sentence for a MIFARE Classic failure, the typed error after it; never a key.
  static func explain(_ error: LibNFCNDEFError) -> String {
    guard let failure = error.mifareClassicError else { return "\(error)" }
    return explain(failure)
  }

  /// A sentence for a MIFARE Classic failure on either transport, the typed error after it;
  /// never a key.
  static func explain(_ failure: MifareClassicError) -> String {
    switch failure.code {
    case .authenticationFailed:
      return
        "no key opened sector \(failure.sector ?? 0) (give it with --key A:HEX, --key B:HEX or --keys FILE) (\(failure))"
    case .notFormatted: return "the card holds no MAD: format it first (`tapwire format`) (\(failure))"
    case .readOnly: return "read-only card (\(failure))"
    case .messageTooLarge: return "the message does not fit on the card (\(failure))"
    case .accessDenied: return "the access conditions forbid it (\(failure))"
    case .tagLost: return "the card left the field (\(failure))"
    case .reader where failure.readerError?.code == .unsupportedFeature:
      return "the reader cannot do this with this card (\(failure))"
    default: return "\(failure)"
    }
  }

  /// `tapwire-nfc format`: waits for a MIFARE Classic card as shipped and formats it for NDEF.
  static func format(_ arguments: [String]) async {
    let keyB = keyB(arguments)
    let keyring = keyring(arguments)
    let (reader, tag) = await TapwireNFC.openAndWait(arguments, kinds: "a MIFARE Classic card") {
      $0.kind == .mifareClassic
    }
    let description = TapwireNFC.describe(tag)
    do throws(LibNFCNDEFError) {
      try await reader.formatMifareClassic(tag, keyB: keyB, keyring: keyring)
      let content = try await reader.readMifareClassic(from: tag, keyring: keyring)
      await reader.close()
      let given = keyB == .transport ? "the transport key (give --key-b HEX to choose one)" : "the one given"
      print(
        "formatted \(cardName(tag)) \(description) for NDEF: MAD version \(content.madVersion), \(content.ndefSectors.count) NFC sectors, \(content.capacity) bytes; key B of every sector: \(given)"
      )
    } catch {
      await reader.close()
      TapwireNFC.fail("format of \(description) failed: \(explain(error))", status: 1)
    }
  }

  /// `tapwire-nfc lock`: makes a formatted card read-only, only with ``confirmation``.
  static func lock(_ arguments: [String]) async {
    guard arguments.contains(confirmation) else {
      TapwireNFC.fail("lock makes the card read-only for good: add \(confirmation) to do it")
    }
    let keyring = keyring(arguments)
    let (reader, tag) = await TapwireNFC.openAndWait(arguments, kinds: "a MIFARE Classic card") {
      $0.kind == .mifareClassic
    }
    let description = TapwireNFC.describe(tag)
    do throws(LibNFCNDEFError) {
      try await reader.makeMifareClassicReadOnly(tag, keyring: keyring)
      let content = try await reader.readMifareClassic(from: tag, keyring: keyring, options: .lenient)
      await reader.close()
      guard content.isReadOnly else { TapwireNFC.fail("\(description) still reads as writable", status: 1) }
      print(
        "made \(cardName(tag)) \(description) read-only (\(content.ndefSectors.count) NFC sectors and the MAD)"
      )
    } catch {
      await reader.close()
      TapwireNFC.fail("lock of \(description) failed: \(explain(error))", status: 1)
    }
  }
}
