// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A Type 1 tag (Topaz/Jewel) memory image, static or dynamic, validated without copying
/// (T1T 1.2 §2).
///
/// The image starts at block 0 (UID bytes 0-6) without the header ROM (HR0 HR1, which
/// RID and RALL return separately). The data area starts at byte 12, after the CC; block
/// 0x0D (reserved) and blocks 0x0E-0x0F (lock and OTP bytes) are skipped, and on dynamic
/// tags the areas of Lock Control and Memory Control TLVs too.
///
/// A dynamic tag without a Lock Control TLV gets no default dynamic lock area past block
/// 0x0F (unlike Type 2, T2T 1.1 §2.2.2): no available source states one for Type 1, and the
/// Broadcom, NXP, nfcpy and neard implementations take such areas only from the TLVs.
public struct Type1TagView: ~Escapable {
  /// The whole image.
  public let image: RawSpan
  /// The capability container.
  public let capabilityContainer: Type1CapabilityContainer
  /// The header ROM, when given.
  public let headerROM: Type1HeaderROM?
  /// The TLV area.
  public let tlvArea: TagTLVAreaView
  /// The rules lenient decoding relaxed.
  public let warnings: [NFCTagWarning]

  /// Absolute offset of the CC.
  public static let capabilityContainerOffset = 8
  /// Absolute offset of the data area.
  public static let dataAreaOffset = 12
  /// Block 0x0D: reserved.
  public static let reservedBlockOffset = 0x68
  /// Block 0x0E: static lock bytes LOCK-0, LOCK-1 and OTP bytes.
  public static let staticLockOffset = 0x70
  /// The end of the fixed reserved and lock blocks (blocks 0x0D-0x0F).
  public static let fixedAreasEnd = 0x80

  /// Validates a Type 1 image.
  ///
  /// - Throws: ``NFCTagError/Code/truncatedImage`` (offset: image end),
  ///   ``NFCTagError/Code/invalidMagic`` (offset 8),
  ///   ``NFCTagError/Code/unsupportedVersion`` (offset 9),
  ///   ``NFCTagError/Code/dataAreaExceedsImage`` (offset 10: the TMS memory is larger than
  ///   the image; lenient: cut), ``NFCTagError/Code/invalidCapabilityContainer`` (offset
  ///   10: `headerROM` announces static memory and TMS dynamic, or the other way round;
  ///   lenient: TMS wins), and the errors of ``TagTLVArea/init(image:map:options:)``.
  @_lifetime(copy image)
  public init(
    validating image: RawSpan, headerROM: Type1HeaderROM? = nil, options: TagDecodingOptions = .strict
  ) throws(NFCTagError) {
    try self.init(validating: image, headerROM: headerROM, options: options, collecting: false)
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
    scanning image: RawSpan, headerROM: Type1HeaderROM? = nil, options: TagDecodingOptions = .strict
  ) throws(NFCTagError) {
    try self.init(validating: image, headerROM: headerROM, options: options, collecting: true)
  }

  @_lifetime(copy image)
  init(
    validating image: RawSpan, headerROM: Type1HeaderROM?, options: TagDecodingOptions, collecting: Bool
  ) throws(NFCTagError) {
    let ccOffset = Self.capabilityContainerOffset
    guard image.byteCount >= Self.dataAreaOffset else {
      throw NFCTagError(.truncatedImage, offset: image.byteCount)
    }
    let cc = Type1CapabilityContainer(
      magic: image.byte(at: ccOffset) ?? 0, version: image.byte(at: ccOffset &+ 1) ?? 0,
      size: image.byte(at: ccOffset &+ 2) ?? 0, access: image.byte(at: ccOffset &+ 3) ?? 0)
    guard cc.magic == 0xE1 else { throw NFCTagError(.invalidMagic, offset: ccOffset) }
    var warnings: [NFCTagWarning] = []
    if cc.majorVersion != 1 {
      guard options.isLenient else { throw NFCTagError(.unsupportedVersion, offset: ccOffset &+ 1) }
      warnings.append(NFCTagWarning(.unsupportedVersion, offset: ccOffset &+ 1))
    }
    if let headerROM, headerROM.isStatic != cc.isStatic {
      guard options.isLenient else {
        throw NFCTagError(.invalidCapabilityContainer, offset: ccOffset &+ 2)
      }
      warnings.append(NFCTagWarning(.invalidCapabilityContainer, offset: ccOffset &+ 2))
    }
    var memory = cc.isStatic ? 120 : cc.memorySize
    if memory > image.byteCount {
      guard options.isLenient else { throw NFCTagError(.dataAreaExceedsImage, offset: ccOffset &+ 2) }
      warnings.append(NFCTagWarning(.dataAreaExceedsImage, offset: ccOffset &+ 2))
      memory = image.byteCount
    }
    let end = cc.isStatic ? min(memory, Self.reservedBlockOffset) : memory
    var map = TagMemoryMap(dataAreaStart: Self.dataAreaOffset, dataAreaEnd: end)
    if !cc.isStatic {
      map.add(TagMemoryArea(kind: .reserved, offset: Self.reservedBlockOffset, length: 8))
      map.add(
        TagMemoryArea(
          kind: .lock, offset: Self.staticLockOffset, length: 2, bitCount: 15, bytesLockedPerBit: 8))
      map.add(TagMemoryArea(kind: .reserved, offset: Self.staticLockOffset &+ 2, length: 14))
    }
    let area = try TagTLVAreaView(image: image, map: map, options: options, collecting: collecting)
    warnings.append(contentsOf: area.area.warnings)
    self.image = image
    self.capabilityContainer = cc
    self.headerROM = headerROM
    self.tlvArea = area
    self.warnings = warnings
  }

  /// Validates the bytes of a `Span<UInt8>`.
  @_lifetime(copy image)
  public init(
    validating image: Span<UInt8>, headerROM: Type1HeaderROM? = nil, options: TagDecodingOptions = .strict
  ) throws(NFCTagError) {
    try self.init(validating: image.bytes, headerROM: headerROM, options: options)
  }

  /// The data area size in bytes (reserved and lock areas excluded).
  public var dataAreaSize: Int { tlvArea.area.dataByteCount }
  /// The largest NDEF message a write can store.
  public var maximumNDEFSize: Int { tlvArea.area.maximumNDEFSize }

  /// Whether every static lock bit (LOCK-0, LOCK-1 bits 0-6) and every dynamic lock bit
  /// declared by a Lock Control TLV is set (T1T §2.2.3).
  public var isLocked: Bool {
    guard (image.byte(at: Self.staticLockOffset) ?? 0) == 0xFF,
      (image.byte(at: Self.staticLockOffset &+ 1) ?? 0) & 0x7F == 0x7F
    else { return false }
    let map = tlvArea.area.map
    for i in 0..<map.areaCount {
      guard let area = map.area(at: i), area.kind == .lock, area.offset != Self.staticLockOffset else {
        continue
      }
      for bit in 0..<area.bitCount
      where (image.byte(at: area.offset &+ bit / 8) ?? 0) & (1 << UInt8(bit % 8)) == 0 {
        return false
      }
    }
    return true
  }

  /// Whether the tag is read-only: the CC denies writing or every lock bit is set.
  public var isReadOnly: Bool { !capabilityContainer.isWritable || isLocked }
}
