// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A BER-TLV tag field of one to four bytes (ISO/IEC 7816-4:2013 §5.2.2.1, ISO/IEC 8825-1
/// §8.1.2, EMV Book 3 Annex B1), held as its bytes big-endian: tag `9F 7F` is `0x9F7F`.
public struct BERTag: RawRepresentable, Sendable, Hashable {
  /// The tag bytes, big-endian, without leading zero bytes.
  public let rawValue: UInt32

  /// Wraps tag bytes given as a big-endian integer (e.g. `0x9F7F`); `nil` when the bytes
  /// are not a well-formed tag field (wrong continuation bits, a first byte of 0x00, a
  /// leading zero group 0x80).
  public init?(rawValue: UInt32) {
    guard rawValue != 0 else { return nil }
    var count = 4
    while count > 1 && rawValue >> UInt32((count - 1) * 8) == 0 { count -= 1 }
    let first = UInt8(truncatingIfNeeded: rawValue >> UInt32((count - 1) * 8))
    if count == 1 {
      guard first & 0x1F != 0x1F else { return nil }
    } else {
      guard first & 0x1F == 0x1F else { return nil }
      for index in 1..<count {
        let byte = UInt8(truncatingIfNeeded: rawValue >> UInt32((count - 1 - index) * 8))
        let last = index == count - 1
        guard (byte & 0x80 == 0) == last, index > 1 || byte != 0x80 else { return nil }
      }
    }
    self.rawValue = rawValue
  }

  init(unchecked rawValue: UInt32) { self.rawValue = rawValue }

  /// The class of a tag: bits b8-b7 of its first byte (ISO/IEC 8825-1 §8.1.2.2).
  public struct TagClass: RawRepresentable, Sendable, Hashable {
    /// 0 universal, 1 application, 2 context-specific, 3 private.
    public let rawValue: UInt8
    /// Creates a class from its two-bit value; `nil` above 3.
    public init?(rawValue: UInt8) {
      guard rawValue <= 3 else { return nil }
      self.rawValue = rawValue
    }
    private init(_ value: UInt8) { self.rawValue = value }
    /// `00`: universal class.
    public static let universal = TagClass(0)
    /// `01`: application class (interindustry data objects of ISO/IEC 7816).
    public static let application = TagClass(1)
    /// `10`: context-specific class.
    public static let contextSpecific = TagClass(2)
    /// `11`: private class.
    public static let `private` = TagClass(3)
    /// `universal`, `application`, `contextSpecific` or `private`.
    public var name: String {
      switch rawValue {
      case 0: return "universal"
      case 1: return "application"
      case 2: return "contextSpecific"
      default: return "private"
      }
    }
  }

  /// The number of tag bytes, 1...4.
  public var byteCount: Int {
    var count = 4
    while count > 1 && rawValue >> UInt32((count - 1) * 8) == 0 { count -= 1 }
    return count
  }

  /// The first tag byte.
  public var firstByte: UInt8 { UInt8(truncatingIfNeeded: rawValue >> UInt32((byteCount - 1) * 8)) }

  /// The class bits b8-b7 of the first byte.
  public var tagClass: TagClass { TagClass(rawValue: firstByte >> 6) ?? .universal }

  /// Bit b6 of the first byte: the value is a sequence of BER-TLV objects.
  public var isConstructed: Bool { firstByte & 0x20 != 0 }

  /// The tag number: b5-b1 of a one-byte tag, or the seven-bit groups of the subsequent bytes.
  public var number: UInt32 {
    let count = byteCount
    if count == 1 { return UInt32(firstByte & 0x1F) }
    var value: UInt32 = 0
    for index in 1..<count {
      let byte = UInt32(truncatingIfNeeded: rawValue >> UInt32((count - 1 - index) * 8)) & 0x7F
      value = value << 7 | byte
    }
    return value
  }

