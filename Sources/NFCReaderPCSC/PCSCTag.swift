// SPDX-License-Identifier: Apache-2.0
import NFCReader

/// A tag (a contactless card) found by a ``PCSCClaimedReader``: its UID (PC/SC Part 3 GET
/// DATA) when the reader gives one, its ATR, and the card connection a session's operation
/// reads it through.
///
/// Two tags are equal when their UID and ATR are; the connection is not compared. After
/// the session ends, the connection is closed and its calls fail.
public struct PCSCTag: DetectedTag, Hashable {
  /// The UID, or the ATR when the reader answers no UID.
  public var identifier: [UInt8]
  /// The UID from `FF CA 00 00 00`, nil when the reader does not support it.
  public var uid: [UInt8]?
  /// The card's ATR (the one pcscd built for a contactless card).
  public var atr: [UInt8]
  /// The card, connected shared (T=0 or T=1), while the session holds it; nil for a tag
  /// made by hand.
  public var card: PCSCCard?

  /// Creates a tag.
  public init(uid: [UInt8]?, atr: [UInt8], card: PCSCCard? = nil) {
    self.uid = uid
    self.atr = atr
    self.identifier = uid ?? atr
    self.card = card
  }

  /// Whether two tags have the same UID and ATR.
  public static func == (lhs: PCSCTag, rhs: PCSCTag) -> Bool {
    lhs.uid == rhs.uid && lhs.atr == rhs.atr
  }

  /// Hashes the UID and ATR.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(uid)
    hasher.combine(atr)
  }
}
