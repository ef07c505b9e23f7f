// SPDX-License-Identifier: Apache-2.0
/// An expected status word: a value and a mask, so `61XX` or `63CX` match a family
/// (the `-> SW` expectations of an applet-update script).
public struct StatusWordPattern: Sendable, Hashable {
  /// The bits to compare, already masked.
  public let value: UInt16
  /// Which bits are compared (1) or ignored (0).
  public let mask: UInt16

  /// A pattern comparing the bits of `mask`.
  public init(value: UInt16, mask: UInt16) {
    self.value = value & mask
    self.mask = mask
  }

  /// A pattern matching exactly `statusWord`.
  public init(_ statusWord: StatusWord) { self.init(value: statusWord.rawValue, mask: 0xFFFF) }

  /// Parses four characters, each a hex digit or `X`/`x` (any nibble): `9000`, `61XX`, `63CX`.
  public init?(text: Substring) {
    var value: UInt16 = 0
    var mask: UInt16 = 0
    var count = 0
    for character in text.utf8 {
      count += 1
      guard count <= 4 else { return nil }
      value <<= 4
      mask <<= 4
      switch character {
      case UInt8(ascii: "X"), UInt8(ascii: "x"): continue
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value |= UInt16(character - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value |= UInt16(character - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): value |= UInt16(character - UInt8(ascii: "A") + 10)
      default: return nil
      }
      mask |= 0xF
    }
    guard count == 4 else { return nil }
    self.init(value: value, mask: mask)
  }

  /// Whether `statusWord` matches.
  public func matches(_ statusWord: StatusWord) -> Bool { statusWord.rawValue & mask == value }

  /// 9000.
  public static let success = StatusWordPattern(.success)
  /// XXXX: any status word.
  public static let any = StatusWordPattern(value: 0, mask: 0)

  /// The status words ETSI TS 102 226 §5.1 does not treat as errors when it runs a remote
  /// command script: normal processing (90XX, 91XX, 92XX) and warnings (62XX, 63XX).
  public static let remoteAPDUNonError: [StatusWordPattern] = [
    StatusWordPattern(value: 0x90_00, mask: 0xFF00), StatusWordPattern(value: 0x91_00, mask: 0xFF00),
    StatusWordPattern(value: 0x92_00, mask: 0xFF00), StatusWordPattern(value: 0x62_00, mask: 0xFF00),
    StatusWordPattern(value: 0x63_00, mask: 0xFF00),
  ]

  /// The four-character text, or `nil` when the mask does not ignore whole nibbles.
  public var text: String? {
    let digits: [Character] = [
      "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F",
    ]
    var text = ""
    var shift: UInt16 = 12
    while true {
      let nibbleMask = (mask >> shift) & 0xF
      switch nibbleMask {
      case 0xF: text.append(digits[Int((value >> shift) & 0xF)])
      case 0: text.append("X")
      default: return nil
      }
      if shift == 0 { break }
      shift -= 4
    }
    return text
  }
}
