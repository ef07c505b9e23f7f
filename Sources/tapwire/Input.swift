// SPDX-License-Identifier: Apache-2.0
import Foundation
import NFCWire

/// Where the bytes to decode come from, and how they are read.
enum Input {
  /// Parses hex text: hex digits with spaces, colons, dashes, newlines and `0x` prefixes
  /// allowed. `nil` when anything else is present or a digit is left over.
  static func hexBytes(_ text: String) -> [UInt8]? {
    var digits = ""
    var scalars = Array(text.unicodeScalars)[...]
    while let scalar = scalars.first {
      scalars = scalars.dropFirst()
      if scalar == "0", let next = scalars.first, next == "x" || next == "X" {
        scalars = scalars.dropFirst()
        continue
      }
      switch scalar {
      case " ", ":", "-", "\n", "\r", "\t", ",": continue
      default: digits.unicodeScalars.append(scalar)
      }
    }
    return Hex.bytes(digits)
  }

  /// Whether `data` looks like hex text rather than binary.
  static func looksLikeHexText(_ data: [UInt8]) -> Bool {
    guard !data.isEmpty else { return false }
    for byte in data {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"),
        UInt8(ascii: "A")...UInt8(ascii: "F"), UInt8(ascii: "x"), UInt8(ascii: "X"),
        UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: ","), 0x0A, 0x0D,
        0x09:
        continue
      default: return false
      }
    }
    return true
  }

  /// Reads all of standard input.
  static func readStandardInput() -> [UInt8] {
    [UInt8](FileHandle.standardInput.readDataToEndOfFile())
  }

  /// The bytes named by a command-line operand: an existing file (binary, or hex text),
  /// else the operand itself as hex. `nil` with a reason when neither works.
  static func bytes(operand: String?) -> Result<[UInt8], InputError> {
    guard let operand, operand != "-" else {
      let data = readStandardInput()
      if looksLikeHexText(data), let bytes = hexBytes(String(decoding: data, as: UTF8.self)) {
        return .success(bytes)
      }
      return .success(data)
    }
    if FileManager.default.fileExists(atPath: operand) {
      guard let data = FileManager.default.contents(atPath: operand) else {
        return .failure(InputError("cannot read \(operand)"))
      }
      let bytes = [UInt8](data)
      if looksLikeHexText(bytes), let decoded = hexBytes(String(decoding: bytes, as: UTF8.self)) {
        return .success(decoded)
      }
      return .success(bytes)
    }
    if let bytes = hexBytes(operand) { return .success(bytes) }
    return .failure(InputError("'\(operand)' is neither a file nor hex bytes"))
  }
}

/// A command-line mistake: printed with the usage hint, exit status 2.
struct InputError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}
