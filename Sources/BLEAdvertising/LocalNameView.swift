// SPDX-License-Identifier: Apache-2.0
import NFCWire

/// A local name's bytes (CSS Part A §1.2), a view.
public struct LocalNameView: ~Escapable {
  /// The name's UTF-8 octets as sent (not validated).
  public let utf8: RawSpan
  /// `true` for Complete Local Name, `false` for Shortened Local Name.
  public let isComplete: Bool

  @usableFromInline @_lifetime(copy utf8)
  init(utf8: RawSpan, isComplete: Bool) {
    self.utf8 = utf8
    self.isComplete = isComplete
  }

  /// The name as a string; invalid UTF-8 sequences become U+FFFD.
  public var string: String { String(decoding: utf8.copiedBytes(), as: UTF8.self) }
}
