// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// Owned advertising data: an ordered list of AD structures, with the values scanners
/// read from it and an encoder with size budgets (Core Vol 3 Part C §11, Core
/// Specification Supplement Part A).
///
/// The typed properties follow the JSON contract's `adv` section: the complete local name
/// wins over the shortened one, service UUIDs keep order and duplicates, and a repeated
/// service-data UUID or company identifier keeps the last value, as platforms do.
/// Malformed typed structures (a TX Power Level of two octets, ...) are skipped by these
/// properties; ``ADStructure/value()`` reports them.
public struct AdvertisingData: Sendable, Hashable {
  /// The structures, in order (padding is not kept).
  public var structures: [ADStructure]

  /// Creates advertising data.
  public init(structures: [ADStructure] = []) { self.structures = structures }

  /// Creates advertising data holding `values` in order.
  public init(values: [ADValue]) { self.structures = values.map { $0.structure } }

  /// Copies a validated view.
  public init(_ view: borrowing AdvertisingDataView) {
    var structures: [ADStructure] = []
    structures.reserveCapacity(view.structureCount)
    var it = view.structures
    while let s = it.next() { structures.append(ADStructure(s)) }
    self.structures = structures
  }

  /// Decodes owned advertising data.
  ///
  /// - Throws: as ``AdvertisingDataView/init(validating:baseOffset:options:)-(RawSpan,_,_)``.
  public init(parsing bytes: RawSpan, options: BLEAdvertisingOptions = .strict)
    throws(BLEAdvertisingError)
  {
    let view = try AdvertisingDataView(validating: bytes, options: options)
    self.init(view)
  }

  /// Decodes owned advertising data from an array.
  public init(parsing bytes: [UInt8], options: BLEAdvertisingOptions = .strict)
    throws(BLEAdvertisingError)
  {
    try self.init(parsing: bytes.span.bytes, options: options)
  }

  // MARK: Values

  /// The typed values of the well-formed structures, in order.
  public var values: [ADValue] { structures.compactMap { try? $0.value() } }

  /// The last Flags value (CSS Part A §1.3: once per block; the last wins, as on the
  /// platforms).
  public var flags: ADFlags? {
    for s in structures.reversed() where s.type == .flags { return ADFlags(rawValue: s.data.first ?? 0) }
    return nil
  }

  /// The complete local name when present, else the shortened one; the last of each kind.
  public var localName: String? { localNameAndCompleteness?.name }

  /// `true` when ``localName`` is a Complete Local Name, `false` when shortened, `nil`
  /// when there is no name.
  public var isLocalNameComplete: Bool? { localNameAndCompleteness?.complete }

  private var localNameAndCompleteness: (name: String, complete: Bool)? {
    var complete: String? = nil
    var shortened: String? = nil
    for s in structures {
      if s.type == .completeLocalName { complete = String(decoding: s.data, as: UTF8.self) }
      if s.type == .shortenedLocalName { shortened = String(decoding: s.data, as: UTF8.self) }
    }
    if let complete { return (complete, true) }
    if let shortened { return (shortened, false) }
    return nil
  }

  /// The last well-formed TX Power Level in dBm (CSS Part A §1.5).
  public var txPowerLevel: Int8? {
    var value: Int8? = nil
    for s in structures where s.type == .txPowerLevel && s.data.count == 1 {
      value = Int8(bitPattern: s.data[0])
    }
    return value
  }

  /// The last well-formed Appearance (CSS Part A §1.12).
  public var appearance: UInt16? {
    var value: UInt16? = nil
    for s in structures where s.type == .appearance && s.data.count == 2 {
      value = UInt16(s.data[0]) | UInt16(s.data[1]) << 8
    }
    return value
  }

  /// Every service class UUID of every complete and incomplete list, all widths, in the
  /// order they appear, duplicates kept (CSS Part A §1.1).
  public var serviceUUIDs: [BluetoothUUID] {
    var result: [BluetoothUUID] = []
    for s in structures where s.type.isServiceUUIDList {
      if case .serviceUUIDs(let uuids, _)? = try? s.value() { result += uuids }
    }
    return result
  }

  /// Service data by UUID (CSS Part A §1.11): one entry per UUID in order of first
  /// appearance, holding the last value.
  public var serviceData: [ServiceData] {
    var result: [ServiceData] = []
    for s in structures where s.type.serviceDataUUIDWidth != nil {
      guard case .serviceData(let uuid, let data)? = try? s.value() else { continue }
      if let i = result.firstIndex(where: { $0.uuid == uuid }) {
        result[i].data = data
      } else {
        result.append(ServiceData(uuid: uuid, data: data))
      }
    }
    return result
  }

  /// Manufacturer data by company (CSS Part A §1.4): one entry per company identifier in
  /// order of first appearance, holding the last value.
  public var manufacturerData: [ManufacturerData] {
    var result: [ManufacturerData] = []
    for s in structures where s.type == .manufacturerSpecificData {
      guard case .manufacturerData(let company, let data)? = try? s.value() else { continue }
      if let i = result.firstIndex(where: { $0.companyID == company }) {
        result[i].data = data
      } else {
        result.append(ManufacturerData(companyID: company, data: data))
      }
    }
    return result
  }

  /// The LE Bluetooth Device Address (CSS Part A §1.16) and whether it is random, from
  /// the last well-formed structure: the `address` and `addressType` of an NFC LE OOB
  /// record.
  public var leDeviceAddress: (address: BluetoothAddress, isRandom: Bool)? {
    var value: (address: BluetoothAddress, isRandom: Bool)? = nil
    for s in structures where s.type == .leDeviceAddress {
      if case .leDeviceAddress(let address, let random)? = try? s.value() {
        value = (address, random)
      }
    }
    return value
  }

