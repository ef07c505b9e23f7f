// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// An owned response APDU: data and status word (ISO/IEC 7816-4:2013 §5.1, §5.1.3).
public struct ResponseAPDU: Sendable, Hashable {
  /// The response data field.
  public var data: [UInt8]
  /// The status word.
  public var statusWord: StatusWord

  /// Creates a response.
  public init(data: [UInt8] = [], statusWord: StatusWord) {
    self.data = data
    self.statusWord = statusWord
  }

  /// Copies a view.
  public init(_ view: borrowing ResponseAPDUView) {
    self.init(data: view.data.copiedBytes(), statusWord: view.statusWord)
  }

  /// Parses one response APDU.
  ///
  /// - Throws: ``APDUError/Code/truncatedStatusWord`` for fewer than two bytes.
  public init(parsing bytes: [UInt8]) throws(APDUError) {
    let view = try ResponseAPDUView(validating: bytes.span.bytes)
    self.init(view)
  }

  /// The number of bytes ``encode(into:)`` writes: data plus two.
  public var encodedCount: Int { data.count &+ 2 }

  /// Writes data and SW1-SW2 into `output`.
  ///
  /// - Throws: ``APDUError/Code/bufferTooSmall`` when `output` lacks room (nothing written).
  public func encode(into output: inout OutputSpan<UInt8>) throws(APDUError) {
    guard output.freeCapacity >= encodedCount else {
      throw APDUError(.bufferTooSmall, offset: 0)
    }
    output.appendBytes(data)
    output.appendBigEndian(statusWord.rawValue)
  }

  /// The encoded response as a new array.
  public func encodedBytes() -> [UInt8] {
    var bytes = data
    bytes.append(statusWord.sw1)
    bytes.append(statusWord.sw2)
    return bytes
  }
}
