// SPDX-License-Identifier: Apache-2.0
/// The first octet of an NDEF record: MB, ME, CF, SR, IL and TNF (NFC Forum NDEF 1.0, §3.2).
public struct NDEFRecordHeader: RawRepresentable, Sendable, Hashable, BitwiseCopyable {
  /// The header octet as it stands on the wire.
  public var rawValue: UInt8

  /// Wraps a header octet.
  @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Bit 7, Message Begin: the first record of a message (§3.2.1).
  @inlinable public static var messageBeginBit: UInt8 { 0b1000_0000 }
  /// Bit 6, Message End: the last record of a message (§3.2.2).
  @inlinable public static var messageEndBit: UInt8 { 0b0100_0000 }
  /// Bit 5, Chunk Flag: a first or middle record chunk (§3.2.3).
  @inlinable public static var chunkFlagBit: UInt8 { 0b0010_0000 }
  /// Bit 4, Short Record: PAYLOAD_LENGTH is one octet (§3.2.4).
  @inlinable public static var shortRecordBit: UInt8 { 0b0001_0000 }
  /// Bit 3, ID Length present (§3.2.5).
  @inlinable public static var idLengthPresentBit: UInt8 { 0b0000_1000 }
  /// Bits 2...0, the Type Name Format (§3.2.6).
  @inlinable public static var typeNameFormatMask: UInt8 { 0b0000_0111 }

  /// Builds a header from its flags.
  public init(
    messageBegin: Bool, messageEnd: Bool, chunked: Bool, shortRecord: Bool,
    idLengthPresent: Bool, typeNameFormat: TypeNameFormat
  ) {
    var value = typeNameFormat.rawValue
    if messageBegin { value |= Self.messageBeginBit }
    if messageEnd { value |= Self.messageEndBit }
    if chunked { value |= Self.chunkFlagBit }
    if shortRecord { value |= Self.shortRecordBit }
    if idLengthPresent { value |= Self.idLengthPresentBit }
    self.rawValue = value
  }

  /// MB: set on the first record of a message.
  @inlinable public var messageBegin: Bool { rawValue & Self.messageBeginBit != 0 }
  /// ME: set on the last record of a message.
  @inlinable public var messageEnd: Bool { rawValue & Self.messageEndBit != 0 }
  /// CF: set on every chunk of a chunked payload but the terminating one.
  @inlinable public var chunked: Bool { rawValue & Self.chunkFlagBit != 0 }
  /// SR: the payload length is one octet instead of four.
  @inlinable public var shortRecord: Bool { rawValue & Self.shortRecordBit != 0 }
  /// IL: an ID_LENGTH octet (and an ID field) is present.
  @inlinable public var idLengthPresent: Bool { rawValue & Self.idLengthPresentBit != 0 }
  /// The TNF bits as read, including 0x07 (Reserved).
  @inlinable public var typeNameFormat: TypeNameFormat {
    // Three bits always fit a TypeNameFormat.
    TypeNameFormat(rawValue: rawValue & Self.typeNameFormatMask) ?? .reserved
  }
}
