// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// An owned AD structure: an AD type and its data (Core Vol 3 Part C §11).
public struct ADStructure: Sendable, Hashable {
  /// The AD type.
  public var type: ADType
  /// The AD data, at most 254 octets to encode.
  public var data: [UInt8]

  /// Creates a structure.
  public init(type: ADType, data: [UInt8]) {
    self.type = type
    self.data = data
  }

  /// Copies a structure view.
  public init(_ view: borrowing ADStructureView) {
    self.type = view.type
    self.data = view.data.copiedBytes()
  }

  /// The structure holding `value`'s encoding.
  public init(_ value: ADValue) { self = value.structure }

  /// The largest AD data: the Length octet (≤ 255) counts the type octet too.
  public static let maximumDataCount = 254

  /// The typed value (Core Specification Supplement Part A §1).
  ///
  /// - Throws: as ``ADValue/init(_:)``, with offsets relative to this structure's Length
  ///   octet (0).
  public func value() throws(BLEAdvertisingError) -> ADValue {
    let view = ADStructureView(type: type, data: data.span.bytes, offset: 0)
    return try ADValue(view)
  }

  /// Octets on the wire: Length, AD type and data.
  public var encodedCount: Int { data.count &+ 2 }

  /// Writes Length, AD type and data.
  ///
  /// - Throws: ``BLEAdvertisingError/Code/structureTooLong`` (data over 254 octets) or
  ///   ``BLEAdvertisingError/Code/bufferTooSmall``, nothing written; the offset is where
  ///   the structure would have started in `output`.
  public func encode(into output: inout OutputSpan<UInt8>) throws(BLEAdvertisingError) {
    guard data.count <= Self.maximumDataCount else {
      throw BLEAdvertisingError(.structureTooLong, offset: output.count)
    }
    guard output.freeCapacity >= encodedCount else {
      throw BLEAdvertisingError(.bufferTooSmall, offset: output.count)
    }
    output.appendByte(UInt8(truncatingIfNeeded: data.count &+ 1))
    output.appendByte(type.rawValue)
    output.appendBytes(data)
  }
}
