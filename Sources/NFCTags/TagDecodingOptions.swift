// SPDX-License-Identifier: Apache-2.0
/// How a tag memory image is validated (NFC Forum T1T 1.2, T2T 1.0, T3T 1.0, T5T 1.0).
public struct TagDecodingOptions: Sendable, Hashable {
  /// Whether every rule is enforced (`false`) or the faults common on tags in the field are
  /// relaxed into ``NFCTagWarning``s (`true`).
  ///
  /// Lenient decoding accepts: a CC size byte larger than the image (the data area ends
  /// with the image), an NDEF TLV length past the data area (cut at the end of the data
  /// area), several NDEF TLVs (the first is used), reserved TLV types and malformed TLVs
  /// after the NDEF TLV (the scan stops there), a missing NDEF TLV (no message), an
  /// unknown minor or major version, a T3T checksum mismatch and a set T3T WriteFlag.
  public var isLenient: Bool
  /// The most reserved and lock areas (defaults plus Lock/Memory Control TLVs) a layout
  /// may hold; the parse path keeps them inline, without allocating.
  public var maximumMemoryAreas: Int
  /// The most TLVs the scan reads before giving up (NULL TLVs do not count: they are
  /// single bytes, bounded by the data area).
  public var maximumTLVCount: Int

  /// Creates options.
  public init(isLenient: Bool = false, maximumMemoryAreas: Int = 8, maximumTLVCount: Int = 4096) {
    self.isLenient = isLenient
    self.maximumMemoryAreas = min(max(maximumMemoryAreas, 0), TagMemoryMap.capacity)
    self.maximumTLVCount = maximumTLVCount
  }

  /// Every rule enforced; the default.
  public static let strict = TagDecodingOptions()
  /// Field-tolerant decoding with warnings.
  public static let lenient = TagDecodingOptions(isLenient: true)
}
