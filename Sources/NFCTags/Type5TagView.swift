// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A Type 5 tag (ISO/IEC 15693, NFC-V) memory image, validated without copying
/// (T5T 1.0 §4): the CC from block 0, then the TLV area.
public struct Type5TagView: ~Escapable {
  /// The whole image, from block 0.
  public let image: RawSpan
  /// The capability container.
  public let capabilityContainer: Type5CapabilityContainer
  /// The TLV area.
  public let tlvArea: TagTLVAreaView
  /// The rules lenient decoding relaxed.
  public let warnings: [NFCTagWarning]

  /// Validates a Type 5 image.
  ///
  /// The T5T area runs from the end of the CC for MLEN × 8 bytes. Many tags (ST25,
  /// ICODE) count the CC in MLEN; an area that overruns the image by at most the CC size
  /// is accepted and ends with the image.
  ///
  /// - Throws: ``NFCTagError/Code/truncatedImage`` (offset: image end),
  ///   ``NFCTagError/Code/invalidMagic`` (offset 0),
  ///   ``NFCTagError/Code/unsupportedVersion`` (offset 1),
  ///   ``NFCTagError/Code/invalidCapabilityContainer`` (offset 6: an 8-byte CC with MLEN
  ///   below 256), ``NFCTagError/Code/dataAreaExceedsImage`` (offset 2 or 6), and the
  ///   errors of ``TagTLVArea/init(image:map:options:)``.
  @_lifetime(copy image)
  public init(
    validating image: RawSpan, options: TagDecodingOptions = .strict
  ) throws(NFCTagError) {
    try self.init(validating: image, options: options, collecting: false)
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
    scanning image: RawSpan, options: TagDecodingOptions = .strict
  ) throws(NFCTagError) {
    try self.init(validating: image, options: options, collecting: true)
  }

  @_lifetime(copy image)
  init(
    validating image: RawSpan, options: TagDecodingOptions, collecting: Bool
  ) throws(NFCTagError) {
    guard image.byteCount >= 4 else { throw NFCTagError(.truncatedImage, offset: image.byteCount) }
    let magic = image.byte(at: 0) ?? 0
    let version = image.byte(at: 1) ?? 0
    let size = image.byte(at: 2) ?? 0
    let features = image.byte(at: 3) ?? 0
    guard
      magic == Type5CapabilityContainer.magic1ByteAddress
        || magic == Type5CapabilityContainer.magic2ByteAddress
    else { throw NFCTagError(.invalidMagic, offset: 0) }
    var warnings: [NFCTagWarning] = []
    let cc: Type5CapabilityContainer
    var sizeOffset = 2
    if size == 0 {
      guard image.byteCount >= 8 else { throw NFCTagError(.truncatedImage, offset: image.byteCount) }
      let mlen = Int(image.byte(at: 6) ?? 0) << 8 | Int(image.byte(at: 7) ?? 0)
      sizeOffset = 6
      if mlen < 0x100 {
        guard options.isLenient else { throw NFCTagError(.invalidCapabilityContainer, offset: 6) }
        warnings.append(NFCTagWarning(.invalidCapabilityContainer, offset: 6))
      }
      cc = Type5CapabilityContainer(
        magic: magic, versionAndAccess: version, mlen: mlen, features: features, isEightBytes: true)
    } else {
      cc = Type5CapabilityContainer(
        magic: magic, versionAndAccess: version, mlen: Int(size), features: features)
    }
    if cc.majorVersion != 1 {
      guard options.isLenient else { throw NFCTagError(.unsupportedVersion, offset: 1) }
      warnings.append(NFCTagWarning(.unsupportedVersion, offset: 1))
    }
    var end = cc.byteCount &+ cc.dataAreaSize
    if end > image.byteCount {
      if end &- image.byteCount > cc.byteCount {
        guard options.isLenient else { throw NFCTagError(.dataAreaExceedsImage, offset: sizeOffset) }
        warnings.append(NFCTagWarning(.dataAreaExceedsImage, offset: sizeOffset))
      }
      end = image.byteCount
    }
    let map = TagMemoryMap(dataAreaStart: cc.byteCount, dataAreaEnd: end)
    let area = try TagTLVAreaView(image: image, map: map, options: options, collecting: collecting)
    warnings.append(contentsOf: area.area.warnings)
    self.image = image
    self.capabilityContainer = cc
    self.tlvArea = area
    self.warnings = warnings
  }

  /// Validates the bytes of a `Span<UInt8>`.
  @_lifetime(copy image)
  public init(validating image: Span<UInt8>, options: TagDecodingOptions = .strict) throws(NFCTagError) {
    try self.init(validating: image.bytes, options: options)
  }

  /// The T5T area size the CC declares (MLEN × 8).
  public var dataAreaSize: Int { capabilityContainer.dataAreaSize }
  /// The largest NDEF message a write can store.
  public var maximumNDEFSize: Int { tlvArea.area.maximumNDEFSize }
  /// Whether the CC denies writing (block locks are not part of the image).
  public var isReadOnly: Bool { !capabilityContainer.isWritable }
}
