// SPDX-License-Identifier: Apache-2.0
import Foundation
import JSONOutput
import NDEF
import NFCReader
import NFCReaderLibNFC
import NFCTags
import NFCWire

/// `tapwire-nfc write`: writes an NDEF message to the next tag and reads it back.
///
/// Type 1, 2 and 3 tags get the tearing-safe write order of their NFCTags write plans
/// (T1T 1.2 §6, T2T 1.0 §6.4.2, T3T 1.0 §7.4.2: length 0 or WriteFlag ON first, the body,
/// the real length last), Type 4 tags the NDEF update procedure (T4T 3.0 §5.5), all through
/// ``NFCReaderLibNFC/LibNFCReader/writeNDEF(bytes:to:options:)``. Exit 0 written and verified,
/// 1 no reader, no tag, a tag error (does not fit, read-only) or a read-back mismatch.
enum WriteCommand {
  static func run(_ arguments: [String]) async {
    if arguments.contains("--pcsc") {
      await PCSCStorageCommands.write(arguments)
      return
    }
    guard let hex = TapwireNFC.option("--message"), let message = Hex.bytes(hex) else {
      TapwireNFC.fail("write needs --message HEX (the encoded NDEF message)")
    }
    let (reader, tag) = await TapwireNFC.openAndWait(
      arguments, kinds: "a Type 1, 2, 3 or 4 tag or a MIFARE Classic card"
    ) {
      switch $0.kind {
      case .type1, .type2, .type3, .type4, .mifareClassic: true
      default: false
      }
    }
    let description = TapwireNFC.describe(tag)
    do throws(LibNFCNDEFError) {
      let readBytes: [UInt8]
      if tag.kind == .mifareClassic {
        let keyring = MifareClassicCommands.keyring(arguments)
        try await reader.writeMifareClassic(message, to: tag, keyring: keyring)
        readBytes = try await reader.readMifareClassic(from: tag, keyring: keyring).message
      } else {
        try await reader.writeNDEF(bytes: message, to: tag)
        let back = try await reader.readNDEF(from: tag)
        readBytes = back.flatMap { try? $0.encodedBytes() } ?? []
      }
      await reader.close()
      guard readBytes == message else {
        TapwireNFC.fail(
          "verify failed on \(description): wrote \(Hex.string(message)), read back \(Hex.string(readBytes))",
          status: 1)
      }
      print("wrote \(counted(message.count, "byte", "bytes")) to \(description), verified")
      print(Hex.string(message))
    } catch {
      await reader.close()
      TapwireNFC.fail("write to \(description) failed: \(explain(error))", status: 1)
    }
  }

  /// A sentence for the common write failures, the typed error after it.
  static func explain(_ error: LibNFCNDEFError) -> String {
    if error.mifareClassicError != nil { return MifareClassicCommands.explain(error) }
    return switch error.tagError?.code {
    case .messageTooLarge?: "the message does not fit on the tag (\(error))"
    case .readOnly?, .ndefFileNotWritable?: "read-only tag (\(error))"
    default: "\(error)"
    }
  }
}
