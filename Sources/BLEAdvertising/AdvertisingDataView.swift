// SPDX-License-Identifier: Apache-2.0
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
  /// Absolute offset of the Length octet lenient decoding stopped at (the one rule it
  /// accepts: a structure running past the end); -1 when the input broke no rule.
  let truncationOffset: Int
  /// Where the single-valued fields stand, noted while validating.
  let fields: Fields

  /// The indexes (into `bytes`) of the Length octets of the structures the single-valued
  /// accessors read; -1 for none.
  struct Fields {
    var flags = -1
    var txPowerLevel = -1
    var appearance = -1
    var completeName = -1
    var shortenedName = -1

    /// Notes the structure of AD `type` and Length `length` whose Length octet is at `index`:
    /// the last Flags, the last well-formed TX Power Level and Appearance, the last name of
    /// each kind (last wins, as BlueZ's and Android's parsers do; see
    /// ``AdvertisingDataView/duplicateStructures``).
    mutating func note(type: UInt8, length: Int, at index: Int) {
      switch type {
      case ADType.flags.rawValue: flags = index
      case ADType.txPowerLevel.rawValue where length == 2: txPowerLevel = index
      case ADType.appearance.rawValue where length == 3: appearance = index
      case ADType.completeLocalName.rawValue: completeName = index
      case ADType.shortenedLocalName.rawValue: shortenedName = index
      default: break
      }
    }
  }

  /// The structure whose Length octet is at `index` (an index noted while validating).
  @_lifetime(copy self)
  func structure(at index: Int) -> ADStructureView? {
    guard index >= 0, let length = bytes.byte(at: index), let type = bytes.byte(at: index &+ 1),
      index &+ 1 &+ Int(length) <= bytes.byteCount
    else { return nil }
    return ADStructureView(
      type: ADType(rawValue: type), data: bytes.extracting((index &+ 2)..<(index &+ 1 &+ Int(length))),
      offset: baseOffset &+ index)
  }

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
    // One pass: check every Length octet and note where the single-valued fields a
    // scanner reads stand, so their accessors need no further walk.
    var fields = Fields()
    var index = 0
    var count = 0
    let total = bytes.byteCount
    var end = total
    var truncationOffset = -1
    while index < total {
      let length = Int(bytes.byte(at: index) ?? 0)
      if length == 0 {
        index &+= 1
        continue
      }
      // The structure needs its Length octet plus `length` octets.
      guard length < total &- index else {
        let at = baseOffset &+ index
        guard options.isLenient else {
          throw BLEAdvertisingError(.structureLengthExceedsInput, offset: at)
        }
        truncationOffset = at
        end = index
        break
      }
      fields.note(type: bytes.byte(at: index &+ 1) ?? 0, length: length, at: index)
      index &+= 1 &+ length
      count &+= 1
    }
    self.bytes = bytes.extracting(0..<end)
    self.baseOffset = baseOffset
    self.structureCount = count
    self.truncationOffset = truncationOffset
    self.fields = fields
  }

  /// Validates the bytes of a `Span<UInt8>`.
  @_lifetime(copy bytes)
  public init(
    validating bytes: Span<UInt8>, baseOffset: Int = 0, options: BLEAdvertisingOptions = .strict
  ) throws(BLEAdvertisingError) {
    try self.init(validating: bytes.bytes, baseOffset: baseOffset, options: options)
  }

  /// The rules the input broke that lenient decoding accepted; always empty in strict
  /// mode. Lenient decoding accepts one rule (a Length octet running past the end stops
  /// decoding there), so this holds at most one warning; the view stores its offset only.
  public var warnings: [BLEAdvertisingWarning] {
    truncationOffset < 0
      ? [] : [BLEAdvertisingWarning(.structureLengthExceedsInput, offset: truncationOffset)]
  }

  /// Checks and iterates the AD structures of unvalidated `bytes` in one pass (strict):
  /// for a scanner that reads every structure once, this does the work of
  /// `init(validating:)` and `structures` together.
  ///
  /// ```swift
  /// var it = AdvertisingDataView.checkedStructures(bytes.span.bytes)
  /// while let s = try it.next() { _ = s.type }
  /// ```
  @_lifetime(copy bytes)
  @inlinable
  public static func checkedStructures(_ bytes: RawSpan, baseOffset: Int = 0) -> CheckedADStructureIterator {
    CheckedADStructureIterator(bytes, baseOffset: baseOffset)
  }

  /// The AD structures in order, as views (padding skipped).
  public var structures: ADStructureIterator {
    @_lifetime(copy self)
    @inlinable get { ADStructureIterator(bytes, baseOffset: baseOffset) }
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

  /// The AD types that Core Specification Supplement Part A allows once per block: Flags
  /// (§1.3), Shortened and Complete Local Name (§1.2), TX Power Level (§1.5), Appearance
  /// (§1.12).
  public static let singleValuedTypes: [ADType] = [
    .flags, .shortenedLocalName, .completeLocalName, .txPowerLevel, .appearance,
  ]

  /// Every repeated single-valued structure (``singleValuedTypes``), in input order, as
  /// ``BLEAdvertisingError/Code/duplicateSingleValuedType`` at its Length octet; the first
  /// of each type is not listed. The policy: such data still decodes in both modes (field
  /// devices send it; rejecting the whole advertisement would hide the rest), the last
  /// structure of each type wins, as BlueZ's and Android's parsers do, and this list says
  /// what was overridden. Walks the structures again; allocates only when there is one.
  public var duplicateStructures: [BLEAdvertisingWarning] {
    var seen: UInt8 = 0
    var result: [BLEAdvertisingWarning] = []
    var it = structures
    while let s = it.next() {
      guard let bit = Self.singleValuedTypes.firstIndex(of: s.type) else { continue }
      let mask = UInt8(1) << UInt8(bit)
      if seen & mask != 0 {
        result.append(BLEAdvertisingWarning(.duplicateSingleValuedType, offset: s.offset))
      }
      seen |= mask
    }
    return result
  }

  /// The Flags value of the last Flags structure, if any.
  public var flags: ADFlags? { structure(at: fields.flags)?.flags }

  /// The TX Power Level of the last structure of that type, if any and well-formed.
  public var txPowerLevel: Int8? {
    guard let structure = structure(at: fields.txPowerLevel) else { return nil }
    return try? structure.txPowerLevel()
  }

  /// The Appearance of the last structure of that type, if any and well-formed.
  public var appearance: UInt16? {
    guard let structure = structure(at: fields.appearance) else { return nil }
    return try? structure.appearance()
  }

  /// The complete local name when one is present, else the shortened one (the JSON
  /// contract's `localName`); the last of each kind wins.
  @_lifetime(copy self)
  public func localName() -> LocalNameView? {
    if let complete = structure(at: fields.completeName) { return complete.localName() }
    return structure(at: fields.shortenedName)?.localName()
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
  @usableFromInline let bytes: RawSpan
  @usableFromInline let baseOffset: Int
  @usableFromInline var index = 0

  @_lifetime(copy bytes)
  @usableFromInline init(_ bytes: RawSpan, baseOffset: Int) {
    self.bytes = bytes
    self.baseOffset = baseOffset
  }

  /// The next structure, or `nil` after the last (zero-length padding is skipped).
  /// Inlinable: a scanner's loop compiles to plain index arithmetic.
  @_lifetime(copy self)
  @inlinable public mutating func next() -> ADStructureView? {
    let total = bytes.byteCount
    while let length = bytes.byte(at: index) {
      let start = index
      if length == 0 {
        index &+= 1
        continue
      }
      // The Length octet, the type octet, then `length - 1` data octets, all inside.
      let end = start &+ 1 &+ Int(length)
      guard end <= total, let type = bytes.byte(at: start &+ 1) else {
        index = total
        return nil
      }
      index = end
      return ADStructureView(
        type: ADType(rawValue: type), data: bytes.extracting((start &+ 2)..<end), offset: baseOffset &+ start)
    }
    return nil
  }
}

/// Iterates the AD structures of unvalidated bytes, checking each Length octet as it goes
/// (Core Vol 3 Part C §11, strict): `next()` throws at the first structure that runs past
/// the end, so a loop that reaches `nil` has validated the whole input. No allocation.
public struct CheckedADStructureIterator: ~Escapable {
  @usableFromInline let bytes: RawSpan
  @usableFromInline let baseOffset: Int
  @usableFromInline var index = 0

  @_lifetime(copy bytes)
  @usableFromInline init(_ bytes: RawSpan, baseOffset: Int) {
    self.bytes = bytes
    self.baseOffset = baseOffset
  }

  /// The next structure, or `nil` after the last (zero-length padding is skipped).
  ///
  /// - Throws: ``BLEAdvertisingError/Code/structureLengthExceedsInput`` at the Length
  ///   octet of a structure that runs past the end; the iterator then stays at the end.
  @_lifetime(copy self)
  @inlinable public mutating func next() throws(BLEAdvertisingError) -> ADStructureView? {
    let total = bytes.byteCount
    while index < total {
      let start = index
      // Invariant: 0 <= start < total.
      let length = Int(unsafe bytes.unsafeLoad(fromUncheckedByteOffset: start, as: UInt8.self))
      if length == 0 {
        index = start &+ 1
        continue
      }
      // The Length octet and `length` more octets (the type and the data) must fit.
      guard length < total &- start else {
        index = total
        throw BLEAdvertisingError(.structureLengthExceedsInput, offset: baseOffset &+ start)
      }
      let end = start &+ 1 &+ length
      index = end
      // Invariant: start + 1 < end <= total.
      let type = unsafe bytes.unsafeLoad(fromUncheckedByteOffset: start &+ 1, as: UInt8.self)
      return ADStructureView(
        type: ADType(rawValue: type),
        data: unsafe bytes.extracting(unchecked: Range(uncheckedBounds: (start &+ 2, end))),
        offset: baseOffset &+ start)
    }
    return nil
  }
}
