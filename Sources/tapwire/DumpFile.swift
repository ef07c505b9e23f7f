// SPDX-License-Identifier: Apache-2.0
import Foundation
import NFCWire

/// Tag dump files written by common tools, read into the page image the tag decoders take:
/// Flipper Zero `.nfc` text (NTAG/Ultralight `Page N: AA BB CC DD` lines), Proxmark3 JSON
/// (`"FileType": "mfu"`, `"blocks": {"0": "04A1B2C3", ...}`) and libnfc `nfc-mfultralight`
/// `.mfd` files (the plain page image, read as it is).
enum DumpFile {
  /// Which tool wrote a dump.
  enum Kind: String {
    case flipper = "Flipper Zero NFC file"
    case proxmark = "Proxmark3 JSON dump"
    case mfd = "libnfc .mfd image"
  }

  /// Bytes in one Type 2 page.
  static let pageSize = 4
  /// The largest page count accepted (NTAG I2C plus 2k has 0xE9 pages; leave headroom).
  static let maximumPages = 1024
  /// The first line of a Flipper Zero NFC file.
  static let flipperHeader = "Filetype: Flipper NFC device"

  /// The dump kind of `bytes` (by content, or `.mfd` by the file name), `nil` for a plain input.
  static func kind(of bytes: [UInt8], path: String?) -> Kind? {
    let text = String(decoding: bytes.prefix(256), as: UTF8.self)
    let trimmed = text.drop { $0.isWhitespace }
    if trimmed.hasPrefix(flipperHeader) { return .flipper }
    if trimmed.hasPrefix("{"), text.contains("\"FileType\"") || text.contains("\"blocks\"") {
      return .proxmark
    }
    if let path, path.lowercased().hasSuffix(".mfd") { return .mfd }
    return nil
  }

  /// The page image held by a dump of `kind`.
  static func image(_ bytes: [UInt8], kind: Kind) -> Result<[UInt8], DecodeFailure> {
    switch kind {
    case .flipper: return flipperImage(bytes)
    case .proxmark: return proxmarkImage(bytes)
    case .mfd:
      guard !bytes.isEmpty, bytes.count % pageSize == 0 else {
        return .failure(
          DecodeFailure(
            code: "invalidDumpSize", offset: bytes.count - bytes.count % pageSize,
            message: "a .mfd image is a whole number of 4-byte pages"))
      }
      return .success(bytes)
    }
  }

  /// Flipper Zero: the header line, a device type that is NTAG or Ultralight, then pages
  /// 0, 1, 2, ... in order, each `Page N: ` and four hex bytes.
  static func flipperImage(_ bytes: [UInt8]) -> Result<[UInt8], DecodeFailure> {
    var image: [UInt8] = []
    var offset = 0
    for rawLine in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      let lineOffset = offset
      offset += rawLine.count + 1
      let line = String(decoding: rawLine, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      if line.hasPrefix("Device type:") {
        let device = line.dropFirst("Device type:".count).trimmingCharacters(in: .whitespaces)
        let upper = device.uppercased()
        guard upper.contains("NTAG") || upper.contains("ULTRALIGHT") else {
          return .failure(
            DecodeFailure(
              code: "unsupportedDumpType", offset: lineOffset,
              message: "device type '\(device)' is not NTAG/Ultralight (only Type 2 pages are read)"))
        }
        continue
      }
      guard line.hasPrefix("Page "), let colon = line.firstIndex(of: ":") else { continue }
      let number = line[line.index(line.startIndex, offsetBy: 5)..<colon]
      guard let page = Int(number), page == image.count / pageSize else {
        return .failure(
          DecodeFailure(
            code: "invalidDumpPage", offset: lineOffset,
            message: "expected page \(image.count / pageSize) here (pages must be in order from 0)"))
      }
      guard page < maximumPages, let data = Input.hexBytes(String(line[line.index(after: colon)...])),
        data.count == pageSize
      else {
        return .failure(
          DecodeFailure(
            code: "invalidDumpPage", offset: lineOffset, message: "page \(page) is not four hex bytes"))
      }
      image += data
    }
    guard !image.isEmpty else {
      return .failure(
        DecodeFailure(
          code: "missingDumpPages", offset: bytes.count, message: "the file has no 'Page N:' lines"))
    }
    return .success(image)
  }

  /// Proxmark3 `hf mfu dump` JSON: `FileType` `mfu` and `blocks` numbered from 0, each four
  /// bytes of hex. Offsets point at the key's text in the file.
  static func proxmarkImage(_ bytes: [UInt8]) -> Result<[UInt8], DecodeFailure> {
    func offset(of needle: String) -> Int {
      let text = String(decoding: bytes, as: UTF8.self)
      guard let range = text.range(of: needle) else { return 0 }
      return text.utf8.distance(from: text.startIndex, to: range.lowerBound)
    }
    guard let value = try? JSONSerialization.jsonObject(with: Data(bytes)),
      let object = value as? [String: Any]
    else {
      return .failure(
        DecodeFailure(code: "invalidDumpJSON", offset: 0, message: "the file is not a JSON object"))
    }
    if let type = object["FileType"] as? String, type != "mfu" {
      return .failure(
        DecodeFailure(
          code: "unsupportedDumpType", offset: offset(of: "\"FileType\""),
          message: "file type '\(type)' is not mfu (only Type 2 pages are read)"))
    }
    guard let blocks = object["blocks"] as? [String: Any], !blocks.isEmpty else {
      return .failure(
        DecodeFailure(
          code: "missingDumpPages", offset: offset(of: "\"blocks\""), message: "the dump has no blocks"))
    }
    guard blocks.count <= maximumPages else {
      return .failure(
        DecodeFailure(
          code: "invalidDumpPage", offset: offset(of: "\"blocks\""),
          message: "more than \(maximumPages) blocks"))
    }
    var image: [UInt8] = []
    image.reserveCapacity(blocks.count * pageSize)
    for page in 0..<blocks.count {
      guard let text = blocks[String(page)] as? String else {
        return .failure(
          DecodeFailure(
            code: "invalidDumpPage", offset: offset(of: "\"blocks\""),
            message: "block \(page) is missing (blocks must be numbered from 0 without gaps)"))
      }
      guard let data = Hex.bytes(text), data.count == pageSize else {
        return .failure(
          DecodeFailure(
            code: "invalidDumpPage", offset: offset(of: "\"\(page)\""),
            message: "block \(page) is not four bytes of hex"))
      }
      image += data
    }
    return .success(image)
  }
}