  /// The tag bytes.
  public var bytes: [UInt8] {
    let count = byteCount
    return (0..<count).map { UInt8(truncatingIfNeeded: rawValue >> UInt32((count - 1 - $0) * 8)) }
  }

  /// Lowercase hex of the tag bytes, e.g. `9f7f` (the JSON contract's `tag`).
  public var hexString: String { Hex.string(bytes) }

  // MARK: Interindustry and GlobalPlatform tags

  /// 4F: application identifier (AID) (ISO/IEC 7816-4 interindustry data objects).
  public static let applicationIdentifier = BERTag(unchecked: 0x4F)
  /// 50: application label (ISO/IEC 7816-4 interindustry data objects).
  public static let applicationLabel = BERTag(unchecked: 0x50)
  /// 61: application template (ISO/IEC 7816-4 interindustry data objects).
  public static let applicationTemplate = BERTag(unchecked: 0x61)
  /// 62: file control parameters (FCP) template (ISO/IEC 7816-4 §5.3.3).
  public static let fileControlParameters = BERTag(unchecked: 0x62)
  /// 64: file management data (FMD) template (ISO/IEC 7816-4 §5.3.3).
  public static let fileManagementData = BERTag(unchecked: 0x64)
  /// 66: card data (GlobalPlatform card recognition data wrapper, GP 2.3 §H.2).
  public static let cardData = BERTag(unchecked: 0x66)
  /// 6F: file control information (FCI) template (ISO/IEC 7816-4 §5.3.3).
  public static let fileControlInformation = BERTag(unchecked: 0x6F)
  /// 73: discretionary data template; card recognition data (GP 2.3 §H.2).
  public static let discretionaryTemplate = BERTag(unchecked: 0x73)
  /// 84: DF name, the AID in an FCI (ISO/IEC 7816-4 interindustry data objects).
  public static let dfName = BERTag(unchecked: 0x84)
  /// A5: proprietary information template in an FCI (ISO/IEC 7816-4 interindustry data objects).
  public static let proprietaryTemplate = BERTag(unchecked: 0xA5)
  /// 9F6E: application production life cycle data (GP 2.3 §11.9.3.1).
  public static let applicationProductionLifeCycle = BERTag(unchecked: 0x9F6E)
  /// 9F65: maximum length of data field in command message (GP 2.3 §11.9.3.1).
  public static let maximumCommandDataLength = BERTag(unchecked: 0x9F65)
  /// 9F70: life cycle state in a GET STATUS registry entry (GP 2.3 §11.4.3.2).
  public static let lifeCycleState = BERTag(unchecked: 0x9F70)
  /// 9F7F: card production life cycle data, CPLC (GP 2.3 §H.6).
  public static let cardProductionLifeCycle = BERTag(unchecked: 0x9F7F)
  /// C4: executable load file AID, or the load file data block in LOAD (GP 2.3 §11.6.2.3).
  public static let loadFileDataBlock = BERTag(unchecked: 0xC4)
  /// C5: privileges in a GET STATUS registry entry (GP 2.3 §11.4.3.2).
  public static let privileges = BERTag(unchecked: 0xC5)
  /// C9: application specific install parameters (GP 2.3 §11.5.2.3.7).
  public static let applicationParameters = BERTag(unchecked: 0xC9)
  /// CC: associated security domain AID in a registry entry (GP 2.3 §11.4.3.2).
  public static let associatedSecurityDomain = BERTag(unchecked: 0xCC)
  /// CE: executable load file version number in a registry entry (GP 2.3 §11.4.3.2).
  public static let loadFileVersion = BERTag(unchecked: 0xCE)
  /// E3: GlobalPlatform registry related data, one GET STATUS entry (GP 2.3 §11.4.3.2).
  public static let registryEntry = BERTag(unchecked: 0xE3)
}

extension BERTag: CustomStringConvertible {
  /// Lowercase hex of the tag bytes.
  public var description: String { hexString }
}
