// SPDX-License-Identifier: Apache-2.0
/// One TLV block found in a tag's data area, with absolute offsets into the image
/// (T2T 1.0 §2.3: a 1-byte length 0x00...0xFE, or 0xFF and a 2-byte big-endian length).
public struct TagTLV: Sendable, Hashable {
  /// The T field.
  public let type: TagTLVType
  /// Absolute offset of the T byte in the image.
  public let offset: Int
  /// The value length (0 for NULL and Terminator).
  public let length: Int
  /// Absolute offset of the first value byte (the byte after the length field, skipping
  /// reserved areas).
  public let valueOffset: Int
  /// Size of the length field: 0 (NULL, Terminator), 1, or 3 (0xFF and two bytes).
  public let lengthFieldSize: Int

  /// Creates a TLV record.
  public init(type: TagTLVType, offset: Int, length: Int, valueOffset: Int, lengthFieldSize: Int) {
    self.type = type
    self.offset = offset
    self.length = length
    self.valueOffset = valueOffset
    self.lengthFieldSize = lengthFieldSize
  }

  /// The size of the length field needed for a value of `length` bytes: 1 up to 254, else 3.
  public static func lengthFieldSize(forValueLength length: Int) -> Int { length < 0xFF ? 1 : 3 }
}
