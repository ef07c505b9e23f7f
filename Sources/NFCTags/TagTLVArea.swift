// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire

/// The result of scanning a tag's TLV area: the memory map with every area, where the
/// NDEF TLV is, where a new one would go, and the rules lenient reading relaxed
/// (T1T 1.2 §2.3, T2T 1.0 §2.3-§2.4, T5T 1.0 §4.3).
///
/// It holds no bytes; ``TagTLVAreaView`` pairs it with the image.
public struct TagTLVArea: Sendable {
  /// The memory map before any control TLV was read (the layout's default areas).
  public let baseMap: TagMemoryMap
  /// The memory map with the areas of the Lock Control and Memory Control TLVs added.
  public let map: TagMemoryMap
  /// The number of TLVs read (NULL TLVs included).
  public let tlvCount: Int
  /// The first NDEF TLV, if any.
  public let ndefTLV: TagTLV?
  /// Where a new NDEF TLV starts when writing: the first NDEF TLV, else the first TLV
  /// after the control TLVs.
  public let ndefInsertionOffset: Int
  /// The rules the image broke that lenient decoding accepted; empty in strict mode.
  public let warnings: [NFCTagWarning]
  /// The strict-mode errors that ``init(scanning:map:options:)`` kept instead of throwing,
  /// in image order (code and absolute offset of the T byte or of the broken field); empty
  /// after ``init(image:map:options:)`` and in lenient mode, where they are warnings.
  public let errors: [NFCTagError]

  /// Scans the TLV area of `image` as laid out by `map`.
  ///
  /// - Throws: the scanner's errors, ``NFCTagError/Code/controlTLVAfterNDEF``,
  ///   ``NFCTagError/Code/multipleNDEFTLVs``, ``NFCTagError/Code/unknownTLVType`` (offset:
  ///   the T byte), ``NFCTagError/Code/missingNDEFTLV`` (offset: the data area start),
  ///   ``NFCTagError/Code/tooManyTLVs`` (offset: the T byte).
  ///   In lenient mode the TLVs after the first NDEF TLV never throw: a malformed one ends
  ///   the scan with a warning, as the NDEF detection procedure never reads past it. In both
  ///   modes an empty NDEF TLV (the INITIALIZED state) ends the scan quietly at the first
  ///   malformed or out-of-place TLV after it: those bytes are unspecified (a torn write).
  public init(image: RawSpan, map: TagMemoryMap, options: TagDecodingOptions = .strict)
    throws(NFCTagError)
  {
    try self.init(image: image, map: map, options: options, collecting: false)
  }

  /// Scans the TLV area of `image` and keeps what strict mode finds wrong where the rest can
  /// still be located: a TLV of an unknown type (its length frames it; the scan goes on
  /// before the NDEF TLV and ends after it, as lenient reading does), a second NDEF TLV or a
  /// control TLV after the NDEF TLV, and anything after the NDEF TLV that cannot be framed
  /// (the scan ends there). Each is in ``errors``; the NDEF TLV and every TLV before the
  /// first error are decoded as usual. The first of ``errors`` is what
  /// ``init(image:map:options:)`` throws. Lenient mode is unchanged.
  ///
  /// - Throws: what ``init(image:map:options:)`` throws, when the NDEF TLV cannot be located
  ///   (a TLV before it that cannot be framed, a bad control TLV before it,
  ///   ``NFCTagError/Code/missingNDEFTLV``) or for ``NFCTagError/Code/tooManyTLVs``: the
  ///   first kept error when there is one, else that error.
  public init(scanning image: RawSpan, map: TagMemoryMap, options: TagDecodingOptions = .strict)
    throws(NFCTagError)
  {
    try self.init(image: image, map: map, options: options, collecting: true)
  }

