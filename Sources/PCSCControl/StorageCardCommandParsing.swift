// SPDX-License-Identifier: Apache-2.0

/// The checks every Part 3 storage-card pseudo-APDU parser makes (PC/SC Part 3 §3.2.2.1).
enum StorageCardCommandParsing {
  /// Checks CLA `FF` and `instruction`; returns P1 and P2.
  static func header(_ bytes: [UInt8], instruction: UInt8, minimumCount: Int = 5) throws(PCSCControlError)
    -> (
      UInt8, UInt8
    )
  {
    guard bytes.count >= minimumCount else { throw PCSCControlError(.truncatedCommand, offset: bytes.count) }
    guard bytes[0] == 0xFF else { throw PCSCControlError(.wrongClass, offset: 0) }
    guard bytes[1] == instruction else { throw PCSCControlError(.wrongInstruction, offset: 1) }
    return (bytes[2], bytes[3])
  }

  /// Checks a case 3 command (`header Lc data`): Lc must be nonzero and equal the data that
  /// follows; returns the data.
  static func data(_ bytes: [UInt8]) throws(PCSCControlError) -> [UInt8] {
    let lc = Int(bytes[4])
    guard lc > 0 else { throw PCSCControlError(.emptyValue, offset: 4) }
    guard bytes.count == 5 &+ lc else {
      throw PCSCControlError(bytes.count < 5 &+ lc ? .truncatedCommand : .lengthMismatch, offset: 4)
    }
    return Array(bytes[5...])
  }

  /// Splits a response APDU into data and status word.
  static func response(_ response: [UInt8]) throws(PCSCControlError) -> ([UInt8], UInt16) {
    guard response.count >= 2 else { throw PCSCControlError(.truncatedResponse, offset: response.count) }
    let sw = UInt16(response[response.count - 2]) << 8 | UInt16(response[response.count - 1])
    return (Array(response.dropLast(2)), sw)
  }

  /// `FF INS P1 P2 Lc data`, data checked to fit one short Lc.
  static func command(instruction: UInt8, p1: UInt8, p2: UInt8, data: [UInt8]) throws(PCSCControlError)
    -> [UInt8]
  {
    guard !data.isEmpty else { throw PCSCControlError(.emptyValue, offset: 0) }
    guard data.count <= 255 else { throw PCSCControlError(.valueTooLong, offset: 255) }
    return [0xFF, instruction, p1, p2, UInt8(data.count)] + data
  }
}
