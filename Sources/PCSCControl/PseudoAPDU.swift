// SPDX-License-Identifier: Apache-2.0

import ISO7816

/// PC/SC Part 3 (v2.02) §3.2.2.1.3 GET DATA for contactless readers: `FF CA P1 00 Le`,
/// answered by the reader itself, not by the card.
///
/// P1 00 asks for the UID (ISO/IEC 14443 UID, FeliCa IDm, ...); P1 01 for the historical
/// bytes of an ISO/IEC 14443-4 type A card's ATS (the "historical bytes" of the ATR the
/// reader built). Le 00 asks for all of them.
public enum GetDataPseudoAPDU {
  /// The class byte of PC/SC Part 3 pseudo-APDUs.
  public static let pseudoClass: UInt8 = 0xFF
  /// GET DATA's instruction byte.
  public static let instruction: UInt8 = 0xCA

  /// What GET DATA asks for (P1).
  public struct Item: RawRepresentable, Sendable, Hashable {
    /// P1.
    public let rawValue: UInt8
    /// Creates an item from P1.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// P1 00: the card's UID.
    public static let uid = Item(rawValue: 0x00)
    /// P1 01: the historical bytes of the ATS (ISO/IEC 14443-4 A).
    public static let historicalBytes = Item(rawValue: 0x01)
  }

  /// `FF CA P1 00 Le` (Le 0 = all bytes, encoded as 00).
  public static func command(_ item: Item, expectedLength: UInt8 = 0) -> [UInt8] {
    [pseudoClass, instruction, item.rawValue, 0x00, expectedLength]
  }

  /// The reader's answer, interpreted per Part 3 Table 3-5.
  public enum Answer: Sendable, Hashable {
    /// 9000: all the bytes.
    case complete([UInt8])
    /// 6282: fewer bytes than Le asked for (end of data reached); the bytes sent.
    case shorterThanRequested([UInt8])
    /// 6CXX: Le was wrong; XX is the number of bytes available.
    case wrongLength(available: UInt8)
    /// 6A81: the reader or card does not support this item.
    case notSupported
    /// Any other status word (with any data).
    case failed(StatusWord, [UInt8])

    /// The bytes, when the answer carries them (9000 or 6282).
    public var bytes: [UInt8]? {
      switch self {
      case .complete(let bytes), .shorterThanRequested(let bytes): bytes
      default: nil
      }
    }
  }

  /// Interprets a response APDU to GET DATA.
  ///
  /// - Throws: ``PCSCControlError/Code/truncatedResponse`` (offset: the input's end) for
  ///   fewer than 2 bytes.
  public static func answer(parsing response: [UInt8]) throws(PCSCControlError) -> Answer {
    guard response.count >= 2 else { throw PCSCControlError(.truncatedResponse, offset: response.count) }
    let data = Array(response.dropLast(2))
    let sw = StatusWord(sw1: response[response.count - 2], sw2: response[response.count - 1])
    switch sw.rawValue {
    case 0x90_00: return .complete(data)
    case 0x62_82: return .shorterThanRequested(data)
    case 0x6A_81: return .notSupported
    case _ where sw.sw1 == 0x6C: return .wrongLength(available: sw.sw2)
    default: return .failed(sw, data)
    }
  }
}