  init(image: RawSpan, map: TagMemoryMap, options: TagDecodingOptions, collecting: Bool)
    throws(NFCTagError)
  {
    let lenient = options.isLenient
    // Strict errors that leave the rest locatable are kept (``init(scanning:map:options:)``).
    let collect = collecting && !lenient
    var errors: [NFCTagError] = []
    var warnings: [NFCTagWarning] = []
    var scanner = TagTLVScanner(image: image, map: map, options: options)
    var count = 0
    var counted = 0
    var ndef: TagTLV? = nil
    var insertion = scanner.position
    var finalMap: TagMemoryMap? = nil
    while true {
      let tlv: TagTLV
      let mapBeforeTLV = scanner.map
      do {
        guard let next = try scanner.next() else { break }
        tlv = next
      } catch {
        // After an empty NDEF TLV the tag is INITIALIZED (T2T §4.4.1, T1T §4.4.1) and what
        // follows is unspecified, e.g. the body of an interrupted write: the scan ends there.
        if ndef?.length == 0 { break }
        if collect && ndef != nil {
          errors.append(error)
          break
        }
        // A kept error came first: it is what validation throws.
        guard lenient, ndef != nil || error.code == .truncatedTLV else { throw errors.first ?? error }
        warnings.append(NFCTagWarning(error.code, offset: error.offset))
        break
      }
      // The same in lenient mode: a TLV after an empty NDEF TLV that only lenient rules
      // accept ends the scan there, without a warning (strict and lenient agree).
      if ndef?.length == 0 && scanner.lastWarning != nil {
        finalMap = mapBeforeTLV
        break
      }
      count &+= 1
      if tlv.type != .null {
        counted &+= 1
        guard counted <= options.maximumTLVCount else {
          throw errors.first ?? NFCTagError(.tooManyTLVs, offset: tlv.offset)
        }
      }
      if let warning = scanner.lastWarning { warnings.append(warning) }
      var broken: NFCTagError.Code? = nil
      switch tlv.type {
      case .null, .terminator:
        break
      case .lockControl, .memoryControl:
        // MIFARE Classic has no control TLVs: there these types are reserved.
        if !map.allowsControlTLVs {
          broken = .unknownTLVType
        } else if ndef != nil {
          broken = .controlTLVAfterNDEF
        }
      case .ndef:
        if ndef == nil { ndef = tlv } else { broken = .multipleNDEFTLVs }
      case .proprietary:
        break
      default:
        broken = .unknownTLVType
      }
      if broken != nil && ndef?.length == 0 && ndef?.offset != tlv.offset {
        count &-= 1
        finalMap = mapBeforeTLV
        break
      }
      if let broken {
        if collect {
          errors.append(NFCTagError(broken, offset: tlv.offset))
        } else {
          guard lenient else { throw NFCTagError(broken, offset: tlv.offset) }
          warnings.append(NFCTagWarning(broken, offset: tlv.offset))
        }
        if broken == .unknownTLVType && ndef != nil { break }
      }
      if ndef == nil && tlv.type != .null && tlv.type != .terminator {
        insertion = scanner.position
      }
      if tlv.type == .terminator && ndef == nil { insertion = tlv.offset }
    }
    if ndef == nil {
      guard lenient else {
        throw errors.first ?? NFCTagError(.missingNDEFTLV, offset: map.dataAreaStart)
      }
      warnings.append(NFCTagWarning(.missingNDEFTLV, offset: map.dataAreaStart))
    }
    self.baseMap = map
    self.map = finalMap ?? scanner.map
    self.tlvCount = count
    self.ndefTLV = ndef
    self.ndefInsertionOffset = ndef?.offset ?? scanner.map.normalized(insertion)
    self.warnings = warnings
    self.errors = errors
  }

  /// The absolute offset of the first NDEF message byte, or `nil` without an NDEF TLV.
  public var ndefMessageOffset: Int? { ndefTLV?.valueOffset }
  /// The NDEF message length (0 for an empty NDEF TLV, `nil` without one).
  public var ndefMessageLength: Int? { ndefTLV?.length }

