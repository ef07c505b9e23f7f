// SPDX-License-Identifier: Apache-2.0
/// Writing and formatting Type 3 tag images (T3T 1.0 §7.4).
public enum Type3Tag {
  /// A blank formatted image of `blockCount` blocks: the AIB (Nmaxb = blockCount − 1,
  /// Ln 0) and zeroed NDEF blocks.
  ///
  /// - Throws: ``NFCTagError/Code/invalidImageSize`` (offset 0) for fewer than 2 blocks
  ///   or more than 0xFFFF + 1.
  public static func formattedImage(
    blockCount: Int, blocksPerRead: UInt8 = 4, blocksPerWrite: UInt8 = 1
  ) throws(NFCTagError) -> [UInt8] {
    guard blockCount >= 2, blockCount <= 0x1_0000 else { throw NFCTagError(.invalidImageSize, offset: 0) }
    let aib = Type3AttributeInformation(
      blocksPerRead: blocksPerRead, blocksPerWrite: blocksPerWrite, maximumBlocks: blockCount &- 1)
    return aib.bytes + [UInt8](repeating: 0, count: (blockCount &- 1) &* Type3AttributeInformation.blockSize)
  }

  /// The tearing-safe block writes that store `message`: the AIB with WriteFlag ON and
  /// Ln 0, the NDEF blocks, then the AIB with WriteFlag OFF and the real Ln.
  ///
  /// - Throws: the decoding errors of ``Type3TagView``, ``NFCTagError/Code/readOnly``
  ///   (offset 10), ``NFCTagError/Code/messageTooLarge`` (offset 16).
  public static func writePlan(
    _ message: [UInt8], into image: [UInt8], options: TagDecodingOptions = .strict
  ) throws(NFCTagError) -> TagWritePlan {
    let tag = try Type3TagView(validating: image.span.bytes, options: options)
    guard !tag.isReadOnly else { throw NFCTagError(.readOnly, offset: 10) }
    guard message.count <= tag.maximumNDEFSize else {
      throw NFCTagError(.messageTooLarge, offset: Type3TagView.ndefOffset)
    }
    let size = Type3AttributeInformation.blockSize
    var aib = tag.attributeInformation
    aib.writeFlag = Type3AttributeInformation.writeFlagOn
    aib.ndefLength = 0
    var writes = [TagWrite(block: 0, offset: 0, bytes: aib.bytes)]
    var final = image
    let blocks = (message.count &+ size &- 1) / size
    for block in 0..<blocks {
      var bytes = [UInt8](repeating: 0, count: size)
      for i in 0..<size where block &* size &+ i < message.count { bytes[i] = message[block &* size &+ i] }
      let offset = (block &+ 1) &* size
      let end = min(offset &+ size, final.count)
      final.replaceSubrange(offset..<end, with: bytes.prefix(end &- offset))
      writes.append(TagWrite(block: block &+ 1, offset: offset, bytes: Array(bytes.prefix(end &- offset))))
    }
    aib.writeFlag = Type3AttributeInformation.writeFlagOff
    aib.ndefLength = message.count
    writes.append(TagWrite(block: 0, offset: 0, bytes: aib.bytes))
    final.replaceSubrange(0..<size, with: aib.bytes)
    return TagWritePlan(blockSize: size, writes: writes, finalImage: final)
  }
}
