import NFCWire

/// An owned AD structure: an AD type and its data (Core Vol 3 Part C §11).
public struct ADStructure: Sendable, Hashable {
  /// The AD type.
  public var type: ADType
  /// The AD data, at most 254 octets to encode.
  public var data: [UInt8]

  /// Creates a structure.
  public init(type: ADType, data: [UInt8]) {
    self.type = type
    self.data = data
  }

  /// Copies a structure view.
  public init(_ view: borrowing ADStructureView) {
    self.type = view.type
    self.data = view.data.copiedBytes()
  }

  /// The structure holding `value`'s encoding.
  public init(_ value: ADValue) { self = value.structure }

  /// The largest AD data: the Length octet (≤ 255) counts the type octet too.
  public static let maximumDataCount = 254

  /// The typed value (Core Specification Supplement Part A §1).
  ///
  /// - Throws: as ``ADValue/init(_:)``, with offsets relative to this structure's Length
  ///   octet (0).
  public func value() throws(BLEAdvertisingError) -> ADValue {
    let view = ADStructureView(type: type, data: data.span.bytes, offset: 0)
    return try ADValue(view)
  }

  /// Octets on the wire: Length, AD type and data.
  public var encodedCount: Int { data.count &+ 2 }

  /// Writes Length, AD type and data.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/structureTooLong`` (data over 254 octets) or
  ///   ``BLEAdvertisingError/Code/bufferTooSmall``, nothing written; the offset is where
  ///   the structure would have started in `output`.
  public func encode(into output: inout OutputSpan<UInt8>) throws(BLEAdvertisingError) {
    guard data.count <= Self.maximumDataCount else {
      throw BLEAdvertisingError(.structureTooLong, offset: output.count)
    }
    guard output.freeCapacity >= encodedCount else {
      throw BLEAdvertisingError(.bufferTooSmall, offset: output.count)
    }
    output.appendByte(UInt8(truncatingIfNeeded: data.count &+ 1))
    output.appendByte(type.rawValue)
    output.appendBytes(data)
  }
}

/// Owned Service Data: a service UUID and its data (CSS Part A §1.11).
public struct ServiceData: Sendable, Hashable {
  /// The service UUID.
  public var uuid: BluetoothUUID
  /// The data after the UUID.
  public var data: [UInt8]
  /// Creates service data.
  public init(uuid: BluetoothUUID, data: [UInt8]) {
    self.uuid = uuid
    self.data = data
  }
}

/// Owned Manufacturer Specific Data: a company identifier and its data (CSS Part A §1.4).
public struct ManufacturerData: Sendable, Hashable {
  /// The company identifier.
  public var companyID: CompanyIdentifier
  /// The data after the company identifier.
  public var data: [UInt8]
  /// Creates manufacturer data.
  public init(companyID: CompanyIdentifier, data: [UInt8]) {
    self.companyID = companyID
    self.data = data
  }
}

/// The most octets of advertising data a PDU (or chain of PDUs) may carry.
public struct AdvertisingBudget: Sendable, Hashable {
  /// The budget in octets.
  public let maximumSize: Int
  /// Creates a budget of `maximumSize` octets.
  public init(maximumSize: Int) { self.maximumSize = maximumSize }

  /// Legacy advertising or scan response data: 31 octets (Core Vol 6 Part B §2.3.1).
  public static let legacy = AdvertisingBudget(maximumSize: 31)
  /// Extended advertising data in one PDU: 254 octets (Core Vol 6 Part B §2.3.4).
  public static let extended = AdvertisingBudget(maximumSize: 254)
  /// Extended advertising data chained over AUX_CHAIN_IND PDUs: 1650 octets
  /// (Core Vol 4 Part E §7.8.54, Vol 6 Part B §2.3.4.9).
  public static let chained = AdvertisingBudget(maximumSize: 1650)
}
