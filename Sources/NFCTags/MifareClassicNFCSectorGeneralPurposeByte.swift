// SPDX-License-Identifier: Apache-2.0
/// The general purpose byte of an NFC sector's trailer (byte 9; AN1304 §6.3.1): the mapping
/// version (bits 7-4, major then minor) and the read and write access conditions (bits 3-2
/// and 1-0: 0 granted, 3 denied; 1 and 2 are RFU).
public struct MifareClassicNFCSectorGeneralPurposeByte: RawRepresentable, Sendable, Hashable {
  /// The byte.
  public let rawValue: UInt8
  /// Wraps a byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// `40`: mapping 1.0, read and write granted (INITIALIZED and READ/WRITE states).
  public static let readWrite = MifareClassicNFCSectorGeneralPurposeByte(rawValue: 0x40)
  /// `43`: mapping 1.0, read granted, write denied (READ-ONLY state).
  public static let readOnly = MifareClassicNFCSectorGeneralPurposeByte(rawValue: 0x43)

  /// The major mapping version (bits 7-6); 1 for the mapping this module reads.
  public var majorVersion: Int { Int(rawValue >> 6) }
  /// The minor mapping version (bits 5-4).
  public var minorVersion: Int { Int((rawValue >> 4) & 0b11) }
  /// The read access condition (bits 3-2): 0 granted, 3 denied.
  public var readAccess: Int { Int((rawValue >> 2) & 0b11) }
  /// The write access condition (bits 1-0): 0 granted, 3 denied.
  public var writeAccess: Int { Int(rawValue & 0b11) }
  /// Whether the byte grants writing (write access 0).
  public var isWritable: Bool { writeAccess == 0 }
}
