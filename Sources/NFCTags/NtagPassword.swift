// SPDX-License-Identifier: Apache-2.0

/// The 32-bit password of NTAG21x and MIFARE Ultralight EV1 (PWD, NTAG213/215/216 data
/// sheet §8.8). Its description never shows the bytes, only that it is a password.
public struct NtagPassword: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
  /// The password's length.
  public static let length = 4
  /// The 4 bytes, in the order PWD_AUTH sends them and the PWD page holds them.
  public let bytes: [UInt8]

  /// Creates a password from 4 bytes; `nil` for another length.
  public init?(_ bytes: [UInt8]) {
    guard bytes.count == Self.length else { return nil }
    self.bytes = bytes
  }

  /// The factory default, FF FF FF FF (§8.5.7).
  public static let factoryDefault = NtagPassword([0xFF, 0xFF, 0xFF, 0xFF])!

  /// "NtagPassword(4 bytes, hidden)".
  public var description: String { "NtagPassword(4 bytes, hidden)" }
  /// The same as ``description``.
  public var debugDescription: String { description }
}

/// The 16-bit password acknowledge PACK a tag answers to a correct PWD_AUTH (§8.8).
public struct NtagPasswordAcknowledge: Sendable, Hashable {
  /// PACK's length.
  public static let length = 2
  /// The first byte.
  public let first: UInt8
  /// The second byte.
  public let second: UInt8

  /// Creates a PACK.
  public init(_ first: UInt8, _ second: UInt8) {
    self.first = first
    self.second = second
  }

  /// The 2 bytes.
  public var bytes: [UInt8] { [first, second] }
  /// The factory default, 00 00 (§8.5.7).
  public static let factoryDefault = NtagPasswordAcknowledge(0x00, 0x00)
}

#if !hasFeature(Embedded)
  extension NtagPassword: CustomReflectable {
    /// A mirror without children, so `dump` shows no bytes either (Embedded Swift has no
    /// reflection).
    public var customMirror: Mirror { Mirror(self, children: [:]) }
  }
#endif
