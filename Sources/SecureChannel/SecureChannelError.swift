// SPDX-License-Identifier: Apache-2.0
import ISO7816

/// A failure of GlobalPlatform secure-channel processing: what rule was broken, where, and
/// the status word the card answered when one is concerned.
///
/// Parsing errors carry the absolute byte offset of the first offending byte in the
/// response data (a length that is not one the protocol allows is reported at the first byte
/// past the data, or at offset 0 when too long). Encoding and state errors carry offset 0.
public struct SecureChannelError: Error, Sendable, Hashable {
  /// The rule that was broken.
  public let code: Code
  /// Absolute byte offset of the first offending byte in the response data, or 0.
  public let offset: Int
  /// The status word the card answered, for ``Code/keySetBlocked``,
  /// ``Code/initializeUpdateFailed`` and ``Code/externalAuthenticateFailed``.
  public let statusWord: StatusWord?

  /// Creates an error with a code, the offset it applies to and optionally a status word.
  public init(_ code: Code, offset: Int = 0, statusWord: StatusWord? = nil) {
    self.code = code
    self.offset = offset
    self.statusWord = statusWord
  }

  /// An error code: a struct over a private enum so codes can be added without breaking
  /// clients that switch over the statics with a default case.
  public struct Code: Sendable, Hashable, CustomStringConvertible {
    fileprivate enum Value: UInt8, Sendable, Hashable {
      case invalidKeyLength, invalidChallengeLength, invalidSecurityLevel, securityLevelNotSupported
      case invalidResponseLength, unsupportedProtocol, protocolMismatch, keyVersionMismatch
      case unsupportedParameter, keySetBlocked, initializeUpdateFailed, cardCryptogramMismatch
      case externalAuthenticateFailed, wrongState, channelClosed, wrappedCommandTooLong
      case missingResponseMAC, responseMACMismatch, invalidResponseCiphertextLength
      case invalidResponsePadding, unauthenticatedResponseData, cryptoFailure
      case invalidKeyDiversificationData, invalidCommand, invalidKeyVersion
    }
    fileprivate let value: Value
    fileprivate init(_ value: Value) { self.value = value }

