// SPDX-License-Identifier: Apache-2.0
/// The data status of an extended advertising report (Core Vol 4 Part E §7.7.65.13,
/// Event_Type bits 5-6).
public struct HCIDataStatus: RawRepresentable, Sendable, Hashable {
  /// The two-bit value.
  public let rawValue: UInt8
  /// Creates a data status from its two-bit value.
  public init(rawValue: UInt8) { self.rawValue = rawValue & 0b11 }

  /// 0b00: complete.
  public static let complete = HCIDataStatus(rawValue: 0)
  /// 0b01: incomplete, more data to come.
  public static let incompleteMoreToCome = HCIDataStatus(rawValue: 1)
  /// 0b10: incomplete, data truncated, no more to come.
  public static let truncated = HCIDataStatus(rawValue: 2)
  /// 0b11: reserved.
  public static let reserved = HCIDataStatus(rawValue: 3)

  /// `complete`, `incomplete`, `truncated` or `reserved`.
  public var name: String {
    switch rawValue {
    case 0: return "complete"
    case 1: return "incomplete"
    case 2: return "truncated"
    default: return "reserved"
    }
  }
}
