// SPDX-License-Identifier: Apache-2.0
/// The NDEF File Control TLV (T = 0x04, L = 6) or Extended NDEF File Control TLV
/// (T = 0x06, L = 8) of a Type 4 tag's CC file (T4T 3.0 §5.1.2, §5.1.3).
public struct Type4NDEFFileControl: Sendable, Hashable {
  /// The NDEF file identifier.
  public var fileIdentifier: UInt16
  /// The maximum NDEF file size in bytes, NLEN/ENLEN included.
  public var maximumFileSize: Int
  /// The read access condition: 0x00 granted; 0x80-0xFE proprietary.
  public var readAccess: UInt8
  /// The write access condition: 0x00 granted, 0xFF none; 0x80-0xFE proprietary.
  public var writeAccess: UInt8
  /// Whether this is the Extended NDEF File Control TLV (mapping 3.0: ENLEN is 4 bytes).
  public var isExtended: Bool

  /// T of the NDEF File Control TLV.
  public static let tag: UInt8 = 0x04
  /// T of the Extended NDEF File Control TLV.
  public static let extendedTag: UInt8 = 0x06

  /// Creates a file control TLV.
  public init(
    fileIdentifier: UInt16 = Type4Tag.defaultNDEFFileIdentifier, maximumFileSize: Int,
    readAccess: UInt8 = 0x00, writeAccess: UInt8 = 0x00, isExtended: Bool = false
  ) {
    self.fileIdentifier = fileIdentifier
    self.maximumFileSize = maximumFileSize
    self.readAccess = readAccess
    self.writeAccess = writeAccess
    self.isExtended = isExtended
  }

  /// The size of the length field at the start of the NDEF file: 2 (NLEN) or 4 (ENLEN).
  public var lengthFieldSize: Int { isExtended ? 4 : 2 }
  /// The largest NDEF message the file holds: the file size less NLEN/ENLEN.
  public var maximumMessageSize: Int { max(0, maximumFileSize &- lengthFieldSize) }
  /// Whether reading is granted without proprietary conditions.
  public var isReadable: Bool { readAccess == 0x00 }
  /// Whether writing is granted without proprietary conditions.
  public var isWritable: Bool { writeAccess == 0x00 }

  /// The TLV bytes.
  public var bytes: [UInt8] {
    var bytes: [UInt8] = [isExtended ? Self.extendedTag : Self.tag, isExtended ? 8 : 6]
    bytes += [UInt8(fileIdentifier >> 8), UInt8(truncatingIfNeeded: fileIdentifier)]
    if isExtended {
      for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: maximumFileSize >> shift)) }
    } else {
      bytes += [UInt8(truncatingIfNeeded: maximumFileSize >> 8), UInt8(truncatingIfNeeded: maximumFileSize)]
    }
    bytes += [readAccess, writeAccess]
    return bytes
  }
}