  /// The LE Role (CSS Part A §1.17) of the last well-formed structure, if any.
  public var leRole: LERole? {
    var value: LERole? = nil
    for s in structures where s.type == .leRole && s.data.count == 1 {
      value = LERole(rawValue: s.data[0])
    }
    return value
  }

  /// The service data for `uuid` (last value), if any.
  public func serviceData(for uuid: BluetoothUUID) -> [UInt8]? {
    serviceData.first(where: { $0.uuid == uuid })?.data
  }

  /// The manufacturer data for `company` (last value), if any.
  public func manufacturerData(for company: CompanyIdentifier) -> [UInt8]? {
    manufacturerData.first(where: { $0.companyID == company })?.data
  }

  /// Advertising data followed by scan response data, as a scanner sees one device
  /// (Core Vol 3 Part C §11): values in the scan response win where last-wins applies.
  public func merging(scanResponse: AdvertisingData) -> AdvertisingData {
    AdvertisingData(structures: structures + scanResponse.structures)
  }

  // MARK: Encoding

  /// The exact number of octets ``encode(into:budget:)`` writes.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/structureTooLong`` or
  ///   ``BLEAdvertisingError/Code/exceedsBudget``, with the output offset of the
  ///   structure that does not fit.
  public func encodedCount(budget: AdvertisingBudget = .chained) throws(BLEAdvertisingError)
    -> Int
  {
    var total = 0
    for s in structures {
      guard s.data.count <= ADStructure.maximumDataCount else {
        throw BLEAdvertisingError(.structureTooLong, offset: total)
      }
      let next = total &+ s.encodedCount
      guard next <= budget.maximumSize else {
        throw BLEAdvertisingError(.exceedsBudget, offset: total)
      }
      total = next
    }
    return total
  }

  /// Writes the structures in order, without padding.
  ///
  /// - Throws: the errors of ``encodedCount(budget:)``, and
  ///   ``BLEAdvertisingError/Code/bufferTooSmall`` (nothing written).
  public func encode(
    into output: inout OutputSpan<UInt8>, budget: AdvertisingBudget = .chained
  ) throws(BLEAdvertisingError) {
    let count = try encodedCount(budget: budget)
    guard output.freeCapacity >= count else {
      throw BLEAdvertisingError(.bufferTooSmall, offset: output.count)
    }
    for s in structures { try s.encode(into: &output) }
  }

  /// The encoded structures as a new array.
  public func encodedBytes(budget: AdvertisingBudget = .chained) throws(BLEAdvertisingError)
    -> [UInt8]
  {
    let count = try encodedCount(budget: budget)
    return try encodeToArray(count: count) {
      (output: inout OutputSpan<UInt8>) throws(BLEAdvertisingError) in
      try encode(into: &output, budget: budget)
    }
  }

  /// The encoded structures cut into consecutive fragments of at most `fragmentSize`
  /// octets, as chained extended advertising sends them (one per AUX_ADV_IND /
  /// AUX_CHAIN_IND PDU, or per HCI LE Set Extended Advertising Data operation); a
  /// structure may span two fragments (Core Vol 6 Part B §2.3.4.9). Empty data gives
  /// one empty fragment.
  ///
  /// - Throws: the errors of ``encodedCount(budget:)``, and
  ///   ``BLEAdvertisingError/Code/exceedsBudget`` (offset 0) when `fragmentSize` is not
  ///   in 1...254.
  public func encodedFragments(
    budget: AdvertisingBudget = .chained, fragmentSize: Int = AdvertisingBudget.extended.maximumSize
  ) throws(BLEAdvertisingError) -> [[UInt8]] {
    guard fragmentSize >= 1, fragmentSize <= AdvertisingBudget.extended.maximumSize else {
      throw BLEAdvertisingError(.exceedsBudget, offset: 0)
    }
    let bytes = try encodedBytes(budget: budget)
    var fragments: [[UInt8]] = []
    var start = 0
    repeat {
      let end = min(bytes.count, start + fragmentSize)
      fragments.append(Array(bytes[start..<end]))
      start = end
    } while start < bytes.count
    return fragments
  }

  /// Splits the structures, in order, into advertising data within `advertising` and
  /// the rest into scan response data within `scanResponse` (both legacy by default).
  ///
  /// - Throws: ``BLEAdvertisingError/Code/exceedsBudget`` when the rest does not fit the
  ///   scan response either (offset: in the scan response), or
  ///   ``BLEAdvertisingError/Code/structureTooLong``.
  public func split(
    advertising: AdvertisingBudget = .legacy, scanResponse: AdvertisingBudget = .legacy
  ) throws(BLEAdvertisingError) -> (advertising: AdvertisingData, scanResponse: AdvertisingData) {
    var first = AdvertisingData()
    var second = AdvertisingData()
    var used = 0
    var index = 0
    while index < structures.count {
      let s = structures[index]
      guard s.data.count <= ADStructure.maximumDataCount else {
        throw BLEAdvertisingError(.structureTooLong, offset: used)
      }
      guard used &+ s.encodedCount <= advertising.maximumSize else { break }
      used &+= s.encodedCount
      first.structures.append(s)
      index &+= 1
    }
    second.structures = Array(structures[index...])
    _ = try second.encodedCount(budget: scanResponse)
    return (first, second)
  }
}
