// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// Which Connection Handover record a payload belongs to (Connection Handover 1.5, §6).
public struct HandoverKind: RawRepresentable, Sendable, Hashable {
  /// The well-known type name bytes (`Hr`, `Hs`, `Hm`, `Hi`).
  public let rawValue: [UInt8]
  /// Wraps a type name.
  public init(rawValue: [UInt8]) { self.rawValue = rawValue }
  /// `Hr`: Handover Request (§6.1).
  public static let request = HandoverKind(rawValue: Array("Hr".utf8))
  /// `Hs`: Handover Select (§6.2).
  public static let select = HandoverKind(rawValue: Array("Hs".utf8))
  /// `Hm`: Handover Mediation (Connection Handover 1.4, §6.4).
  public static let mediation = HandoverKind(rawValue: Array("Hm".utf8))
  /// `Hi`: Handover Initiate (Connection Handover 1.4, §6.5).
  public static let initiate = HandoverKind(rawValue: Array("Hi".utf8))
  /// The four kinds.
  public static let all: [HandoverKind] = [.request, .select, .mediation, .initiate]

  /// The JSON contract's `kind`: `handoverRequest`, `handoverSelect`, ...
  public var name: String {
    switch self {
    case .request: return "handoverRequest"
    case .select: return "handoverSelect"
    case .mediation: return "handoverMediation"
    case .initiate: return "handoverInitiate"
    default: return "handover"
    }
  }
}

/// Carrier Power State of an Alternative Carrier (Connection Handover §6.3.2.1).
public struct CarrierPowerState: RawRepresentable, Sendable, Hashable {
  /// The 2-bit value.
  public let rawValue: UInt8
  /// Creates a state from the low two bits of `rawValue`.
  public init(rawValue: UInt8) { self.rawValue = rawValue & 0x03 }
  /// 0: inactive.
  public static let inactive = CarrierPowerState(rawValue: 0)
  /// 1: active.
  public static let active = CarrierPowerState(rawValue: 1)
  /// 2: activating.
  public static let activating = CarrierPowerState(rawValue: 2)
  /// 3: unknown.
  public static let unknown = CarrierPowerState(rawValue: 3)
  /// `inactive`, `active`, `activating` or `unknown`.
  public var name: String { ["inactive", "active", "activating", "unknown"][Int(rawValue)] }
}

/// An Alternative Carrier record payload (`ac`, Connection Handover §6.3.2), as a view.
public struct AlternativeCarrierView: ~Escapable {
  /// The local type `ac`.
  public static let type: [UInt8] = Array("ac".utf8)
  /// The carrier power state.
  public let powerState: CarrierPowerState
  /// The carrier data reference: the id of the carrier configuration record.
  public let dataReference: RawSpan
  /// The number of auxiliary data references.
  public let auxiliaryReferenceCount: Int
  /// The bytes holding the auxiliary references (each a length byte and the reference).
  let auxiliaryBytes: RawSpan
  let auxiliaryOffset: Int

  /// Decodes an `ac` payload.
  ///
  /// - Throws: `alternativeCarrierTruncated` at the field that runs past the payload.
  @_lifetime(copy payload)
  public init(validating payload: RawSpan, baseOffset: Int = 0) throws(NDEFError) {
    var reader = ByteReader(payload, baseOffset: baseOffset)
    guard let cps = reader.readUInt8(), let referenceLength = reader.readUInt8() else {
      throw NDEFError(.alternativeCarrierTruncated, offset: reader.offset)
    }
    let lengthOffset = reader.offset &- 1
    guard let reference = reader.readSpan(count: Int(referenceLength)) else {
      throw NDEFError(.alternativeCarrierTruncated, offset: lengthOffset)
    }
    guard let count = reader.readUInt8() else {
      throw NDEFError(.alternativeCarrierTruncated, offset: reader.offset)
    }
    let auxiliaryStart = reader.index
    let auxiliaryOffset = reader.offset
    for _ in 0..<Int(count) {
      let at = reader.offset
      guard let length = reader.readUInt8(), reader.skip(Int(length)) else {
        throw NDEFError(.alternativeCarrierTruncated, offset: at)
      }
    }
    // Bytes after the references are reserved for future use and ignored (§6.3.2).
    self.powerState = CarrierPowerState(rawValue: cps)
    self.dataReference = reference
    self.auxiliaryReferenceCount = Int(count)
    self.auxiliaryBytes = payload.extracting(auxiliaryStart..<reader.index)
    self.auxiliaryOffset = auxiliaryOffset
  }

