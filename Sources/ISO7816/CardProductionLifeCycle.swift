// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// Card Production Life Cycle data (CPLC), the 42-byte value of tag `9F7F` returned by GET
/// DATA (GlobalPlatform Card Specification 2.3, Annex H; field layout as in the Visa GlobalPlatform
/// card implementation requirements).
///
/// Dates are two BCD-like bytes `YDDD` (last digit of the year, day of the year), kept raw.
public struct CardProductionLifeCycle: Sendable, Hashable {
  /// The 42 bytes, in wire order.
  public let bytes: [UInt8]

  /// The size of the CPLC value.
  public static let byteCount = 42

  /// Reads CPLC from a GET DATA response data field: `9F 7F 2A` and 42 bytes, or the bare
  /// 42 bytes.
  ///
  /// - Throws: the BER-TLV errors, ``APDUError/Code/unexpectedTag`` for another tag, and
  ///   ``APDUError/Code/invalidDataObject`` unless the value is 42 bytes.
  public init(parsing data: [UInt8], baseOffset: Int = 0) throws(APDUError) {
    if data.count == Self.byteCount {
      self.bytes = data
      return
    }
    let object = try BERTLVView(validating: data.span.bytes, baseOffset: baseOffset)
    guard object.tag == .cardProductionLifeCycle else {
      throw APDUError(.unexpectedTag, offset: object.offset)
    }
    guard object.length == Self.byteCount else {
      throw APDUError(.invalidDataObject, offset: object.lengthOffset)
    }
    self.bytes = object.value.copiedBytes()
  }

  private func field(_ start: Int, _ count: Int) -> UInt32 {
    var value: UInt32 = 0
    for index in start..<(start + count) { value = value << 8 | UInt32(bytes[index]) }
    return value
  }

  /// IC fabricator (bytes 0-1).
  public var icFabricator: UInt16 { UInt16(field(0, 2)) }
  /// IC type (bytes 2-3).
  public var icType: UInt16 { UInt16(field(2, 2)) }
  /// Operating system identifier (bytes 4-5).
  public var operatingSystemIdentifier: UInt16 { UInt16(field(4, 2)) }
  /// Operating system release date (bytes 6-7).
  public var operatingSystemReleaseDate: UInt16 { UInt16(field(6, 2)) }
  /// Operating system release level (bytes 8-9).
  public var operatingSystemReleaseLevel: UInt16 { UInt16(field(8, 2)) }
  /// IC fabrication date (bytes 10-11).
  public var icFabricationDate: UInt16 { UInt16(field(10, 2)) }
  /// IC serial number (bytes 12-15).
  public var icSerialNumber: UInt32 { field(12, 4) }
  /// IC batch identifier (bytes 16-17).
  public var icBatchIdentifier: UInt16 { UInt16(field(16, 2)) }
  /// IC module fabricator (bytes 18-19).
  public var icModuleFabricator: UInt16 { UInt16(field(18, 2)) }
  /// IC module packaging date (bytes 20-21).
  public var icModulePackagingDate: UInt16 { UInt16(field(20, 2)) }
  /// ICC manufacturer (bytes 22-23).
  public var iccManufacturer: UInt16 { UInt16(field(22, 2)) }
  /// IC embedding date (bytes 24-25).
  public var icEmbeddingDate: UInt16 { UInt16(field(24, 2)) }
  /// IC pre-personalizer (bytes 26-27).
  public var icPrePersonalizer: UInt16 { UInt16(field(26, 2)) }
  /// IC pre-personalization equipment date (bytes 28-29).
  public var icPrePersonalizationDate: UInt16 { UInt16(field(28, 2)) }
  /// IC pre-personalization equipment identifier (bytes 30-33).
  public var icPrePersonalizationEquipment: UInt32 { field(30, 4) }
  /// IC personalizer (bytes 34-35).
  public var icPersonalizer: UInt16 { UInt16(field(34, 2)) }
  /// IC personalization date (bytes 36-37).
  public var icPersonalizationDate: UInt16 { UInt16(field(36, 2)) }
  /// IC personalization equipment identifier (bytes 38-41).
  public var icPersonalizationEquipment: UInt32 { field(38, 4) }
}
