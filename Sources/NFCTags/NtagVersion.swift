// SPDX-License-Identifier: Apache-2.0

/// The 8-byte answer to GET_VERSION (`60`) of NTAG21x, NTAG I2C and MIFARE Ultralight EV1
/// (NTAG213/215/216 data sheet §10.1 GET_VERSION, NTAG210/212 §10.1, MF0ULX1 GET_VERSION,
/// NT3H1101/1201 and NT3H2111/2211 GET_VERSION): fixed header 00, vendor 04 (NXP), product
/// type (03 MIFARE Ultralight, 04 NTAG), subtype, major and minor product version, storage
/// size, protocol type (03 ISO/IEC 14443-3).
///
/// MIFARE Ultralight and Ultralight C have no GET_VERSION (they answer NAK or nothing);
/// tell them apart with AUTHENTICATE (`1A 00`, Ultralight C only) or the CC.
public struct NtagVersion: Sendable, Hashable {
  /// The answer's length.
  public static let length = 8

  /// Byte 0, the fixed header (00).
  public var header: UInt8
  /// Byte 1, the vendor (04 = NXP).
  public var vendor: UInt8
  /// Byte 2, the product type (03 MIFARE Ultralight, 04 NTAG).
  public var productType: UInt8
  /// Byte 3, the product subtype (NTAG 01 = 17 pF for 210/212, 02 = 50 pF for 213/215/216,
  /// 05 = NTAG I2C; Ultralight EV1 01 = 17 pF, 02 = 50 pF).
  public var productSubtype: UInt8
  /// Byte 4, the major product version.
  public var majorVersion: UInt8
  /// Byte 5, the minor product version.
  public var minorVersion: UInt8
  /// Byte 6, the storage size: bits 7-1 are n, bit 0 says whether the user memory is
  /// exactly 2^n bytes (0) or between 2^n and 2^(n+1) (1).
  public var storageSize: UInt8
  /// Byte 7, the protocol type (03 = ISO/IEC 14443-3).
  public var protocolType: UInt8

  /// NXP's vendor byte.
  public static let nxp: UInt8 = 0x04
  /// The product type of MIFARE Ultralight EV1.
  public static let ultralightProductType: UInt8 = 0x03
  /// The product type of NTAG.
  public static let ntagProductType: UInt8 = 0x04

  /// Creates a version from its fields.
  public init(
    header: UInt8 = 0, vendor: UInt8, productType: UInt8, productSubtype: UInt8, majorVersion: UInt8,
    minorVersion: UInt8, storageSize: UInt8, protocolType: UInt8 = 0x03
  ) {
    self.header = header
    self.vendor = vendor
    self.productType = productType
    self.productSubtype = productSubtype
    self.majorVersion = majorVersion
    self.minorVersion = minorVersion
    self.storageSize = storageSize
    self.protocolType = protocolType
  }

  /// Parses the 8-byte answer.
  ///
  /// - Throws: ``NFCTagError/Code/negativeAcknowledge`` (a 1-byte 4-bit NAK),
  ///   ``NFCTagError/Code/responseTooShort`` (offset: the input's end),
  ///   ``NFCTagError/Code/unexpectedResponse`` (offset 8: bytes after the answer).
  public init(parsing bytes: [UInt8]) throws(NFCTagError) {
    try NtagCommand.checkNotNAK(bytes)
    guard bytes.count >= Self.length else { throw NFCTagError(.responseTooShort, offset: bytes.count) }
    guard bytes.count == Self.length else { throw NFCTagError(.unexpectedResponse, offset: Self.length) }
    self.init(
      header: bytes[0], vendor: bytes[1], productType: bytes[2], productSubtype: bytes[3],
      majorVersion: bytes[4],
      minorVersion: bytes[5], storageSize: bytes[6], protocolType: bytes[7])
  }

  /// The 8 bytes.
  public func encodedBytes() -> [UInt8] {
    [header, vendor, productType, productSubtype, majorVersion, minorVersion, storageSize, protocolType]
  }

