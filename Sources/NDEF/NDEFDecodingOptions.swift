// SPDX-License-Identifier: Apache-2.0
/// How an NDEF message is validated and how far decoding may go.
public struct NDEFDecodingOptions: Sendable, Hashable {
  /// Whether every NDEF 1.0 rule is enforced (`false`) or the rules that tags in the field
  /// commonly break are relaxed into warnings (`true`).
  ///
  /// Lenient decoding accepts, each with an ``NDEFWarning``: a missing MB on the first record,
  /// MB on a later record, input that ends without ME (the message ends there), bytes after
  /// ME (ignored), TNF Reserved and TNF Unchanged outside a chunk (both read as Unknown),
  /// an Empty record with lengths (kept as read), a type on an Unknown record or a missing
  /// type on TNF 1...4 (kept as read), middle chunks with a type, id or another TNF (their
  /// type and id are ignored), and ME on a chunk (the chunk sequence ends there). Lengths
  /// that run past the input are errors in both modes.
  public var isLenient: Bool
  /// The largest payload ``NDEFRecordView/assembledPayload(maximumSize:)`` and the owned
  /// model will assemble from chunks, in bytes.
  public var maximumAssembledPayloadSize: Int
  /// The most records (logical records, chunk sequences counting once) a message may have.
  public var maximumRecordCount: Int
  /// How deep record types may nest NDEF messages (Smart Poster, Handover) below this one.
  public var maximumNestingDepth: Int

  /// Creates options.
  public init(
    isLenient: Bool = false,
    maximumAssembledPayloadSize: Int = 16 << 20,
    maximumRecordCount: Int = NDEFDecodingOptions.defaultMaximumRecordCount,
    maximumNestingDepth: Int = 4
  ) {
    self.isLenient = isLenient
    self.maximumAssembledPayloadSize = maximumAssembledPayloadSize
    self.maximumRecordCount = maximumRecordCount
    self.maximumNestingDepth = maximumNestingDepth
  }

  /// The default bound on ``maximumRecordCount``: 2^20 records. A constant, so a default
  /// argument built from it costs no access to a global.
  @inlinable public static var defaultMaximumRecordCount: Int { 1 << 20 }

  /// Every rule enforced; the default.
  public static let strict = NDEFDecodingOptions()
  /// Field-tolerant decoding with warnings.
  public static let lenient = NDEFDecodingOptions(isLenient: true)
}
