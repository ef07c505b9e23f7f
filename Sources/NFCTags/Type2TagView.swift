// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire

/// A Type 2 tag memory image (MIFARE Ultralight, NTAG21x), validated without copying
/// (T2T 1.0 §2 and §6).
///
/// The image starts at page 0: serial number and internal bytes (0-9), static lock bytes
/// (10-11), the capability container (12-15), then the data area from page 4, holding
/// TLVs. Bytes after the data area (dynamic lock bits, configuration pages) are kept.
///
/// ```swift
/// let tag = try Type2TagView(validating: image.span.bytes)
/// let message = try tag.tlvArea.message()
/// ```
public struct Type2TagView: ~Escapable {
  /// The whole image.
  public let image: RawSpan
  /// The capability container.
  public let capabilityContainer: Type2CapabilityContainer
  /// The product the image was read from, when given or recognised by size.
  public let variant: Type2TagVariant?
  /// The TLV area.
  public let tlvArea: TagTLVAreaView
  /// The rules the image broke that lenient decoding accepted (CC and TLV area).
  public let warnings: [NFCTagWarning]

  /// Absolute offset of the capability container.
  public static let capabilityContainerOffset = 12
  /// Absolute offset of the data area (page 4).
  public static let dataAreaOffset = 16

  /// Validates a Type 2 image.
  ///
  /// - Parameters:
  ///   - image: the memory from page 0.
  ///   - variant: the product, when known; otherwise it is looked up by size and CC.
  ///   - options: strict or lenient.
  /// - Throws: ``NFCTagError/Code/truncatedImage`` (offset: image end, fewer than 16
  ///   bytes), ``NFCTagError/Code/invalidMagic`` (offset 12),
  ///   ``NFCTagError/Code/unsupportedVersion`` (offset 13, major version not 1),
  ///   ``NFCTagError/Code/dataAreaExceedsImage`` (offset 14; lenient: cut at the image
  ///   end), and the errors of ``TagTLVArea/init(image:map:options:)``.
  @_lifetime(copy image)
  public init(
    validating image: RawSpan, variant: Type2TagVariant? = nil, options: TagDecodingOptions = .strict
  ) throws(NFCTagError) {
    try self.init(validating: image, variant: variant, options: options, collecting: false)
  }

  /// Decodes the image as the `validating` initializer does, but keeps the strict-mode
  /// errors of the TLV area where the NDEF TLV and the rest can still be located: they are
  /// in ``TagTLVAreaView/area``'s ``TagTLVArea/errors`` (see
  /// ``TagTLVArea/init(scanning:map:options:)``), and the image counts as not valid when
  /// there are any.
  ///
  /// - Throws: the `validating` initializer's errors that leave the NDEF TLV unlocated
  ///   (the first kept TLV error when one came before them).
  @_lifetime(copy image)
  public init(
    scanning image: RawSpan, variant: Type2TagVariant? = nil, options: TagDecodingOptions = .strict
  ) throws(NFCTagError) {
    try self.init(validating: image, variant: variant, options: options, collecting: true)
  }

  @_lifetime(copy image)
  init(
    validating image: RawSpan, variant: Type2TagVariant?, options: TagDecodingOptions, collecting: Bool
  ) throws(NFCTagError) {
    let ccOffset = Self.capabilityContainerOffset
    guard image.byteCount >= Self.dataAreaOffset else {
      throw NFCTagError(.truncatedImage, offset: image.byteCount)
    }
    let cc = Type2CapabilityContainer(
      magic: image.byte(at: ccOffset) ?? 0, version: image.byte(at: ccOffset &+ 1) ?? 0,
      size: image.byte(at: ccOffset &+ 2) ?? 0, access: image.byte(at: ccOffset &+ 3) ?? 0)
    var warnings: [NFCTagWarning] = []
    guard cc.magic == Type2CapabilityContainer.ndefMagic else {
      throw NFCTagError(.invalidMagic, offset: ccOffset)
    }
    if cc.majorVersion != 1 {
      guard options.isLenient else { throw NFCTagError(.unsupportedVersion, offset: ccOffset &+ 1) }
      warnings.append(NFCTagWarning(.unsupportedVersion, offset: ccOffset &+ 1))
    }
    var end = Self.dataAreaOffset &+ cc.dataAreaSize
    if end > image.byteCount {
      guard options.isLenient else {
        throw NFCTagError(.dataAreaExceedsImage, offset: ccOffset &+ 2)
      }
      warnings.append(NFCTagWarning(.dataAreaExceedsImage, offset: ccOffset &+ 2))
      end = image.byteCount
    }
    let map = TagMemoryMap(dataAreaStart: Self.dataAreaOffset, dataAreaEnd: end)
    let area = try TagTLVAreaView(image: image, map: map, options: options, collecting: collecting)
    warnings.append(contentsOf: area.area.warnings)
    self.image = image
    self.capabilityContainer = cc
    self.variant = variant ?? Type2TagVariant.matching(imageSize: image.byteCount, ccSize: cc.size)
    self.tlvArea = area
    self.warnings = warnings
  }

