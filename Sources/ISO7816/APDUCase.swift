// SPDX-License-Identifier: Apache-2.0
/// The seven command APDU cases of ISO/IEC 7816-4:2013 §5.1 (Table 1): which of the Lc/data
/// and Le fields are present, and whether the length fields are short or extended.
public struct APDUCase: RawRepresentable, Sendable, Hashable {
  /// 1, 2S, 3S, 4S, 2E, 3E, 4E numbered 0...6 in that order.
  public let rawValue: UInt8
  /// Creates a case from its raw value.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Case 1: header only, no data, no response data expected.
  public static let case1 = APDUCase(rawValue: 0)
  /// Case 2S: short Le field only.
  public static let case2Short = APDUCase(rawValue: 1)
  /// Case 3S: short Lc field and data.
  public static let case3Short = APDUCase(rawValue: 2)
  /// Case 4S: short Lc field, data and short Le field.
  public static let case4Short = APDUCase(rawValue: 3)
  /// Case 2E: extended Le field only (0x00 and two bytes).
  public static let case2Extended = APDUCase(rawValue: 4)
  /// Case 3E: extended Lc field (0x00 and two bytes) and data.
  public static let case3Extended = APDUCase(rawValue: 5)
  /// Case 4E: extended Lc field, data and a two-byte Le field.
  public static let case4Extended = APDUCase(rawValue: 6)

  /// `1`, `2S`, `3S`, `4S`, `2E`, `3E` or `4E`, as the JSON contract's `case`.
  public var name: String {
    switch rawValue {
    case 0: return "1"
    case 1: return "2S"
    case 2: return "3S"
    case 3: return "4S"
    case 4: return "2E"
    case 5: return "3E"
    default: return "4E"
    }
  }

  /// Whether the case uses extended length fields.
  public var isExtended: Bool { rawValue >= 4 }
  /// Whether the command carries a data field (cases 3 and 4).
  public var hasData: Bool { self == .case3Short || self == .case4Short || rawValue >= 5 }
  /// Whether the command carries a Le field (cases 2 and 4).
  public var hasLe: Bool {
    self == .case2Short || self == .case4Short || self == .case2Extended
      || self == .case4Extended
  }
}

extension APDUCase: CustomStringConvertible {
  /// The case name, e.g. `4S`.
  public var description: String { name }
}
