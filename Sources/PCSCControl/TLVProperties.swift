// SPDX-License-Identifier: Apache-2.0

import NFCWire

/// A property tag of `FEATURE_GET_TLV_PROPERTIES` (PC/SC Part 10 §2.6.14; the
/// `PCSCv2_PART10_PROPERTY_*` values of pcsc-lite's `reader.h`).
public struct PropertyTag: RawRepresentable, Sendable, Hashable {
  /// The one-byte tag.
  public let rawValue: UInt8
  /// Creates a tag.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// `wLcdLayout` (1): display lines and characters per line, 2 bytes.
  public static let lcdLayout = PropertyTag(rawValue: 1)
  /// `bEntryValidationCondition` (2), 1 byte.
  public static let entryValidationCondition = PropertyTag(rawValue: 2)
  /// `bTimeOut2` (3), 1 byte.
  public static let timeOut2 = PropertyTag(rawValue: 3)
  /// `wLcdMaxCharacters` (4), 2 bytes.
  public static let lcdMaxCharacters = PropertyTag(rawValue: 4)
  /// `wLcdMaxLines` (5), 2 bytes.
  public static let lcdMaxLines = PropertyTag(rawValue: 5)
  /// `bMinPINSize` (6), 1 byte.
  public static let minPINSize = PropertyTag(rawValue: 6)
  /// `bMaxPINSize` (7), 1 byte.
  public static let maxPINSize = PropertyTag(rawValue: 7)
  /// `sFirmwareID` (8): the firmware identification, a string.
  public static let firmwareID = PropertyTag(rawValue: 8)
  /// `bPPDUSupport` (9), 1 byte: pseudo-APDUs accepted through SCardTransmit and/or SCardControl.
  public static let ppduSupport = PropertyTag(rawValue: 9)
  /// `dwMaxAPDUDataSize` (10), 4 bytes.
  public static let maxAPDUDataSize = PropertyTag(rawValue: 10)
  /// `wIdVendor` (11): the USB vendor ID, 2 bytes.
  public static let vendorID = PropertyTag(rawValue: 11)
  /// `wIdProduct` (12): the USB product ID, 2 bytes.
  public static let productID = PropertyTag(rawValue: 12)

  /// The `reader.h` field name (`wLcdLayout`, ...), or nil for an unknown tag.
  public var name: String? {
    switch rawValue {
    case 1: "wLcdLayout"
    case 2: "bEntryValidationCondition"
    case 3: "bTimeOut2"
    case 4: "wLcdMaxCharacters"
    case 5: "wLcdMaxLines"
    case 6: "bMinPINSize"
    case 7: "bMaxPINSize"
    case 8: "sFirmwareID"
    case 9: "bPPDUSupport"
    case 10: "dwMaxAPDUDataSize"
    case 11: "wIdVendor"
    case 12: "wIdProduct"
    default: nil
    }
  }
}

/// The answer to `FEATURE_GET_TLV_PROPERTIES`: tag (1 byte), length (1 byte), value, with
/// integers little-endian (PC/SC Part 10 §2.6.14).
public struct TLVProperties: Sendable, Hashable {
  /// One property.
  public struct Property: Sendable, Hashable {
    /// The tag.
    public var tag: PropertyTag
    /// The value bytes.
    public var value: [UInt8]
    /// Creates a property.
    public init(tag: PropertyTag, value: [UInt8]) {
      self.tag = tag
      self.value = value
    }

    /// The value as a little-endian unsigned integer when it is 1, 2 or 4 bytes long.
    public var integer: UInt32? {
      guard [1, 2, 4].contains(value.count) else { return nil }
      var result: UInt32 = 0
      for (index, byte) in value.enumerated() { result |= UInt32(byte) << (8 * UInt32(index)) }
      return result
    }