  /// Validates the bytes of a `Span<UInt8>`.
  @_lifetime(copy image)
  public init(
    validating image: Span<UInt8>, variant: Type2TagVariant? = nil,
    options: TagDecodingOptions = .strict
  ) throws(NFCTagError) {
    try self.init(validating: image.bytes, variant: variant, options: options)
  }

  /// The data area size the CC declares (CC size × 8).
  public var dataAreaSize: Int { capabilityContainer.dataAreaSize }
  /// The largest NDEF message a write can store.
  public var maximumNDEFSize: Int { tlvArea.area.maximumNDEFSize }

  /// The static lock bytes 10 and 11 (byte 10 in the high byte).
  public var staticLockBits: UInt16 {
    UInt16(image.byte(at: 10) ?? 0) << 8 | UInt16(image.byte(at: 11) ?? 0)
  }

  /// Whether the static lock bits lock every data page up to page 15 (T2T §6.3.1: byte 10
  /// bits 4-7 lock pages 4-7, byte 11 pages 8-15).
  public var isStaticallyLocked: Bool {
    let lastPage = min(15, (Self.dataAreaOffset &+ dataAreaSize &- 1) / Type2Tag.pageSize)
    guard lastPage >= 4 else { return false }
    for page in 4...lastPage {
      let byte = page < 8 ? image.byte(at: 10) ?? 0 : image.byte(at: 11) ?? 0
      let bit = page < 8 ? page : page &- 8
      if byte & (1 << UInt8(bit)) == 0 { return false }
    }
    return true
  }

  /// The dynamic lock area: the Lock Control TLV's, else the product's, else the default
  /// one right after the data area (T2T §2.2.2: ⌈(size − 48) / 8⌉ bits, 8 bytes each).
  public var dynamicLockArea: TagMemoryArea? {
    let map = tlvArea.area.map
    for i in 0..<map.areaCount {
      if let area = map.area(at: i), area.kind == .lock { return area }
    }
    if let variant {
      guard let offset = variant.dynamicLockOffset else { return nil }
      return TagMemoryArea(
        kind: .lock, offset: offset, length: (variant.dynamicLockBitCount &+ 7) / 8,
        bitCount: variant.dynamicLockBitCount,
        bytesLockedPerBit: variant.pagesLockedPerBit &* Type2Tag.pageSize)
    }
    guard dataAreaSize > 48 else { return nil }
    let bits = (dataAreaSize &- 48 &+ 7) / 8
    return TagMemoryArea(
      kind: .lock, offset: Self.dataAreaOffset &+ dataAreaSize, length: (bits &+ 7) / 8,
      bitCount: bits, bytesLockedPerBit: 8)
  }

  /// Whether every dynamic lock bit is set (`false` when the image does not hold them or
  /// the tag has none).
  public var isDynamicallyLocked: Bool {
    guard let area = dynamicLockArea, area.bitCount > 0, area.end <= image.byteCount else {
      return false
    }
    for bit in 0..<area.bitCount {
      let byte = image.byte(at: area.offset &+ bit / 8) ?? 0
      if byte & (1 << UInt8(bit % 8)) == 0 { return false }
    }
    return true
  }

  /// Whether lock bits forbid writing `page`: the static bits for pages 3-15 (T2T §6.3.1),
  /// the dynamic bits for pages 16 and up, each locking `bytesLockedPerBit` bytes (§6.3.2).
  public func isPageLocked(_ page: Int) -> Bool {
    switch page {
    case 3...7:
      return (image.byte(at: 10) ?? 0) & (1 << UInt8(page)) != 0
    case 8...15:
      return (image.byte(at: 11) ?? 0) & (1 << UInt8(page &- 8)) != 0
    default:
      guard page >= 16, let area = dynamicLockArea, area.bytesLockedPerBit >= Type2Tag.pageSize,
        area.end <= image.byteCount
      else { return false }
      let bit = (page &- 16) &* Type2Tag.pageSize / area.bytesLockedPerBit
      guard bit < area.bitCount else { return false }
      return (image.byte(at: area.offset &+ bit / 8) ?? 0) & (1 << UInt8(bit % 8)) != 0
    }
  }

  /// The note of the Lock Control TLV whose lock bits for `page` are not in the image (the
  /// image holds the header and data area only), else `nil`: whether `page` is locked is
  /// then unknown (T2T 1.0 §2.3.2, §6.3.2).
  public func missingLockBits(forPage page: Int) -> NFCTagWarning? {
    guard page >= 16, let note = tlvArea.notes.first, let area = dynamicLockArea,
      area.bytesLockedPerBit >= Type2Tag.pageSize
    else { return nil }
    let bit = (page &- 16) &* Type2Tag.pageSize / area.bytesLockedPerBit
    guard bit < area.bitCount, area.offset &+ bit / 8 >= image.byteCount else { return nil }
    return note
  }

  /// Whether the tag is read-only: the CC denies writing, or every static lock bit and
  /// every dynamic lock bit (when the tag has them) is set (T2T §4.3 READ-ONLY state).
  public var isReadOnly: Bool {
    if !capabilityContainer.isWritable { return true }
    guard isStaticallyLocked else { return false }
    return dynamicLockArea == nil || isDynamicallyLocked || dataAreaSize <= 48
  }
}
