// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A response APDU over the caller's bytes: the data field and the trailer SW1-SW2
/// (ISO/IEC 7816-4:2013 §5.1, §5.1.3).
public struct ResponseAPDUView: ~Escapable {
  /// Every byte of the response.
  public let bytes: RawSpan
  /// Absolute offset of the first byte in the caller's input.
  public let baseOffset: Int
  /// The response data field (Nr bytes), possibly empty.
  public let data: RawSpan
  /// The status word.
  public let statusWord: StatusWord

  /// Validates `bytes` as one response APDU.
  ///
  /// - Throws: ``APDUError/Code/truncatedStatusWord`` at `baseOffset` for fewer than two
  ///   bytes.
  @_lifetime(copy bytes)
  public init(validating bytes: RawSpan, baseOffset: Int = 0) throws(APDUError) {
    let n = bytes.byteCount
    guard n >= 2, let sw1 = bytes.byte(at: n &- 2), let sw2 = bytes.byte(at: n &- 1) else {
      throw APDUError(.truncatedStatusWord, offset: baseOffset)
    }
    self.bytes = bytes
    self.baseOffset = baseOffset
    self.data = bytes.extracting(0..<(n &- 2))
    self.statusWord = StatusWord(sw1: sw1, sw2: sw2)
  }

  /// Validates the bytes of a `Span<UInt8>`.
  @_lifetime(copy bytes)
  public init(validating bytes: Span<UInt8>, baseOffset: Int = 0) throws(APDUError) {
    try self.init(validating: bytes.bytes, baseOffset: baseOffset)
  }

  /// Absolute offset of SW1.
  public var statusWordOffset: Int { baseOffset &+ data.byteCount }
}