  /// Whether the NDEF message bytes are one run of the image (no area inside them).
  public var isNDEFContiguous: Bool {
    guard let tlv = ndefTLV else { return true }
    return !map.intersectsArea(tlv.valueOffset, tlv.valueOffset &+ tlv.length)
  }

  /// The largest NDEF message a write can put in the data area: from the NDEF TLV (or
  /// where it would go) to the end, less the TLV header (2 bytes, or 4 past 254 bytes).
  public var maximumNDEFSize: Int {
    let available = map.remaining(from: ndefInsertionOffset)
    let short = min(available &- 2, 0xFE)
    let long = min(available &- 4, 0xFFFE)
    return max(0, max(short, long))
  }

  /// The number of data bytes in the data area (areas excluded).
  public var dataByteCount: Int { map.dataByteCount }
}

/// A tag's TLV area over the image bytes: the TLVs, and the NDEF message as a view when
/// it is contiguous (T2T 1.0 §2.3-§2.4).
public struct TagTLVAreaView: ~Escapable {
  /// The whole image.
  public let image: RawSpan
  /// The scan result.
  public let area: TagTLVArea

  /// Pairs an image with its scan.
  @_lifetime(copy image)
  public init(image: RawSpan, area: TagTLVArea) {
    self.image = image
    self.area = area
  }

  /// Scans the TLV area of `image`.
  ///
  /// - Throws: as ``TagTLVArea/init(image:map:options:)``.
  @_lifetime(copy image)
  public init(validating image: RawSpan, map: TagMemoryMap, options: TagDecodingOptions = .strict)
    throws(NFCTagError)
  {
    self.image = image
    self.area = try TagTLVArea(image: image, map: map, options: options)
  }

  /// Scans the TLV area of `image`, keeping strict-mode errors where the rest can still be
  /// located (``TagTLVArea/errors``).
  ///
  /// - Throws: as ``TagTLVArea/init(scanning:map:options:)``.
  @_lifetime(copy image)
  public init(scanning image: RawSpan, map: TagMemoryMap, options: TagDecodingOptions = .strict)
    throws(NFCTagError)
  {
    self.image = image
    self.area = try TagTLVArea(scanning: image, map: map, options: options)
  }

  @_lifetime(copy image)
  init(image: RawSpan, map: TagMemoryMap, options: TagDecodingOptions, collecting: Bool)
    throws(NFCTagError)
  {
    self.image = image
    self.area = try TagTLVArea(image: image, map: map, options: options, collecting: collecting)
  }

  /// The TLVs in order, as the scan read them.
  public var tlvs: TagTLVIterator {
    @_lifetime(copy self)
    get { TagTLVIterator(image: image, map: area.baseMap, count: area.tlvCount) }
  }

  /// What the scan found that breaks no rule, in both modes: each Lock or Memory Control
  /// TLV whose area lies past the data area and past the end of the image (a dump of the
  /// header and data area only): ``NFCTagError/Code/controlAreaOutsideImage``, offset: the
  /// T byte. The area is still in the map; its bytes are simply not in the image.
  /// Allocates only when there is a note.
  public var notes: [NFCTagWarning] {
    var result: [NFCTagWarning] = []
    var iterator = tlvs
    while let tlv = iterator.next() {
      guard tlv.type == .lockControl || tlv.type == .memoryControl, tlv.length == 3,
        area.map.allowsControlTLVs
      else { continue }
      let positions = area.map.positions(from: tlv.valueOffset, count: 3)
      guard positions.count == 3 else { continue }
      let a = image.byte(at: positions[0]) ?? 0
      let b = image.byte(at: positions[1]) ?? 0
      let c = image.byte(at: positions[2]) ?? 0
      let start: Int
      let end: Int
      if tlv.type == .lockControl {
        let lock = TagLockControl(position: a, size: b, pageControl: c)
        (start, end) = (lock.byteAddress, lock.byteAddress &+ lock.byteCount)
      } else {
        let memory = TagMemoryControl(position: a, size: b, pageControl: c)
        (start, end) = (memory.byteAddress, memory.byteAddress &+ memory.byteCount)
      }
      if end > image.byteCount && start >= area.map.dataAreaEnd {
        result.append(NFCTagWarning(.controlAreaOutsideImage, offset: tlv.offset))
      }
    }
    return result
  }

