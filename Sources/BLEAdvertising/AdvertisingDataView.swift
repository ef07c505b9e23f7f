import NFCWire

/// Validated advertising data, scan response data or EIR data over the caller's bytes: a
/// sequence of AD structures (Core Vol 3 Part C §8 and §11, Core Specification
/// Supplement Part A §1).
///
/// `init(validating:)` checks every Length octet once, without allocating; the structures
/// are then iterated as views into the same bytes. A Length octet of 0 is padding (the
/// early termination of §11) and is skipped. The same parser reads the EIR and LE AD data
/// inside NFC Bluetooth OOB records: pass `baseOffset` so offsets stay absolute.
///
/// ```swift
/// let adv = try AdvertisingDataView(validating: bytes.span.bytes)
/// var it = adv.structures
/// while let s = it.next() { _ = (s.type, s.data.byteCount, s.offset) }
/// ```
public struct AdvertisingDataView: ~Escapable {
  /// The validated bytes: in lenient mode, up to the last complete structure.
  public let bytes: RawSpan
  /// Absolute offset of `bytes`' first byte in the caller's input.
  public let baseOffset: Int
  /// The number of AD structures (padding not counted).
  public let structureCount: Int
  /// The rules the input broke that lenient decoding accepted; always empty in strict
  /// mode. Empty arrays do not allocate.
  public let warnings: [BLEAdvertisingWarning]

  /// Validates `bytes` as a sequence of AD structures.
  ///
  /// - Parameters:
  ///   - bytes: the AD structures (any length: 31 legacy, up to 1650 extended, EIR...).
  ///   - baseOffset: where `bytes` starts in the caller's input.
  ///   - options: strict, or lenient (a length past the end stops there with a warning).
  /// - Throws: ``BLEAdvertisingError/Code/structureLengthExceedsInput`` at the Length
  ///   octet that runs past the end (strict mode).
  @_lifetime(copy bytes)
  public init(
    validating bytes: RawSpan, baseOffset: Int = 0, options: BLEAdvertisingOptions = .strict
  ) throws(BLEAdvertisingError) {
    var reader = ByteReader(bytes, baseOffset: baseOffset)
    var count = 0
    var end = bytes.byteCount
    var warnings: [BLEAdvertisingWarning] = []
    while let length = reader.readUInt8() {
      if length == 0 { continue }
      guard reader.skip(Int(length)) else {
        let at = reader.offset &- 1
        guard options.isLenient else {
          throw BLEAdvertisingError(.structureLengthExceedsInput, offset: at)
        }
        warnings.append(BLEAdvertisingWarning(.structureLengthExceedsInput, offset: at))
        end = reader.index &- 1
        break
      }
      count &+= 1
    }
    self.bytes = bytes.extracting(0..<end)
    self.baseOffset = baseOffset
    self.structureCount = count
    self.warnings = warnings
  }

  /// Validates the bytes of a `Span<UInt8>`.
  @_lifetime(copy bytes)
  public init(
    validating bytes: Span<UInt8>, baseOffset: Int = 0, options: BLEAdvertisingOptions = .strict
  ) throws(BLEAdvertisingError) {
    try self.init(validating: bytes.bytes, baseOffset: baseOffset, options: options)
  }

  /// The AD structures in order, as views (padding skipped).
  public var structures: ADStructureIterator {
    @_lifetime(copy self)
    get { ADStructureIterator(bytes, baseOffset: baseOffset) }
  }

  /// The first structure of `type`, if any.
  @_lifetime(copy self)
  public func first(_ type: ADType) -> ADStructureView? {
    var it = structures
    while let s = it.next() {
      if s.type == type { return s }
    }
    return nil
  }

  /// The last structure of `type`, if any (platforms keep the last value).
  @_lifetime(copy self)
  public func last(_ type: ADType) -> ADStructureView? {
    var it = structures
    var found: ADStructureView? = nil
    while let s = it.next() {
      if s.type == type { found = s }
    }
    return found
  }

  /// The Flags value of the first Flags structure, if any.
  public var flags: ADFlags? { first(.flags)?.flags }

  /// The TX Power Level of the last structure of that type, if any and well-formed.
  public var txPowerLevel: Int8? {
    var it = structures
    var value: Int8? = nil
    while let s = it.next() {
      if let v = try? s.txPowerLevel() { value = v }
    }
    return value
  }

  /// The Appearance of the last structure of that type, if any and well-formed.
  public var appearance: UInt16? {
    var it = structures
    var value: UInt16? = nil
    while let s = it.next() {
      if let v = try? s.appearance() { value = v }
    }
    return value
  }

  /// The complete local name when one is present, else the shortened one (the JSON
  /// contract's `localName`); the last of each kind wins.
  @_lifetime(copy self)
  public func localName() -> LocalNameView? {
    var it = structures
    var shortened: LocalNameView? = nil
    var complete: LocalNameView? = nil
    while let s = it.next() {
      guard let name = s.localName() else { continue }
      if name.isComplete { complete = name } else { shortened = name }
    }
    if let complete { return complete }
    return shortened
  }

  /// The data of the last Manufacturer Specific Data structure with `company`, if any.
  @_lifetime(copy self)
  public func manufacturerData(for company: CompanyIdentifier) -> ManufacturerDataView? {
    var it = structures
    var found: ManufacturerDataView? = nil
    while let s = it.next() {
      if let m = try? s.manufacturerData(), m.companyID == company { found = m }
    }
    return found
  }

  /// The last Service Data structure for `uuid` (any width), if any.
  @_lifetime(copy self)
  public func serviceData(for uuid: BluetoothUUID) -> ServiceDataView? {
    var it = structures
    var found: ServiceDataView? = nil
    while let s = it.next() {
      if let d = try? s.serviceData(), d.uuid == uuid { found = d }
    }
    return found
  }

  /// Whether any service class UUID list contains `uuid`.
  public func containsServiceUUID(_ uuid: BluetoothUUID) -> Bool {
    var it = structures
    while let s = it.next() {
      guard s.type.isServiceUUIDList, let list = try? s.uuidList() else { continue }
      for i in 0..<list.count where list.uuid(at: i) == uuid { return true }
    }
    return false
  }
}

/// Iterates the AD structures of validated advertising data, lazily and without
/// allocating.
public struct ADStructureIterator: ~Escapable {
  var reader: ByteReader

  @_lifetime(copy bytes)
  init(_ bytes: RawSpan, baseOffset: Int) {
    self.reader = ByteReader(bytes, baseOffset: baseOffset)
  }

  /// The next structure, or `nil` after the last (zero-length padding is skipped).
  @_lifetime(copy self)
  public mutating func next() -> ADStructureView? {
    while let length = reader.readUInt8() {
      if length == 0 { continue }
      let offset = reader.offset &- 1
      guard let type = reader.readUInt8(), let data = reader.readSpan(count: Int(length) &- 1)
      else { return nil }
      return ADStructureView(type: ADType(rawValue: type), data: data, offset: offset)
    }
    return nil
  }
}