  /// The user memory size the storage byte declares: exactly 2^n bytes, or between 2^n and
  /// 2^(n+1) bytes (bounds included here; NTAG213 0x0F: 128...256, 144 bytes; NTAG215 0x11:
  /// 256...512, 504 bytes). n is capped at 30.
  public var storageSizeRange: ClosedRange<Int> {
    let n = Int(min(storageSize >> 1, 30))
    let low = 1 << n
    return storageSize & 1 == 0 ? low...low : low...(low << 1)
  }

  /// The exact chip, `nil` when the answer names none Tapwire knows.
  ///
  /// Values from the NXP data sheets (GET_VERSION tables): NTAG210 `0004040101000B03`,
  /// NTAG210u `0004040102000B03` (NT2L1001) and `0004040202000B03` (NT2H1001), NTAG212
  /// `0004040101000E03`, NTAG213/215/216 `0004040201000F03`/`1103`/`1303`, NTAG I2C 1k/2k
  /// `0004040502011303/1503`, NTAG I2C plus 1k/2k `0004040502021303/1503`, Ultralight EV1
  /// MF0UL11/21 `0004030101000B03/0E03` and the 50 pF MF0ULH11/21 with subtype 02.
  public var chip: NtagChip? {
    guard header == 0, vendor == Self.nxp, protocolType == 0x03 else { return nil }
    if let variant = Type2TagVariant.all.first(where: { $0.version == encodedBytes() }) {
      return NtagChip(name: variant.name, variant: variant)
    }
    switch (productType, productSubtype, majorVersion, minorVersion, storageSize) {
    case (0x03, 0x02, 0x01, 0x00, 0x0B):
      return NtagChip(name: "MIFARE Ultralight EV1 MF0ULH11", variant: .ultralightEV1MF0UL11)
    case (0x03, 0x02, 0x01, 0x00, 0x0E):
      return NtagChip(name: "MIFARE Ultralight EV1 MF0ULH21", variant: .ultralightEV1MF0UL21)
    case (0x04, 0x01, 0x02, 0x00, 0x0B): return NtagChip(name: "NTAG210u NT2L1001", variant: nil)
    case (0x04, 0x02, 0x02, 0x00, 0x0B): return NtagChip(name: "NTAG210u NT2H1001", variant: nil)
    case (0x04, 0x05, 0x02, 0x01, 0x13): return NtagChip(name: "NTAG I2C 1k NT3H1101", variant: nil)
    case (0x04, 0x05, 0x02, 0x01, 0x15): return NtagChip(name: "NTAG I2C 2k NT3H1201", variant: nil)
    case (0x04, 0x05, 0x02, 0x02, 0x13): return NtagChip(name: "NTAG I2C plus 1k NT3H2111", variant: nil)
    case (0x04, 0x05, 0x02, 0x02, 0x15): return NtagChip(name: "NTAG I2C plus 2k NT3H2211", variant: nil)
    default: return nil
    }
  }
}

/// A chip GET_VERSION named, with its memory layout when the ``Type2TagVariant`` table has
/// it (NTAG210u and NTAG I2C are named only: their layouts are not in the table).
public struct NtagChip: Sendable, Hashable {
  /// The product name.
  public let name: String
  /// The memory layout, `nil` when the table does not have it.
  public let variant: Type2TagVariant?

  /// Creates a chip.
  public init(name: String, variant: Type2TagVariant?) {
    self.name = name
    self.variant = variant
  }

  /// Whether the chip has FAST_READ (NTAG21x except NTAG210u, NTAG I2C, Ultralight EV1).
  public var hasFastRead: Bool { !name.hasPrefix("NTAG210u") }
  /// Whether the chip has PWD_AUTH and the table knows its configuration pages.
  public var hasPasswordProtection: Bool { variant?.passwordConfigurationPages != nil }
}
