// SPDX-License-Identifier: Apache-2.0
/// A Type 2 tag product as it ships: memory size, capability container, dynamic lock and
/// configuration page locations, and whether its TLV area starts with a Lock Control TLV
/// (NXP MF0ICU1, MF0ICU2, MF0ULX1 and NTAG210/212/213/215/216 data sheets, §8.5).
public struct Type2TagVariant: Sendable, Hashable {
  /// The product name.
  public let name: String
  /// The number of 4-byte pages.
  public let pageCount: Int
  /// The user memory in bytes, from page 4 to the dynamic lock bytes.
  public let userMemorySize: Int
  /// The CC as shipped; its data area may be smaller than the user memory (NTAG215:
  /// 0x3E = 496 of 504 bytes, NTAG216: 0x6D = 872 of 888 bytes).
  public let capabilityContainer: Type2CapabilityContainer
  /// The first page of the dynamic lock bytes, `nil` without dynamic lock bits.
  public let dynamicLockPage: Int?
  /// The number of dynamic lock bits that lock user pages.
  public let dynamicLockBitCount: Int
  /// User pages each dynamic lock bit locks.
  public let pagesLockedPerBit: Int
  /// The first configuration page (`nil` when the product has none).
  public let configurationPage: Int?
  /// The number of configuration pages.
  public let configurationPageCount: Int
  /// The Lock Control TLV the product ships with in page 4, if any.
  public let lockControl: TagLockControl?
  /// The configuration pages' bytes as shipped (empty when not listed).
  public let configurationDefaults: [UInt8]
  /// The 8-byte GET_VERSION answer of the product (data sheet §10.1 "GET_VERSION"), empty
  /// when the product has no GET_VERSION (MIFARE Ultralight, Ultralight C).
  public let version: [UInt8]

  /// Creates a variant without a GET_VERSION answer.
  public init(
    name: String, pageCount: Int, userMemorySize: Int, capabilityContainer: Type2CapabilityContainer,
    dynamicLockPage: Int?, dynamicLockBitCount: Int, pagesLockedPerBit: Int,
    configurationPage: Int?, configurationPageCount: Int, lockControl: TagLockControl?,
    configurationDefaults: [UInt8] = []
  ) {
    self.init(
      name: name, pageCount: pageCount, userMemorySize: userMemorySize,
      capabilityContainer: capabilityContainer,
      dynamicLockPage: dynamicLockPage, dynamicLockBitCount: dynamicLockBitCount,
      pagesLockedPerBit: pagesLockedPerBit,
      configurationPage: configurationPage, configurationPageCount: configurationPageCount,
      lockControl: lockControl,
      configurationDefaults: configurationDefaults, version: [])
  }

  /// Creates a variant with its GET_VERSION answer (`version`, 8 bytes; see ``NtagVersion``).
  public init(
    name: String, pageCount: Int, userMemorySize: Int, capabilityContainer: Type2CapabilityContainer,
    dynamicLockPage: Int?, dynamicLockBitCount: Int, pagesLockedPerBit: Int,
    configurationPage: Int?, configurationPageCount: Int, lockControl: TagLockControl?,
    configurationDefaults: [UInt8], version: [UInt8]
  ) {
    self.name = name
    self.pageCount = pageCount
    self.userMemorySize = userMemorySize
    self.capabilityContainer = capabilityContainer
    self.dynamicLockPage = dynamicLockPage
    self.dynamicLockBitCount = dynamicLockBitCount
    self.pagesLockedPerBit = pagesLockedPerBit
    self.configurationPage = configurationPage
    self.configurationPageCount = configurationPageCount
    self.lockControl = lockControl
    self.configurationDefaults = configurationDefaults
    self.version = version
  }

  /// NTAG21x CFG0 (MIRROR, RFUI, MIRROR_PAGE, AUTH0 = 0xFF), CFG1 (ACCESS, RFUI...), PWD,
  /// PACK as shipped (NTAG213/215/216 data sheet §8.5.7).
  static let ntagConfiguration: [UInt8] = [
    0x04, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00,
  ]
  /// Ultralight EV1 CFG0 (MOD, RFUI, RFUI, AUTH0 = 0xFF), CFG1 (ACCESS, VCTID...), PWD, PACK
  /// as shipped (MF0ULX1 data sheet §8.5.7).
  static let ev1Configuration: [UInt8] = [
    0x00, 0x00, 0x00, 0xFF, 0x00, 0x05, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x00,
  ]

  /// The image size in bytes: pages × 4.
  public var memorySize: Int { pageCount &* Type2Tag.pageSize }
  /// The data area size the shipped CC declares, in bytes.
  public var dataAreaSize: Int { capabilityContainer.dataAreaSize }
  /// The absolute offset of the first dynamic lock byte.
  public var dynamicLockOffset: Int? { dynamicLockPage.map { $0 &* Type2Tag.pageSize } }