    /// A property holding `integer` little-endian in `width` bytes (1, 2 or 4).
    public static func integer(_ tag: PropertyTag, _ integer: UInt32, width: Int) -> Property {
      Property(
        tag: tag, value: (0..<max(1, min(width, 4))).map { UInt8(truncatingIfNeeded: integer >> (8 * $0)) })
    }
  }

  /// The properties, in the reader's order.
  public var properties: [Property]

  /// Creates properties.
  public init(properties: [Property]) { self.properties = properties }

  /// Parses the answer.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedProperty`` when fewer than 2 bytes start a
  ///   property, ``PCSCControlError/Code/propertyExceedsInput`` (offset of the length byte)
  ///   when a value runs past the input.
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    var reader = ByteReader(bytes.span.bytes)
    var properties: [Property] = []
    while !reader.isAtEnd {
      let start = reader.offset
      guard let tag = reader.readUInt8(), let length = reader.readUInt8() else {
        throw PCSCControlError(.truncatedProperty, offset: start)
      }
      guard let value = reader.readSpan(count: Int(length)) else {
        throw PCSCControlError(.propertyExceedsInput, offset: start &+ 1)
      }
      properties.append(Property(tag: PropertyTag(rawValue: tag), value: value.copiedBytes()))
    }
    self.properties = properties
  }

  /// The first property with `tag`.
  public subscript(tag: PropertyTag) -> Property? { properties.first { $0.tag == tag } }

  /// The answer bytes.
  ///
  /// - Throws: ``PCSCControlError/Code/valueTooLong`` when a value exceeds 255 bytes
  ///   (offset: the property's index).
  public func encodedBytes() throws(PCSCControlError) -> [UInt8] {
    var bytes: [UInt8] = []
    for (index, property) in properties.enumerated() {
      guard property.value.count <= 255 else { throw PCSCControlError(.valueTooLong, offset: index) }
      bytes += [property.tag.rawValue, UInt8(property.value.count)] + property.value
    }
    return bytes
  }
}

/// `PIN_PROPERTIES_STRUCTURE`, the answer to `FEATURE_IFD_PIN_PROPERTIES` (PC/SC Part 10
/// §2.6.8; `reader.h`): 4 bytes, `wLcdLayout` little-endian, `bEntryValidationCondition`,
/// `bTimeOut2`.
public struct PINProperties: Sendable, Hashable {
  /// Display layout: lines in the high byte, characters per line in the low byte; 0 = none.
  public var lcdLayout: UInt16
  /// Conditions that validate a PIN entry (bit 0 max size reached, bit 1 key, bit 2 timeout).
  public var entryValidationCondition: UInt8
  /// Timeout after the first key, in seconds (0 = the reader's default).
  public var timeOut2: UInt8

  /// Creates properties.
  public init(lcdLayout: UInt16, entryValidationCondition: UInt8, timeOut2: UInt8) {
    self.lcdLayout = lcdLayout
    self.entryValidationCondition = entryValidationCondition
    self.timeOut2 = timeOut2
  }

  /// Parses the 4-byte structure.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedPINProperties`` (offset: the input's end)
  ///   for fewer than 4 bytes, ``PCSCControlError/Code/trailingData`` (offset 4) for more.
  public init(parsing bytes: [UInt8]) throws(PCSCControlError) {
    guard bytes.count >= 4 else { throw PCSCControlError(.truncatedPINProperties, offset: bytes.count) }
    guard bytes.count == 4 else { throw PCSCControlError(.trailingData, offset: 4) }
    lcdLayout = UInt16(bytes[0]) | UInt16(bytes[1]) << 8
    entryValidationCondition = bytes[2]
    timeOut2 = bytes[3]
  }

  /// The 4 bytes.
  public func encodedBytes() -> [UInt8] {
    [
      UInt8(truncatingIfNeeded: lcdLayout), UInt8(truncatingIfNeeded: lcdLayout >> 8),
      entryValidationCondition, timeOut2,
    ]
  }
}
