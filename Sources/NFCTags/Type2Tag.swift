// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire

/// Writing and formatting Type 2 tag images (T2T 1.0 §6.4-§6.5).
public enum Type2Tag {
  /// The page size in bytes (T2T §2.1).
  public static let pageSize = 4

  /// A blank formatted image of `variant`: zero serial bytes, the CC as shipped, the
  /// product's Lock Control TLV when it ships with one, and an empty NDEF TLV followed by
  /// a Terminator TLV (T2T §6.5, INITIALIZED state).
  public static func formattedImage(_ variant: Type2TagVariant) -> [UInt8] {
    var image = [UInt8](repeating: 0, count: variant.memorySize)
    for (i, byte) in variant.capabilityContainer.bytes.enumerated() {
      image[Type2TagView.capabilityContainerOffset &+ i] = byte
    }
    var tlvs: [UInt8] = []
    if let lock = variant.lockControl {
      tlvs += [TagTLVType.lockControl.rawValue, 3] + lock.bytes
    }
    tlvs += [TagTLVType.ndef.rawValue, 0, TagTLVType.terminator.rawValue]
    for (i, byte) in tlvs.enumerated() { image[Type2TagView.dataAreaOffset &+ i] = byte }
    // The configuration pages as the data sheet ships them (AUTH0 0xFF: no protection).
    if let config = variant.configurationPage {
      for (i, byte) in variant.configurationDefaults.enumerated() where config &* pageSize &+ i < image.count
      {
        image[config &* pageSize &+ i] = byte
      }
    }
    return image
  }

  /// A blank formatted image of `pageCount` pages with a CC for `dataAreaSize` bytes
  /// (a multiple of 8) and the default layout (no Lock Control TLV).
  ///
  /// - Throws: ``NFCTagError/Code/invalidImageSize`` (offset 0) when the data area does
  ///   not fit in the pages or is not 8...2040 bytes in steps of 8.
  public static func formattedImage(pageCount: Int, dataAreaSize: Int) throws(NFCTagError) -> [UInt8] {
    guard dataAreaSize >= 8, dataAreaSize <= 0xFF &* 8, dataAreaSize % 8 == 0,
      Type2TagView.dataAreaOffset &+ dataAreaSize <= pageCount &* pageSize
    else { throw NFCTagError(.invalidImageSize, offset: 0) }
    let variant = Type2TagVariant(
      name: "custom", pageCount: pageCount, userMemorySize: dataAreaSize,
      capabilityContainer: .init(size: UInt8(dataAreaSize / 8)), dynamicLockPage: nil,
      dynamicLockBitCount: 0, pagesLockedPerBit: 0, configurationPage: nil,
      configurationPageCount: 0, lockControl: nil)
    return formattedImage(variant)
  }

  /// The tearing-safe page writes that store `message` (encoded NDEF bytes; empty for an
  /// empty NDEF TLV) in `image`.
  ///
  /// - Throws: the decoding errors of ``Type2TagView`` (lenient when `options` says so),
  ///   ``NFCTagError/Code/readOnly`` (offset 15, the CC access byte; or the first byte of
  ///   the first page to write that lock bits lock), ``NFCTagError/Code/messageTooLarge``
  ///   (offset: the NDEF TLV), ``NFCTagError/Code/controlAreaOutsideImage`` (offset: the
  ///   Lock Control TLV) when a page to write is governed by lock bits the image does not hold.
  public static func writePlan(
    _ message: [UInt8], into image: [UInt8], options: TagDecodingOptions = .strict
  ) throws(NFCTagError) -> TagWritePlan {
    let tag = try Type2TagView(validating: image.span.bytes, options: options)
    guard !tag.isReadOnly else {
      throw NFCTagError(.readOnly, offset: Type2TagView.capabilityContainerOffset &+ 3)
    }
    let plan = try tag.tlvArea.area.writePlan(image: image, message: message, blockSize: pageSize)
    for write in plan.writes {
      if let note = tag.missingLockBits(forPage: write.block) {
        throw NFCTagError(.controlAreaOutsideImage, offset: note.offset)
      }
      if tag.isPageLocked(write.block) { throw NFCTagError(.readOnly, offset: write.offset) }
    }
    return plan
  }

  /// The tearing-safe page writes that store `message` in `image`.
  ///
  /// - Throws: as ``writePlan(_:into:options:)-([UInt8],_,_)``, and
  ///   ``NFCTagError/Code/invalidNDEFMessage`` when the model cannot be encoded.
  public static func writePlan(
    _ message: NDEFMessage, into image: [UInt8], options: TagDecodingOptions = .strict
  ) throws(NFCTagError) -> TagWritePlan {
    try writePlan(try encode(message), into: image, options: options)
  }
}

/// Encodes an NDEF model for a tag write.
func encode(_ message: NDEFMessage) throws(NFCTagError) -> [UInt8] {
  do { return try message.encodedBytes() } catch {
    throw NFCTagError(.invalidNDEFMessage, offset: 0, ndefError: error)
  }
}