  /// The auxiliary data references, in order.
  public var auxiliaryDataReferences: ByteStringIterator {
    @_lifetime(copy self)
    get { ByteStringIterator(auxiliaryBytes, baseOffset: auxiliaryOffset) }
  }
}

/// Iterates length-prefixed byte strings (a length byte, then that many bytes).
public struct ByteStringIterator: ~Escapable {
  var reader: ByteReader

  @_lifetime(copy bytes)
  init(_ bytes: RawSpan, baseOffset: Int) { self.reader = ByteReader(bytes, baseOffset: baseOffset) }

  /// The next string, or `nil`.
  @_lifetime(copy self)
  public mutating func next() -> RawSpan? {
    guard let length = reader.readUInt8() else { return nil }
    return reader.readSpan(count: Int(length))
  }
}

/// A Handover Request, Select, Mediation or Initiate payload (Connection Handover 1.5 §6):
/// a version byte, then (unless the payload ends there) a nested NDEF message of
/// Alternative Carrier, Collision Resolution and Error records.
public struct HandoverView: ~Escapable {
  /// Which record this is.
  public let kind: HandoverKind
  /// Major version (high nibble of the version byte).
  public let majorVersion: UInt8
  /// Minor version (low nibble).
  public let minorVersion: UInt8
  /// The nested message, or `nil` when the payload is only the version byte.
  public let message: NDEFMessageView?
  /// The number of Alternative Carrier records that decode (as ``alternativeCarriers``
  /// gives them; malformed ones are listed by ``malformedRecords(depth:)``).
  public let alternativeCarrierCount: Int
  /// The Collision Resolution random number (`cr`, Handover Request).
  public let collisionResolution: UInt16?
  /// The Error record's reason (`err`, Handover Select), if any.
  public let errorReason: UInt8?
  /// The Error record's data.
  public let errorData: UInt32?
  /// Lenient-mode warnings.
  public let warnings: [NDEFWarning]
  /// The nested message's bytes (empty when there is none).
  let nestedBytes: RawSpan
  let nestedOffset: Int
  let lenient: Bool

  /// The local type of the Collision Resolution record.
  public static let collisionResolutionType: [UInt8] = Array("cr".utf8)
  /// The local type of the Error record.
  public static let errorType: [UInt8] = Array("err".utf8)

