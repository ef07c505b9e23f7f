// SPDX-License-Identifier: Apache-2.0

/// The page numbers of the four configuration pages of an NTAG21x or Ultralight EV1
/// (NTAG213/215/216 data sheet §8.5.7; NTAG210/212 §8.5.7; MF0ULX1 §8.5.7):
/// CFG0 (MIRROR or MOD, RFUI, MIRROR_PAGE, AUTH0), CFG1 (ACCESS, RFUI or VCTID, RFUI,
/// RFUI), PWD, PACK (PACK0, PACK1, RFUI, RFUI).
///
/// | chip | CFG0 | CFG1 | PWD | PACK |
/// |---|---|---|---|---|
/// | NTAG210, Ultralight EV1 MF0UL11 | 10h | 11h | 12h | 13h |
/// | NTAG212, Ultralight EV1 MF0UL21 | 25h | 26h | 27h | 28h |
/// | NTAG213 | 29h | 2Ah | 2Bh | 2Ch |
/// | NTAG215 | 83h | 84h | 85h | 86h |
/// | NTAG216 | E3h | E4h | E5h | E6h |
public struct NtagConfigurationPages: Sendable, Hashable {
  /// CFG0: AUTH0 is its byte 3.
  public let configuration0: Int
  /// CFG1: ACCESS is its byte 0.
  public let configuration1: Int
  /// PWD (write-only: reads return 00 00 00 00).
  public let password: Int
  /// PACK in bytes 0-1 (write-only: reads return 00 00).
  public let passwordAcknowledge: Int

  /// The pages starting at CFG0.
  public init(configuration0: Int) {
    self.configuration0 = configuration0
    configuration1 = configuration0 &+ 1
    password = configuration0 &+ 2
    passwordAcknowledge = configuration0 &+ 3
  }
}

extension Type2TagVariant {
  /// The PWD/PACK configuration pages of a product with GET_VERSION and four configuration
  /// pages (NTAG21x, Ultralight EV1); `nil` for MIFARE Ultralight and Ultralight C (whose
  /// pages 41-47 hold 3DES authentication settings, not a password).
  public var passwordConfigurationPages: NtagConfigurationPages? {
    guard !version.isEmpty, let configurationPage, configurationPageCount >= 4 else { return nil }
    return NtagConfigurationPages(configuration0: configurationPage)
  }
}

/// The ACCESS byte, CFG1 byte 0 (NTAG213/215/216 §8.5.7; MF0ULX1 §8.5.7).
public struct NtagAccess: RawRepresentable, Sendable, Hashable {
  /// The byte.
  public let rawValue: UInt8
  /// Creates the byte.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// PROT, bit 7: 1 = reads from AUTH0 on need the password too, 0 = only writes do.
  public var readProtected: Bool { rawValue & 0x80 != 0 }
  /// CFGLCK, bit 6: the configuration pages are locked for writing (permanent).
  public var configurationLocked: Bool { rawValue & 0x40 != 0 }
  /// NFC_CNT_EN, bit 4 (NTAG213/215/216): the NFC counter counts.
  public var nfcCounterEnabled: Bool { rawValue & 0x10 != 0 }
  /// NFC_CNT_PWD_PROT, bit 3 (NTAG213/215/216): READ_CNT needs the password.
  public var nfcCounterPasswordProtected: Bool { rawValue & 0x08 != 0 }
  /// AUTHLIM, bits 2-0: the number of wrong PWD_AUTH attempts after which the tag refuses
  /// PWD_AUTH for good; 0 = no limit.
  public var authenticationLimit: UInt8 { rawValue & 0x07 }

  /// The byte with PROT and AUTHLIM replaced, other bits kept.
  public func with(readProtected: Bool, authenticationLimit: UInt8) -> NtagAccess {
    NtagAccess(rawValue: rawValue & 0x78 | (readProtected ? 0x80 : 0) | (authenticationLimit & 0x07))
  }
}

/// CFG0 and CFG1 as read from a tag (the first 8 bytes of a READ at CFG0; PWD and PACK
/// read as zeros and are not kept).
public struct NtagConfiguration: Sendable, Hashable {
  /// CFG0's 4 bytes.
  public private(set) var configuration0: [UInt8]
  /// CFG1's 4 bytes.
  public private(set) var configuration1: [UInt8]

  /// Creates a configuration from its two pages; `nil` unless both are 4 bytes.
  public init?(configuration0: [UInt8], configuration1: [UInt8]) {
    guard configuration0.count == 4, configuration1.count == 4 else { return nil }
    self.configuration0 = configuration0
    self.configuration1 = configuration1
  }

  /// Parses the answer to a READ (16 bytes) or FAST_READ of CFG0-CFG1 (8 bytes) or
  /// CFG0-PACK (16 bytes).
  ///
  /// - Throws: ``NFCTagError/Code/negativeAcknowledge``, ``NFCTagError/Code/responseTooShort``
  ///   (offset: the input's end), ``NFCTagError/Code/unexpectedResponse`` (offset 16).
  public init(parsing bytes: [UInt8]) throws(NFCTagError) {
    try NtagCommand.checkNotNAK(bytes)
    guard bytes.count >= 8 else { throw NFCTagError(.responseTooShort, offset: bytes.count) }
    guard bytes.count == 8 || bytes.count == 16 else {
      throw NFCTagError(
        bytes.count < 16 ? .responseTooShort : .unexpectedResponse, offset: min(bytes.count, 16))
    }
    configuration0 = Array(bytes[0..<4])
    configuration1 = Array(bytes[4..<8])
  }

  /// AUTH0, CFG0 byte 3: the first page that needs the password (above the last page:
  /// protection off; FFh as shipped).
  public var firstProtectedPage: UInt8 {
    get { configuration0[3] }
    set { configuration0[3] = newValue }
  }

  /// ACCESS, CFG1 byte 0.
  public var access: NtagAccess {
    get { NtagAccess(rawValue: configuration1[0]) }
    set { configuration1[0] = newValue.rawValue }
  }

  /// Whether the password protects any page of a tag of `pageCount` pages.
  public func isProtected(pageCount: Int) -> Bool { Int(firstProtectedPage) < pageCount }
}
