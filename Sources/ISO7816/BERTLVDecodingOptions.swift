// SPDX-License-Identifier: Apache-2.0
/// How BER-TLV input is validated and how far decoding may go (ISO/IEC 7816-4:2013 §5.2).
public struct BERTLVDecodingOptions: Sendable, Hashable {
  /// How deep constructed objects may nest: top-level objects are at depth 1, and a
  /// constructed object at this depth may not contain further objects.
  public var maximumDepth: Int
  /// The most data objects (at all depths together) one input may hold.
  public var maximumObjectCount: Int
  /// The longest tag field accepted, 1...4 bytes (ISO/IEC 7816-4 uses at most 3).
  public var maximumTagLength: Int
  /// Whether a length encoded in more bytes than needed (e.g. `81 05`) is accepted, as some
  /// EMV cards send it; the strict default enforces the shortest form.
  public var allowsNonMinimalLength: Bool
  /// Whether 0x00 and 0xFF bytes before, between and after objects are skipped as padding
  /// (ISO/IEC 7816-4 §5.2.2); the strict default rejects them as invalid tags.
  public var allowsPadding: Bool

  /// Creates options.
  public init(
    maximumDepth: Int = 16, maximumObjectCount: Int = 1 << 16, maximumTagLength: Int = 3,
    allowsNonMinimalLength: Bool = false, allowsPadding: Bool = false
  ) {
    self.maximumDepth = maximumDepth
    self.maximumObjectCount = maximumObjectCount
    self.maximumTagLength = maximumTagLength
    self.allowsNonMinimalLength = allowsNonMinimalLength
    self.allowsPadding = allowsPadding
  }

  /// Every rule enforced; the default.
  public static let strict = BERTLVDecodingOptions()
  /// Non-minimal lengths and padding accepted, four-byte tags allowed.
  public static let lenient = BERTLVDecodingOptions(
    maximumTagLength: 4, allowsNonMinimalLength: true, allowsPadding: true)
}