  /// Decodes a handover payload of the given kind.
  ///
  /// The nested message's framing and the handover rules (§6) are checked here; an `ac`
  /// record whose payload is malformed (§6.3.2) does not fail the handover record: it is
  /// listed by ``malformedRecords(depth:)`` and the other carriers still decode. So is a bad
  /// local `cr` or `err` record (§6.3.3, §6.3.4; see ``localRecordError(_:options:)``): its
  /// value (``collisionResolution``, ``errorReason``) stays nil; in lenient mode it is a warning.
  ///
  /// - Throws: `emptyPayload`, `handoverUnsupportedVersion`, `nestingTooDeep`, the nested
  ///   message's framing errors, `handoverMissingAlternativeCarrier` (no `ac` record at all) and
  ///   `handoverMissingCollisionResolution` (Handover Request, version 1.2 and later, no `cr`
  ///   record at all: a malformed one is present).
  @_lifetime(copy payload)
  public init(
    validating payload: RawSpan, kind: HandoverKind, baseOffset: Int = 0,
    options: NDEFDecodingOptions = .strict, depth: Int = 0
  ) throws(NDEFError) {
    var sink = WarningSink(lenient: options.isLenient)
    guard let version = payload.byte(at: 0) else { throw NDEFError(.emptyPayload, offset: baseOffset) }
    let major = version >> 4
    let minor = version & 0x0F
    if major != 1 { try sink.report(.handoverUnsupportedVersion, at: baseOffset) }
    guard depth < options.maximumNestingDepth else { throw NDEFError(.nestingTooDeep, offset: baseOffset) }
    var message: NDEFMessageView? = nil
    var carriers = 0
    var carrierRecords = 0
    var collision: UInt16? = nil
    var collisionRecords = 0
    var errorReason: UInt8? = nil
    var errorData: UInt32? = nil
    var nestedLength = 0
    if payload.byteCount > 1 {
      let nested = try NDEFMessageView(
        validating: payload.extracting(1..<payload.byteCount), baseOffset: baseOffset &+ 1, options: options)
      sink.warnings += nested.warnings
      nestedLength = nested.bytes.byteCount
      var records = nested.records
      while let record = records.next() {
        guard record.typeNameFormat == .wellKnown, !record.isChunked else { continue }
        if record.hasType(.wellKnown, AlternativeCarrierView.type) {
          // A malformed `ac` is a nested record's error (``malformedRecords(depth:)``), not
          // the handover record's: it is present but not counted.
          carrierRecords += 1
          if (try? AlternativeCarrierView(validating: record.payload, baseOffset: record.payloadOffset))
            != nil
          {
            carriers += 1
          }
        } else if record.hasType(.wellKnown, Self.collisionResolutionType) {
          // A `cr` that breaks its rule is present (no `handoverMissingCollisionResolution`);
          // strict: listed by ``malformedRecords(depth:)``, lenient: a warning. Its value stays nil.
          collisionRecords += 1
          if let bad = Self.localRecordError(record, options: .strict) {
            if options.isLenient {
              sink.warnings.append(NDEFWarning(bad.error.code, offset: bad.error.offset))
            }
            continue
          }
          var reader = ByteReader(record.payload, baseOffset: record.payloadOffset)
          collision = reader.readUInt16BE()
        } else if record.hasType(.wellKnown, Self.errorType) {
          // A bad `err`: strict, listed by ``malformedRecords(depth:)``; lenient, a warning.
          if let bad = Self.localRecordError(record, options: .strict) {
            if options.isLenient {
              sink.warnings.append(NDEFWarning(bad.error.code, offset: bad.error.offset))
            }
            continue
          }
          var reader = ByteReader(record.payload, baseOffset: record.payloadOffset)
          errorReason = reader.readUInt8()
          errorData = reader.readBigEndian(UInt32.self, width: reader.remaining)
        }
      }
      message = nested
    }
    if kind == .request {
      if carrierRecords == 0 { try sink.report(.handoverMissingAlternativeCarrier, at: baseOffset) }
      if collisionRecords == 0 && major == 1 && minor >= 2 {
        try sink.report(.handoverMissingCollisionResolution, at: baseOffset)
      }
    }
    self.kind = kind
    self.majorVersion = major
    self.minorVersion = minor
    self.message = message
    self.alternativeCarrierCount = carriers
    self.collisionResolution = collision
    self.errorReason = errorReason
    self.errorData = errorData
    self.warnings = sink.warnings
    // The nested message as validated above (lenient trailing bytes excluded).
    self.nestedBytes = payload.extracting(Swift.min(1, payload.byteCount)..<(1 &+ nestedLength))
    self.nestedOffset = baseOffset &+ 1
    self.lenient = options.isLenient
  }

  /// The handover kind of a record (TNF Well Known, type `Hr`/`Hs`/`Hm`/`Hi`), or `nil`.
  public static func kind(of record: borrowing NDEFRecordView) -> HandoverKind? {
    guard record.typeNameFormat == .wellKnown else { return nil }
    for kind in HandoverKind.all where record.type.elementsEqual(kind.rawValue) { return kind }
    return nil
  }

  /// The nested records whose payload breaks their record type (an `ac` whose reference
  /// runs past its payload, ...), with their index and typed error; `depth` is the handover
  /// record's own depth. In strict mode a handover record with any is not valid.
  ///
  /// The local `cr` and `err` records (local names resolve only inside the handover record,
  /// NFC Forum RTD 1.0 §2.3) are listed here too, with the kinds
  /// ``RecordKind/collisionResolution`` and ``RecordKind/handoverError``, in record order
  /// with the others.
  public func malformedRecords(depth: Int = 0) -> [NestedMalformedRecord] {
    guard let message else { return [] }
    var result = message.malformedRecords(depth: depth &+ 1)
    var records = message.records
    var index = 0
    while let record = records.next() {
      if let malformed = Self.localRecordError(record, options: message.options) {
        let at = result.firstIndex(where: { $0.index > index }) ?? result.endIndex
        result.insert(NestedMalformedRecord(index: index, malformed: malformed), at: at)
      }
      index += 1
    }
    return result
  }

