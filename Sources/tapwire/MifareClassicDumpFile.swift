// SPDX-License-Identifier: Apache-2.0
import Foundation
import NFCTags
import NFCWire

/// MIFARE Classic dumps in the files of the tools of the field, read into the whole card
/// image (every block from block 0) that the `mfc` format decodes: libnfc `nfc-mfclassic`
/// `.mfd` and Proxmark3 binary dumps (the image as it is: 320, 1024 or 4096 bytes), Flipper
/// Zero `.nfc` files (`Device type: Mifare Classic`, `Block N: XX XX ...`, `??` for bytes the
/// Flipper could not read) and Proxmark3 JSON dumps (`"blocks": {"0": "<32 hex digits>", ...}`).
extension DumpFile {
  /// A card image, and how many of its bytes the file marked unknown (read as 00).
  struct MifareClassicImage {
    var image: [UInt8]
    var unknownBytes: Int
  }

  /// The card image when `bytes` is a MIFARE Classic dump of `kind`, `nil` when the file is
  /// another tag's dump (left to the Type 2 reader).
  static func mifareClassicImage(_ bytes: [UInt8], kind: Kind) -> Result<MifareClassicImage, DecodeFailure>? {
    switch kind {
    case .mfd:
      guard MifareClassicOutput.isLikely(bytes) else { return nil }
      return .success(MifareClassicImage(image: bytes, unknownBytes: 0))
    case .flipper:
      let text = String(decoding: bytes, as: UTF8.self)
      guard
        text.split(separator: "\n").contains(where: {
          $0.hasPrefix("Device type:") && $0.uppercased().contains("MIFARE CLASSIC")
        })
      else { return nil }
      return flipperMifareClassic(bytes)
    case .proxmark:
      return proxmarkMifareClassic(bytes)
    }
  }

  /// The card image size for `blockCount` blocks, as a failure when no card has it.
  static func checkedBlockCount(_ blockCount: Int, offset: Int) -> DecodeFailure? {
    guard MifareClassicCardKind(memorySize: blockCount * MifareClassic.blockSize) == nil else { return nil }
    return DecodeFailure(
      code: "invalidDumpSize", offset: offset,
      message: "\(blockCount) blocks: a MIFARE Classic card has 20 (Mini), 64 (1K) or 256 (4K)")
  }

  /// Flipper Zero: `Block N: ` lines in order from 0, each 16 bytes of hex or `??`.
  static func flipperMifareClassic(_ bytes: [UInt8]) -> Result<MifareClassicImage, DecodeFailure> {
    var image: [UInt8] = []
    var unknown = 0
    var offset = 0
    for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      let lineOffset = offset
      offset += rawLine.count + 1
      let line = String(decoding: rawLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      guard line.hasPrefix("Block "), let colon = line.firstIndex(of: ":") else { continue }
      let number = line[line.index(line.startIndex, offsetBy: 6)..<colon]
      let expected = image.count / MifareClassic.blockSize
      guard let block = Int(number), block == expected, block < 256 else {
        return .failure(
          DecodeFailure(
            code: "invalidDumpPage", offset: lineOffset,
            message: "expected block \(expected) here (blocks must be in order from 0)"))
      }
      let fields = line[line.index(after: colon)...].split(separator: " ")
      var data: [UInt8] = []
      for field in fields {
        if field == "??" {
          data.append(0)
          unknown += 1
        } else if field.count == 2, let byte = UInt8(field, radix: 16) {
          data.append(byte)
        } else {
          data = []
          break
        }
      }
      guard data.count == MifareClassic.blockSize else {
        return .failure(
          DecodeFailure(
            code: "invalidDumpPage", offset: lineOffset,
            message: "block \(block) is not 16 hex bytes (or ?? for unknown ones)"))
      }
      image += data
    }
    guard !image.isEmpty else {
      return .failure(
        DecodeFailure(
          code: "missingDumpPages", offset: bytes.count, message: "the file has no 'Block N:' lines"))
    }
    if let failure = checkedBlockCount(image.count / MifareClassic.blockSize, offset: bytes.count) {
      return .failure(failure)
    }
    return .success(MifareClassicImage(image: image, unknownBytes: unknown))
  }

  /// Proxmark3 JSON (`hf mf dump`, `FileType` `mfc` or `mfcard`): `blocks` numbered from 0,
  /// each 16 bytes of hex. `nil` for a dump whose blocks are not 16 bytes (Type 2 pages).
  static func proxmarkMifareClassic(_ bytes: [UInt8]) -> Result<MifareClassicImage, DecodeFailure>? {
    guard let value = try? JSONSerialization.jsonObject(with: Data(bytes)),
      let object = value as? [String: Any], let blocks = object["blocks"] as? [String: Any],
      let first = blocks["0"] as? String, first.count == 2 * MifareClassic.blockSize
    else { return nil }
    let text = String(decoding: bytes, as: UTF8.self)
    func offset(of needle: String) -> Int {
      guard let range = text.range(of: needle) else { return 0 }
      return text.utf8.distance(from: text.startIndex, to: range.lowerBound)
    }
    if let failure = checkedBlockCount(blocks.count, offset: offset(of: "\"blocks\"")) {
      return .failure(failure)
    }
    var image: [UInt8] = []
    image.reserveCapacity(blocks.count * MifareClassic.blockSize)
    for block in 0..<blocks.count {
      guard let hex = blocks[String(block)] as? String, let data = Hex.bytes(hex),
        data.count == MifareClassic.blockSize
      else {
        return .failure(
          DecodeFailure(
            code: "invalidDumpPage", offset: offset(of: "\"\(block)\""),
            message: "block \(block) is missing or not 16 bytes of hex (blocks are numbered from 0)"))
      }
      image += data
    }
    return .success(MifareClassicImage(image: image, unknownBytes: 0))
  }
}
