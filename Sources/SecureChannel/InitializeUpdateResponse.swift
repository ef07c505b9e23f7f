// SPDX-License-Identifier: Apache-2.0
/// The data of a successful INITIALIZE UPDATE response, parsed by its SCP byte and exact
/// length (GPCS 2.3 §E.5.1.4 Table E-11 for SCP02, Amendment D §7.1.1.6 Table 7-2 for SCP03).
///
/// SCP02 (28 bytes): key diversification data (10) ‖ key version (1) ‖ `02` ‖ sequence
/// counter (2) ‖ card challenge (6) ‖ card cryptogram (8).
///
/// SCP03: key diversification data (10) ‖ key version (1) ‖ `03` ‖ `i` (1) ‖ card challenge
/// (8, or 16 in S16 mode) ‖ card cryptogram (8 or 16) ‖ sequence counter (3, when `i` has
/// b5 set) — 29, 32, 45 or 48 bytes.
public struct InitializeUpdateResponse: Sendable, Hashable {
  /// The key diversification data (the first 10 bytes).
  public let keyDiversificationData: [UInt8]
  /// The key version number of the key set the card used.
  public let keyVersion: UInt8
  /// The secure channel protocol.
  public let secureChannelProtocol: SecureChannelProtocol
  /// SCP03's `i` parameter (Amendment D §5.1); for SCP02 `nil` (its `i` is not sent).
  public let parameter: UInt8?
  /// The sequence counter: 2 bytes (SCP02), 3 bytes (SCP03 with pseudo-random challenges),
  /// or empty.
  public let sequenceCounter: [UInt8]
  /// The card challenge: 6 bytes (SCP02), 8 or 16 (SCP03).
  public let cardChallenge: [UInt8]
  /// The card cryptogram: 8 bytes (16 in SCP03 S16 mode).
  public let cardCryptogram: [UInt8]

  /// SCP03 `i` bit b1: S16 mode (16-byte challenges, cryptograms and MACs; Amendment D v1.2).
  public static let s16ModeBit: UInt8 = 0x01
  /// SCP03 `i` bit b5: pseudo-random card challenge, with the sequence counter returned.
  public static let pseudoRandomChallengeBit: UInt8 = 0x10
  /// SCP03 `i` bit b6: R-MAC supported.
  public static let rMACSupportBit: UInt8 = 0x20
  /// SCP03 `i` bit b7: R-ENCRYPTION supported.
  public static let rEncryptionSupportBit: UInt8 = 0x40

  /// Whether this is SCP03 in S16 mode.
  public var isS16Mode: Bool { (parameter ?? 0) & Self.s16ModeBit != 0 }

  /// Parses the response data (without the status word).
  ///
  /// - Throws: ``SecureChannelError/Code/invalidResponseLength`` when the data is shorter
  ///   than 12 bytes (offset: its length) or not the exact length its SCP byte and `i` require
  ///   (offset: the first byte past the expected length, or the length when short);
  ///   ``SecureChannelError/Code/unsupportedProtocol`` for an SCP byte other than 02 and 03
  ///   (offset 11). SCP03 `i` bits other than b1 and b5 do not change the layout (RFU bits
  ///   are ignored, as receivers of RFU bits do).
  public init(parsing data: [UInt8]) throws(SecureChannelError) {
    guard data.count >= 12 else { throw SecureChannelError(.invalidResponseLength, offset: data.count) }
    keyDiversificationData = Array(data[0..<10])
    keyVersion = data[10]
    secureChannelProtocol = SecureChannelProtocol(rawValue: data[11])
    switch secureChannelProtocol {
    case .scp02:
      guard data.count == 28 else {
        throw SecureChannelError(.invalidResponseLength, offset: min(data.count, 28))
      }
      parameter = nil
      sequenceCounter = Array(data[12..<14])
      cardChallenge = Array(data[14..<20])
      cardCryptogram = Array(data[20..<28])
    case .scp03:
      guard data.count >= 13 else { throw SecureChannelError(.invalidResponseLength, offset: data.count) }
      let i = data[12]
      let size = i & Self.s16ModeBit != 0 ? 16 : 8
      let counterSize = i & Self.pseudoRandomChallengeBit != 0 ? 3 : 0
      let expected = 13 + 2 * size + counterSize
      guard data.count == expected else {
        throw SecureChannelError(.invalidResponseLength, offset: min(data.count, expected))
      }
      parameter = i
      cardChallenge = Array(data[13..<(13 + size)])
      cardCryptogram = Array(data[(13 + size)..<(13 + 2 * size)])
      sequenceCounter = Array(data[(13 + 2 * size)...])
    default:
      throw SecureChannelError(.unsupportedProtocol, offset: 11)
    }
  }

  /// The response data again, as parsed.
  public var encodedBytes: [UInt8] {
    var bytes = keyDiversificationData + [keyVersion, secureChannelProtocol.rawValue]
    if secureChannelProtocol == .scp02 {
      bytes += sequenceCounter + cardChallenge + cardCryptogram
    } else {
      bytes += [parameter ?? 0] + cardChallenge + cardCryptogram + sequenceCounter
    }
    return bytes
  }
}