  /// The typed error of a handover local record whose payload breaks its rule: `cr` not
  /// 2 bytes (the random number, Connection Handover 1.5 §6.3.3,
  /// `collisionResolutionInvalidLength` at the payload), `err` whose reason is not 0x01...0x03
  /// or whose data is not the reason's width (one byte for 0x01 and 0x03, four for 0x02,
  /// §6.3.4, `handoverErrorInvalid` at the payload); nil for a valid one or any other record,
  /// and nil in lenient mode (where the handover record reports these as warnings).
  public static func localRecordError(
    _ record: borrowing NDEFRecordView, options: NDEFDecodingOptions = .strict
  ) -> MalformedRecord? {
    guard !options.isLenient, record.typeNameFormat == .wellKnown, !record.isChunked else { return nil }
    if record.hasType(.wellKnown, collisionResolutionType) {
      guard record.payload.byteCount == 2 else {
        return MalformedRecord(
          recordType: .collisionResolution,
          error: NDEFError(.collisionResolutionInvalidLength, offset: record.payloadOffset))
      }
    } else if record.hasType(.wellKnown, errorType) {
      // §6.3.4 table: 0x01 and 0x03 carry one byte, 0x02 four.
      let width: Int
      switch record.payload.byte(at: 0) {
      case 0x01, 0x03: width = 1
      case 0x02: width = 4
      default: width = 0
      }
      guard width > 0, record.payload.byteCount == 1 &+ width else {
        return MalformedRecord(
          recordType: .handoverError, error: NDEFError(.handoverErrorInvalid, offset: record.payloadOffset))
      }
    }
    return nil
  }

  /// The version as text, e.g. `1.2`.
  public var version: String { "\(majorVersion).\(minorVersion)" }

  /// The Alternative Carrier records, in order.
  public var alternativeCarriers: AlternativeCarrierIterator {
    @_lifetime(copy self)
    get {
      AlternativeCarrierIterator(
        records: NDEFRecordIterator(nestedBytes, baseOffset: nestedOffset, lenient: lenient))
    }
  }
}

/// Iterates the Alternative Carrier records of a handover message.
public struct AlternativeCarrierIterator: ~Escapable {
  var records: NDEFRecordIterator

  @_lifetime(copy records)
  init(records: NDEFRecordIterator) { self.records = records }

  /// The next Alternative Carrier, or `nil`.
  @_lifetime(copy self)
  public mutating func next() -> AlternativeCarrierView? {
    while let record = records.next() {
      if record.hasType(.wellKnown, AlternativeCarrierView.type), !record.isChunked,
        let carrier = try? AlternativeCarrierView(
          validating: record.payload, baseOffset: record.payloadOffset)
      {
        return carrier
      }
    }
    return nil
  }
}

extension NDEFMessageView {
  /// The first record whose id is `id` (Connection Handover §4: carrier data references
  /// name records of the same message by id).
  @_lifetime(copy self)
  public func record(withID id: RawSpan) -> NDEFRecordView? {
    var records = self.records
    while let record = records.next() {
      if record.id.byteCount > 0 && record.id.elementsEqual(id) { return record }
    }
    return nil
  }
}

/// A Handover Carrier record payload (`Hc`, Connection Handover §6.3.5), as a view.
public struct HandoverCarrierView: ~Escapable {
  /// The well-known type `Hc`.
  public static let type: [UInt8] = Array("Hc".utf8)
  /// The Carrier Type Format: a TNF value for the carrier type (bits 2...0).
  public let carrierTypeFormat: TypeNameFormat
  /// The carrier type (e.g. a media type such as `application/vnd.wfa.wsc`).
  public let carrierType: RawSpan
  /// Carrier-specific data.
  public let carrierData: RawSpan

  /// Decodes an `Hc` payload.
  ///
  /// - Throws: `handoverCarrierTruncated`.
  @_lifetime(copy payload)
  public init(validating payload: RawSpan, baseOffset: Int = 0) throws(NDEFError) {
    var reader = ByteReader(payload, baseOffset: baseOffset)
    guard let ctf = reader.readUInt8(), let length = reader.readUInt8() else {
      throw NDEFError(.handoverCarrierTruncated, offset: reader.offset)
    }
    guard let type = reader.readSpan(count: Int(length)) else {
      throw NDEFError(.handoverCarrierTruncated, offset: baseOffset &+ 1)
    }
    self.carrierTypeFormat = TypeNameFormat(rawValue: ctf & 0x07) ?? .reserved
    self.carrierType = type
    self.carrierData = reader.readRemaining()
  }
}

/// An owned Alternative Carrier.
public struct AlternativeCarrier: Sendable, Hashable {
  /// The carrier power state.
  public var powerState: CarrierPowerState
  /// The id of the carrier configuration record.
  public var dataReference: [UInt8]
  /// Ids of auxiliary records.
  public var auxiliaryDataReferences: [[UInt8]]

  /// Creates an Alternative Carrier.
  public init(powerState: CarrierPowerState, dataReference: [UInt8], auxiliaryDataReferences: [[UInt8]] = [])
  {
    self.powerState = powerState
    self.dataReference = dataReference
    self.auxiliaryDataReferences = auxiliaryDataReferences
  }

