// SPDX-License-Identifier: Apache-2.0
import NDEF
import NFCWire

/// A Type 3 tag (FeliCa) NDEF memory image: the Attribute Information Block in block 0,
/// then the NDEF message from block 1 (T3T 1.0 §7), validated without copying.
public struct Type3TagView: ~Escapable {
  /// The whole image, from block 0.
  public let image: RawSpan
  /// The Attribute Information Block.
  public let attributeInformation: Type3AttributeInformation
  /// The stored checksum (bytes 14-15).
  public let checksum: UInt16
  /// The rules lenient decoding relaxed.
  public let warnings: [NFCTagWarning]
  /// The NDEF message length used: Ln, or 0 when lenient reading met WriteFlag ON.
  public let ndefLength: Int

  /// Absolute offset of the NDEF message: block 1.
  public static let ndefOffset = 16

  /// Validates a Type 3 image.
  ///
  /// - Throws: ``NFCTagError/Code/truncatedImage`` (offset: image end, shorter than
  ///   the AIB or than the Ln bytes need), ``NFCTagError/Code/checksumMismatch``
  ///   (offset 14), ``NFCTagError/Code/unsupportedVersion`` (offset 0),
  ///   ``NFCTagError/Code/invalidAttributeInformation`` (offset 1 Nbr, 2 Nbw, 10 RWFlag,
  ///   9 WriteFlag other than 0x00/0x0F), ``NFCTagError/Code/writeInProgress`` (offset 9;
  ///   lenient: no message), ``NFCTagError/Code/ndefLengthExceedsCapacity`` (offset 11:
  ///   Ln > Nmaxb × 16).
  @_lifetime(copy image)
  public init(validating image: RawSpan, options: TagDecodingOptions = .strict) throws(NFCTagError) {
    guard image.byteCount >= Type3AttributeInformation.blockSize else {
      throw NFCTagError(.truncatedImage, offset: image.byteCount)
    }
    let aib = Type3AttributeInformation(block: image)
    let stored = UInt16(image.byte(at: 14) ?? 0) << 8 | UInt16(image.byte(at: 15) ?? 0)
    var sum: UInt16 = 0
    for i in 0..<14 { sum &+= UInt16(image.byte(at: i) ?? 0) }
    var warnings: [NFCTagWarning] = []
    func check(_ ok: Bool, _ code: NFCTagError.Code, _ offset: Int) throws(NFCTagError) {
      guard !ok else { return }
      guard options.isLenient else { throw NFCTagError(code, offset: offset) }
      warnings.append(NFCTagWarning(code, offset: offset))
    }
    try check(stored == sum, .checksumMismatch, 14)
    try check(aib.majorVersion == 1, .unsupportedVersion, 0)
    try check(aib.blocksPerRead >= 1, .invalidAttributeInformation, 1)
    try check(aib.blocksPerWrite >= 1, .invalidAttributeInformation, 2)
    try check(aib.writeFlag == 0x00 || aib.writeFlag == 0x0F, .invalidAttributeInformation, 9)
    try check(aib.accessFlag <= 0x01, .invalidAttributeInformation, 10)
    guard aib.ndefLength <= aib.dataAreaSize else {
      throw NFCTagError(.ndefLengthExceedsCapacity, offset: 11)
    }
    var length = aib.ndefLength
    if aib.writeFlag == Type3AttributeInformation.writeFlagOn {
      try check(false, .writeInProgress, 9)
      length = 0
    }
    guard Self.ndefOffset &+ length <= image.byteCount else {
      throw NFCTagError(.truncatedImage, offset: image.byteCount)
    }
    self.image = image
    self.attributeInformation = aib
    self.checksum = stored
    self.warnings = warnings
    self.ndefLength = length
  }

  /// Validates the bytes of a `Span<UInt8>`.
  @_lifetime(copy image)
  public init(validating image: Span<UInt8>, options: TagDecodingOptions = .strict) throws(NFCTagError) {
    try self.init(validating: image.bytes, options: options)
  }

  /// The NDEF data capacity in bytes (Nmaxb × 16).
  public var dataAreaSize: Int { attributeInformation.dataAreaSize }
  /// The largest NDEF message: Nmaxb × 16 bytes, bounded by the image.
  public var maximumNDEFSize: Int {
    min(dataAreaSize, max(0, image.byteCount &- Self.ndefOffset))
  }
  /// Whether RWFlag marks the tag read-only.
  public var isReadOnly: Bool { !attributeInformation.isWritable }

  /// The NDEF message bytes (zero-copy; empty when Ln is 0).
  public var ndefBytes: RawSpan {
    @_lifetime(copy self)
    get { image.extracting(Self.ndefOffset..<(Self.ndefOffset &+ ndefLength)) }
  }

  /// The NDEF message as a view, or `nil` when Ln is 0.
  ///
  /// - Throws: ``NFCTagError/Code/invalidNDEFMessage`` with the NDEF error.
  @_lifetime(copy self)
  public func messageView(options: NDEFDecodingOptions = .strict) throws(NFCTagError) -> NDEFMessageView? {
    guard ndefLength > 0 else { return nil }
    do {
      return try NDEFMessageView(validating: ndefBytes, baseOffset: Self.ndefOffset, options: options)
    } catch {
      throw NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error)
    }
  }

  /// The NDEF message as an owned model, or `nil` when Ln is 0.
  ///
  /// - Throws: ``NFCTagError/Code/invalidNDEFMessage`` with the NDEF error.
  public func message(options: NDEFDecodingOptions = .strict) throws(NFCTagError) -> NDEFMessage? {
    guard let view = try messageView(options: options) else { return nil }
    do { return try NDEFMessage(view) } catch {
      throw NFCTagError(.invalidNDEFMessage, offset: error.offset, ndefError: error)
    }
  }
}
