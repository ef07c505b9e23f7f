// SPDX-License-Identifier: Apache-2.0
/// Writing and formatting Type 5 tag images (T5T 1.0 §7).
public enum Type5Tag {
  /// A blank formatted image of `memorySize` bytes: a 4-byte CC (8-byte when MLEN would
  /// pass 255, with magic 0xE2), an empty NDEF TLV and a Terminator TLV.
  ///
  /// - Throws: ``NFCTagError/Code/invalidImageSize`` (offset 0) for fewer than 16 bytes
  ///   or a size that is not a multiple of `blockSize`.
  public static func formattedImage(memorySize: Int, blockSize: Int = 4, features: UInt8 = 0x01)
    throws(NFCTagError) -> [UInt8]
  {
    guard memorySize >= 16, blockSize > 0, memorySize % blockSize == 0, memorySize <= 8 &* 0xFFFF
    else { throw NFCTagError(.invalidImageSize, offset: 0) }
    let eight = (memorySize &- 8) / 8 > 0xFF
    let ccSize = eight ? 8 : 4
    let cc = Type5CapabilityContainer(
      magic: eight ? Type5CapabilityContainer.magic2ByteAddress : Type5CapabilityContainer.magic1ByteAddress,
      mlen: min((memorySize &- ccSize) / 8, eight ? 0xFFFF : 0xFF), features: features, isEightBytes: eight)
    var image = [UInt8](repeating: 0, count: memorySize)
    for (i, byte) in (cc.bytes + [TagTLVType.ndef.rawValue, 0, TagTLVType.terminator.rawValue]).enumerated() {
      image[i] = byte
    }
    return image
  }

  /// The tearing-safe block writes that store `message` (encoded NDEF bytes) in `image`.
  ///
  /// - Throws: the decoding errors of ``Type5TagView``, ``NFCTagError/Code/readOnly``
  ///   (offset 1), ``NFCTagError/Code/messageTooLarge``.
  public static func writePlan(
    _ message: [UInt8], into image: [UInt8], blockSize: Int = 4, options: TagDecodingOptions = .strict
  ) throws(NFCTagError) -> TagWritePlan {
    let tag = try Type5TagView(validating: image.span.bytes, options: options)
    guard !tag.isReadOnly else { throw NFCTagError(.readOnly, offset: 1) }
    return try tag.tlvArea.area.writePlan(image: image, message: message, blockSize: blockSize)
  }
}