  /// Copies a view.
  public init(_ view: borrowing AlternativeCarrierView) {
    self.powerState = view.powerState
    self.dataReference = view.dataReference.copiedBytes()
    var references: [[UInt8]] = []
    var iterator = view.auxiliaryDataReferences
    while let reference = iterator.next() { references.append(reference.copiedBytes()) }
    self.auxiliaryDataReferences = references
  }

  /// The `ac` record.
  ///
  /// - Throws: `alternativeCarrierTruncated` when a reference is over 255 bytes or there
  ///   are over 255 of them.
  public func record() throws(NDEFError) -> NDEFRecord {
    guard dataReference.count <= 255, auxiliaryDataReferences.count <= 255,
      auxiliaryDataReferences.allSatisfy({ $0.count <= 255 })
    else { throw NDEFError(.alternativeCarrierTruncated, offset: 0) }
    var payload: [UInt8] = [powerState.rawValue, UInt8(dataReference.count)] + dataReference
    payload.append(UInt8(auxiliaryDataReferences.count))
    for reference in auxiliaryDataReferences { payload += [UInt8(reference.count)] + reference }
    return NDEFRecord(typeNameFormat: .wellKnown, type: AlternativeCarrierView.type, payload: payload)
  }
}

/// An owned handover record (Request, Select, Mediation or Initiate).
public struct Handover: Sendable, Hashable {
  /// Which record.
  public var kind: HandoverKind
  /// Major and minor version; 1.2 to 1.5 are defined.
  public var majorVersion: UInt8
  /// Minor version.
  public var minorVersion: UInt8
  /// The alternative carriers, in order of preference.
  public var alternativeCarriers: [AlternativeCarrier]
  /// The Collision Resolution random number (Handover Request).
  public var collisionResolution: UInt16?
  /// Error reason and data (Handover Select).
  public var error: (reason: UInt8, data: UInt32)? {
    get { errorReason.map { ($0, errorData) } }
    set {
      errorReason = newValue?.reason
      errorData = newValue?.data ?? 0
    }
  }
  var errorReason: UInt8?
  var errorData: UInt32 = 0

  /// Creates a handover record model.
  public init(
    kind: HandoverKind, majorVersion: UInt8 = 1, minorVersion: UInt8 = 2,
    alternativeCarriers: [AlternativeCarrier] = [], collisionResolution: UInt16? = nil
  ) {
    self.kind = kind
    self.majorVersion = majorVersion
    self.minorVersion = minorVersion
    self.alternativeCarriers = alternativeCarriers
    self.collisionResolution = collisionResolution
  }

  /// Copies a view.
  public init(_ view: borrowing HandoverView) {
    self.kind = view.kind
    self.majorVersion = view.majorVersion
    self.minorVersion = view.minorVersion
    var carriers: [AlternativeCarrier] = []
    var iterator = view.alternativeCarriers
    while let carrier = iterator.next() { carriers.append(AlternativeCarrier(carrier)) }
    self.alternativeCarriers = carriers
    self.collisionResolution = view.collisionResolution
    self.errorReason = view.errorReason
    self.errorData = view.errorData ?? 0
  }

  /// The payload: version byte, then Collision Resolution, Alternative Carriers and Error.
  public func payload() throws(NDEFError) -> [UInt8] {
    var records: [NDEFRecord] = []
    if let collisionResolution {
      records.append(
        NDEFRecord(
          typeNameFormat: .wellKnown, type: HandoverView.collisionResolutionType,
          payload: [UInt8(collisionResolution >> 8), UInt8(collisionResolution & 0xFF)]))
    }
    for carrier in alternativeCarriers { records.append(try carrier.record()) }
    if let reason = errorReason {
      var payload: [UInt8] = [reason]
      if reason == 0x02 {
        payload += [UInt8(errorData >> 24), UInt8((errorData >> 16) & 0xFF), UInt8((errorData >> 8) & 0xFF)]
      }
      payload.append(UInt8(errorData & 0xFF))
      records.append(NDEFRecord(typeNameFormat: .wellKnown, type: HandoverView.errorType, payload: payload))
    }
    let version = (majorVersion << 4) | (minorVersion & 0x0F)
    return records.isEmpty ? [version] : [version] + (try NDEFMessage(records: records).encodedBytes())
  }

  /// The handover record (TNF Well Known).
  public func record(id: [UInt8] = []) throws(NDEFError) -> NDEFRecord {
    NDEFRecord(typeNameFormat: .wellKnown, type: kind.rawValue, id: id, payload: try payload())
  }
}