  /// Every TLV as an array (allocates).
  public func tlvList() -> [TagTLV] {
    var list: [TagTLV] = []
    var iterator = tlvs
    while let tlv = iterator.next() { list.append(tlv) }
    return list
  }

  /// The NDEF message bytes when they are one run of the image (zero-copy), else `nil`
  /// (also without an NDEF TLV). Empty for an empty NDEF TLV.
  public var ndefBytes: RawSpan? {
    @_lifetime(copy self)
    get {
      guard let tlv = area.ndefTLV, area.isNDEFContiguous else { return nil }
      let end = tlv.valueOffset &+ tlv.length
      guard tlv.valueOffset <= end, end <= image.byteCount else { return nil }
      return image.extracting(tlv.valueOffset..<end)
    }
  }

  /// The NDEF message bytes copied out of the data area, skipping lock and reserved
  /// areas; the explicit step for messages that span them. Empty without a message.
  public func assembledNDEFBytes() -> [UInt8] {
    guard let tlv = area.ndefTLV else { return [] }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(tlv.length)
    for p in area.map.positions(from: tlv.valueOffset, count: tlv.length) {
      bytes.append(image.byte(at: p) ?? 0)
    }
    return bytes
  }

  /// The NDEF message as a view over the image.
  ///
  /// - Returns: `nil` for an empty NDEF TLV or none.
  /// - Throws: ``NFCTagError/Code/ndefNotContiguous`` (offset: the message start) when it
  ///   spans areas (use ``assembledNDEFBytes()``), ``NFCTagError/Code/invalidNDEFMessage``
  ///   with the NDEF error.
  @_lifetime(copy self)
  public func messageView(options: NDEFDecodingOptions = .strict) throws(NFCTagError)
    -> NDEFMessageView?
  {
    guard let tlv = area.ndefTLV, tlv.length > 0 else { return nil }
    guard let bytes = ndefBytes else {
      throw NFCTagError(.ndefNotContiguous, offset: tlv.valueOffset)
    }
    do {
      return try NDEFMessageView(validating: bytes, baseOffset: tlv.valueOffset, options: options)
    } catch {
      throw NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error)
    }
  }

  /// The NDEF message as an owned model, assembling it when it spans areas.
  ///
  /// - Returns: `nil` for an empty NDEF TLV or none.
  /// - Throws: ``NFCTagError/Code/invalidNDEFMessage`` with the NDEF error (its offset
  ///   relative to the message start when the message was assembled).
  public func message(options: NDEFDecodingOptions = .strict) throws(NFCTagError) -> NDEFMessage? {
    guard let tlv = area.ndefTLV, tlv.length > 0 else { return nil }
    if area.isNDEFContiguous {
      guard let view = try messageView(options: options) else { return nil }
      do { return try NDEFMessage(view) } catch {
        throw NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error)
      }
    }
    let bytes = assembledNDEFBytes()
    do { return try NDEFMessage(parsing: bytes, options: options) } catch {
      throw NFCTagError(.invalidNDEFMessage, offset: tlv.valueOffset, ndefError: error)
    }
  }
}

/// Iterates the TLVs of a scanned area again, without allocating.
public struct TagTLVIterator: ~Escapable {
  var scanner: TagTLVScanner
  var left: Int

  @_lifetime(copy image)
  init(image: RawSpan, map: TagMemoryMap, count: Int) {
    self.scanner = TagTLVScanner(image: image, map: map, options: .lenient)
    self.left = count
  }

  /// The next TLV, or `nil` after the last one the scan read.
  public mutating func next() -> TagTLV? {
    guard left > 0, let tlv = try? scanner.next() else { return nil }
    left &-= 1
    return tlv
  }
}