  /// MIFARE Ultralight (MF0ICU1): 16 pages, 48 bytes user memory, static lock bits only.
  public static let ultralight = Type2TagVariant(
    name: "MIFARE Ultralight", pageCount: 16, userMemorySize: 48, capabilityContainer: .init(size: 0x06),
    dynamicLockPage: nil, dynamicLockBitCount: 0, pagesLockedPerBit: 0,
    configurationPage: nil, configurationPageCount: 0, lockControl: nil)
  /// MIFARE Ultralight C (MF0ICU2): 48 pages, 144 bytes, lock bytes in page 40, counter
  /// and authentication configuration in pages 41-47; ships with a Lock Control TLV.
  public static let ultralightC = Type2TagVariant(
    name: "MIFARE Ultralight C", pageCount: 48, userMemorySize: 144, capabilityContainer: .init(size: 0x12),
    dynamicLockPage: 40, dynamicLockBitCount: 16, pagesLockedPerBit: 4,
    configurationPage: 41, configurationPageCount: 7,
    lockControl: TagLockControl(position: 0xA0, size: 0x10, pageControl: 0x44))
  /// MIFARE Ultralight EV1 MF0UL11: 20 pages, 48 bytes, configuration in pages 16-19.
  public static let ultralightEV1MF0UL11 = Type2TagVariant(
    name: "MIFARE Ultralight EV1 MF0UL11", pageCount: 20, userMemorySize: 48,
    capabilityContainer: .init(size: 0x06),
    dynamicLockPage: nil, dynamicLockBitCount: 0, pagesLockedPerBit: 0,
    configurationPage: 16, configurationPageCount: 4, lockControl: nil,
    configurationDefaults: ev1Configuration,
    version: [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0B, 0x03])
  /// MIFARE Ultralight EV1 MF0UL21: 41 pages, 128 bytes, dynamic lock in page 36,
  /// configuration in pages 37-40; no Lock Control TLV (default layout).
  public static let ultralightEV1MF0UL21 = Type2TagVariant(
    name: "MIFARE Ultralight EV1 MF0UL21", pageCount: 41, userMemorySize: 128,
    capabilityContainer: .init(size: 0x10),
    dynamicLockPage: 36, dynamicLockBitCount: 10, pagesLockedPerBit: 2,
    configurationPage: 37, configurationPageCount: 4, lockControl: nil,
    configurationDefaults: ev1Configuration,
    version: [0x00, 0x04, 0x03, 0x01, 0x01, 0x00, 0x0E, 0x03])
  /// NTAG210: 20 pages, 48 bytes, configuration in pages 16-19.
  public static let ntag210 = Type2TagVariant(
    name: "NTAG210", pageCount: 20, userMemorySize: 48, capabilityContainer: .init(size: 0x06),
    dynamicLockPage: nil, dynamicLockBitCount: 0, pagesLockedPerBit: 0,
    configurationPage: 16, configurationPageCount: 4, lockControl: nil,
    configurationDefaults: ntagConfiguration,
    version: [0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0B, 0x03])
  /// NTAG212: 41 pages, 128 bytes, dynamic lock in page 36, configuration in pages 37-40;
  /// ships with a Lock Control TLV.
  public static let ntag212 = Type2TagVariant(
    name: "NTAG212", pageCount: 41, userMemorySize: 128, capabilityContainer: .init(size: 0x10),
    dynamicLockPage: 36, dynamicLockBitCount: 10, pagesLockedPerBit: 2,
    configurationPage: 37, configurationPageCount: 4,
    lockControl: TagLockControl(position: 0x90, size: 0x0A, pageControl: 0x34),
    configurationDefaults: ntagConfiguration,
    version: [0x00, 0x04, 0x04, 0x01, 0x01, 0x00, 0x0E, 0x03])
  /// NTAG213: 45 pages, 144 bytes, dynamic lock in page 40, configuration in pages 41-44;
  /// ships with a Lock Control TLV.
  public static let ntag213 = Type2TagVariant(
    name: "NTAG213", pageCount: 45, userMemorySize: 144, capabilityContainer: .init(size: 0x12),
    dynamicLockPage: 40, dynamicLockBitCount: 12, pagesLockedPerBit: 2,
    configurationPage: 41, configurationPageCount: 4,
    lockControl: TagLockControl(position: 0xA0, size: 0x0C, pageControl: 0x34),
    configurationDefaults: ntagConfiguration,
    version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03])
  /// NTAG215: 135 pages, 504 bytes user memory (CC: 496), dynamic lock in page 130, configuration in pages
  /// 131-134; no Lock Control TLV.
  public static let ntag215 = Type2TagVariant(
    name: "NTAG215", pageCount: 135, userMemorySize: 504, capabilityContainer: .init(size: 0x3E),
    dynamicLockPage: 130, dynamicLockBitCount: 8, pagesLockedPerBit: 16,
    configurationPage: 131, configurationPageCount: 4, lockControl: nil,
    configurationDefaults: ntagConfiguration,
    version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x11, 0x03])
  /// NTAG216: 231 pages, 888 bytes user memory (CC: 872), dynamic lock in page 226, configuration in pages
  /// 227-230; no Lock Control TLV.
  public static let ntag216 = Type2TagVariant(
    name: "NTAG216", pageCount: 231, userMemorySize: 888, capabilityContainer: .init(size: 0x6D),
    dynamicLockPage: 226, dynamicLockBitCount: 14, pagesLockedPerBit: 16,
    configurationPage: 227, configurationPageCount: 4, lockControl: nil,
    configurationDefaults: ntagConfiguration,
    version: [0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x13, 0x03])

  /// Every variant in the table.
  public static let all: [Type2TagVariant] = [
    .ultralight, .ultralightC, .ultralightEV1MF0UL11, .ultralightEV1MF0UL21, .ntag210, .ntag212,
    .ntag213, .ntag215, .ntag216,
  ]

  /// The variant whose memory size and CC size byte match; else the first of the same
  /// memory size (a CC rewritten with another size byte, such as 0x3F on NTAG215, keeps
  /// the product's lock layout); `nil` for other sizes.
  public static func matching(imageSize: Int, ccSize: UInt8) -> Type2TagVariant? {
    for variant in all
    where variant.memorySize == imageSize && variant.capabilityContainer.size == ccSize {
      return variant
    }
    for variant in all where variant.memorySize == imageSize { return variant }
    return nil
  }
}
