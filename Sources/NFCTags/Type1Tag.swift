// SPDX-License-Identifier: Apache-2.0
/// Writing and formatting Type 1 tag images (T1T 1.2 §6).
public enum Type1Tag {
  /// The block size of dynamic tags: 8 bytes, written with WRITE-E8 (T1T §5.2).
  public static let blockSize = 8
  /// The write unit of static tags: 1 byte, written with WRITE-E at byte address
  /// block × 8 + byte (T1T §5.1).
  public static let staticWriteSize = 1
  /// Topaz 512's shipped Lock Control TLV: 48 lock bits at 0x7A (T1T §2.3.2).
  public static let topaz512LockControl = TagLockControl(position: 0xF2, size: 0x30, pageControl: 0x33)
  /// Topaz 512's shipped Memory Control TLV: 2 reserved bytes at 0x78.
  public static let topaz512MemoryControl = TagMemoryControl(position: 0xF0, size: 0x02, pageControl: 0x03)

  /// A blank formatted image: UID `uid` (7 bytes), the CC, then for dynamic sizes the
  /// Topaz 512 Lock and Memory Control TLVs, an empty NDEF TLV and a Terminator TLV.
  ///
  /// - Throws: ``NFCTagError/Code/invalidImageSize`` (offset 0) unless `memorySize` is 120
  ///   (static) or a multiple of 8 from 136 to 2048 (dynamic).
  public static func formattedImage(memorySize: Int = 120, uid: [UInt8] = [0x01, 0, 0, 0, 0, 0, 0])
    throws(NFCTagError) -> [UInt8]
  {
    let isStatic = memorySize == 120
    guard isStatic || (memorySize >= 136 && memorySize <= 2048 && memorySize % 8 == 0) else {
      throw NFCTagError(.invalidImageSize, offset: 0)
    }
    var image = [UInt8](repeating: 0, count: memorySize)
    for (i, byte) in uid.prefix(7).enumerated() { image[i] = byte }
    let cc = Type1CapabilityContainer(size: isStatic ? 0x0E : UInt8(memorySize / 8 &- 1))
    var bytes = cc.bytes
    if !isStatic {
      bytes += [TagTLVType.lockControl.rawValue, 3] + topaz512LockControl.bytes
      bytes += [TagTLVType.memoryControl.rawValue, 3] + topaz512MemoryControl.bytes
    }
    bytes += [TagTLVType.ndef.rawValue, 0, TagTLVType.terminator.rawValue]
    for (i, byte) in bytes.enumerated() { image[Type1TagView.capabilityContainerOffset &+ i] = byte }
    return image
  }

  /// The tearing-safe writes that store `message` (encoded NDEF bytes) in `image`,
  /// leaving the reserved and lock areas untouched: 8-byte blocks on dynamic tags, single
  /// bytes (``TagWrite/block`` is then the byte address) on static ones.
  ///
  /// - Throws: the decoding errors of ``Type1TagView``, ``NFCTagError/Code/readOnly``
  ///   (offset 11), ``NFCTagError/Code/messageTooLarge``.
  public static func writePlan(
    _ message: [UInt8], into image: [UInt8], options: TagDecodingOptions = .strict
  ) throws(NFCTagError) -> TagWritePlan {
    let tag = try Type1TagView(validating: image.span.bytes, options: options)
    guard !tag.isReadOnly else { throw NFCTagError(.readOnly, offset: 11) }
    let size = tag.capabilityContainer.isStatic ? staticWriteSize : blockSize
    return try tag.tlvArea.area.writePlan(image: image, message: message, blockSize: size)
  }
}
