// SPDX-License-Identifier: Apache-2.0
import NFCWire

extension TagTLVArea {
  /// The bytes of an NDEF TLV holding `message`, and a Terminator TLV when `room` allows
  /// (T2T 1.0 §2.3.4: 1-byte length up to 254, else 0xFF and two bytes).
  static func ndefTLVBytes(message: [UInt8], room: Int) -> [UInt8] {
    var bytes: [UInt8] = [TagTLVType.ndef.rawValue]
    if message.count < 0xFF {
      bytes.append(UInt8(message.count))
    } else {
      bytes.append(0xFF)
      bytes.append(UInt8(truncatingIfNeeded: message.count >> 8))
      bytes.append(UInt8(truncatingIfNeeded: message.count))
    }
    bytes.append(contentsOf: message)
    if bytes.count < room { bytes.append(TagTLVType.terminator.rawValue) }
    return bytes
  }

  /// Writes `tlvBytes` into the data area of `image` from the NDEF insertion point,
  /// skipping lock and reserved areas; returns the physical offsets written.
  func place(_ tlvBytes: [UInt8], into image: inout [UInt8]) -> [Int] {
    let positions = map.positions(from: ndefInsertionOffset, count: tlvBytes.count)
    for (i, p) in positions.enumerated() where p < image.count { image[p] = tlvBytes[i] }
    return positions
  }

  /// The tearing-safe plan that writes `message` (encoded NDEF bytes; empty for an empty
  /// NDEF TLV) into `image` at the NDEF TLV, leaving the TLVs before it and every lock
  /// and reserved area untouched.
  ///
  /// - Throws: ``NFCTagError/Code/messageTooLarge`` (offset: the NDEF TLV position) when it
  ///   does not fit.
  func writePlan(image: [UInt8], message: [UInt8], blockSize: Int) throws(NFCTagError)
    -> TagWritePlan
  {
    guard message.count <= maximumNDEFSize else {
      throw NFCTagError(.messageTooLarge, offset: ndefInsertionOffset)
    }
    let room = map.remaining(from: ndefInsertionOffset)
    var new = image
    let written = place(Self.ndefTLVBytes(message: message, room: room), into: &new)
    var zero = image
    let header = place(Self.ndefTLVBytes(message: [], room: room), into: &zero)
    let commit = written.count > 1 ? written[1] : ndefInsertionOffset
    return TagWritePlan.tearingSafe(
      old: image, zero: zero, new: new, blockSize: blockSize, commitOffset: commit,
      headerOffsets: header + Array(written.prefix(message.count < 0xFF ? 2 : 4)))
  }
}