    /// GPCS 2.3 §B.1, Amendment D §2: a key is not 16, 24 or 32 bytes (AES, SCP03) or not
    /// 16 or 24 bytes (3DES, SCP02), or the three keys of a set differ in length.
    public static let invalidKeyLength = Code(.invalidKeyLength)
    /// GPCS 2.3 §E.5.1, Amendment D §7.1.1: a host challenge that is not 8 bytes (16 in S16 mode).
    public static let invalidChallengeLength = Code(.invalidChallengeLength)
    /// Amendment D Table 7-3, GPCS 2.3 Table E-8: a security level other than 00, 01, 03, 11, 13
    /// or 33 (R-ENCRYPTION needs C-DECRYPTION and R-MAC, C-DECRYPTION and R-MAC need C-MAC).
    public static let invalidSecurityLevel = Code(.invalidSecurityLevel)
    /// The card's `i` parameter does not announce R-MAC or R-ENCRYPTION support
    /// (Amendment D §5.1), or the protocol has no response protection in this module (SCP02).
    public static let securityLevelNotSupported = Code(.securityLevelNotSupported)
    /// GPCS 2.3 §E.5.1.4, Amendment D §7.1.1.6: the INITIALIZE UPDATE response data is not
    /// 28 bytes (SCP02) or 29, 32, 45 or 48 bytes as the `i` parameter requires (SCP03).
    public static let invalidResponseLength = Code(.invalidResponseLength)
    /// The SCP identifier at offset 11 of the INITIALIZE UPDATE response is neither 02 nor 03.
    public static let unsupportedProtocol = Code(.unsupportedProtocol)
    /// The card answered with another secure channel protocol than the one asked for.
    public static let protocolMismatch = Code(.protocolMismatch)
    /// The card answered with another key version number than the one asked for.
    public static let keyVersionMismatch = Code(.keyVersionMismatch)
    /// The `i` parameter is one this module does not implement (SCP02: only 15 and 55;
    /// SCP03: reserved bits set, or S16 mode without 16-byte host challenges).
    public static let unsupportedParameter = Code(.unsupportedParameter)
    /// GPCS 2.3 §11.12.3 (6982/6983 to INITIALIZE UPDATE): the key set is blocked after too
    /// many failed authentications. Nothing else was sent; do not retry with other keys.
    public static let keySetBlocked = Code(.keySetBlocked)
    /// INITIALIZE UPDATE answered another status word than 9000 (``statusWord``).
    public static let initializeUpdateFailed = Code(.initializeUpdateFailed)
    /// GPCS 2.3 §E.4.2, Amendment D §6.2.2.2: the card cryptogram does not match the one
    /// computed from the keys: the keys (or their diversification) are wrong. EXTERNAL
    /// AUTHENTICATE was not sent, and must not be retried with other keys: cards count
    /// failed authentications and lock the key set.
    public static let cardCryptogramMismatch = Code(.cardCryptogramMismatch)
    /// EXTERNAL AUTHENTICATE answered another status word than 9000 (``statusWord``).
    public static let externalAuthenticateFailed = Code(.externalAuthenticateFailed)
    /// A handshake step was called out of order (a response before its command, twice).
    public static let wrongState = Code(.wrongState)
    /// The channel was closed by an earlier failure (a response MAC that did not verify);
    /// nothing more is wrapped. Open a new channel.
    public static let channelClosed = Code(.channelClosed)
    /// The wrapped command's data (padding and MAC included) exceeds 255 bytes; see
    /// ``SecureChannelSession/maximumPlainDataLength``.
    public static let wrappedCommandTooLong = Code(.wrappedCommandTooLong)
    /// Amendment D §6.2.5: R-MAC is on and a 9000/62XX/63XX response is shorter than its MAC.
    public static let missingResponseMAC = Code(.missingResponseMAC)
    /// Amendment D §6.2.5: the response MAC does not verify; the channel is closed.
    public static let responseMACMismatch = Code(.responseMACMismatch)
    /// Amendment D §6.2.7: R-ENCRYPTION is on and the encrypted data is not a whole number of blocks.
    public static let invalidResponseCiphertextLength = Code(.invalidResponseCiphertextLength)
    /// Amendment D §6.2.7: the decrypted response data does not end in `80 00…` padding.
    public static let invalidResponsePadding = Code(.invalidResponsePadding)
    /// Amendment D §6.2.5: R-MAC is on and a response with an error status word carries data,
    /// which no MAC covers.
    public static let unauthenticatedResponseData = Code(.unauthenticatedResponseData)
    /// The crypto provider failed (a cipher it does not offer, a failure of its library).
    public static let cryptoFailure = Code(.cryptoFailure)
    /// Key diversification needs the 10 bytes of key diversification data and the master key
    /// size the method works with (EMV/VISA2: 16-byte 3DES keys; KDF3: AES keys).
    public static let invalidKeyDiversificationData = Code(.invalidKeyDiversificationData)
    /// The bytes given to the wrapping transport are not one command APDU (ISO/IEC 7816-4 §5.1),
    /// or the class byte is not one secure messaging can be indicated in.
    public static let invalidCommand = Code(.invalidCommand)
    /// GPCS 2.3 §11.8.2.2: a key version number outside 01...7F for PUT KEY.
    public static let invalidKeyVersion = Code(.invalidKeyVersion)

    /// The code's name, e.g. `cardCryptogramMismatch`.
    public var name: String {
      switch value {
      case .invalidKeyLength: "invalidKeyLength"
      case .invalidChallengeLength: "invalidChallengeLength"
      case .invalidSecurityLevel: "invalidSecurityLevel"
      case .securityLevelNotSupported: "securityLevelNotSupported"
      case .invalidResponseLength: "invalidResponseLength"
      case .unsupportedProtocol: "unsupportedProtocol"
      case .protocolMismatch: "protocolMismatch"
      case .keyVersionMismatch: "keyVersionMismatch"
      case .unsupportedParameter: "unsupportedParameter"
      case .keySetBlocked: "keySetBlocked"
      case .initializeUpdateFailed: "initializeUpdateFailed"
      case .cardCryptogramMismatch: "cardCryptogramMismatch"
      case .externalAuthenticateFailed: "externalAuthenticateFailed"
      case .wrongState: "wrongState"
      case .channelClosed: "channelClosed"
      case .wrappedCommandTooLong: "wrappedCommandTooLong"
      case .missingResponseMAC: "missingResponseMAC"
      case .responseMACMismatch: "responseMACMismatch"
      case .invalidResponseCiphertextLength: "invalidResponseCiphertextLength"
      case .invalidResponsePadding: "invalidResponsePadding"
      case .unauthenticatedResponseData: "unauthenticatedResponseData"
      case .cryptoFailure: "cryptoFailure"
      case .invalidKeyDiversificationData: "invalidKeyDiversificationData"
      case .invalidCommand: "invalidCommand"
      case .invalidKeyVersion: "invalidKeyVersion"
      }
    }

    /// The code's name.
    public var description: String { name }
  }
}
