// SPDX-License-Identifier: Apache-2.0
/// Which of a sector's two keys authenticates: key A or key B, as the AUTHENTICATION command
/// codes name them (MF1S50 §10.1: 0x60 key A, 0x61 key B).
public struct MifareClassicKeySlot: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The authentication command code (0x60 or 0x61).
  public let rawValue: UInt8
  /// Wraps a command code; `nil` for anything but 0x60 and 0x61.
  public init?(rawValue: UInt8) {
    guard rawValue == 0x60 || rawValue == 0x61 else { return nil }
    self.rawValue = rawValue
  }
  private init(code: UInt8) { self.rawValue = code }

  /// Key A (command 0x60).
  public static let a = MifareClassicKeySlot(code: 0x60)
  /// Key B (command 0x61).
  public static let b = MifareClassicKeySlot(code: 0x61)

  /// `A` or `B`.
  public var name: String { rawValue == 0x60 ? "A" : "B" }
  /// `key A` or `key B`.
  public var description: String { "key " + name }
}
